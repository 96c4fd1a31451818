"""Headless batch runs for balance analysis: plans split into chunks, run on a process pool
or a Ray cluster, stored as Parquet chunk files (resumable), merged, and reported.
"""
