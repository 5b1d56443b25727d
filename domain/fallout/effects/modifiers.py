"""Modifiers: what a card changes in fights and tests, rather than a result it resolves.

A card's ``passive`` modifiers hold for as long as the card is held (an
equipped item or companion, or a character card beside the board); a card or
perk with a ``timing`` ("before a fight", "during a fight": Fight) has
modifiers as its ``effects``, which hold for the one fight it is used in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.fallout.effects.conditions import Condition, parse_condition
from domain.fallout.effects.reading import EffectError, count
from domain.fallout.model import TIMINGS

# fight_rerolls: more rerolls in a fight's step 2; test_rerolls: in a test's;
# fight_hits: more hits inflicted in step 4; armor: enemy hits canceled in step 3.
MODIFIER_KEYS = ("fight_rerolls", "test_rerolls", "fight_hits", "armor")

__all__ = ["MODIFIER_KEYS", "TIMINGS", "Modifier", "parse_modifier", "parse_modifiers"]


@dataclass(frozen=True)
class Modifier:
    key: str  # one of MODIFIER_KEYS
    amount: int
    condition: Condition | None = None  # it applies only while this holds


def parse_modifier(raw: Any) -> Modifier:
    if not isinstance(raw, dict):
        raise EffectError(f"a modifier is a mapping such as `{{fight_rerolls: 1}}`; got {raw!r}")
    keys = [k for k in raw if k != "if"]
    if len(keys) != 1 or keys[0] not in MODIFIER_KEYS:
        raise EffectError(f"a modifier has one of {', '.join(MODIFIER_KEYS)} (and optionally `if`); got {raw!r}")
    key = str(keys[0])
    condition = parse_condition(raw["if"]) if "if" in raw else None
    return Modifier(key, count(raw[key], key, 1), condition)


def parse_modifiers(raw: Any) -> tuple[Modifier, ...]:
    if not isinstance(raw, (list, tuple)):
        raise EffectError("modifiers: expected a list")
    return tuple(parse_modifier(m) for m in raw)
