"""Report statistics against known values."""

import math

import numpy as np
import pytest

from doppelx.batch.stats import mean, proportion


def test_wilson_interval_known_values():
    e = proportion(8, 10)  # textbook: Wilson 95 % for 8/10 is [0.490, 0.943]
    assert e.value == 0.8
    assert e.low == pytest.approx(0.4902, abs=1e-3) and e.high == pytest.approx(0.9433, abs=1e-3)
    e = proportion(0, 20)
    assert e.low == 0 and e.high == pytest.approx(0.1611, abs=1e-3)
    assert math.isnan(proportion(0, 0).value) and proportion(0, 0).fmt() == "–"


def test_mean_interval():
    e = mean([1, 2, 3, 4, 5])
    assert e.value == 3 and e.high - e.value == pytest.approx(
        2.7764 * math.sqrt(2.5) / math.sqrt(5), rel=1e-3
    )


@pytest.mark.parametrize(
    ("df", "table"),
    [
        (1, 12.7062),
        (2, 4.3027),
        (3, 3.1824),
        (4, 2.7764),
        (5, 2.5706),
        (10, 2.2281),
        (19, 2.0930),
        (30, 2.0423),
        (120, 1.9799),
    ],
)
def test_t95_matches_the_tables(df, table):
    """The batch audit of session 10: means of 16–20 games used 1.96 and came out 5–9 % narrow."""
    from doppelx.batch.stats import t95

    assert t95(df) == pytest.approx(table, rel=1.5e-3)
    assert t95(df) > 1.959963984540054


def test_one_value_has_no_interval_and_counts_read_well():
    from doppelx.batch.stats import counted

    assert mean([20.0]).fmt(digits=1) == "20.0 [n/a]"  # not "20.0 [nan, nan]"
    assert mean([3.0, float("nan")]).fmt() == "3.00 [n/a]"
    assert mean([0.0] * 200).fmt() == "0.00 [n/a]"  # all alike: no zero-width interval
    assert proportion(1, 1).fmt(percent=True, digits=1) == "100.0 % [20.7, 100.0]"
    assert (counted(1, "game"), counted(2, "game"), counted(1, "die", "dice"), counted(0, "die", "dice")) == (
        "1 game",
        "2 games",
        "1 die",
        "0 dice",
    )


def test_clustered_ratio_takes_the_clusters_as_the_sample():
    from doppelx.batch.stats import clustered_ratio

    parts = [(1, 2), (0, 2), (1, 2), (0, 2)]  # two seats a game, one of them won in half the games
    e = clustered_ratio(parts, (0.0, 1.0))
    assert e.value == 0.25 and e.n == 4
    # by hand: residuals ±0.5, variance 4/3 · 4 · 0.25 / 8² = 1/48
    # ... times Student's t with 3 degrees of freedom (four games)
    assert e.high - e.value == pytest.approx(3.1824 * (1 / 48) ** 0.5, rel=1.5e-3)
    assert e.low == 0.0  # clipped to the bounds
    assert clustered_ratio([(1, 4), (1, 4), (1, 4)]).fmt() == "0.25 [n/a]"  # no variation between games
    share = clustered_ratio([(0, 4)] * 6, (0.0, 1.0))  # a share without variation: Wilson over the games
    assert (share.low, share.high) == (proportion(0, 6).low, proportion(0, 6).high)


def test_skill_figures_know_a_skill_in_every_seat_and_cluster_shared_games():
    from doppelx.batch.report import skill_figures

    t = {
        "item": [0, 1, 2, 3],
        "seat_skills": [["hard", "medium", "medium"]] * 4,
        "winner_seat": [0, 1, 2, 0],
        "own_changes": [[[3, 5], [2], [4]]] * 4,
        "own_knocked": [[[0, 1], [0], [0]]] * 4,
    }
    f = skill_figures(t)
    assert f["hard"]["win_rate"].value == 0.5 and f["hard"]["win_rate"].n == 4  # one seat: Wilson
    assert f["hard"]["win_rate"].low == pytest.approx(0.15, abs=0.01)
    medium = f["medium"]["win_rate"]
    assert (f["medium"]["seats"], f["medium"]["wins"], medium.value) == (8, 2, 0.25)
    assert medium.n == 4 and not f["medium"]["every_seat"]  # clustered over the 4 games
    assert f["hard"]["chips"].value == 4.0 and f["hard"]["knocked"].value == 0.5
    t["seat_skills"] = [["medium"] * 3] * 4
    same = skill_figures(t)["medium"]
    assert same["every_seat"] and same["win_rate"].value == pytest.approx(1 / 3)
    assert same["win_rate"].fmt(percent=True, digits=1) == "33.3 % [n/a]"


