"""Property tests: the sheet never accepts an illegal entry, logs replay identically, the solver is exact."""

from __future__ import annotations

import numpy as np
from doppelspiel_support import SPEC, fill, thrown
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.common.errors import RulesError
from rules.doppelspiel import (
    ActivateJoker,
    Dice,
    DoppelState,
    FieldRef,
    FreeThrow,
    Pass,
    Place,
    Repeat,
    Roll,
    Split,
    Swap,
    WriteTen,
    Zwang,
    best_writes,
    replay_log,
)

KEYS = [f.key for f in SPEC.fields]
refs = st.builds(FieldRef, st.integers(0, 4), st.sampled_from(KEYS))
positions = st.lists(st.integers(0, 10), max_size=11).map(lambda xs: tuple(sorted(set(xs))))
any_action = st.one_of(
    st.builds(ActivateJoker, st.integers(-1, 4)),
    st.builds(Roll, positions),
    st.builds(FreeThrow, positions),
    st.builds(Repeat, st.integers(0, 7)),
    st.builds(Swap, st.integers(-1, 10), st.integers(0, 7)),
    st.builds(Split, st.lists(st.integers(1, 6), min_size=4, max_size=6).map(lambda xs: tuple(sorted(xs)))),
    st.builds(WriteTen, st.integers(-1, 4)),
    st.builds(Place, st.sampled_from(["write", "strike", "skip", "bogus"]), st.none() | refs, st.booleans()),
    st.builds(Zwang, st.lists(refs, min_size=1, max_size=3).map(tuple)),
    st.just(Pass()),
    st.builds(Dice, st.lists(st.integers(0, 7), min_size=1, max_size=10).map(tuple)),
)


def state_key(state: DoppelState):
    return (
        state.phase,
        state.player,
        state.dice,
        state.throws,
        state.pending,
        state.active_jokers,
        tuple(state.marks),
        state.groups,
        state.placed,
        state.doublings,
        tuple(state.log),
        [
            (
                tuple(map(tuple, s.cells)),
                frozenset(s.struck),
                s.aussetzen,
                frozenset(s.swaps),
                frozenset(s.repeats),
                s.crosses,
                s.free_used,
                frozenset(s.jokers),
                frozenset(s.zwang),
            )
            for s in state.sheets
        ],
    )


def random_play(state: DoppelState, rng: np.random.Generator, steps: int) -> DoppelState:
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 400),
    probes=st.lists(any_action, min_size=1, max_size=8),
)
def test_an_action_is_accepted_exactly_when_it_is_legal(seed, steps, probes):
    state = random_play(DoppelState(), np.random.default_rng(seed), steps)
    legal = set(state.legal_actions())
    for action in probes:
        trial = state.clone()
        before = state_key(trial)
        if state.is_chance_node() and isinstance(action, Dice):
            ok = len(action.faces) == len(state.pending) and all(1 <= f <= 6 for f in action.faces)
        else:
            ok = action in legal
        try:
            trial.apply_action(action)
        except RulesError:
            assert not ok, f"legal {action} refused in phase {state.phase}"
            assert state_key(trial) == before, f"refused {action} changed the state"
        else:
            assert ok, f"illegal {action} accepted in phase {state.phase}"


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_random_game_ends_and_replays_identically(seed):
    state = random_play(DoppelState(first_player=seed % 2), np.random.default_rng(seed), 10**6)
    assert state.is_terminal() and all(s.is_full() for s in state.sheets)
    assert sum(state.returns()) <= 13
    again = replay_log(state.log, first_player=seed % 2)
    assert state_key(again) == state_key(state)
    assert again.scores() == state.scores() and again.result() == state.result()
    for sheet in state.sheets:  # every written value is a score the field can take
        for col in sheet.cells:
            for f, v in zip(SPEC.fields, col):
                assert 0 <= v <= 2 * f.max_value


def _all_writes(state: DoppelState):
    """Every legal way to finish the throwing, by brute force over legal actions."""
    out = []

    def walk(s: DoppelState, points: int, depth: int) -> None:
        if s.phase not in ("throw", "place") or (s.phase == "throw" and depth > 0):
            out.append(points)
            return
        actions = s.write_starts() if s.phase == "throw" else s.legal_actions()
        for a in actions:
            child = s.clone()
            before = child.sheet.grand_total() - sum(
                child.sheet.upper_bonus(c) + child.sheet.middle_bonus(c) for c in range(4)
            )
            who = child.player
            child.apply_action(a)
            sheet = child.sheets[who]
            after = sheet.grand_total() - sum(sheet.upper_bonus(c) + sheet.middle_bonus(c) for c in range(4))
            walk(child, points + after - before, depth + 1)

    walk(state, 0, 0)
    return out


small_sheet = st.fixed_dictionaries(
    {
        "open": st.sets(st.sampled_from([f"{k}@{c}" for k in KEYS for c in (1, 2)]), min_size=1, max_size=4),
        "aussetzen": st.integers(2, 4),
        "jokers": st.integers(0, 2),
        "zwang": st.booleans(),
        "dice": st.lists(st.integers(1, 6), min_size=10, max_size=10).map(tuple)
        | st.sampled_from([(1,) * 5 + (6,) * 5, (4,) * 10, (2,) * 5 + (3,) * 4 + (1,)]),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_sheet)
def test_the_solver_finds_the_most_points_and_its_plan_is_legal(case):
    state = DoppelState()
    # open fields only in columns 1-2, so the Jokers of columns 3-4 are ready
    all_refs = [f"{f.key}@{c + 1}" for c in range(4) for f in SPEC.fields]
    fill(state, 0, [r for r in all_refs if r not in case["open"]])
    state.sheets[0].aussetzen = case["aussetzen"]
    squares = sorted(r for r in case["open"] if SPEC.field(r.split("@")[0]).has_square)
    if case["zwang"] and squares:
        marks = [r for r in squares if r.startswith("ten@")][:1] or squares[:2]
        if len(marks) == 2 or marks[0].startswith("ten@"):
            state.marks[0] = tuple(FieldRef(int(r.split("@")[1]) - 1, r.split("@")[0]) for r in marks)
    for c in range(case["jokers"]):
        state.apply_action(ActivateJoker(2 + c))
    thrown(case["dice"], state)
    if not state.write_starts():
        return
    plan = best_writes(state)[0]
    assert plan.points == max(_all_writes(state))
    trial = state.clone()
    before = [list(c) for c in trial.sheets[0].cells]
    for action in plan.actions:
        trial.apply_action(action)
    gained = sum(
        (v or 0) - (b or 0) for col, bcol in zip(trial.sheets[0].cells, before) for v, b in zip(col, bcol)
    )
    assert gained == plan.points
