"""Triggers of triggered quest objectives: a kill, an exploration, entering a space."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.fallout.effects.reading import EffectError, one_of, text
from domain.fallout.model import (
    ENEMY_TYPES,
    FACTIONS,
    TILE_BACKS,
)


@dataclass(frozen=True)
class KillTrigger:
    """A survivor kills an enemy of ``type`` (any type: None; a faction token: ``faction``)."""

    type: str | None = None
    faction: str | None = None


@dataclass(frozen=True)
class ExploreTrigger:
    """A survivor explores a tile: this tile id, or any tile of this back."""

    tile: str | None = None
    back: str | None = None


@dataclass(frozen=True)
class EnterTrigger:
    """A survivor moves into this space."""

    space: str


Trigger = KillTrigger | ExploreTrigger | EnterTrigger


def parse_trigger(raw: Any) -> Trigger:
    if not isinstance(raw, dict) or len(raw) != 1:
        raise EffectError(f"a trigger is `{{kill: <type>}}`, `{{explore: <tile or back>}}` or `{{enter: <space>}}`; got {raw!r}")
    (key, value), = raw.items()
    if key == "kill":
        if value == "any":
            return KillTrigger()
        if value in FACTIONS:
            return KillTrigger(faction=value)
        return KillTrigger(type=one_of(value, ENEMY_TYPES + ("any",) + FACTIONS, "enemy type or faction"))
    if key == "explore":
        name = text(value, "explore")
        if name == "any":
            return ExploreTrigger()
        if name in TILE_BACKS:
            return ExploreTrigger(back=name)
        return ExploreTrigger(tile=name)
    if key == "enter":
        return EnterTrigger(text(value, "enter"))
    raise EffectError(f"unknown trigger {key!r} (expected kill, explore or enter)")
