"""The designer's sections of a run's report, computed from its tidy tables (:mod:`doppelx.batch.tidy`).

Seats (win rate with Wilson intervals, the difference from a fair share, a χ² test of equal
seats, turns per seat), game length (median, 10th and 90th percentile), bets per card (hit
rate, chips per bet placed and per throw or turn, with the doubling footnote), and per die
the share lost in a hole or off the box. Every function returns Markdown lines; a figure a
run cannot give says why ("not measurable: …"), never a zero with an interval.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from doppelx.batch.stats import chi2_sf, counted, fmt_p, mean, proportion

#: The footnote under every bet table: why hit rate × pay-out is not the expected pay-out.
DOUBLING = (
    "Hit rate × pay-out is not the expected pay-out: a card about the active player's dice "
    "(a field, hole or off) pays once for *each* die that qualifies, so its pay-out doubles when "
    "both the coloured and the white die do; the Doppel X cards and G pay once. A and H are "
    "the same bet by the rules (D31: H is 'the same as A'), so their figures are equal."
)


def read(tables: dict[str, Path], name: str) -> dict | None:
    """A tidy table as columns (``None`` if the run did not write it): a file, or a folder of
    hive partitions (a pool's ``dice/seed=3/part-0.parquet``, read as one table)."""
    path = tables.get(name)
    if path is None or not (Path(path).is_file() or Path(path).is_dir()):
        return None
    return pq.read_table(path).to_pydict()


def seat_lines(games: dict, seats: dict, players: int) -> list[str]:
    """Win rate by seat, difference from a fair share, χ² of equal seats, turns per seat."""
    n = len(games["item"])
    wins = Counter(games["winner_seat"])
    fair = 1 / players
    lines = [
        "## Seats",
        "",
        f"Win rate with a 95 % Wilson interval; the difference from a fair share (1/{players} = "
        f"{100 * fair:.1f} %) in percentage points; turns: the seat's own turns a game (a re-thrown "
        "turn counts once), mean with a 95 % interval.",
        "",
        "| seat | wins | win rate | minus fair share | turns a game | chips per own throw |",
        "|---|---|---|---|---|---|",
    ]
    turns = defaultdict(list)
    own: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0])
    for seat, t, c in zip(seats["seat"], seats["turns"], seats["own_chips"]):
        turns[seat].append(t)
        own[seat][0] += c
        own[seat][1] += t
    for s in range(players):
        e = proportion(wins.get(s, 0), n)
        diff = f"{100 * (e.value - fair):+.1f} pp [{100 * (e.low - fair):+.1f}, {100 * (e.high - fair):+.1f}]"
        per_turn = f"{own[s][0] / own[s][1]:.2f}" if own[s][1] else "–"
        lines.append(
            f"| {s} | {wins.get(s, 0)} | {e.fmt(percent=True, digits=1)} | {diff} | "
            f"{mean(turns[s]).fmt(digits=2)} | {per_turn} |"
        )
    expected = n * fair
    chi2 = sum((wins.get(s, 0) - expected) ** 2 / expected for s in range(players))
    lines += [
        "",
        f"χ² test of equal seats: χ² = {chi2:.1f} with {players - 1} degrees of freedom, "
        f"p {_p_text(chi2_sf(chi2, players - 1))} ({counted(n, 'game')}; "
        + (
            "a p below 0.05 says the seats are not equal)."
            if expected >= 5
            else "too few games a seat for the test: fewer than 5 expected wins)."
        )
        + " Turns a game differ by seat because a game ends within the round, on the turn a player "
        "reaches the target: a seat early in the round more often gets its turn of the last round."
        + _mixed_skills_note(seats),
        "",
    ]
    return lines


def _p_text(p: float) -> str:
    """``"= 0.042"`` or ``"< 0.001"``: a p-value after the letter p."""
    text = fmt_p(p)
    return text if text.startswith("<") else f"= {text}"


def length_lines(games: dict) -> list[str]:
    """Game length in throws: mean, median, 10th and 90th percentile."""
    throws = np.asarray(games["throws"], dtype=float)
    turns = np.asarray(games["turns"], dtype=float)
    p10, p50, p90 = np.percentile(throws, [10, 50, 90])
    return [
        "## Game length",
        "",
        "| | mean (95 %) | median | 10th percentile | 90th percentile | shortest | longest |",
        "|---|---|---|---|---|---|---|",
        f"| throws a game | {mean(throws).fmt(digits=2)} | {p50:g} | {p10:g} | {p90:g} | "
        f"{throws.min():g} | {throws.max():g} |",
        f"| turns a game (no setup, decider or re-throw) | {mean(turns).fmt(digits=2)} | "
        f"{np.percentile(turns, 50):g} | {np.percentile(turns, 10):g} | {np.percentile(turns, 90):g} | "
        f"{turns.min():g} | {turns.max():g} |",
        "",
    ]


