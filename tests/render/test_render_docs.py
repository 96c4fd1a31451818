"""docs/window.md lists the same controls as the in-window help."""

from pathlib import Path

from render.hud import HELP_LINES

DOC = Path(__file__).resolve().parents[2] / "docs" / "window.md"


def test_controls_table_matches_the_help_overlay():
    text = DOC.read_text(encoding="utf-8")
    for keys, what in HELP_LINES:
        assert f"| {keys} | {what} |" in text, keys
