"""Attacks: offensive cards, passing them on, grey defences, brown cards, and their effects.

An offensive card aims at the next player. Before the target decides, every other player
who is at the table (not the owner) may interject the exact same offensive card or throw a
brown card (one brown card per offensive card). The target then defends with a grey card
(which goes under the pile), passes the attack on with an offensive card of the same
symbol, throws a brown card, or accepts. Once accepted (or hit by "Not Me") the effect is
carried out and the game continues with the (original) target's turn.
"""

from __future__ import annotations

from functools import partial

from rules.oder_nichts.actions import Action, ChanceRequest, Decision
from rules.oder_nichts.cards import COLOURS
from rules.oder_nichts.matching import identical_plays, stack_plays
from rules.oder_nichts.table import Attack
from rules.oder_nichts.table_ops import Step, TableOps
from rules.oder_nichts.unlucky import GESTURES, RPS, minority, rps_loser


class AttackFlow(TableOps):
    """The attack part of the game flow (mixed into :class:`rules.oder_nichts.flow.Flow`)."""

    #: who takes the next turn after an attack was carried out
    after_attack: int | None = None

    @property
    def _att(self) -> Attack:
        """The attack in progress (the methods that read it run only while there is one)."""
        att = self.t.attack
        assert att is not None, "no attack in progress"
        return att

    # ---- starting and extending -------------------------------------------------------
    def _offensive_laid(self, player: int, ids: list[int]) -> None:
        """An offensive card (or identical pair) was laid by ``player``: start or extend the attack."""
        t = self.t
        card = t.card(ids[0])
        amount = card.amount * len(ids)
        if t.attack is None:
            t.attack = Attack(symbol=card.kind, cards=list(ids), amount=amount, owner=player, target=player)
        else:
            att = t.attack
            att.cards.extend(ids)
            att.amount += amount
            att.owner = player
            att.brown_open = True
            att.last_redirect = None
        target = self._next_target(player)
        # the layer's next player, or (interjecting) the current target, is always there
        assert target is not None
        t.attack.target = target
        self._ev("{0} attacks {1} with " + self.describe(t.attack), player, target)

    def describe(self, att: Attack) -> str:
        """The attack's kind and size in words, e.g. ``+3 (6 cards)``."""
        name = self.t.spec.kinds[att.symbol].name
        if att.symbol == "skip":
            extra = f" ({att.amount} player(s) sit out, {att.turns} turn(s) each)"
        elif att.symbol == "minus20":
            extra = f" ({att.amount} minus points)"
        elif att.symbol in ("draw3", "draw5"):
            extra = f" ({att.amount} cards)"
        elif att.symbol == "afk":
            extra = f" ({att.amount} turn(s) away)"
        else:
            extra = f" ({att.amount} number(s) to name)"
        return name + extra

    # ---- the loop ----------------------------------------------------------------------
    def _attack_loop(self) -> Step:
        """Run the attack until it is carried out. Returns the next player to act, or ``None``
        when a hand is empty afterwards (the round is over)."""
        t = self.t
        while t.attack is not None:
            if (yield from self._attack_window()):
                continue
            att = t.attack
            target = att.target
            legal = self._target_options(target)
            a = yield Decision(
                target,
                "attack",
                tuple(legal),
                {"attack": att.to_json()},
                explain=partial(self._explain_attack, target),
            )
            if a.kind == "accept":
                self._ev("{0} accepts the attack", target)
                yield from self._carry_out(att, [target])
                t.attack = None
                self.after_attack = target
            elif a.kind == "stack":
                self._lay_offensive_from_hand(target, list(a.cards))
            elif a.kind == "defend":
                yield from self._defend(target, a)
            else:
                yield from self._brown(target, a)
        if self._someone_out():
            return None
        return self.after_attack

    def _lay_offensive_from_hand(self, player: int, ids: list[int]) -> None:
        t = self.t
        for cid in ids:
            t.hands[player].remove(cid)
            t.discard.append(cid)
        t.allowed = t.card(ids[0]).colours
        self._ev("{0} passes the attack on with " + " + ".join(t.card(c).label for c in ids), player)
        self._offensive_laid(player, ids)

    # ---- options -----------------------------------------------------------------------
    def _brown_options(self, player: int) -> list[Action]:
        t = self.t
        att = t.attack
        if att is None or not att.brown_open or player == att.owner:
            return []
        out: list[Action] = []
        for cid in sorted(t.hands[player]):
            card = t.card(cid)
            if card.category != "brown":
                continue
            if card.kind == "hijack":
                out.extend(
                    Action("brown", (cid,), target=q) for q in range(t.n) if q != player and t.away[q] == 0
                )
            else:
                out.append(Action("brown", (cid,)))
        return out

    def _target_options(self, target: int) -> list[Action]:
        t = self.t
        att = self._att
        hand = t.hands[target]
        legal: list[Action] = [Action("accept")]
        if self._next_target(target) is not None:
            legal.extend(stack_plays(hand, t.spec, att.symbol))
        for cid in sorted(hand):
            card = t.card(cid)
            if card.category != "defensive":
                continue
            if card.kind == "dodge":
                if self._dodge_target(target) is not None:
                    legal.append(Action("defend", (cid,)))
            elif card.kind == "you":
                legal.extend(
                    Action("defend", (cid,), target=q) for q in range(t.n) if q != target and t.present(q)
                )
            else:
                legal.append(Action("defend", (cid,)))
        legal.extend(self._brown_options(target))
        return legal

    def _dodge_target(self, player: int) -> int | None:
        att = self._att
        att.absent.add(player)
        try:
            return self._next_target(player)
        finally:
            att.absent.discard(player)

    def _explain_attack(self, player: int, a: Action) -> str:
        t = self.t
        att = self._att
        name = t.spec.kinds[att.symbol].name
        if a.kind not in ("accept", "stack", "defend", "brown"):
            return (
                f"you are under attack ({name}): defend with a grey card, pass it on with a {name} card, "
                "throw a brown card, or accept"
            )
        for cid in a.cards:
            if cid not in t.hands[player]:
                return f"card {cid} is not in your hand"
        if len(set(a.cards)) != len(a.cards):
            return "the same card was named twice"
        if len(a.cards) > 1 and a.kind in ("defend", "brown"):
            return "grey and brown cards are laid one at a time"
        if not a.cards and a.kind != "accept":
            return "name the card to lay"
        card = t.card(a.cards[0]) if a.cards else None
        assert card is not None  # only "accept" has no cards, and it is always legal
        if a.kind == "stack":
            if card.kind != att.symbol:
                return f"only a {name} card (any colour) passes this attack on; {card.label} does not"
            if len(a.cards) > 2 or len(a.cards) == 2 and t.card(a.cards[1]).identity != card.identity:
                return "two cards laid together must be exactly the same card"
            return "there is nobody left to pass the attack on to"
        if a.kind == "defend":
            if card.category != "defensive":
                return f"{card.label} is not a grey (defensive) card"
            if card.kind == "dodge":
                return "nobody is left to dodge to"
            if card.kind == "you":
                return "'you!' needs another player at the table as the new target"
            return f"{card.label} cannot be laid like that"
        if card.category != "brown":
            return f"{card.label} is not a brown card"
        return self._explain_brown(player, card.kind, a)

    def _explain_brown(self, player: int, kind: str, a: Action) -> str:
        att = self._att
        if player == att.owner:
            return "a brown card may not be laid on an offensive card you laid yourself"
        if not att.brown_open:
            return "only one brown card may be laid on each offensive card"
        if kind == "hijack":
            return "hijack needs a new target: another player at the table"
        return "that brown card cannot be laid like that"

    # ---- window for everybody else -----------------------------------------------------
    def _attack_window(self) -> Step:
        """Other players may interject the same offensive card or throw a brown card.

        Returns True if somebody did (the attack changed), else False.
        """
        t = self.t
        att = self._att
        for q in t.in_order(att.target)[1:]:
            if q == att.owner or not t.present(q) or not t.hands[q]:
                continue
            options = identical_plays(t.hands[q], t.spec, t.top, t.allowed) + self._brown_options(q)
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
                {"attack": att.to_json()},
                explain=partial(self._explain_window, q),
            )
            if a.kind == "interject":
                self._ev("{0} interjects", q)
                self._lay_offensive_from_hand(q, list(a.cards))
                return True
            if a.kind == "brown":
                yield from self._brown(q, a)
                return True
            if a.kind == "out_of_turn":
                yield from self._penalty(q, a.cards)
        return False

    def _explain_window(self, player: int, a: Action) -> str:
        t = self.t
        for cid in a.cards:
            if cid not in t.hands[player]:
                return f"card {cid} is not in your hand"
        if len(set(a.cards)) != len(a.cards):
            return "the same card was named twice"
        if a.kind == "interject":
            if any(not t.card(c).coloured for c in a.cards):
                return "only coloured cards can be interjected"
            return f"only the exact same card as the top card ({t.top.label}) can be interjected"
        if a.kind == "brown" and a.cards and t.attack is not None:
            return self._explain_brown(player, t.card(a.cards[0]).kind, a)
        return "it is not your turn: interject the exact same card as the top card, or pass"

    # ---- grey and brown cards ------------------------------------------------------------
    def _under_pile(self, player: int, cid: int) -> None:
        self.t.hands[player].remove(cid)
        self.t.discard.insert(0, cid)

    def _defend(self, player: int, a: Action) -> Step:
        t = self.t
        att = self._att
        cid = a.cards[0]
        card = t.card(cid)
        self._under_pile(player, cid)
        att.last_redirect = player
        if card.kind == "dodge":
            att.absent.add(player)
            nxt = self._next_target(player)
            assert nxt is not None  # dodging is offered only when somebody is left
            att.target = nxt
        elif card.kind == "you":
            assert a.target is not None  # every legal "you!" names the new target
            att.target = a.target
        elif card.kind == "mirror":
            t.direction = -t.direction
            nxt = self._next_target(player)
            att.target = player if nxt is None else nxt
        else:
            att.target = yield from self._who_is_unlucky(player)
        self._ev("{0} lays " + card.label + ": the attack now aims at {1}", player, att.target)

    def _brown(self, player: int, a: Action) -> Step:
        t = self.t
        att = self._att
        cid = a.cards[0]
        card = t.card(cid)
        self._under_pile(player, cid)
        att.brown_open = False
        if card.kind == "hijack":
            assert a.target is not None  # every legal hijack names the new target
            att.owner = player
            att.target = a.target
            att.absent.clear()
            att.last_redirect = None
            self._ev("{0} hijacks the attack and aims it at {1}", player, a.target)
        elif card.kind == "double":
            if att.symbol == "skip":
                att.turns *= 2
            else:
                att.amount *= 2
            self._ev("{0} doubles the attack: now " + self.describe(att), player)
        else:
            self._ev("{0} lays 'not me': everybody else gets the effect", player)
            original = att.target
            victims = [q for q in t.in_order(original) if q != player]
            yield from self._carry_out(att, victims, not_me=player)
            t.attack = None
            self.after_attack = original

    def _who_is_unlucky(self, starter: int) -> Step:
        t = self.t
        group = [q for q in t.in_order(starter) if t.present(q)]
        if starter not in group:
            group.insert(0, starter)
        while len(group) > 2:
            gestures: dict[int, str] = {}
            for q in group:
                a = yield Decision(
                    q, "gesture", tuple(Action("gesture", choice=g) for g in GESTURES), {"group": list(group)}
                )
                assert a.choice is not None  # every legal gesture is a choice
                gestures[q] = a.choice
            smaller = minority(gestures)
            if smaller is None:
                self._ev("who is unlucky: no minority, again")
                continue
            group = [q for q in group if q in smaller]
        if len(group) == 1:
            return group[0]
        while True:
            signs: list[tuple[int, str]] = []
            for q in group:
                a = yield Decision(
                    q,
                    "rps",
                    tuple(Action("rps", choice=s) for s in RPS),
                    {"opponent": group[1] if q == group[0] else group[0]},
                )
                assert a.choice is not None  # every legal sign is a choice
                signs.append((q, a.choice))
            loser = rps_loser(signs[0], signs[1])
            if loser is not None:
                return loser
            self._ev("rock-paper-scissors: a draw, again")

    # ---- carrying out ------------------------------------------------------------------
    def _carry_out(self, att: Attack, victims: list[int], not_me: int | None = None) -> Step:
        """Apply the attack to ``victims`` (one target, or everybody but the 'not me' player)."""
        t = self.t
        everyone = not_me is not None
        for q in victims:
            if att.symbol == "skip":
                for r, turns in self._skip_turns(att, q, everyone).items():
                    t.skips[r] += turns
                    self._ev(f"{{0}} sits out {turns} turn(s)", r)
            elif att.symbol == "minus20":
                t.minus[q] += att.amount
                self._ev(f"{{0}} gets {att.amount} minus points", q)
            elif att.symbol == "afk":
                t.away[q] += att.amount + (1 if t.away[q] == 0 else 0)
                texts = "; ".join(t.spec.tasks[key].text for key in self._task_keys(att))
                self._ev(f"{{0}} is away from the keyboard for {att.amount} turn(s): " + texts, q)
            elif att.symbol == "magnet":
                yield from self._magnet(q, att.amount)
            else:
                yield from self._draw_or_task(att, q, not_me)

    def _skip_turns(self, att: Attack, q: int, everyone: bool) -> dict[int, int]:
        """Turns to sit out per player for a skip attack carried out on ``q``.

        k skip cards make ``q`` and the players after ``q`` sit out, one turn per card (times
        ``att.turns`` for "double"), but never the player who laid the last skip: when the
        table has fewer other players than cards, the count goes round them again, so in a
        two-player game two skips make the target sit out twice (instead of hitting the
        layer too, which would cancel the card). "Not me": each victim sits out once.
        """
        if everyone:
            return {q: att.turns}
        t = self.t
        pool = [r for r in t.in_order(q) if r == q or r != att.owner]
        out: dict[int, int] = {}
        for i in range(att.amount):
            r = pool[i % len(pool)]
            out[r] = out.get(r, 0) + att.turns
        return out

    def _task_keys(self, att: Attack) -> list[str]:
        """The printed tasks of the attack's cards (afk and draw cards all carry one)."""
        keys: list[str] = []
        for c in att.cards:
            key = self.t.card(c).task
            assert key is not None, f"card {c} carries no task"
            keys.append(key)
        return keys

    def _opponent(self, att: Attack, q: int, not_me: int | None) -> int:
        if att.owner != q:
            return att.owner
        for r in (not_me, att.last_redirect):
            if r is not None and r != q:
                return r
        return self.t.next_player(q)

    def _draw_or_task(self, att: Attack, q: int, not_me: int | None) -> Step:
        t = self.t
        tasks = self._task_keys(att)
        a = yield Decision(
            q,
            "task",
            (Action("draw"), Action("attempt")),
            {"cards": att.amount, "tasks": tasks, "opponent": self._opponent(att, q, not_me)},
        )
        if a.kind == "draw":
            self._ev(f"{{0}} draws {att.amount} card(s)", q)
            yield from self._draw(q, att.amount)
            return
        opponent = self._opponent(att, q, not_me)
        for key in tasks:
            task = t.spec.tasks[key]
            outcome = yield ChanceRequest(
                "task",
                player=q,
                probability=task.success,
                info={
                    "task": key,
                    "text": task.text,
                    "opponent": opponent,
                    "versus_owner": task.versus_owner,
                },
            )
            if outcome.choice == "failure":
                self._ev(f"{{0}} fails the task (double or nothing) and draws {2 * att.amount} card(s)", q)
                yield from self._draw(q, 2 * att.amount)
                return
        self._ev("{0} manages the task(s) and draws nothing", q)

    def _magnet(self, q: int, count: int) -> Step:
        t = self.t
        for _ in range(count):
            numbers = [n for n in range(1, 10) if n not in t.named]
            if numbers:
                legal = tuple(Action("name", number=n) for n in numbers)
            else:
                legal = tuple(Action("name", colour=c) for c in COLOURS)
            a = yield Decision(
                q,
                "magnet",
                legal,
                {"named": list(t.named)},
                explain=partial(_explain_magnet, tuple(numbers)),
            )
            taken: list[int] = []
            for r in range(t.n):
                if r == q:
                    continue
                if a.number is not None:
                    grab = [c for c in t.hands[r] if t.card(c).number == a.number]
                else:
                    grab = [c for c in t.hands[r] if a.colour in t.card(c).colours]
                for c in grab:
                    t.hands[r].remove(c)
                taken.extend(grab)
            t.hands[q].extend(taken)
            what = str(a.number) if a.number is not None else a.colour
            named = a.number if a.number is not None else a.colour
            assert named is not None  # every legal naming gives a number or a colour
            t.named.append(named)
            self._ev(f"{{0}} names {what} and pulls {len(taken)} card(s) from the others", q)


def _explain_magnet(numbers: tuple[int, ...], action: Action) -> str:
    """Why a magnet naming was refused, given the numbers still free this round."""
    if numbers:
        return f"name a number 1-9 not named yet this round: {list(numbers)}"
    return "all numbers 1-9 were named: name a colour"
