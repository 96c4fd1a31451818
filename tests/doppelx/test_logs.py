"""Logging: quiet by default, ``--verbose`` opens the package loggers on stderr."""

from __future__ import annotations

import io
import logging

from doppelx import logs
from doppelx.cli import build_parser


def test_levels_by_verbosity():
    assert logs.level_for(0) == logging.WARNING
    assert logs.level_for(1) == logging.INFO
    assert logs.level_for(2) == logging.DEBUG


def test_configure_routes_package_loggers_to_the_stream_once():
    out = io.StringIO()
    logs.configure(1, out)
    logs.configure(1, out)  # a second call replaces the handler, never doubles lines
    logging.getLogger("physics.world").info("built %d bodies", 3)
    logging.getLogger("doppelx.batch").debug("hidden at INFO")
    assert out.getvalue() == "doppelx: INFO physics.world: built 3 bodies\n"
    logs.configure(0)


def test_the_cli_takes_verbose_before_the_command():
    args = build_parser().parse_args(["-vv", "boards", "list"])
    assert args.verbose == 2
    assert build_parser().parse_args(["boards", "list"]).verbose == 0


def test_the_cli_takes_verbose_after_the_command_too():
    parse = build_parser().parse_args
    assert parse(["throw", "--seed", "1", "-v"]).verbose == 1
    assert parse(["simulate", "throws", "--throws", "5", "--out", "x", "-vv"]).verbose == 2
    assert parse(["-v", "boards", "list"]).verbose == 1  # not given after the name: the one before stands
