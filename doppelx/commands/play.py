"""``doppelx play``: DoppelX at the desktop — a 3-D table, physics, people and bots.

    doppelx play                                   # the new-game form opens
    doppelx play --players 4 --humans 1 --board III --cards A,B,C,D --skill medium --seed 7
    doppelx play --players 4 --humans 1 --skills medium,expert,hard,expert
    doppelx play --autoplay --players 4 --seed 1 --quit-after-throws 6 --screenshot play.png
    doppelx play --load doppelx-save.json

The new-game form opens unless the command line already says how to play (any of the game
options, ``--autoplay`` or ``--load``). Without a display the command says so in one line
and exits with code 2 (run it under ``xvfb-run -a``, or use ``doppelx game`` headless).
"""

from __future__ import annotations

import argparse
import sys

from doppelx import argtypes
from doppelx.games.doppelx.policies import BOT_SKILLS

#: Options that describe the game; giving any of them skips the new-game form.
GAME_OPTIONS = (
    "players",
    "humans",
    "board",
    "cards",
    "no_spinner",
    "skill",
    "skills",
    "names",
    "colours",
    "target",
)


def _speed(text: str) -> float:
    try:
        v = argtypes.plain_float(text)
    except ValueError:
        v = 0.0
    if not 0.1 <= v <= 50:
        raise argparse.ArgumentTypeError(f"expected a speed factor 0.1–50, got {text!r}")
    return v


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (argtypes.plain_int(v) for v in text.lower().split("x"))
    except ValueError:
        w = h = 0
    if w < 640 or h < 480 or w > 7680 or h > 4320:
        raise argparse.ArgumentTypeError(
            f"expected a window size like 1280x800 (640x480 to 7680x4320), got {argtypes.shown(text)}"
        )
    return w, h


def _list(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play",
        help="play DoppelX in a 3-D window: people and bots, real physics",
        description="Play DoppelX at a 3-D table: throw by flicking the mouse, bet by clicking "
        "a card, watch the bots. Needs a display (or xvfb-run).",
    )
    p.add_argument("--players", type=argtypes.players, metavar="N", help="3–8 players (default 4)")
    p.add_argument(
        "--humans",
        type=argtypes.whole(0, 8, "a number of people"),
        metavar="K",
        help="how many of them are people, taking the first seats (default 1)",
    )
    p.add_argument(
        "--names", type=_list, metavar="A,B,...", help="names of the first seats (at most 14 characters each)"
    )
    p.add_argument("--colours", type=_list, metavar="C1,C2,...", help="die colours of the first seats")
    p.add_argument("--board", metavar="BOARD", help="side I–IV or a board file (default I)")
    p.add_argument(
        "--cards", type=argtypes.cards, metavar="A,B,C,D", help="the 4 bet cards (default A,B,C,D)"
    )
    p.add_argument("--no-spinner", action="store_true", help="leave the spinner off (sides III/IV)")
    p.add_argument("--skill", choices=BOT_SKILLS, help="the bots' skill (default medium)")
    argtypes.add_seat_skills(p)
    p.add_argument(
        "--target",
        type=argtypes.positive,
        metavar="CHIPS",
        help="chips that end the game (default 50 for 3–5 players, 70 for 6–8; at most 210 for 3 players down to 74 for 8, so the box can pay)",
    )
    p.add_argument("--seed", type=argtypes.seed, metavar="N", help="random seed (default: a random one)")
    p.add_argument("--autoplay", action="store_true", help="bots only: watch a game (sets --humans 0)")
    p.add_argument(
        "--quit-after-throws",
        type=argtypes.positive,
        metavar="N",
        help="quit once N throws have come to rest (or the game is over)",
    )
    p.add_argument(
        "--screenshot",
        type=argtypes.output_file,
        metavar="FILE.png",
        help="save the window to FILE.png when quitting after N throws",
    )
    p.add_argument(
        "--speed", type=_speed, default=1.0, metavar="F", help="play F times faster than real time"
    )
    p.add_argument("--load", type=argtypes.input_path, metavar="FILE", help="start from a saved game")
    p.add_argument(
        "--save-file",
        default="doppelx-save.json",
        metavar="FILE",
        help="where Ctrl+S saves and Ctrl+O loads (default doppelx-save.json)",
    )
    p.add_argument(
        "--size", type=_size, default=(1280, 800), metavar="WxH", help="window size (default 1280x800)"
    )
    p.add_argument("--mute", action="store_true", help="start with the sound off")
    p.set_defaults(func=run)


