"""The match-point ending: columns worth 4, 3, 2, 1, the highest single result 1, the grand total 2.

"Das höchste Einzelergebnis" is read by ``spec.highest_single``: ``column`` (default) compares
the best column totals, ``entry`` the highest single entries on the sheets.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.doppelspiel.sheet import Sheet


@dataclass(frozen=True)
class MatchResult:
    """Match points of a finished (or running) game.

    Attributes:
        points: match points per player.
        awards: ``(what, winner, points)`` per item, ``winner`` ``None`` on a tie
            (nobody gets tied points).
        totals: column totals per player.
        grand: grand totals per player.
    """

    points: tuple[int, ...]
    awards: tuple[tuple[str, int | None, int], ...]
    totals: tuple[tuple[int, ...], ...]
    grand: tuple[int, ...]

    @property
    def winner(self) -> int | None:
        """The player with more match points, ``None`` on a draw."""
        a, b = self.points
        return 0 if a > b else 1 if b > a else None


def _higher(a: int, b: int) -> int | None:
    return 0 if a > b else 1 if b > a else None


def match_points(sheets: list[Sheet]) -> MatchResult:
    """Compare two sheets column by column, by the highest single result and by grand total."""
    spec = sheets[0].spec
    totals = tuple(tuple(s.totals()) for s in sheets)
    awards: list[tuple[str, int | None, int]] = []
    for c, worth in enumerate(spec.column_match_points):
        awards.append((f"column {c + 1}", _higher(totals[0][c], totals[1][c]), worth))
    if spec.highest_single == "entry":
        best = [max((v for col in s.cells for v in col if v is not None), default=0) for s in sheets]
        awards.append(("highest single entry", _higher(best[0], best[1]), spec.best_column_match_points))
    else:
        awards.append(
            ("best single column", _higher(max(totals[0]), max(totals[1])), spec.best_column_match_points)
        )
    grand = tuple(sum(t) for t in totals)
    awards.append(("grand total", _higher(grand[0], grand[1]), spec.grand_total_match_points))
    points = [0, 0]
    for _, who, worth in awards:
        if who is not None:
            points[who] += worth
    return MatchResult(tuple(points), tuple(awards), totals, grand)
