"""A flick through the physics: every accepted flick reaches the playfield, a stronger one rolls further,
a hard one hits the far wall first and rebounds, and a flick aimed past the box on purpose is thrown
as the hand moved."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.throw_feel import first_impact, wall_hits
from doppelx.games.doppelx.play.controller import PlayController, Stage
from doppelx.games.doppelx.play.flick_throw import WALL_SPEED, flick_release
from doppelx.games.doppelx.play.newgame import GameSetup, start_match
from render.aim import ThrowAim
from rules.doppelx.outcome import Status
from tests.helpers.play import FakeUi, drag


def throw_blue(seed: int, speed: float, angle: float = 0.0):
    """Ann (blue) flicks her die in the setup throw; returns (status, final y, the intent)."""
    ctrl = PlayController(FakeUi())
    try:
        ctrl.new_game(GameSetup.standard(3, 3, seed=seed, names=("Ann", "Bo", "Cy")))
        assert ctrl.stage is Stage.THROW and ctrl.thrower == "blue"
        box = ctrl.match.world.box
        die = next(iter(ctrl.match.game.dice.dice.values()))
        aim = ThrowAim(box, die.size)
        wall, along = ctrl.ui.stood[-1]
        aim.wall, aim.along = wall, along
        intent = aim.flick(drag(aim, speed, angle))
        ctrl.handle(intent)
        while ctrl.stage is Stage.THROW:  # Bo and Cy throw the same way from their seats
            aim.wall, aim.along = ctrl.ui.stood[-1]
            ctrl.handle(aim.flick(drag(aim, speed, angle)))
        while ctrl.stage is Stage.WAIT:
            ctrl.step()
        rec = ctrl.match.log[-1]
        blue = next(d for d in rec.result.outcome.dice if d.owner == "blue")
        y = float(rec.result.trajectory.positions[-1, rec.result.trajectory.owners.index("blue"), 1])
        return blue.status, y, intent
    finally:
        ctrl.close()


def test_gentle_to_strong_flicks_reach_the_playfield_and_stronger_rolls_further():
    finals = {}
    for speed in (0.12, 0.7, 2.5):  # a gentle push, a medium flick, a hard one (m/s on the release plane)
        ys = []
        for seed in range(1, 7):
            status, y, intent = throw_blue(seed, speed)
            assert intent.target is not None
            # reaches the box, never dropped in front of it (a hard one may bounce out over the far wall)
            assert status is not Status.OFF or y > 0.27 / 2, (speed, seed)
            ys.append(y)
        finals[speed] = float(np.median(ys))
    # Ann throws from the south wall: further into the box is larger y. (The other players'
    # dice fly at the same time and may knock hers; a hard throw reaches the far wall and
    # bounces back, so the hard one is only compared with the gentle one.)
    assert finals[0.12] < 0.0 < finals[0.7] and finals[0.12] < finals[2.5]
    assert finals[0.7] > finals[0.12] + 0.08 and finals[2.5] > 0.0
    assert finals[0.12] > -0.27 / 2 + 0.016  # even the gentlest lands past the near wall's foot


def test_a_flick_whose_line_misses_the_box_is_turned_into_it_assisted_and_thrown_as_is_direct():
    """Seventeenth and eighteenth playtests: from a wall's end a flick "straight up the screen"
    or a little outward lost both dice — the assisted aim took a line that missed the box as
    aimed past it on purpose and threw it as the hand moved. It now turns such a flick towards
    the box by the fewest whole degrees that reach it; the direct aim throws it as it was."""
    from rules.doppelx.box import load_box

    box_aim = ThrowAim(load_box(), 0.016)
    box_aim.walk(box_aim.half_length())  # at the right-hand end of the south wall
    intent = box_aim.flick(drag(box_aim, 1.0, angle_deg=80))  # almost along the wall, past the box
    assert intent.velocity[0] > 0.9  # the hand's own velocity, for the direct aim
    assert intent.target is not None  # an assisted aim point inside the box, on the right
    hx, hy = box_aim.box.inner_size[0] / 2, box_aim.box.inner_size[1] / 2
    assert 0.0 < intent.target[0] < hx and abs(intent.target[1]) < hy
    setup = GameSetup.standard(3, 3, seed=1, names=("Ann", "Bo", "Cy"))
    setup.spinner = False
    match = start_match(setup)
    try:
        die = next(iter(match.game.dice.dice.values()))
        lost = {}
        for mode in ("assisted", "direct"):
            lost[mode] = 0
            for seed in range(4):
                match.rng = np.random.default_rng(seed)
                release, velocity, spin = flick_release(match.service.box, intent, die.half, mode)
                throw = match.hand_throw((match.game.seats[0], "white"), release, velocity, spin)
                result = match.service.run(throw, {}, 0.0)
                lost[mode] += sum(d.status is Status.OFF for d in result.outcome.dice)
    finally:
        match.close()
    assert lost == {"assisted": 0, "direct": 8}, lost


@pytest.mark.parametrize("speed", [0.12, 2.5])
def test_power_grows_with_the_drag_speed(speed):
    from rules.doppelx.box import load_box

    aim = ThrowAim(load_box(), 0.016)
    power, direction = aim.preview(drag(aim, speed))
    assert 0.0 <= power <= 1.0 and direction @ aim.inward > 0.99
    assert (power < 0.1) if speed < 0.2 else (power == 1.0)


def test_a_hard_assisted_flick_hits_the_far_wall_first_and_rebounds_a_soft_one_lands_short():
    """Through the physics, as ``benchmarks/throw_feel.py`` measures it: Ann's die and the white
    die flicked from the middle of the south wall, soft (0.2 m/s) and hard (1.6 m/s, full power)."""
    setup = GameSetup.standard(3, 3, seed=1, names=("Ann", "Bo", "Cy"))
    setup.spinner = False
    match = start_match(setup)
    try:
        box = match.service.box
        die = next(iter(match.game.dice.dice.values()))
        far = box.inner_size[1] / 2 - 1.5 * die.size  # a die's centre this far north touches the far wall
        first_y, walls, lost = {}, {}, {}
        for name, speed in (("soft", 0.2), ("hard", 1.6)):
            first_y[name], walls[name], lost[name] = [], [], 0
            for seed in range(8):
                match.rng = np.random.default_rng(seed)
                aim = ThrowAim(box, die.size)
                intent = aim.flick(drag(aim, speed))
                release, velocity, spin = flick_release(box, intent, die.half)
                if name == "hard":  # a person's hard throw of dice into a box: 2-4 m/s, flat
                    assert float(np.hypot(*velocity[:2])) == pytest.approx(WALL_SPEED)
                throw = match.hand_throw((match.game.seats[0], "white"), release, velocity, spin)
                result = match.service.run(throw, {}, 0.0, record=True)
                traj = result.trajectory
                for i in range(len(traj.owners)):
                    f = first_impact(traj, i)
                    assert f is not None
                    first_y[name].append(float(traj.positions[f, i, 1]))
                walls[name].append(wall_hits(traj, box, die.size))
                lost[name] += sum(d.status in (Status.OFF, Status.HOLE) for d in result.outcome.dice)
    finally:
        match.close()
    # the soft lob lands in the near half; the hard throw's dice first meet the far wall (before:
    # the throw model's arc landed them on the playfield 80 % of the way across)
    assert np.median(first_y["soft"]) < 0.0
    assert np.median(first_y["hard"]) > far and np.mean(np.array(first_y["hard"]) > far) >= 0.75
    assert np.median(walls["hard"]) >= 1.0 > np.median(walls["soft"])
    assert lost["hard"] <= 2, lost  # they rebound onto the playfield, not over the rim (of 16 dice)


def test_an_assisted_aim_point_is_never_under_a_bet_card():
    """The aim point keeps a die's size off the bet cards over the corners: a die aimed under
    one lands on it, and a die on a card is off the box (D6). Before, a flick from 8 cm left
    of the middle turned 30° to the left aimed 1.7 cm under card A."""
    from rules.doppelx.box import load_box

    box = load_box()
    aim = ThrowAim(box, 0.016)
    outer = box.inner_size[0] / 2 + box.wall_thickness + box.inner_size[1] / 2 + box.wall_thickness
    card_edge = outer - box.bet_card_leg  # a card over a corner covers |x| + |y| ≥ this
    aimed = 0
    for wall in "SENW":
        for along in np.linspace(-aim.half_length(wall), aim.half_length(wall), 9):
            aim.wall, aim.along = wall, float(along)
            for angle in range(-60, 61, 10):
                a = np.radians(angle)
                direction = aim.inward * np.cos(a) + aim.right * np.sin(a)
                for power in (0.0, 0.5, 1.0):
                    target = aim.aim_point(direction, power)
                    if target is None:
                        continue
                    aimed += 1
                    clear = (card_edge - abs(target[0]) - abs(target[1])) / np.sqrt(2)
                    assert clear >= 0.016 - 1e-9, (wall, along, angle, power, target)
    assert aimed > 700


@pytest.mark.parametrize(
    "stance", [("S", -0.08, -30), ("S", -0.115, 0), ("S", -0.11, -10), ("E", -0.1, 0), ("W", 0.055, 30)]
)
@pytest.mark.parametrize("speed", [0.8, 1.6])
def test_flicks_from_beside_a_corner_keep_their_dice_in_the_box(stance, speed):
    """The sixteenth and seventeenth playtests' lost dice, through the physics
    (``benchmarks/throw_feel.py --stances``): from 8 cm beside the middle, turned 30° towards
    the near corner, a medium flick (0.8 m/s) used to aim under card A or brush it and lose 8–11
    of 20 dice, a hard one (1.6 m/s) to go at the side wall too near to meet below its top,
    over it: 20 of 20; from a wall's end, straight in or a little outward (a flick "straight up
    the screen" there), the line missed the playfield shrunk by a die's size and the flick was
    thrown out of the box as if aimed past it on purpose."""
    wall, along, angle = stance
    setup = GameSetup.standard(3, 3, seed=1, names=("Ann", "Bo", "Cy"))
    setup.spinner = False
    match = start_match(setup)
    lost = []
    try:
        box = match.service.box
        die = next(iter(match.game.dice.dice.values()))
        for seed in range(5):
            match.rng = np.random.default_rng(seed)
            aim = ThrowAim(box, die.size)
            aim.wall, aim.along = wall, along
            intent = aim.flick(drag(aim, speed, angle))
            assert intent.target is not None  # an aimed throw, not one thrown out on purpose
            release, velocity, spin = flick_release(box, intent, die.half)
            throw = match.hand_throw((match.game.seats[0], "white"), release, velocity, spin)
            result = match.service.run(throw, {}, 0.0)
            lost += [(seed, d.owner) for d in result.outcome.dice if d.status is Status.OFF]
    finally:
        match.close()
    assert lost == []
