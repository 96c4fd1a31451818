"""The clatter: a synthesised click, one per impact, quiet when toggled off, burst-limited."""

import io
import wave

import numpy as np

from render.audio import MAX_BURST, RATE, Clatter, click_samples, click_wav


def test_click_is_short_loud_and_decays():
    s = click_samples().astype(float)
    assert 0.02 < len(s) / RATE < 0.1
    assert np.abs(s).max() > 20000
    head, tail = np.abs(s[: len(s) // 4]).mean(), np.abs(s[-len(s) // 4 :]).mean()
    assert tail < head / 10
    with wave.open(io.BytesIO(click_wav())) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (RATE, 1, 2)


def test_clatter_plays_per_impact_within_the_burst_limit():
    now = [0.0]
    c = Clatter(enabled=True, clock=lambda: now[0])
    started = c.impacts([0.9, 0.5, 0.02])  # the crawl below MIN_SPEED is silent
    assert started == 2 or not c.available
    if c.available:
        assert c.impacts([1.0] * 20) == MAX_BURST - 2
        now[0] += 1.0
        assert c.impacts([1.0]) == 1
    assert c.toggle() is False
    assert c.impacts([1.0, 1.0]) == 0
