"""The clatter of dice: a short synthesised click played per impact, with a volume toggle.

The click is made with numpy (a damped high ping over a burst of noise) and loaded as a
pyglet ``StaticSource``. Where no audio device exists pyglet falls back to its silent
driver; any audio failure switches the clatter off instead of stopping the game.
"""

from __future__ import annotations

import io
import logging
import wave

import numpy as np

from render.backend import pyglet

log = logging.getLogger(__name__)

RATE = 44100
#: At most this many clicks start within :data:`BURST_WINDOW` seconds.
MAX_BURST = 6
BURST_WINDOW = 0.05
#: Impact speed (m/s) that plays at full volume; slower impacts are quieter.
FULL_SPEED = 1.2
#: Impacts slower than this (m/s) make no sound.
MIN_SPEED = 0.05


def click_samples(seed: int = 3, duration: float = 0.045) -> np.ndarray:
    """The click as int16 mono samples at :data:`RATE`."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(RATE * duration)) / RATE
    ping = np.sin(2 * np.pi * 3100 * t) * np.exp(-t / 0.006) + 0.6 * np.sin(2 * np.pi * 5300 * t) * np.exp(
        -t / 0.004
    )
    noise = rng.normal(0, 1, len(t)) * np.exp(-t / 0.0025)
    body = np.sin(2 * np.pi * 900 * t) * np.exp(-t / 0.010) * 0.5
    s = 0.55 * ping + 0.35 * noise + body
    s *= np.minimum(1.0, t / 0.0004)  # no hard edge at the start
    s /= np.max(np.abs(s))
    return (s * 0.8 * 32767).astype(np.int16)


def click_wav() -> bytes:
    """The click as a WAV file in memory."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(click_samples().tobytes())
    return buf.getvalue()


def device_present() -> bool:
    """Whether pyglet found a sound device (not its silent fallback driver)."""
    try:
        driver = pyglet.media.get_audio_driver()
    except Exception:  # a broken audio library: no device
        return False
    return driver is not None and "silent" not in type(driver).__name__.lower()


class Clatter:
    """Plays clicks for impacts; ``enabled`` is the volume toggle.

    Args:
        enabled: start with sound on.
        clock: a function returning seconds (for the burst limit).
    """

    def __init__(self, enabled: bool = True, clock=None):
        import time

        self.enabled = enabled
        self.clock = clock or time.perf_counter
        self.available = True
        self._source: pyglet.media.Source | None = None
        self._recent: list[float] = []
        self.played = 0

    def toggle(self) -> bool:
        """Switch the sound on or off; returns the new state."""
        self.enabled = not self.enabled
        return self.enabled

    def _load(self):
        if self._source is None and self.available:
            try:
                self._source = pyglet.media.load("click.wav", file=io.BytesIO(click_wav()), streaming=False)
            except Exception as exc:  # no decoder / no driver: stay silent
                log.info("no sound: %s", exc)
                self.available = False
        return self._source

    def impacts(self, speeds) -> int:
        """Play one click per impact (speeds in m/s), quieter for slower ones; returns clicks started."""
        if not self.enabled:
            return 0
        now = self.clock()
        self._recent = [t for t in self._recent if now - t < BURST_WINDOW]
        started = 0
        for v in sorted(speeds, reverse=True):
            if v < MIN_SPEED or len(self._recent) >= MAX_BURST:
                continue
            source = self._load()
            if source is None:
                return started
            try:
                player = source.play()
                player.volume = float(min(1.0, 0.15 + 0.85 * v / FULL_SPEED))
            except Exception:  # the device went away: go quiet
                self.available = False
                return started
            self._recent.append(now)
            started += 1
        self.played += started
        return started
