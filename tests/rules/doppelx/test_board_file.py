"""Board files: the built-in sides load and match the rulebook's text; every mistake is named."""

from __future__ import annotations

import textwrap

import pytest
import shapely

from rules.common.errors import SpecError
from rules.doppelx.board import FieldKind
from rules.doppelx.board_file import BUILTIN_SIDES, load_board
from rules.doppelx.box import load_box

GOOD = """
format = "doppelx-board/1"
name = "T"
units = "mm"
line_width = 3.0

[outline]
polygon = [[-50, -50], [50, -50], [50, 50], [-50, 50]]

[[fields]]
id = "gold"
kind = "3x"
polygon = [[0, 0], [50, 0], [50, 50], [0, 50]]

[[fields]]
id = "rest"
kind = "1x"
fill = "rest"

[[holes]]
id = "h1"
circle = { center = [-25, -25], radius = 12 }
"""


def write(tmp_path, text, name="board.toml"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


@pytest.mark.parametrize("name", BUILTIN_SIDES)
def test_builtin_sides_tile_their_outline(name):
    board = load_board(name)
    union = shapely.union_all([f.shape for f in board.fields])
    assert union.symmetric_difference(board.outline).area < 1e-9
    total = sum(f.shape.area for f in board.fields)
    assert total == pytest.approx(board.outline.area, rel=1e-9)  # no overlaps
    load_box().check_board(board)


def test_side_i_is_faithful_to_the_rulebook(side_i):
    kinds = [f.kind for f in side_i.fields]
    areas = {k: sum(f.shape.area for f in side_i.fields if f.kind is k) for k in FieldKind}
    assert areas[FieldKind.ONE] > 0.5 * side_i.outline.area  # "mostly blue"
    for k in FieldKind:
        assert k in kinds
    assert side_i.holes and side_i.spinner is None
    gold = [f for f in side_i.fields if f.kind is FieldKind.THREE]
    # a 3x field right next to a hole: closer than a die's width
    assert min(g.shape.distance(h.shape) for g in gold for h in side_i.holes) < 0.016


def test_spinner_only_on_sides_iii_and_iv():
    assert load_board("I").spinner is None and load_board("II").spinner is None
    for name in ("III", "IV"):
        s = load_board(name).spinner
        assert s is not None and abs(s.center[0]) < 1e-9 and abs(s.center[1]) < 1e-9


def test_holes_let_a_flat_die_through(dice):
    die = dice["white"]
    widest = (die.size - 2 * die.edge_radius) * 2**0.5 + 2 * die.edge_radius  # rounded square's diagonal
    for name in BUILTIN_SIDES:
        for h in load_board(name).holes:
            inner = shapely.maximum_inscribed_circle(h.shape)
            assert 2 * inner.length > widest, (name, h.id)


def test_custom_board_loads_by_path(tmp_path):
    board = load_board(write(tmp_path, GOOD))
    assert board.name == "T"
    assert board.field("rest").kind is FieldKind.ONE
    assert board.line_width == pytest.approx(0.003)
    assert board.holes[0].circle == pytest.approx((-0.025, -0.025, 0.012))


@pytest.mark.parametrize(
    "change, element, words",
    [
        (lambda s: s.replace('kind = "3x"', 'kind = "4x"'), "fields[0].kind", "unknown value '4x'"),
        (lambda s: s.replace('id = "gold"\n', ""), "fields[0].id", "missing"),
        (
            lambda s: s.replace("[0, 0], [50, 0]", "[-10, 0], [50, 0]").replace(
                'fill = "rest"', "polygon = [[-50, -50], [50, -50], [50, 0], [-50, 0]]"
            ),
            "fields",
            "gap",
        ),
        (
            lambda s: s.replace('fill = "rest"', "polygon = [[-50, -50], [50, -50], [50, 10], [-50, 10]]"),
            "fields[0].polygon",
            "overlaps field 'rest'",
        ),
        (lambda s: s.replace("center = [-25, -25]", "center = [-45, -25]"), "holes[0].circle", "not inside"),
        (lambda s: s.replace("line_width = 3.0", 'line_width = "thin"'), "line_width", "expected a number"),
        (
            lambda s: s.replace('format = "doppelx-board/1"', 'format = "doppelx-board/9"'),
            "format",
            "unsupported",
        ),
        (lambda s: s.replace('units = "mm"', 'units = "mm"\ncolour = "red"'), "colour", "unknown key"),
        (
            lambda s: s.replace(
                "[[-50, -50], [50, -50], [50, 50], [-50, 50]]", "[[-50, -50], [50, 50], [50, -50], [-50, 50]]"
            ),
            "outline.polygon",
            "not a simple polygon",
        ),
        (
            lambda s: s + '\n[[holes]]\nid = "h1"\ncircle = { center = [25, 25], radius = 5 }\n',
            "holes[1].id",
            "duplicate",
        ),
    ],
)
def test_mistakes_name_file_and_element(tmp_path, change, element, words):
    path = write(tmp_path, change(GOOD))
    with pytest.raises(SpecError) as err:
        load_board(path)
    assert err.value.source == str(path)
    assert err.value.element == element
    assert words in str(err.value)


def test_bad_toml_and_missing_file(tmp_path):
    path = write(tmp_path, "format = \n")
    with pytest.raises(SpecError, match="bad TOML"):
        load_board(path)
    with pytest.raises(SpecError, match="no such file|not found"):
        load_board(tmp_path / "nope.toml")
    with pytest.raises(SpecError, match="not a built-in side"):
        load_board("V")


def test_defaults_taken_from_the_file_name_are_not_checked_as_if_written(tmp_path):
    """Session 8's review: a 78-character name gave the default title 'Side <name>' (85
    characters), refused under a key the file did not have."""
    from pathlib import Path

    import rules

    side_i = (Path(rules.__file__).parents[1] / "assets" / "boards" / "side_I.toml").read_text()
    text = side_i.replace('name = "I"', f'name = "{"n" * 78}"').replace('title = "Side I (first game)"\n', "")
    (tmp_path / "long.toml").write_text(text)
    board = load_board(tmp_path / "long.toml")
    assert board.name == "n" * 78 and board.title == f"Side {'n' * 78}"
    stem = tmp_path / ("s" * 85 + ".toml")
    stem.write_text(side_i.replace('name = "I"\n', ""))
    assert load_board(stem).name == "s" * 85
