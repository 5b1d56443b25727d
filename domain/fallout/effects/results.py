"""Results: the results bar, resolved left to right (Results)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from domain.fallout.effects.amounts import Amount, parse_amount
from domain.fallout.effects.reading import EffectError, count, one_of, text
from domain.fallout.model import (
    ENEMY_TYPES,
    FACTIONS,
)


@dataclass(frozen=True)
class Add:
    """ADD #: shuffle library card # with as many cards from the top of its deck as players."""

    number: int


@dataclass(frozen=True)
class Stage:
    """STAGE #: quest card # face up in the play area (its top section executed)."""

    number: int


@dataclass(frozen=True)
class Become:
    trait: str


@dataclass(frozen=True)
class LoseTrait:
    trait: str


@dataclass(frozen=True)
class GainXP:
    amount: Amount


@dataclass(frozen=True)
class GainCaps:
    amount: Amount


@dataclass(frozen=True)
class LoseCaps:
    """Pay Caps: as many as the survivor has, at most this amount (Caps never go negative)."""

    amount: Amount


@dataclass(frozen=True)
class Draw:
    """Draw and keep n loot, asset or agenda cards."""

    deck: str  # "loot", "asset", "agenda"
    amount: Amount


@dataclass(frozen=True)
class Shop:
    """SHOP #: draw one asset to the left of the shop, then up to # buys, sells or recruits."""

    amount: Amount


@dataclass(frozen=True)
class GainUnique:
    """GAIN THE X UNIQUE ASSET (``card`` None: a random one)."""

    card: str | None


@dataclass(frozen=True)
class Power:
    """★+ / ♠+: the faction advances one space per +; ★− / ♠−: it falls back one per − (negative steps)."""

    faction: str
    steps: int


@dataclass(frozen=True)
class Trash:
    """TRASH: the card resolving this goes back to the box (its quest markers too)."""


@dataclass(frozen=True)
class SufferDamage:
    amount: Amount


@dataclass(frozen=True)
class SufferRads:
    amount: Amount


@dataclass(frozen=True)
class RecoverHP:
    amount: Amount


@dataclass(frozen=True)
class RemoveRads:
    amount: Amount


@dataclass(frozen=True)
class PlaceMarker:
    """A quest marker pair: one on ``space``, one on the quest card resolving this."""

    space: str


@dataclass(frozen=True)
class RemoveMarker:
    """Discard the markers of the quest card resolving this."""


@dataclass(frozen=True)
class PlaceFactionToken:
    """Place a faction token (the enemy the scenario says it is) face up in ``space``."""

    faction: str
    space: str


@dataclass(frozen=True)
class MoveSurvivor:
    """The survivor's figure goes to ``space`` (no movement points, no terrain, no fight on arrival)."""

    space: str


@dataclass(frozen=True)
class PlaceEnemy:
    """Draw an enemy of ``type`` from the supply and place it in ``space`` (None: the survivor's space)."""

    type: str
    space: str | None = None
    active: bool = True


@dataclass(frozen=True)
class KillEnemy:
    """Kill an active enemy of ``type`` ("any": of any type) in the survivor's space, outside a fight: the
    survivor gains its XP (Killed), and its loot; it is replaced as usual."""

    type: str


@dataclass(frozen=True)
class FightEnemy:
    """Fight an active enemy of ``type`` ("any": of any type) in the survivor's space, without an action."""

    type: str


@dataclass(frozen=True)
class LoseItem:
    """Discard this card if the survivor has it (equipped or in the inventory)."""

    card: str


@dataclass(frozen=True)
class GainMovement:
    points: int


@dataclass(frozen=True)
class Unexhaust:
    """Unexhaust all of the survivor's cards (paying unexhaust costs, checking companions)."""


Result = (
    Add | Stage | Become | LoseTrait | GainXP | GainCaps | LoseCaps | Draw | Shop | GainUnique | Power | Trash |
    SufferDamage | SufferRads | RecoverHP | RemoveRads | PlaceMarker | RemoveMarker | PlaceFactionToken |
    LoseItem | GainMovement | Unexhaust | MoveSurvivor | PlaceEnemy | KillEnemy | FightEnemy
)

_BARE_RESULTS: Final[dict[str, type[Trash | RemoveMarker | Unexhaust]]] = {"trash": Trash, "remove_marker": RemoveMarker, "unexhaust": Unexhaust}
_AMOUNT_RESULTS: Final[dict[str, type[GainXP | GainCaps | LoseCaps | Shop | SufferDamage | SufferRads | RecoverHP | RemoveRads]]] = {
    "xp": GainXP, "caps": GainCaps, "lose_caps": LoseCaps, "shop": Shop,
    "damage": SufferDamage, "rads": SufferRads, "recover": RecoverHP, "remove_rads": RemoveRads,
}
_DRAWS = ("loot", "asset", "agenda")
_FACTION_SIGNS: Final = {"★": "star", "♠": "spade"}

