"""Helpers the tests share (plain functions and fakes; fixtures live in the conftest modules).

A test imports helpers from here, never from another test module or a conftest.
"""
