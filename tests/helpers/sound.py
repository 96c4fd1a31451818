"""A stand-in for pyglet's sound source, so the clatter's decisions are checked without an audio device."""

from __future__ import annotations


class FakePlayer:
    volume = 0.0


class FakeSource:
    """Records every click started and the volume it was given."""

    def __init__(self) -> None:
        self.players: list[FakePlayer] = []

    def play(self) -> FakePlayer:
        player = FakePlayer()
        self.players.append(player)
        return player

    @property
    def volumes(self) -> list[float]:
        return [p.volume for p in self.players]


def with_fake_source(clatter) -> FakeSource:
    """Give ``clatter`` (a :class:`render.audio.Clatter`) a recording source instead of a device."""
    source = FakeSource()
    clatter.available = True
    clatter._source = source
    return source