RESULT_KEYS = (
    "add", "stage", "become", "lose_trait", "xp", "caps", "lose_caps", "loot", "asset", "agenda",
    "shop", "unique", "star", "spade", "trash", "damage", "rads", "recover", "remove_rads",
    "place_marker", "remove_marker", "faction_token", "lose_item", "movement", "unexhaust",
    "move_to", "place_enemy", "kill_enemy", "fight_enemy",
)


_MINUS = ("-", "−")


def _plusses(raw: Any, what: str) -> int:
    """Steps: "+"s forward, "-"s (or "−"s) back, or a whole number (negative: back)."""
    if isinstance(raw, str) and raw and set(raw) == {"+"}:
        return len(raw)
    if isinstance(raw, str) and raw and set(raw) <= set(_MINUS):
        return -len(raw)
    if isinstance(raw, int) and not isinstance(raw, bool) and raw < 0:
        return raw
    return count(raw, what, 1)


def _library_number(raw: Any, what: str) -> int:
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw)
    return count(raw, what, 1)


def parse_result(raw: Any) -> Result:
    if isinstance(raw, str):
        word = raw.strip()
        if word in _BARE_RESULTS:
            return _BARE_RESULTS[word]()
        # "★++" / "♠+" / "★−" written as on the card.
        if word[:1] in _FACTION_SIGNS and word[1:] and (set(word[1:]) == {"+"} or set(word[1:]) <= set(_MINUS)):
            return Power(_FACTION_SIGNS[word[0]], _plusses(word[1:], word[0]))
        raise EffectError(f"unknown result {raw!r}")
    if not isinstance(raw, dict) or len(raw) != 1:
        raise EffectError(f"a result is a mapping with one key such as `{{xp: 2}}`; got {raw!r}")
    (key, value), = raw.items()
    key = str(key)
    if key in _BARE_RESULTS:
        if value is not True:
            raise EffectError(f"{key}: write `{key}` or `{key}: true`")
        return _BARE_RESULTS[key]()
    if key in _AMOUNT_RESULTS:
        return _AMOUNT_RESULTS[key](parse_amount(value))
    if key in _DRAWS:
        return Draw(key, parse_amount(value))
    if key == "add":
        return Add(_library_number(value, "add"))
    if key == "stage":
        return Stage(_library_number(value, "stage"))
    if key == "become":
        return Become(text(value, "become").lower())
    if key == "lose_trait":
        return LoseTrait(text(value, "lose_trait").lower())
    if key == "unique":
        name = text(value, "unique")
        return GainUnique(None if name == "random" else name)
    if key in FACTIONS or key in _FACTION_SIGNS:
        return Power(_FACTION_SIGNS.get(key, key), _plusses(value, key))
    if key == "place_marker":
        return PlaceMarker(text(value, "place_marker"))
    if key == "faction_token":
        if not isinstance(value, dict) or set(value) != {"faction", "space"}:
            raise EffectError("faction_token: write `faction_token: {faction: spade, space: <space id>}`")
        return PlaceFactionToken(one_of(value["faction"], FACTIONS, "faction"), text(value["space"], "space"))
    if key == "lose_item":
        return LoseItem(text(value, "lose_item"))
    if key == "movement":
        return GainMovement(count(value, "movement", 1))
    if key == "move_to":
        return MoveSurvivor(text(value, "move_to"))
    if key == "place_enemy":
        if isinstance(value, str):
            return PlaceEnemy(one_of(value, ENEMY_TYPES, "enemy type"))
        if not isinstance(value, dict) or "type" not in value or set(value) - {"type", "space", "active"}:
            raise EffectError("place_enemy: write `place_enemy: human` or `{type: human, space: <id>, active: false}`")
        active = value.get("active", True)
        if not isinstance(active, bool):
            raise EffectError("place_enemy: active is true or false")
        space = text(value["space"], "space") if "space" in value else None
        return PlaceEnemy(one_of(value["type"], ENEMY_TYPES, "enemy type"), space, active)
    if key == "kill_enemy":
        return KillEnemy(one_of(value, ENEMY_TYPES + ("any",), "enemy type"))
    if key == "fight_enemy":
        return FightEnemy(one_of(value, ENEMY_TYPES + ("any",), "enemy type"))
    raise EffectError(f"unknown result {key!r} (expected one of: {', '.join(RESULT_KEYS)})")


def parse_results(raw: Any) -> tuple[Result, ...]:
    if not isinstance(raw, (list, tuple)):
        raise EffectError("results: expected a list")
    return tuple(parse_result(r) for r in raw)
