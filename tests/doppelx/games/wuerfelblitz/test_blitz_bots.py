"""Würfelblitz bots: the reaction-time and error model of each skill level."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doppelx.games.wuerfelblitz.bots import SKILLS, BlitzBot, BlitzSkill, skill
from rules.common.rng import make_rng
from rules.wuerfelblitz import BlitzThrow, breakdown, correct_sum, load_spec, sample_throw

SPEC = load_spec()
THROW = BlitzThrow.of(
    {"orange": 3, "blue": 4, "black": 6, "yellow": "green", "green": 2, "red": 1}, ["black", "green"]
)


def test_median_time_follows_the_documented_formula():
    bot = BlitzBot(SKILLS["medium"])
    s = SKILLS["medium"]
    # five dice show pips, three of them are added
    assert bot.median_time(THROW, False) == pytest.approx(s.base_s + s.per_die_s * (5 + 3))
    assert bot.median_time(THROW, True) == pytest.approx(s.base_s + s.per_die_s * (5 + 2) + s.variant_s)


def test_skill_levels_are_ordered():
    easy, medium, hard = (SKILLS[n] for n in ("easy", "medium", "hard"))
    for field in ("base_s", "per_die_s", "variant_s", "error_rate"):
        assert getattr(easy, field) > getattr(medium, field) > getattr(hard, field)


def test_unknown_skill_and_bad_parameters():
    with pytest.raises(ValueError, match="easy, medium, hard"):
        skill("expert")
    with pytest.raises(ValueError, match="error_rate"):
        BlitzSkill("x", 1, 1, 1, 0.1, error_rate=1.5)
    with pytest.raises(ValueError, match=">= 0"):
        BlitzSkill("x", -1, 1, 1, 0.1, error_rate=0.1)


def test_an_error_free_bot_is_always_right():
    bot = BlitzBot(BlitzSkill("perfect", 1.0, 0.2, 0.3, 0.3, error_rate=0.0))
    rng = make_rng(3)
    for _ in range(300):
        t = sample_throw(SPEC, 3, rng)
        assert bot.call(1, t, True, rng).value == correct_sum(t, True)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.sampled_from([2, 3]))
def test_wrong_calls_are_plausible_slips(seed, variant, white):
    """A wrong call differs from the sum by the pips of one die showing pips, and is a legal number."""
    rng = make_rng(seed)
    t = sample_throw(SPEC, white, rng)
    bot = BlitzBot(BlitzSkill("sloppy", 1.0, 0.2, 0.3, 0.3, error_rate=1.0))
    call = bot.call(2, t, variant, rng)
    right = correct_sum(t, variant)
    assert call.player == 2
    assert call.value != right
    assert 0 <= call.value <= SPEC.max_call
    pips = {f for _, f in t.coloured if isinstance(f, int)}
    assert abs(call.value - right) in pips or (not pips and call.value == right + 1)
    assert call.time >= bot.skill.min_s and math.isfinite(call.time)


def test_error_rate_and_median_time_are_what_the_model_says():
    rng = make_rng(8)
    bot = BlitzBot(SKILLS["easy"], "e")
    n = 4000
    wrong, log_ratio = 0, []
    for _ in range(n):
        c = bot.call(1, THROW, False, rng)
        wrong += c.value != breakdown(THROW).total
        log_ratio.append(math.log(c.time / bot.median_time(THROW, False)))
    p = SKILLS["easy"].error_rate
    assert abs(wrong / n - p) < 4.5 * math.sqrt(p * (1 - p) / n)
    # log-normal around the median: the median log ratio is ~0, its spread ~sigma
    assert abs(float(np.median(log_ratio))) < 0.05
    assert float(np.std(log_ratio)) == pytest.approx(SKILLS["easy"].sigma, rel=0.1)


def test_calls_are_reproducible_from_the_seed():
    bot = BlitzBot(SKILLS["hard"])
    a = [bot.call(0, THROW, False, make_rng(4)) for _ in range(3)]
    assert a[0] == a[1] == a[2]
