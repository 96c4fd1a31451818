"""Optional dependencies, imported on demand with a message that names the extra.

The window (pyglet), Parquet output (pyarrow) and the cluster backend (ray) are extras
of the distribution. A command that needs one imports it through :func:`import_optional`,
so a missing package is one clear line naming what to install, not a traceback.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from rules.common.errors import DoppelXError


class MissingExtraError(DoppelXError):
    """An optional package is not installed.

    Args:
        module: the top-level module that failed to import, e.g. ``"pyglet"``.
        extra: the distribution extra that installs it, e.g. ``"window"``.
        purpose: what it is needed for, e.g. ``"the desktop window"``.
    """

    def __init__(self, module: str, extra: str, purpose: str):
        self.module, self.extra, self.purpose = module, extra, purpose
        super().__init__(
            f"{purpose} needs the optional package '{module}', which is not installed; "
            f"install the '{extra}' extra: pip install 'doppelx[{extra}]'"
        )

    def __reduce__(self):  # picklable across process boundaries with its arguments
        return (type(self), (self.module, self.extra, self.purpose))


def import_optional(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtraError` naming ``extra``.

    Only a missing ``module`` itself is turned into the message; an import error raised
    inside an installed package (a broken install) propagates unchanged.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = module.split(".")[0]
        if exc.name is not None and exc.name.split(".")[0] == top:
            raise MissingExtraError(top, extra, purpose) from None
        raise
