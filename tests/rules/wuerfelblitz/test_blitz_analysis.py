"""Exact distribution of the correct sum: checked by Monte Carlo and by independent exact formulas."""

import itertools
from fractions import Fraction

import pytest

from rules.common.rng import child_rng
from rules.wuerfelblitz import load_spec
from rules.wuerfelblitz.analysis import analysis_report, exact_distribution, max_z_score, monte_carlo_counts

SPEC = load_spec()
CASES = [(2, False), (3, False), (2, True), (3, True)]


@pytest.fixture(scope="module")
def exact():
    return {case: exact_distribution(SPEC, *case) for case in CASES}


@pytest.mark.parametrize("case", CASES)
def test_exact_distribution_is_a_distribution(exact, case):
    dist = exact[case]
    assert dist.outcomes == 6 ** (6 + case[0])
    assert sum(dist.counts.values()) == dist.outcomes
    assert sum(dist.probabilities.values()) == 1
    assert min(dist.counts) >= 0 and max(dist.counts) <= SPEC.max_call


@pytest.mark.parametrize("i, case", list(enumerate(CASES)))
def test_exact_agrees_with_monte_carlo(exact, i, case):
    """20,000 throws scored by the engine's own correct_sum: every sum within 4.5 standard errors."""
    counts = monte_carlo_counts(SPEC, *case, 20_000, child_rng(2024, i))
    assert set(counts) <= set(exact[case].counts)
    assert max_z_score(exact[case], counts) < 4.5
    p0 = float(exact[case].probability(0))
    assert abs(counts[0] / 20_000 - p0) < 4.5 * (p0 * (1 - p0) / 20_000) ** 0.5


def test_monte_carlo_check_detects_a_wrong_distribution(exact):
    counts = monte_carlo_counts(SPEC, 3, True, 20_000, child_rng(2024, 9))
    assert max_z_score(exact[(3, False)], counts) > 10


def _p_zero_by_dice_states(white_dice: int) -> Fraction:
    """P(sum = 0) under the standard rule, summed over which coloured dice lie on their dot.

    The sum is 0 exactly when every die showing pips has its colour among the visible dots.
    A die is on its dot face with probability 1/6; the white dice are enumerated.
    """
    total = Fraction(0)
    sixth = Fraction(1, 6)
    dice = SPEC.coloured
    for on_dot in itertools.product([False, True], repeat=len(dice)):
        p_state = Fraction(1)
        for d in on_dot:
            p_state *= sixth if d else 1 - sixth
        dots = {die.dot for die, d in zip(dice, on_dot) if d}
        need = {die.colour for die, d in zip(dice, on_dot) if not d}
        hits = sum(
            1 for white in itertools.product(SPEC.white_faces, repeat=white_dice) if need <= dots | set(white)
        )
        total += p_state * Fraction(hits, 6**white_dice)
    return total


def _mean_by_linearity(white_dice: int) -> Fraction:
    """E[sum] under the standard rule: each die adds its pips if no other die or white die shows its colour."""
    mean = Fraction(0)
    for die in SPEC.coloured:
        p_hidden = Fraction(5, 6) ** white_dice
        for other in SPEC.coloured:
            if other is not die and other.dot == die.colour:
                p_hidden *= Fraction(5, 6)
        mean += Fraction(sum(die.pips), 6) * p_hidden
    return mean


@pytest.mark.parametrize("white", [2, 3])
def test_p_zero_and_mean_match_independent_exact_formulas(exact, white):
    dist = exact[(white, False)]
    assert dist.probability(0) == _p_zero_by_dice_states(white)
    assert dist.mean == _mean_by_linearity(white)


def test_figures_of_the_shipped_dice(exact):
    """P(sum = 0) with the documented default dice (also printed by `doppelx blitz --analyse`)."""
    assert exact[(2, False)].probability(0) == Fraction(4093, 139968)
    assert exact[(3, False)].probability(0) == Fraction(39433, 839808)
    assert exact[(2, True)].probability(0) == Fraction(1753, 139968)
    assert exact[(3, True)].probability(0) == Fraction(137, 13122)


def test_report_is_json_ready():
    report = analysis_report(SPEC, 500, 1)
    assert [(c["white_dice"], c["variant"]) for c in report["cases"]] == CASES
    for c in report["cases"]:
        num, den = map(int, c["p_zero"].split("/"))
        assert num / den == pytest.approx(c["p_zero_float"])
        assert sum(c["monte_carlo"]["counts"].values()) == 500
        assert sum(Fraction(p) for p in c["distribution"].values()) == 1
