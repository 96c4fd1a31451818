"""The one place DoppelX bots are made: a bot by skill name (:func:`make_bot`), one per seat
(:func:`make_bots`), and the checks of the seat options.

The throwing skills (easy, medium, hard) aim at the best field (:mod:`doppelx.games.doppelx.bots`); the
``expert`` plans with physics (:mod:`doppelx.games.doppelx.planner.expert`). This module sits above both,
so the planner can build on the field-aiming policies without an import circle.
"""

from __future__ import annotations

from collections.abc import Sequence

from doppelx.games.doppelx.bots import AimAtBestField, DoppelXBot
from doppelx.games.doppelx.policies import BOT_SKILLS, EXPERT
from physics.throw_model import SKILLS


def make_bot(name: str, think: int | None = None) -> DoppelXBot:
    """A bot of skill ``easy``, ``medium``, ``hard`` or ``expert``.

    Args:
        name: the skill.
        think: the expert's rollouts per decision (default
            :data:`doppelx.games.doppelx.planner.expert.DEFAULT_ROLLOUTS`); ignored by the other skills.
    """
    if name == EXPERT:
        from doppelx.games.doppelx.planner.expert import DEFAULT_ROLLOUTS, make_expert_bot

        return make_expert_bot(think or DEFAULT_ROLLOUTS)
    if name not in SKILLS:
        raise ValueError(f"skill must be one of {', '.join(BOT_SKILLS)}, got {name!r}")
    return DoppelXBot(AimAtBestField(SKILLS[name]))


def make_bots(
    colours: Sequence[str], skill: str | Sequence[str] = "medium", think: int | None = None
) -> dict[str, DoppelXBot]:
    """One bot per colour: all of ``skill``, or ``skill[i]`` for seat ``i`` (a thinking bot each its own)."""
    skills = [skill] * len(colours) if isinstance(skill, str) else list(skill)
    if len(skills) != len(colours):
        raise ValueError(f"{len(colours)} seats need {len(colours)} skills, got {len(skills)}")
    made: dict[str, DoppelXBot] = {}
    out = {}
    for c, s in zip(colours, skills):
        if s == EXPERT:
            out[c] = make_bot(s, think)
        else:
            out[c] = made.setdefault(s, make_bot(s))
    return out


def has_expert(skill: str | None, skills: Sequence[str] | None) -> bool:
    """A seat is an expert: ``--skill expert`` (for all seats) or expert among ``--skills``."""
    return EXPERT in (skills or [skill or ""])


def check_seat_options(
    skill: str | None, skills: Sequence[str] | None, think: int | None, rotate: bool = False
) -> None:
    """Refuse seat options that would be silently ignored: ``--skill`` beside ``--skills``
    (each seat has its skill from ``--skills``), ``--rotate`` without ``--skills`` (it shifts
    them), ``--think`` without an expert seat (only an expert thinks). ``skill`` is None when
    ``--skill`` was not given."""
    from rules.common.errors import RulesError

    if skill is not None and skills:
        raise RulesError(
            f"--skill {skill} gives every seat one skill and --skills one skill per seat; give one of them"
        )
    if rotate and not skills:
        raise RulesError("--rotate shifts the seats' --skills round the table; give --skills S1,S2,...")
    if think is not None and not has_expert(skill, skills):
        raise RulesError(
            "--think sets an expert's rollouts, but no seat is an expert "
            "(--skill expert, or expert among --skills)"
        )
