"""The game flow of Doppelt oder nichts as one generator: rounds, turns, plays, interjections.

:meth:`Flow.game` yields a :class:`~rules.oder_nichts.actions.Decision` whenever a player
must choose and a :class:`~rules.oder_nichts.actions.ChanceRequest` whenever chance
decides; the caller sends back the (already validated) action or outcome. The generator
returns when the game is over. Attacks are in :mod:`rules.oder_nichts.attacks`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from rules.oder_nichts.actions import Action, ChanceRequest, Decision
from rules.oder_nichts.attacks import AttackFlow
from rules.oder_nichts.matching import fits, identical_plays, play_problem, plays_of, turn_plays
from rules.oder_nichts.table import Table
from rules.oder_nichts.table_ops import Step


@dataclass(frozen=True)
class RoundResult:
    """How a round ended.

    Attributes:
        round_no: 1, 2, …
        dealer: the player who dealt.
        winners: players whose hands were empty (none if the round stalled).
        hand_points: minus points each player's hand was worth (added to ``minus_after``).
        minus_after: everybody's minus points after the round.
        stalled: the round ended because nobody could play or draw any more.
    """

    round_no: int
    dealer: int
    winners: tuple[int, ...]
    hand_points: tuple[int, ...]
    minus_after: tuple[int, ...]
    stalled: bool


class Flow(AttackFlow):
    """Runs a whole game on a :class:`Table`.

    Args:
        table: a fresh table (:meth:`Table.new`).
        target_points: the game ends after the round in which someone reaches this many
            minus points.
        max_rounds: or after this many rounds (``None``: no limit).
    """

    def __init__(self, table: Table, target_points: int, max_rounds: int | None = None):
        super().__init__(table)
        self.target_points = target_points
        self.max_rounds = max_rounds
        self.results: list[RoundResult] = []
        self.idle = 0
        self.stalled = False

    # ---- game and round ----------------------------------------------------------------
    def game(self) -> Step:
        """The whole game; returns when somebody has ``target_points`` (or the round limit is hit)."""
        t = self.t
        while True:
            yield from self._round()
            if max(t.minus) >= self.target_points:
                return
            if self.max_rounds is not None and t.round_no >= self.max_rounds:
                return

    def _round(self) -> Step:
        t = self.t
        t.round_no += 1
        if t.round_no > 1:
            t.dealer_seat = (t.dealer_seat + 1) % t.n
        dealer = t.seats[t.dealer_seat]
        everything = sorted(t.all_cards())
        t.draw_pile, t.discard = [], []
        t.hands = [[] for _ in range(t.n)]
        t.direction, t.attack, t.named, t.allowed = 1, None, [], ()
        t.skips, t.away = [0] * t.n, [0] * t.n
        self.idle, self.stalled = 0, False
        self._ev(f"round {t.round_no}: {{0}} deals", dealer)
        yield from self._shuffle_into_draw(everything)
        order = t.in_order(t.next_player(dealer))
        for _ in range(t.spec.hand_size):
            for p in order:
                t.hands[p].append(t.draw_pile.pop())
        start = t.draw_pile.pop()
        t.discard.append(start)
        while not t.card(start).coloured and t.draw_pile:
            self._ev(t.card(start).label + " is turned up: not a colour card, the dealer turns up the next")
            start = t.draw_pile.pop()
            t.discard.append(start)
        t.discard.pop()
        self._ev("start card: " + t.card(start).label)
        nxt = yield from self._lay(dealer, [start], None, from_hand=False)
        while nxt is not None:
            nxt = yield from self._turn(nxt)
        self._score(dealer)

    def _score(self, dealer: int) -> None:
        t = self.t
        points = tuple(t.hand_points(p) for p in range(t.n))
        for p in range(t.n):
            t.minus[p] += points[p]
        winners = tuple(p for p in range(t.n) if not t.hands[p])
        self.results.append(RoundResult(t.round_no, dealer, winners, points, tuple(t.minus), self.stalled))
        if self.stalled:
            self._ev("nobody can play or draw any more: the round ends without a winner")
        for p in winners:
            self._ev("{0} has no cards left and wins the round", p)

    # ---- a turn ------------------------------------------------------------------------
    def _sit_out(self, p: int) -> int:
        """The first player from ``p`` on who does not lose this turn (skip, away from keyboard)."""
        t = self.t
        while True:
            if t.skips[p] > 0:
                t.skips[p] -= 1
                self._ev("{0} sits out this turn", p)
            elif t.away[p] > 1:
                t.away[p] -= 1
                self._ev("{0} is away from the keyboard this turn", p)
            else:
                if t.away[p] == 1:
                    t.away[p] = 0
                    self._ev("{0} is back at the keyboard", p)
                return p
            p = t.next_player(p)

    def _turn(self, p: int) -> Step:
        t = self.t
        p = self._sit_out(p)
        t.turns += 1
        exchanged = False
        while True:
            hand = t.hands[p]
            plays = turn_plays(hand, t.spec, t.top, t.allowed)
            options = list(plays)
            if not plays:
                options.append(Action("draw") if self._can_draw() else Action("pass"))
            if hand and not exchanged and all(t.card(c).category == "defensive" for c in hand):
                options.append(Action("exchange"))
            a = yield Decision(
                p,
                "turn",
                tuple(options),
                {"top": t.discard[-1], "allowed": list(t.allowed)},
                explain=partial(self._explain_turn, p, tuple(plays)),
            )
            if a.kind != "exchange":
                break
            exchanged = True
            yield from self._exchange(p)
        if a.kind == "play":
            self.idle = 0
            return (yield from self._lay(p, list(a.cards), a.colour))
        if a.kind == "draw":
            self.idle = 0
            got = yield from self._draw(p, 1)
            if got and fits(t.card(got[0]), t.top, t.allowed):
                options = plays_of(got, t.spec, t.allowed)
                a = yield Decision(
                    p,
                    "play_drawn",
                    tuple(options),
                    {"card": got[0]},
                    explain=lambda act: "the drawn card fits, so it must be played at once",
                )
                self._ev("{0} draws a card that fits", p)
                return (yield from self._lay(p, list(a.cards), a.colour))
            self._ev("{0} draws a card", p)
            return t.next_player(p)
        self.idle += 1
        self._ev("{0} cannot play and there is nothing to draw: pass", p)
        if self.idle >= t.n:
            self.stalled = True
            return None
        return t.next_player(p)

    def _explain_turn(self, p: int, plays: tuple[Action, ...], a: Action) -> str:
        t = self.t
        if a.kind == "play":
            problem = play_problem(a.cards, t.hands[p], t.spec, t.top, t.allowed)
            if problem:
                return problem
            card = t.card(a.cards[0])
            if card.kind == "colour_change":
                colours = [o.colour for o in plays if o.cards == a.cards and o.colour is not None]
                return f"after this colour change the colour to follow is {' or '.join(colours)}"
            return "that play is not allowed"
        if a.kind in ("draw", "pass") and plays:
            return f"you must play when you can ({t.card(plays[0].cards[0]).label} fits)"
        if a.kind == "draw":
            return "there is nothing left to draw: pass"
        if a.kind == "pass":
            return "you can still draw a card"
        if a.kind == "exchange":
            return "only a hand of nothing but grey cards can be exchanged, once per turn"
        if a.kind in ("defend", "brown", "stack", "accept"):
            return "grey and brown cards can only be played on an offensive card"
        return f"{a.kind!r} is not possible at your turn: play a card that fits, or draw"

    def _exchange(self, p: int) -> Step:
        t = self.t
        greys = list(t.hands[p])
        t.hands[p] = []
        self._ev(
            f"{{0}} shows {len(greys)} grey card(s), shuffles them into the draw pile and draws as many", p
        )
        yield from self._shuffle_into_draw(t.draw_pile + greys)
        yield from self._draw(p, len(greys))

    # ---- laying cards ------------------------------------------------------------------
    def _lay(self, p: int, ids: list[int], colour: str | None, from_hand: bool = True) -> Step:
        """``p`` lays ``ids`` (validated); carries out the effect. Returns the next player to act,
        or ``None`` when the round is over."""
        t = self.t
        card = t.card(ids[0])
        for cid in ids:
            if from_hand:
                t.hands[p].remove(cid)
            t.discard.append(cid)
        if card.kind == "colour_change":
            t.allowed = (colour,) if colour is not None else card.colours
        else:
            t.allowed = card.colours
        if from_hand:
            self._ev("{0} plays " + " + ".join(t.card(c).label for c in ids), p)
        if card.category == "offensive":
            self._offensive_laid(p, ids)
            return (yield from self._attack_loop())
        if card.kind == "number" and card.number == 0:
            yield from self._seat_swap(p)
        elif card.kind == "direction":
            for _ in ids:
                t.direction = -t.direction
            self._ev(
                "the direction of play is now " + ("clockwise" if t.direction == 1 else "counter-clockwise")
            )
        elif card.kind == "half_hand":
            for _ in ids:
                yield from self._half_hand(p)
        elif card.kind == "hand_swap":
            for _ in ids:
                yield from self._hand_swap(p)
        if self._someone_out():
            return None
        nxt = t.next_player(p)
        inter = yield from self._interject_window(p, self._next_to_act(nxt), from_hand)
        if inter is not None:
            q, act = inter
            return (yield from self._lay(q, list(act.cards), act.colour))
        return nxt

    def _next_to_act(self, p: int) -> int:
        """The first player from ``p`` on who will really take the next turn (without using up
        anybody's sit-out turns): players who sit out (skip, away) are passed over."""
        t = self.t
        for q in t.in_order(p):
            if t.skips[q] == 0 and t.away[q] <= 1:
                return q
        return p

    def _interject_window(self, p: int, nxt: int, laid_by_p: bool = True) -> Step:
        """Players holding the exact same card may throw it in: everybody but ``p`` (who laid
        it) and ``nxt`` (who takes the next turn and may simply lay it then). Players who sit
        out are asked too ("Dazwischenwerfen darf er weiterhin"). For the start card
        (``laid_by_p`` false) the dealer ``p`` is asked as well, last: the card came from the
        pile, not from the dealer's hand.

        Returns ``(player, action)`` of the first who does (in play order after ``p``), or ``None``.
        """
        t = self.t
        order = t.in_order(p)
        order = order[1:] + ([] if laid_by_p else order[:1])
        for q in order:
            if q == nxt or not t.present(q) or not t.hands[q]:
                continue
            options = identical_plays(t.hands[q], t.spec, t.top, t.allowed)
            if not options:
                continue
            used = {c for o in options for c in o.cards}
            legal = (
                options
                + [Action("pass_window")]
                + [Action("out_of_turn", (c,)) for c in sorted(t.hands[q]) if c not in used]
            )
            a = yield Decision(
                q,
                "window",
                tuple(legal),
                {"attack": None},
                explain=partial(self._explain_window, q),
            )
            if a.kind == "interject":
                self._ev("{0} interjects", q)
                return q, a
            if a.kind == "out_of_turn":
                yield from self._penalty(q, a.cards)
        return None

    # ---- neutral effects ---------------------------------------------------------------
    def _seat_swap(self, p: int) -> Step:
        t = self.t
        legal = (Action("seat"),) + tuple(Action("seat", target=q) for q in range(t.n) if q != p)
        a = yield Decision(
            p, "seat", legal, {}, explain=lambda act: "swap seats with another player, or stay"
        )
        if a.target is None:
            return
        i, j = t.seat_of(p), t.seat_of(a.target)
        t.seats[i], t.seats[j] = a.target, p
        self._ev("{0} swaps seats with {1}", p, a.target)

    def _half_hand(self, p: int) -> Step:
        t = self.t
        k = len(t.hands[p]) // 2
        if k == 0:
            self._ev("half hand: {0} has fewer than two cards, nothing to put away", p)
            return
        a = yield Decision(
            p, "half_hand", (Action("halve", choice="yes"), Action("halve", choice="no")), {"count": k}
        )
        if a.choice == "no":
            return
        outcome = yield ChanceRequest("pick", player=p, cards=tuple(sorted(t.hands[p])), count=k)
        for cid in outcome.cards:
            t.hands[p].remove(cid)
            t.discard.insert(0, cid)
        self._ev(f"{{0}} puts {k} random card(s) under the discard pile", p)

    def _hand_swap(self, p: int) -> Step:
        t = self.t
        legal = tuple(Action("swap", target=q) for q in range(t.n) if q != p)
        a = yield Decision(
            p, "hand_swap", legal, {}, explain=lambda act: "you must swap hands with another player"
        )
        q = a.target
        assert q is not None  # every legal swap names the partner
        t.hands[p], t.hands[q] = t.hands[q], t.hands[p]
        self._ev("{0} swaps hands with {1}", p, q)
