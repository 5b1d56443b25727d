"""Tasks: a test, or "draw and fight" (Encounter Action, Quest Cards)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.fallout.effects.amounts import Amount, parse_amount
from domain.fallout.effects.reading import EffectError, letter, one_of
from domain.fallout.model import (
    ENEMY_TYPES,
)


@dataclass(frozen=True)
class TestTask:
    """Roll the V.A.T.S. dice; one reroll per listed letter the tester has (Tests)."""

    letters: tuple[str, ...]
    difficulty: Amount
    # "self": the acting survivor; "partner": another survivor in the space
    # (Solo Play: assumed to score 3 hits).
    by: str = "self"

    __test__ = False  # not a pytest test class


@dataclass(frozen=True)
class DrawAndFight:
    """Draw an enemy of ``type`` from the supply and fight it; succeed only by killing it."""

    type: str


Task = TestTask | DrawAndFight


def parse_task(raw: Any) -> Task:
    if not isinstance(raw, dict) or len(raw) != 1:
        raise EffectError(f"a task is `{{test: ...}}` or `{{draw_and_fight: <enemy type>}}`; got {raw!r}")
    (key, value), = raw.items()
    if key == "draw_and_fight":
        return DrawAndFight(one_of(value, ENEMY_TYPES, "enemy type"))
    if key == "test":
        if not isinstance(value, dict):
            raise EffectError("test: write `test: {special: [S, A], difficulty: 3}`")
        unknown = set(value) - {"special", "difficulty", "by"}
        if unknown:
            raise EffectError(f"test: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
        letters_raw = value.get("special")
        if isinstance(letters_raw, str):
            letters_raw = [c for c in letters_raw if not c.isspace() and c != ","]
        if not isinstance(letters_raw, list) or not letters_raw:
            raise EffectError("test: `special` lists one or more S.P.E.C.I.A.L. letters")
        letters = tuple(letter(c) for c in letters_raw)
        if "difficulty" not in value:
            raise EffectError("test: `difficulty` is required")
        difficulty = parse_amount(value["difficulty"])
        by = one_of(value.get("by", "self"), ("self", "partner"), "tester")
        return TestTask(letters, difficulty, by)
    raise EffectError(f"unknown task {key!r} (expected test or draw_and_fight)")


def parse_tasks(raw: Any) -> tuple[Task, ...]:
    if not isinstance(raw, (list, tuple)):
        raise EffectError("tasks: expected a list")
    return tuple(parse_task(t) for t in raw)