def setup_from_args(args: argparse.Namespace):
    """The :class:`doppelx.games.doppelx.play.newgame.GameSetup` the command line asks for."""
    from doppelx.games.doppelx.bot_factory import check_seat_options
    from doppelx.games.doppelx.play.newgame import GameSetup
    from rules.common.rng import fresh_seed

    check_seat_options(args.skill, args.skills, None)
    players = args.players or 4
    humans = 0 if args.autoplay else (1 if args.humans is None else args.humans)
    if humans > players:
        from rules.common.errors import RulesError

        raise RulesError(f"--humans {humans} is more than the {players} players")
    seed = args.seed if args.seed is not None else fresh_seed()
    return GameSetup.standard(
        players,
        humans,
        args.skill or "medium",
        board=args.board or "I",
        cards=args.cards or ("A", "B", "C", "D"),
        spinner=not args.no_spinner,
        seed=seed,
        target=args.target,
        names=args.names or (),
        colours=args.colours or (),
        skills=args.skills or (),
    )


def run(args: argparse.Namespace) -> int:
    from rules.common.errors import DoppelXError, RulesError

    if args.screenshot is not None and args.quit_after_throws is None:
        raise RulesError("--screenshot needs --quit-after-throws N (the picture is taken when it quits)")
    if args.autoplay and args.humans:
        raise RulesError("--autoplay is bots only; leave out --humans")
    if args.load is not None:
        given = [
            f"--{n.replace('_', '-')}"
            for n in (*GAME_OPTIONS, "seed")
            if getattr(args, n) is not None and getattr(args, n) is not False
        ]
        if given or args.autoplay:  # (a 0 counts: --seed 0 and --humans 0 are given too)
            raise RulesError(
                f"--load goes on with the saved game's own players and table; leave out "
                f"{', '.join(given or ['--autoplay'])}"
            )
    skip_form = (
        args.autoplay
        or args.load is not None
        or any(getattr(args, name) is not None and getattr(args, name) is not False for name in GAME_OPTIONS)
    )
    setup = setup_from_args(args)  # checks the options before a window opens
    if args.load is None:
        from rules.doppelx.board_file import load_board

        argtypes.check_no_spinner(load_board(setup.board), setup.spinner)
    else:  # a bad save is refused in one line before a window opens
        from doppelx.games.doppelx.play.savegame import load_game

        load_game(args.load)[1].close()
    from rules.common.optional import import_optional

    import_optional("pyglet", "window", "doppelx play (the desktop window)")
    from doppelx.games.doppelx.play.window import PlayWindow
    from render.errors import NoDisplayError

    try:
        window = PlayWindow(*args.size, caption="DoppelX", sound=not args.mute, vsync=False)
    except NoDisplayError as exc:
        raise DoppelXError(
            f"cannot open the 3D window: {exc.reason}; run it on a virtual display with "
            f"`xvfb-run -a doppelx play ...`, or play headless with "
            f"`doppelx game --players 4 --board I --seed 1`"
        ) from None
    window.busy("Loading DoppelX…")  # the first frame, before the physics and the table load
    from doppelx.games.doppelx.play import app
    from doppelx.games.doppelx.play.controller import PlayController

    controller = PlayController(window, save_path=args.save_file)
    window.on_intent = controller.handle
    try:
        if args.load is not None:
            controller.load(args.load)
        elif skip_form:
            controller.new_game(setup)
        else:
            controller.setup = setup
            window.open_dialog(setup, controller.new_game, None)
        window.busy("")
        code = app.run(
            window,
            controller,
            speed=args.speed,
            quit_after=args.quit_after_throws,
            screenshot=args.screenshot,
        )
        if controller.autosaved is not None:
            print(
                f"doppelx play: the game in progress was saved to {controller.autosaved}; "
                f"go on with: doppelx play --load {controller.autosaved}",
                file=sys.stderr,
            )
        elif controller.unsaved is not None and controller.quit_requested:
            hand = controller.hand_saved
            last = f"; its last Ctrl+S save is {hand[0]} (after throw {hand[1]})" if hand else ""
            print(
                f"doppelx play: the game in progress was NOT saved — {controller.unsaved}{last}",
                file=sys.stderr,
            )
            return 1
        elif controller.hand_kept is not None:
            print(
                f"doppelx play: the autosave could not be written; the game as it stands is in "
                f"{controller.hand_kept} (Ctrl+S): doppelx play --load {controller.hand_kept}",
                file=sys.stderr,
            )
        return code
    finally:
        controller.close()
        if window.context is not None:
            window.close()
