"""A batch run's parameters checked before any worker starts.

The CLI (``doppelx simulate``, ``doppelx sweep``) builds the JSON-ready parameters; this
module says, in one line naming the argument, what a worker would trip over — an unknown
skill or policy, faces or a hole widening that do not fit, too many dice lying, a player
count or card list out of range — so a bad run fails at once. It belongs to the batch
layer (the sweep calls it for every variant); no batch module imports a command module.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from doppelx import argtypes

#: A throws run's parameters where the command leaves them out (``doppelx simulate throws``,
#: a sweep, and the workers: ``doppelx.batch.throw_items``). The one table of these defaults.
THROW_DEFAULTS: dict = {
    "board": "I",
    "thrower": "blue",
    "skill": "medium",
    "policy": "greedy",
    "lying": 0,
    "lying_in_reach": None,
    "spinner": True,
    "hole_delta_mm": 0.0,
}
#: A games run's parameters where the command leaves them out (``doppelx.batch.game_items``).
GAME_DEFAULTS: dict = {
    "board": "III",
    "players": 4,
    "skill": "medium",
    "policy": "greedy",
    "bet": "best",
    "cards": ["A", "B", "C", "D"],
    "spinner": True,
    "target": None,
    "skills": None,
    "rotate": False,
    "think": None,
    "hole_delta_mm": 0.0,
}

#: Most a hole's radius may be widened (or narrowed) by, in mm.
MAX_HOLE_DELTA_MM = 10.0
#: The type of ``--hole-delta-mm`` and of each ``--vary hole_delta_mm`` value (one bound for both).
hole_delta_mm = argtypes.number(-MAX_HOLE_DELTA_MM, MAX_HOLE_DELTA_MM, "a change of the holes' radius in mm")


def spinning(params: dict, board) -> bool:
    """``board`` has a spinner and the run did not leave it off (``--vary spinner=off``)."""
    return board.spinner is not None and params.get("spinner") is not False


def without_absent_spinner(params: dict) -> dict:
    """``params`` with ``spinner`` ``None`` on a side that has none (run files said ``true``
    on side I); a side with a spinner keeps ``true`` or ``false``."""
    from rules.doppelx.board_file import load_board

    if load_board(params["board"]).spinner is None:
        return {**params, "spinner": None}
    return params


def pin_files(params: dict) -> dict:
    """``params`` with the content of a board or dice *file* and the code pinned by SHA-256
    (and ``spinner`` ``None`` on a side without one: :func:`without_absent_spinner`).

    A run names its board or dice file by its absolute path (``--board b.toml`` and
    ``--board ../runs/b.toml`` are one run), and pinning the bytes makes them part of the run's
    fingerprint, so a file edited between an interruption and a resume is a different run
    (refused, or replaced with ``--overwrite``), never half the rows of each. Built-in sides
    and the shipped dice are pinned with the code: ``code_sha256``
    (:func:`doppelx.batch.code_version.code_version`), so a resume by another version of
    the simulator is refused too, and every worker checks it runs the run's code.
    """
    import hashlib

    from doppelx.batch.code_version import code_version
    from rules.common.errors import DoppelXError
    from rules.doppelx.board_file import board_reference, builtin_side, resolve_board

    out = dict(without_absent_spinner(params))
    out["code_sha256"] = code_version(params.get("engine") or "pybullet")
    files = {}
    if builtin_side(params["board"]) is None:  # a file: named by its absolute path, so the same
        resolve_board(params["board"])  # run resumes from any folder or spelling of the path
        out["board"] = board_reference(params["board"])
        files["board_sha256"] = Path(out["board"])
    if params.get("dice") is not None:
        files["dice_sha256"] = Path(params["dice"]).resolve()
        out["dice"] = str(files["dice_sha256"])
    for key, path in files.items():
        try:
            out[key] = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError as exc:
            raise DoppelXError(f"{path}: cannot read file ({exc.strerror or exc})") from None
    return out


def check_params(params: dict, kind: str) -> None:
    """Fail early, with one clear line naming the argument, on anything a worker would trip over."""
    import math

    import shapely

    from doppelx.batch.world_cache import table_specs
    from doppelx.games.doppelx.bots import throw_policy
    from physics.throw_model import SKILLS
    from rules.common.errors import DoppelXError, SpecError
    from rules.common.rng import make_rng
    from rules.doppelx.bets import choose_cards
    from rules.doppelx.board_file import load_board
    from rules.doppelx.chips import target_problem
    from rules.doppelx.dice import load_dice
    from rules.doppelx.variants import widen_holes, with_faces

    if params["skill"] not in (*SKILLS, "expert"):
        raise DoppelXError(f"skill {params['skill']!r}: expected one of {', '.join(SKILLS)}, expert")
    if kind == "throws" and params["skill"] == "expert":
        raise DoppelXError("--skill expert plans whole turns: use it with `simulate games`")
    dice = load_dice(params.get("dice"))
    for owner, faces in (params.get("faces") or {}).items():
        if owner not in dice.dice:
            raise DoppelXError(f"--faces {owner}={faces}: no die {owner!r}; dice are {', '.join(dice.dice)}")
        try:
            with_faces(dice, owner, faces)
        except SpecError as exc:
            raise DoppelXError(f"--faces {owner}={faces}: {exc.problem}") from None
    cocked = params.get("cocked_deg")
    if cocked is not None and not (
        isinstance(cocked, (int, float)) and math.isfinite(cocked) and 0 < cocked < 90
    ):
        raise DoppelXError(f"cocked_deg {cocked!r}: expected an angle between 0 and 90 degrees")
    delta = params.get("hole_delta_mm") or 0.0
    if not (isinstance(delta, (int, float)) and math.isfinite(delta)):
        raise DoppelXError(f"hole_delta_mm {delta!r}: expected a finite number of mm")
    board = load_board(params["board"])
    try:
        widen_holes(board, float(delta) / 1e3)
    except SpecError as exc:
        raise DoppelXError(f"hole_delta_mm {delta:g}: {exc.element}: {exc.problem}") from None
    board, dice = table_specs(params)
    if params.get("engine") == "mujoco":
        from physics.mujoco_world import import_mujoco

        import_mujoco()  # not installed: one line naming the extra, before any worker starts
    policy_name = params["policy"]
    if policy_name.startswith("point:"):
        try:
            x, y = argtypes.point_mm(policy_name[6:])
        except argparse.ArgumentTypeError as exc:
            raise DoppelXError(f"--policy {argtypes.shown(policy_name)}: {exc}") from None
        if not shapely.contains_xy(board.outline, x, y):
            raise DoppelXError(
                f"--policy {policy_name}: ({x * 1e3:g}, {y * 1e3:g}) mm is not on the playfield of side {board.name}"
            )
    try:
        skill = "hard" if params["skill"] == "expert" else params["skill"]  # the expert's hand
        policy = throw_policy(policy_name, SKILLS[skill], make_rng(0))
        policy.aim(board, dice[dice.player_colours[0]])
    except ValueError as exc:
        raise DoppelXError(f"--policy: {exc}") from None
    if kind == "throws" and not 0 <= params["lying"] <= len(dice.player_colours) - 1:
        raise DoppelXError(f"--lying must be 0–{len(dice.player_colours) - 1}, got {params['lying']}")
    if kind == "throws" and params.get("lying_in_reach"):
        if board.spinner is None or not params.get("spinner"):
            why = "has no spinner" if board.spinner is None else "plays with its spinner off"
            raise DoppelXError(f"--lying-in-reach {params['lying_in_reach']}: side {board.name} {why}")
        if params["lying_in_reach"] > params["lying"]:
            raise DoppelXError(
                f"--lying-in-reach {params['lying_in_reach']}: more than the {params['lying']} lying dice (--lying)"
            )
    if kind == "games":
        if not 3 <= params["players"] <= len(dice.player_colours):
            raise DoppelXError(f"--players must be 3–{len(dice.player_colours)}, got {params['players']}")
        choose_cards(params["cards"], "--cards")
        skills = params.get("skills")
        if skills and len(skills) != params["players"]:
            raise DoppelXError(f"--skills names {len(skills)} skills for {params['players']} players")
        target = params.get("target")
        problem = None if target is None else target_problem(target, params["players"])
        if problem:
            raise DoppelXError(f"--target: {problem}")
