"""The clatter: a synthesised click, one per impact, quiet when toggled off, burst-limited."""

import io
import wave

import numpy as np

from render.audio import MAX_BURST, RATE, Clatter, click_samples, click_wav
from tests.helpers.sound import with_fake_source


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
    source = with_fake_source(c)  # the decisions are checked with or without an audio device
    started = c.impacts([0.5, 0.9, 0.02])  # the crawl below MIN_SPEED is silent
    assert started == 2 and c.played == 2
    assert source.volumes[0] > source.volumes[1] > 0  # the faster impact first, and louder
    assert c.impacts([1.0] * 20) == MAX_BURST - 2
    assert c.impacts([1.0]) == 0  # the burst is full within its window
    now[0] += 1.0
    assert c.impacts([1.0]) == 1
    assert c.toggle() is False
    assert c.impacts([1.0, 1.0]) == 0
    assert len(source.players) == MAX_BURST + 1


def test_clatter_goes_quiet_without_a_device():
    c = Clatter(enabled=True, clock=lambda: 0.0)
    c.available = False  # as after a failed load or a lost device
    assert c.impacts([1.0, 1.0]) == 0 and c.played == 0