def bet_lines_throws(bets: dict, n: int, cards, no_fling: str) -> list[str]:
    """Every card as if one bettor had placed it on every throw: hit rate and chips a throw."""
    paid: dict[str, list[int]] = defaultdict(list)
    for card, p in zip(bets["card"], bets["paid"]):
        paid[card].append(p)
    lines = [
        "## Bet cards, throw by throw (a bettor on every card, every throw)",
        "",
        "| card | condition | pays | hit rate | chips per bet placed (= per throw) |",
        "|---|---|---|---|---|",
    ]
    for letter, card in cards.items():
        p = paid.get(letter, [])
        if card.condition == "spinner_fling" and no_fling:
            lines.append(f"| {letter} | {card.text} | {card.payout} | not measurable: {no_fling} | – |")
            continue
        hits = sum(v > 0 for v in p)
        lines.append(
            f"| {letter} | {card.text} | {card.payout} | {proportion(hits, len(p)).fmt(percent=True, digits=1)} | "
            f"{mean(p).fmt()} |"
        )
    return [*lines, "", DOUBLING, ""]


def bet_lines_games(bets: dict, turns: dict, in_play: list[str], cards) -> list[str]:
    """The bets the bots placed in games: per card in play, how often placed, hit rate, chips
    per bet placed and per turn (all passive players' bets on that card in a turn)."""
    n_turns = sum(k == "turn" for k in turns["kind"])
    paid: dict[str, list[int]] = defaultdict(list)
    for card, p, placed in zip(bets["card"], bets["paid"], bets["placed"]):
        if placed:
            paid[card].append(p)
    lines = [
        "## Bet cards in the games (the bets the bots placed)",
        "",
        f"Over {n_turns} turns. Chips per turn: what the bets on the card paid, summed over the "
        "bettors of a turn, per turn played.",
        "",
        "| card | condition | pays | bets placed | hit rate | chips per bet placed | chips per turn |",
        "|---|---|---|---|---|---|---|",
    ]
    for letter in in_play:
        card = cards[letter]
        p = paid.get(letter, [])
        if not p:
            lines.append(
                f"| {letter} | {card.text} | {card.payout} | 0 | not measurable: no bot bet on it | – | – |"
            )
            continue
        hits = sum(v > 0 for v in p)
        per_turn = sum(p) / n_turns if n_turns else float("nan")
        lines.append(
            f"| {letter} | {card.text} | {card.payout} | {len(p)} | "
            f"{proportion(hits, len(p)).fmt(percent=True, digits=1)} | {mean(p).fmt()} | {per_turn:.3f} |"
        )
    return [*lines, "", DOUBLING, ""]


def _mixed_skills_note(seats: dict) -> str:
    """A warning when the seats did not hold the same mix of skills (no ``--rotate``): the χ² then
    tests skill as much as seat order."""
    by_seat: defaultdict[int, Counter] = defaultdict(Counter)
    for seat, skill in zip(seats["seat"], seats.get("skill", [])):
        by_seat[seat][skill] += 1
    if len({frozenset(c.items()) for c in by_seat.values()}) <= 1:
        return ""
    held = (
        ", ".join(f"seat {s}: {'/'.join(sorted(c))}" for s, c in sorted(by_seat.items()) if len(c) == 1)
        or "unequally"
    )
    return (
        f" **The seats held different skills ({held})**, so this test and the win rates mix skill "
        "with seat order; `--rotate` gives every skill every seat in turn."
    )


def dice_lines(dice: dict, white: str) -> list[str]:
    """Per die (coloured thrown, white thrown, lying) the share that ended in a hole or off the box."""
    groups: dict[str, list[str]] = defaultdict(list)
    for owner, role, status in zip(dice["owner"], dice["role"], dice["status"]):
        if role == "lying":
            name = "a lying die"
        else:
            name = "the white die" if owner == white else "a coloured die (thrown)"
        groups[name].append(status)
    lines = [
        "## Dice lost, per die (95 % Wilson interval)",
        "",
        "| die | dice | in a hole | off the box | in a hole or off |",
        "|---|---|---|---|---|",
    ]
    for name in ("a coloured die (thrown)", "the white die", "a lying die"):
        st = groups.get(name)
        if not st:
            lines.append(f"| {name} | 0 | not measurable: no such die | – | – |")
            continue
        n = len(st)
        hole = proportion(sum(s == "hole" for s in st), n).fmt(percent=True, digits=2)
        off = proportion(sum(s == "off" for s in st), n).fmt(percent=True, digits=2)
        lost = proportion(sum(s != "board" for s in st), n).fmt(percent=True, digits=2)
        lines.append(f"| {name} | {n} | {hole} | {off} | {lost} |")
    note = (
        "Every die thrown counts once a throw: in games the setup throw's dice too (every player's "
        "coloured die, no white die), so coloured dice outnumber the turns."
    )
    return [*lines, "", note, ""]


def doppel_lines_games(games: dict, turns: dict) -> list[str]:
    """Doppel X per game and as a share of turns."""
    n_turns = sum(k == "turn" for k in turns["kind"])
    dx = sum(d and k == "turn" for d, k in zip(turns["doppel_x"], turns["kind"]))
    return [
        f"Doppel X: {mean(games['doppel_x']).fmt(digits=3)} a game; "
        f"{proportion(dx, n_turns).fmt(percent=True, digits=2)} of turns.",
        "",
    ]
