"""A world that takes a fresh PyBullet client now and then throws exactly as one that does not."""

import physics.world
from doppelx.bench.throws import standard_turns
from physics.run import run_throw
from physics.world import World
from rules.common.rng import make_rng
from rules.doppelx.board_file import load_board


def _poses(result):
    return [
        (d.owner, d.status, d.pose.position, d.pose.quaternion, d.touched_spinner)
        for d in result.outcome.dice
    ]


def test_renewing_the_client_changes_no_throw(monkeypatch):
    board, items = standard_turns(5, make_rng(31), "III")
    steady = World(board)
    try:
        expected = [_poses(run_throw(steady, throw, lying)) for lying, throw in items]
    finally:
        steady.close()
    monkeypatch.setattr(physics.world, "RENEW_CLIENT_EVERY", 2)
    renewals = []
    renew = World._renew_client
    monkeypatch.setattr(World, "_renew_client", lambda self: renewals.append(1) or renew(self))
    renewing = World(load_board("III"))
    try:
        got = [_poses(run_throw(renewing, throw, lying)) for lying, throw in items]
    finally:
        renewing.close()
    assert len(renewals) == 2  # before the 3rd and the 5th throw
    assert got == expected
