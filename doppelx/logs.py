"""Logging for the ``doppelx`` command: one logger per module, one handler on stderr.

Library modules log through ``logging.getLogger(__name__)`` and never configure
logging themselves. The CLI calls :func:`configure` once: warnings only by default,
``--verbose`` shows what the program is doing (INFO), ``-vv`` everything (DEBUG).
Log lines go to stderr, so ``--json`` output on stdout stays valid.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

#: The packages of this distribution; their loggers are the ones ``--verbose`` opens.
PACKAGES = ("doppelx", "physics", "render", "rules")

_FORMAT = "doppelx: %(levelname)s %(name)s: %(message)s"


def level_for(verbosity: int) -> int:
    """The logging level for ``verbosity`` repetitions of ``-v`` (0 → WARNING)."""
    if verbosity <= 0:
        return logging.WARNING
    return logging.INFO if verbosity == 1 else logging.DEBUG


def configure(verbosity: int = 0, stream: TextIO | None = None) -> None:
    """Send this distribution's log records at ``verbosity`` to ``stream`` (stderr).

    Calling it again replaces the handler (tests call ``main`` many times in one process).
    """
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(logging.Formatter(_FORMAT))
    handler.set_name("doppelx-cli")
    level = level_for(verbosity)
    for name in PACKAGES:
        logger = logging.getLogger(name)
        for old in [h for h in logger.handlers if h.get_name() == "doppelx-cli"]:
            logger.removeHandler(old)
        logger.addHandler(handler)
        logger.setLevel(level)
        logger.propagate = False
