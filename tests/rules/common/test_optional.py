"""Optional dependencies: a missing extra is one clear error naming what to install."""

from __future__ import annotations

import pickle

import pytest

from rules.common.errors import DoppelXError
from rules.common.optional import MissingExtraError, import_optional


def test_an_installed_module_is_returned():
    assert import_optional("json", "test", "reading JSON").dumps([1]) == "[1]"


def test_a_missing_module_names_the_extra_to_install():
    with pytest.raises(MissingExtraError) as info:
        import_optional("no_such_pkg_doppelx.sub", "window", "the desktop window")
    err = info.value
    assert isinstance(err, DoppelXError)
    assert "the desktop window" in str(err)
    assert "pip install 'doppelx[window]'" in str(err)
    assert err.module == "no_such_pkg_doppelx"


def test_an_import_error_inside_an_installed_package_is_not_hidden(tmp_path, monkeypatch):
    (tmp_path / "brokenpkg_doppelx.py").write_text("import no_such_dependency_doppelx\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency_doppelx"):
        import_optional("brokenpkg_doppelx", "window", "x")


def test_the_error_crosses_process_boundaries_intact():
    err = MissingExtraError("ray", "cluster", "the Ray backend")
    back = pickle.loads(pickle.dumps(err))
    assert str(back) == str(err) and back.extra == "cluster"
