"""Conditions: what must hold for an option, an objective, a companion or an influence point."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from domain.fallout.effects.reading import EffectError, count, letter, one_of, text
from domain.fallout.model import (
    CARD_KINDS,
    ENCOUNTER_KINDS,
    EQUIPPABLE,
    FACTIONS,
    TERRAIN,
)


@dataclass(frozen=True)
class HasTrait:
    trait: str


@dataclass(frozen=True)
class HasSpecial:
    letter: str


@dataclass(frozen=True)
class InSpace:
    """Standing in a named space (by space id)."""

    space: str


@dataclass(frozen=True)
class AtEncounter:
    """Standing in a space showing an encounter icon of this kind."""

    kind: str


@dataclass(frozen=True)
class OnTerrain:
    terrain: str


@dataclass(frozen=True)
class WithSurvivor:
    """Another survivor in the same space (Solo Play: a settlement space instead)."""


@dataclass(frozen=True)
class HasCaps:
    at_least: int


@dataclass(frozen=True)
class HasItem:
    """A card (by id) equipped or in the inventory."""

    card: str


@dataclass(frozen=True)
class HasKind:
    """A card of this kind equipped or in the inventory (``equipped``: equipped only)."""

    kind: str
    equipped: bool = False


@dataclass(frozen=True)
class AtMarker:
    """Standing in a space holding a quest marker: of the card resolving it, of quest ``number``, or
    (``scenario``) one the scenario's setup placed."""

    number: int | None = None
    scenario: bool = False


@dataclass(frozen=True)
class Measured:
    """A measure of the survivor within bounds: HP, rads, remaining HP, or a tally of the game so far."""

    measure: str  # one of MEASURES
    at_least: int | None = None
    at_most: int | None = None


# hp, rads, remaining_hp: the HP track now; the rest: counted over the game (``tallies``).
MEASURES = ("hp", "rads", "remaining_hp", "xp_gained", "kills", "quests_done", "tiles_explored")


@dataclass(frozen=True)
class Loyal:
    faction: str


@dataclass(frozen=True)
class Ahead:
    """This faction's power token is further along the track than the other's."""

    faction: str
    by: int = 1


@dataclass(frozen=True)
class AllOf:
    conditions: tuple[Condition, ...]


@dataclass(frozen=True)
class AnyOf:
    conditions: tuple[Condition, ...]


@dataclass(frozen=True)
class Not:
    condition: Condition


Condition = (
    HasTrait | HasSpecial | InSpace | AtEncounter | OnTerrain | WithSurvivor | HasCaps | HasItem | HasKind |
    AtMarker | Measured | Loyal | Ahead | AllOf | AnyOf | Not
)


def _condition_entry(key: str, value: Any) -> Condition:
    if key == "trait":
        return HasTrait(text(value, "trait").lower())
    if key == "special":
        return HasSpecial(letter(value))
    if key == "space":
        return InSpace(text(value, "space"))
    if key == "encounter":
        return AtEncounter(one_of(value, ENCOUNTER_KINDS, "encounter kind"))
    if key == "terrain":
        return OnTerrain(one_of(value, TERRAIN, "terrain"))
    if key == "with_survivor":
        if value is not True:
            raise EffectError("with_survivor: write `with_survivor: true`")
        return WithSurvivor()
    if key == "caps":
        return HasCaps(count(value, "caps", 1))
    if key == "item":
        return HasItem(text(value, "item"))
    if key == "has":
        return HasKind(one_of(value, CARD_KINDS, "card kind"))
    if key == "equipped":
        return HasKind(one_of(value, EQUIPPABLE, "equipment slot"), equipped=True)
    if key == "marker":
        if value is True:
            return AtMarker()
        if value == "scenario":
            return AtMarker(scenario=True)
        return AtMarker(count(value, "marker", 1))
    if key in MEASURES:
        if not isinstance(value, dict) or not value or set(value) - {"at_least", "at_most"}:
            raise EffectError(f"{key}: write `{key}: {{at_least: n}}`, `{key}: {{at_most: n}}` or both")
        bounds = {k: count(v, f"{key}: {k}") for k, v in value.items()}
        return Measured(key, bounds.get("at_least"), bounds.get("at_most"))
    if key == "loyal":
        return Loyal(one_of(value, FACTIONS, "faction"))
    if key == "ahead":
        if isinstance(value, dict):
            unknown = set(value) - {"faction", "by"}
            if unknown or "faction" not in value:
                raise EffectError("ahead: write `ahead: star` or `ahead: {faction: star, by: 2}`")
            return Ahead(one_of(value["faction"], FACTIONS, "faction"), count(value.get("by", 1), "by", 1))
        return Ahead(one_of(value, FACTIONS, "faction"))
    if key in ("all", "any"):
        if not isinstance(value, list) or not value:
            raise EffectError(f"{key}: expected a non-empty list of conditions")
        inner = tuple(parse_condition(v) for v in value)
        return AllOf(inner) if key == "all" else AnyOf(inner)
    if key == "not":
        return Not(parse_condition(value))
    raise EffectError(f"unknown condition {key!r} (expected one of: {', '.join(CONDITION_KEYS)})")


CONDITION_KEYS = (
    "trait", "special", "space", "encounter", "terrain", "with_survivor", "caps", "item", "has",
    "equipped", "marker", "loyal", "ahead", "all", "any", "not", *MEASURES,
)


def parse_condition(raw: Any) -> Condition:
    """A mapping of condition keys; several keys must all hold."""
    if not isinstance(raw, dict) or not raw:
        raise EffectError(f"a condition is a mapping such as `{{trait: vilified}}`; got {raw!r}")
    parts = tuple(_condition_entry(str(k), v) for k, v in raw.items())
    return parts[0] if len(parts) == 1 else AllOf(parts)


def conditions_in(condition: Condition | None) -> Iterator[Condition]:
    if condition is None:
        return
    yield condition
    if isinstance(condition, (AllOf, AnyOf)):
        for inner in condition.conditions:
            yield from conditions_in(inner)
    elif isinstance(condition, Not):
        yield from conditions_in(condition.condition)
