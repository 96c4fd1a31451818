"""The import graph of the project's packages has no circles and points one way.

Every ``import`` counts: the lazy ones inside functions and those under ``if TYPE_CHECKING:``
too. A circle closed by a lazy import or by a type the checker needs is still two modules
that cannot be understood one without the other.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "physics", "render", "doppelx", "assets")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(p): p
        for pkg in PACKAGES
        for p in (ROOT / pkg).rglob("*.py")
        if "__pycache__" not in p.parts
    }


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The longest known module that ``name`` starts with (``a.b.c`` → ``a.b`` if ``c`` is a name)."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph() -> dict[str, set[str]]:
    known = _modules()
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base]) if base else ".".join(up)
                targets = [f"{base}.{a.name}" for a in node.names] + [base]
            for target in targets:
                hit = _resolve(target, known)
                if hit is not None and hit != name and not name.startswith(hit + "."):
                    graph[name].add(hit)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_checker_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles():
    assert cycles(import_graph()) == []


def test_library_modules_import_no_command_module():
    graph = import_graph()
    commands = ("doppelx.commands", "doppelx.cli")
    offenders = {
        (src, dst)
        for src, dsts in graph.items()
        for dst in dsts
        if dst.startswith(commands)
        and not src.startswith(commands)
        and not src.endswith(".command")
        and src not in ("doppelx.__main__",)
    }
    assert offenders == set()


def test_lower_layers_never_import_upper_ones():
    order = {"assets": 0, "rules": 0, "physics": 1, "render": 2, "doppelx": 3}
    wrong = {
        (src, dst)
        for src, dsts in import_graph().items()
        for dst in dsts
        if order[dst.split(".")[0]] > order[src.split(".")[0]]
    }
    assert wrong == set()


def test_no_test_imports_another_test_module_or_a_conftest():
    """Shared helpers live in tests/helpers (or a support module); pytest's conftest modules
    hold fixtures, which pytest hands to the tests, and are never imported by name."""
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                last = name.rpartition(".")[2]
                if name.startswith("tests.") and (last.startswith("test_") or last == "conftest"):
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert offenders == []
