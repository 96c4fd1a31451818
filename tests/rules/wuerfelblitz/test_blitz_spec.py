"""The shipped Würfelblitz dice file and the checks of the spec loader."""

import copy

import pytest

from rules.common.assets import read_toml
from rules.common.errors import SpecError
from rules.wuerfelblitz import load_spec, parse_spec
from rules.wuerfelblitz.spec import default_spec_path

COLOURS = ("orange", "blue", "black", "yellow", "green", "red")


def test_shipped_spec_matches_the_documented_default():
    spec = load_spec()
    assert spec.colours == COLOURS
    for k, die in enumerate(spec.coloured):
        # die k (1-based k+1) replaces the value k+1 by a dot of the next die's colour
        assert die.colour == COLOURS[k]
        assert die.faces[k] == COLOURS[(k + 1) % 6]
        assert die.dot == COLOURS[(k + 1) % 6] != die.colour
        assert sorted(die.pips) == [v for v in range(1, 7) if v != k + 1]
    assert sorted(d.dot for d in spec.coloured) == sorted(COLOURS)
    assert sorted(spec.white_faces) == sorted(COLOURS)
    assert (spec.white_in_box, spec.white_dice, spec.variant) == (3, 2, False)
    assert (spec.white_per_black, spec.black_to_win) == (3, 3)
    assert (spec.white_discs_in_box, spec.black_discs_in_box) == (14, 14)
    assert spec.tie_window_s == pytest.approx(0.1)
    # highest numbers 6,6,6,6,6,5 (red has its dot on the 6)
    assert spec.max_call == 35


def test_load_spec_from_a_path_equals_the_default():
    assert load_spec(default_spec_path()) == load_spec()


def _data():
    return copy.deepcopy(read_toml(default_spec_path()))


@pytest.mark.parametrize(
    "edit, element",
    [
        (lambda d: d.update(format="other/1"), "format"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d.pop("discs"), "discs"),
        (lambda d: d.update(colours=["red", "red"]), "colours"),
        (lambda d: d["coloured"][0].update(colour="purple"), "coloured[0].colour"),
        (lambda d: d["coloured"][1].update(faces=[1, 2, 3, 4, 5]), "coloured[1].faces"),
        (lambda d: d["coloured"][2].update(faces=[1, 2, 3, 4, 5, 6]), "coloured[2].faces"),
        (lambda d: d["coloured"][2].update(faces=[1, 2, "red", "blue", 5, 6]), "coloured[2].faces"),
        (lambda d: d["coloured"][3].update(faces=[1, 2, 3, "purple", 5, 6]), "coloured[3].faces"),
        (lambda d: d["coloured"][4].update(faces=[1, 2, 3, 7, "red", 6]), "coloured[4].faces[3]"),
        (lambda d: d["coloured"][5].update(faces=[1, 1, 3, 4, 5, "orange"]), "coloured[5].faces"),
        (lambda d: d["coloured"].reverse(), "coloured"),
        (lambda d: d["white"].update(faces=["red"] * 6), "white.faces"),
        (lambda d: d["rules"].update(white_dice=4), "rules.white_dice"),
        (lambda d: d["rules"].update(variant="yes"), "rules.variant"),
        (lambda d: d["discs"].update(white_per_black=0), "discs.white_per_black"),
        (lambda d: d["calls"].update(tie_window_s=-1), "calls.tie_window_s"),
    ],
)
def test_malformed_spec_names_the_element(edit, element):
    data = _data()
    edit(data)
    with pytest.raises(SpecError) as info:
        parse_spec(data, "test.toml")
    assert info.value.source == "test.toml"
    assert info.value.element == element


def test_missing_file_is_a_spec_error(tmp_path):
    with pytest.raises(SpecError, match="file not found"):
        load_spec(tmp_path / "nope.toml")
