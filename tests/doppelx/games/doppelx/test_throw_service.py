"""One path for a throw: the service, the serialiser, each die read once, the import rules."""

import ast
import json
from pathlib import Path

import pytest

import rules.doppelx.scoring
from doppelx.cli import main
from doppelx.games.doppelx.match import DoppelXMatch
from doppelx.games.doppelx.throw_report import outcome_json, score_report, state_json
from doppelx.games.doppelx.throw_service import Seating, ThrowService
from rules.common.rng import make_rng
from rules.doppelx.board_file import load_board

ROOT = Path(__file__).resolve().parents[4]


@pytest.fixture(scope="module")
def world_i():
    from physics.world import World

    w = World(load_board("I"))
    yield w
    w.close()


def test_a_bot_throw_through_the_service_is_read_once_and_scored(world_i, monkeypatch):
    from doppelx.games.doppelx.bot_factory import make_bot

    reads = []
    real = rules.doppelx.scoring.read_dice  # read_outcome reads all dice in one call
    monkeypatch.setattr(
        rules.doppelx.scoring, "read_dice", lambda ds, *a: reads.extend(d.owner for d in ds) or real(ds, *a)
    )
    service = ThrowService(world_i)
    bot = make_bot("medium")
    rng = make_rng(4)
    throw = service.release(service.aim(bot.throw, "blue"), ["blue", "white"], bot.throw.skill, rng, 0.016)
    turn = service.play(throw, {}, Seating(("blue", "red", "green"), "blue", {"blue": 3}))
    assert sorted(reads) == ["blue", "white"]  # every die once
    assert [r.owner for r in turn.readings] == ["blue", "white"]
    assert turn.score.readings == turn.readings
    assert turn.score.players["blue"].before == 3


def test_a_match_throw_reads_every_die_once(monkeypatch):
    reads = []
    real = rules.doppelx.scoring.read_dice  # read_outcome reads all dice in one call
    monkeypatch.setattr(
        rules.doppelx.scoring, "read_dice", lambda ds, *a: reads.extend(d.owner for d in ds) or real(ds, *a)
    )
    match = DoppelXMatch.with_bots(3, load_board("I"), seed=5)
    try:
        for _ in range(3):
            reads.clear()
            rec = match.play_throw()
            assert sorted(reads) == sorted(d.owner for d in rec.result.outcome.dice)
    finally:
        match.close()


def test_the_throw_json_state_scores_the_same_through_doppelx_score(tmp_path, capsys):
    assert main(["throw", "--board", "I", "--seed", "11", "--lying", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    state = tmp_path / "state.json"
    state.write_text(json.dumps(out["state"]))
    assert main(["score", "--state", str(state), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == out["score"]


def test_the_serialiser_keeps_the_public_key_order(world_i):
    from physics.run import run_throw
    from physics.throw_model import SKILLS, Aim, aimed_throw

    box = world_i.box
    throw = aimed_throw(box, Aim((0.0, 0.0), 0.3), ["blue", "white"], SKILLS["medium"], make_rng(2), 0.016)
    result = run_throw(world_i, throw)
    assert list(outcome_json(result.outcome)[0]) == [
        "owner",
        "status",
        "position",
        "quaternion",
        "touched_spinner",
    ]
    state = state_json("I", ["blue", "red", "green"], "blue", {"blue": 0}, result.outcome)
    assert list(state) == ["format", "board", "seats", "active", "chips", "dice", "hand_over_rim"]
    service = ThrowService(world_i)
    score = service.score(
        result.outcome, service.read(result.outcome), Seating(("blue", "red", "green"), "blue", {})
    )
    report = score_report(score, world_i.board, {})
    assert list(report["dice"][0]) == [
        "owner",
        "status",
        "top",
        "tilt_deg",
        "cocked",
        "touched",
        "field",
        "field_id",
        "chips",
        "scores_for",
    ]


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_commands_share_library_pieces_not_each_other():
    assert not any(
        m.startswith("doppelx.commands.score") for m in _imports(ROOT / "doppelx/commands/throw.py")
    )
    assert not any(m.startswith("doppelx.commands.game") for m in _imports(ROOT / "doppelx/commands/play.py"))