def test_the_heatmap_density_does_not_fade_at_the_walls():
    """Dice resting evenly over the box give an even density up to the walls (the batch audit
    of session 10: zero padding halved the edge cells), and it integrates to 100 %."""
    from doppelx.batch.report import resting_density

    rng = np.random.default_rng(5)
    xs, ys = rng.uniform(-0.1, 0.1, 200_000), rng.uniform(-0.05, 0.05, 200_000)
    density, xe, ye = resting_density(xs, ys, (-0.1, -0.05, 0.1, 0.05))
    cell_cm2 = (xe[1] - xe[0]) * (ye[1] - ye[0]) / 100
    assert density.sum() * cell_cm2 == pytest.approx(100, rel=0.01)
    even = 100 / (20 * 10)  # % per cm² over 20 × 10 cm
    assert density[0, :].mean() == pytest.approx(even, rel=0.05)  # the wall row
    assert density[:, 0].mean() == pytest.approx(even, rel=0.05)
    assert density[5:-5, 5:-5].mean() == pytest.approx(even, rel=0.05)


def test_the_comparison_draws_figures_without_values_and_below_zero(tmp_path):
    """The diff review of session 10: a figure with no value in any variant (chips per own
    throw in games that end before anybody's own throw) crashed the plot with a traceback,
    and a figure below zero was drawn off its own axis."""
    import matplotlib.image

    from doppelx.batch.sweep import VariantMetric, _span_from_zero, write_comparison

    rows = [
        (
            {"policy": "greedy"},
            {
                "none": VariantMetric(np.full(4, np.nan), False),
                "neg": VariantMetric(np.array([-3.1, -2.9, -3.0, -3.2]), False),
            },
        ),
        (
            {"policy": "point:0,0"},
            {
                "none": VariantMetric(np.full(4, np.nan), False),
                "neg": VariantMetric(np.array([-2.9, -3.0, -2.8, -3.1]), False),
            },
        ),
    ]
    md, png = write_comparison(rows, tmp_path, "throws", 4)
    assert md.exists() and matplotlib.image.imread(png).shape[0] > 100
    lo, hi = _span_from_zero(np.array([-3.4, -3.2]), np.array([-2.8, -2.6]))
    assert lo < -3.4 and hi == 0.0  # both points inside, the axis reaching 0


def test_the_parameters_line_names_the_seats_skills_not_a_skill_they_do_not_have():
    """A run with --skills said "skill medium, skills expert,medium,…" (deliverables audit)."""
    from doppelx.batch.report import _described
    from rules.doppelx.board_file import load_board

    side = load_board("I")
    mixed = _described({"skill": "medium", "skills": ["expert", "medium", "medium"], "lying": 0}, side)
    assert "skills expert,medium,medium" in mixed and "skill medium" not in mixed
    assert "skill hard" in _described({"skill": "hard", "skills": None}, side)


def test_a_comparisons_differences_are_labelled_in_their_figures_unit(tmp_path, monkeypatch):
    """The analyst's audit (2 Dec 2026): under "chips per own throw" the difference panel read
    "difference, per game". A share's difference is in percentage points, any other figure's
    in its own unit."""
    from doppelx.batch import sweep

    drawn = []
    monkeypatch.setattr(sweep, "save_figure", lambda fig, path, **kw: drawn.append(fig))
    rows = [
        (
            {"spinner": on},
            {
                "chips_per_own_throw": sweep.VariantMetric(np.array(values), False, "chips per own throw"),
                "seat_0_win_rate": sweep.VariantMetric(np.array([1.0, 0.0, 0.0, 1.0]), True, "seat 0 wins"),
            },
        )
        for on, values in ((True, [4.0, 5.0, 3.0, 6.0]), (False, [4.5, 5.0, 3.5, 6.0]))
    ]
    sweep.write_comparison(rows, tmp_path, "games", 4, players=4)
    labels = {ax.get_title(): ax.get_ylabel() for ax in drawn[0].axes}
    below = [ax.get_ylabel() for ax in drawn[0].axes if ax.get_title() == "minus variant 0, item by item"]
    assert sorted(below) == ["difference, chips per own throw", "difference, percentage points"]
    assert labels["chips per own throw"] == "chips per own throw"
