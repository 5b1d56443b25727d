"""The effects vocabulary: what cards say, as data the engine interprets.

Cards keep their effects in the plain form a content pack writes (mappings,
lists, strings: see docs/effects.md). This module reads those forms into
frozen data classes (amounts, conditions, tasks, results, influence) and
reports every problem in them, so the loader can refuse a pack that says
something the engine cannot do, and the engine never meets a malformed card.

It applies no rule: the engine modules (encounter, quest, items, influence,
...) decide what each parsed form does to a game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Union

from domain.fallout.model import (
    CARD_DECKS,
    CARD_KINDS,
    ENCOUNTER_KINDS,
    ENEMY_TYPES,
    EQUIPPABLE,
    FACTIONS,
    SPECIAL,
    TERRAIN,
    TILE_BACKS,
    USABLE,
    AgendaCard,
    Card,
    EncounterCard,
    Perk,
    QuestCard,
    Scenario,
)


class EffectError(ValueError):
    """A plain form that is not in the vocabulary; the message says where and why."""


# --------------------------------------------------------------------------
# Amounts: a number, or the encounter level with + or - (Results).
# --------------------------------------------------------------------------

_LEVEL = re.compile(r"^\s*L\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True)
class Amount:
    """``base``, plus the encounter level when ``level`` is set ("L+1")."""

    base: int = 0
    level: bool = False

    def of(self, level: int) -> int:
        """The number this amount stands for at an encounter of ``level``; never below 0."""
        return max(0, (level if self.level else 0) + self.base)

    def __str__(self) -> str:
        if not self.level:
            return str(self.base)
        return "L" if not self.base else f"L{self.base:+d}"


def parse_amount(raw: Any) -> Amount:
    if isinstance(raw, bool):
        raise EffectError(f"expected a number or L, L+n, L-n; got {raw!r}")
    if isinstance(raw, int):
        if raw < 0:
            raise EffectError(f"an amount is never negative; got {raw}")
        return Amount(raw)
    if isinstance(raw, str):
        if raw.strip().isdigit():
            return Amount(int(raw))
        m = _LEVEL.match(raw)
        if m:
            sign, n = m.groups()
            base = 0 if n is None else int(n) * (1 if sign == "+" else -1)
            return Amount(base, True)
    raise EffectError(f"expected a number or L, L+n, L-n; got {raw!r}")


# --------------------------------------------------------------------------
# Conditions.
# --------------------------------------------------------------------------


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
    """Standing in a space holding a quest marker: of the card resolving it, or of quest ``number``."""

    number: int | None = None


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


Condition = Union[
    HasTrait, HasSpecial, InSpace, AtEncounter, OnTerrain, WithSurvivor, HasCaps, HasItem, HasKind,
    AtMarker, Loyal, Ahead, AllOf, AnyOf, Not,
]


def _letter(raw: Any) -> str:
    if raw not in SPECIAL:
        raise EffectError(f"unknown S.P.E.C.I.A.L. letter {raw!r} (expected one of {', '.join(SPECIAL)})")
    return raw


def _one_of(raw: Any, values: Iterable[str], what: str) -> str:
    values = tuple(values)
    if raw not in values:
        raise EffectError(f"unknown {what} {raw!r} (expected one of: {', '.join(values)})")
    return raw


def _text(raw: Any, what: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise EffectError(f"{what}: expected a non-empty string; got {raw!r}")
    return raw.strip()


def _count(raw: Any, what: str, minimum: int = 0) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < minimum:
        raise EffectError(f"{what}: expected a whole number >= {minimum}; got {raw!r}")
    return raw


def _condition_entry(key: str, value: Any) -> Condition:
    if key == "trait":
        return HasTrait(_text(value, "trait").lower())
    if key == "special":
        return HasSpecial(_letter(value))
    if key == "space":
        return InSpace(_text(value, "space"))
    if key == "encounter":
        return AtEncounter(_one_of(value, ENCOUNTER_KINDS, "encounter kind"))
    if key == "terrain":
        return OnTerrain(_one_of(value, TERRAIN, "terrain"))
    if key == "with_survivor":
        if value is not True:
            raise EffectError("with_survivor: write `with_survivor: true`")
        return WithSurvivor()
    if key == "caps":
        return HasCaps(_count(value, "caps", 1))
    if key == "item":
        return HasItem(_text(value, "item"))
    if key == "has":
        return HasKind(_one_of(value, CARD_KINDS, "card kind"))
    if key == "equipped":
        return HasKind(_one_of(value, EQUIPPABLE, "equipment slot"), equipped=True)
    if key == "marker":
        if value is True:
            return AtMarker()
        return AtMarker(_count(value, "marker", 1))
    if key == "loyal":
        return Loyal(_one_of(value, FACTIONS, "faction"))
    if key == "ahead":
        if isinstance(value, dict):
            unknown = set(value) - {"faction", "by"}
            if unknown or "faction" not in value:
                raise EffectError("ahead: write `ahead: star` or `ahead: {faction: star, by: 2}`")
            return Ahead(_one_of(value["faction"], FACTIONS, "faction"), _count(value.get("by", 1), "by", 1))
        return Ahead(_one_of(value, FACTIONS, "faction"))
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
    "equipped", "marker", "loyal", "ahead", "all", "any", "not",
)


def parse_condition(raw: Any) -> Condition:
    """A mapping of condition keys; several keys must all hold."""
    if not isinstance(raw, dict) or not raw:
        raise EffectError(f"a condition is a mapping such as `{{trait: vilified}}`; got {raw!r}")
    parts = tuple(_condition_entry(str(k), v) for k, v in raw.items())
    return parts[0] if len(parts) == 1 else AllOf(parts)


# --------------------------------------------------------------------------
# Tasks: a test, or "draw and fight".
# --------------------------------------------------------------------------


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


Task = Union[TestTask, DrawAndFight]


def parse_task(raw: Any) -> Task:
    if not isinstance(raw, dict) or len(raw) != 1:
        raise EffectError(f"a task is `{{test: ...}}` or `{{draw_and_fight: <enemy type>}}`; got {raw!r}")
    (key, value), = raw.items()
    if key == "draw_and_fight":
        return DrawAndFight(_one_of(value, ENEMY_TYPES, "enemy type"))
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
        letters = tuple(_letter(c) for c in letters_raw)
        if "difficulty" not in value:
            raise EffectError("test: `difficulty` is required")
        difficulty = parse_amount(value["difficulty"])
        by = _one_of(value.get("by", "self"), ("self", "partner"), "tester")
        return TestTask(letters, difficulty, by)
    raise EffectError(f"unknown task {key!r} (expected test or draw_and_fight)")


def parse_tasks(raw: Any) -> tuple[Task, ...]:
    if not isinstance(raw, (list, tuple)):
        raise EffectError("tasks: expected a list")
    return tuple(parse_task(t) for t in raw)


# --------------------------------------------------------------------------
# Results: the results bar, left to right.
# --------------------------------------------------------------------------


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
    """★+ / ♠+: the faction advances one space per +."""

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
class LoseItem:
    """Discard this card if the survivor has it (equipped or in the inventory)."""

    card: str


@dataclass(frozen=True)
class GainMovement:
    points: int


@dataclass(frozen=True)
class Unexhaust:
    """Unexhaust all of the survivor's cards (paying unexhaust costs, checking companions)."""


Result = Union[
    Add, Stage, Become, LoseTrait, GainXP, GainCaps, LoseCaps, Draw, Shop, GainUnique, Power, Trash,
    SufferDamage, SufferRads, RecoverHP, RemoveRads, PlaceMarker, RemoveMarker, PlaceFactionToken,
    LoseItem, GainMovement, Unexhaust,
]

_BARE_RESULTS = {"trash": Trash, "remove_marker": RemoveMarker, "unexhaust": Unexhaust}
_AMOUNT_RESULTS = {
    "xp": GainXP, "caps": GainCaps, "lose_caps": LoseCaps, "shop": Shop,
    "damage": SufferDamage, "rads": SufferRads, "recover": RecoverHP, "remove_rads": RemoveRads,
}
_DRAWS = ("loot", "asset", "agenda")
_FACTION_SIGNS = {"★": "star", "♠": "spade"}

RESULT_KEYS = (
    "add", "stage", "become", "lose_trait", "xp", "caps", "lose_caps", "loot", "asset", "agenda",
    "shop", "unique", "star", "spade", "trash", "damage", "rads", "recover", "remove_rads",
    "place_marker", "remove_marker", "faction_token", "lose_item", "movement", "unexhaust",
)


def _plusses(raw: Any, what: str) -> int:
    if isinstance(raw, str) and raw and set(raw) == {"+"}:
        return len(raw)
    return _count(raw, what, 1)


def _library_number(raw: Any, what: str) -> int:
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw)
    return _count(raw, what, 1)


def parse_result(raw: Any) -> Result:
    if isinstance(raw, str):
        word = raw.strip()
        if word in _BARE_RESULTS:
            return _BARE_RESULTS[word]()
        # "★++" / "♠+" written as on the card.
        if word[:1] in _FACTION_SIGNS and word[1:] and set(word[1:]) == {"+"}:
            return Power(_FACTION_SIGNS[word[0]], len(word) - 1)
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
        return Become(_text(value, "become").lower())
    if key == "lose_trait":
        return LoseTrait(_text(value, "lose_trait").lower())
    if key == "unique":
        name = _text(value, "unique")
        return GainUnique(None if name == "random" else name)
    if key in FACTIONS or key in _FACTION_SIGNS:
        return Power(_FACTION_SIGNS.get(key, key), _plusses(value, key))
    if key == "place_marker":
        return PlaceMarker(_text(value, "place_marker"))
    if key == "faction_token":
        if not isinstance(value, dict) or set(value) != {"faction", "space"}:
            raise EffectError("faction_token: write `faction_token: {faction: spade, space: <space id>}`")
        return PlaceFactionToken(_one_of(value["faction"], FACTIONS, "faction"), _text(value["space"], "space"))
    if key == "lose_item":
        return LoseItem(_text(value, "lose_item"))
    if key == "movement":
        return GainMovement(_count(value, "movement", 1))
    raise EffectError(f"unknown result {key!r} (expected one of: {', '.join(RESULT_KEYS)})")


def parse_results(raw: Any) -> tuple[Result, ...]:
    if not isinstance(raw, (list, tuple)):
        raise EffectError("results: expected a list")
    return tuple(parse_result(r) for r in raw)


# --------------------------------------------------------------------------
# Triggers of triggered quest objectives.
# --------------------------------------------------------------------------


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


Trigger = Union[KillTrigger, ExploreTrigger, EnterTrigger]


def parse_trigger(raw: Any) -> Trigger:
    if not isinstance(raw, dict) or len(raw) != 1:
        raise EffectError(f"a trigger is `{{kill: <type>}}`, `{{explore: <tile or back>}}` or `{{enter: <space>}}`; got {raw!r}")
    (key, value), = raw.items()
    if key == "kill":
        if value == "any":
            return KillTrigger()
        if value in FACTIONS:
            return KillTrigger(faction=value)
        return KillTrigger(type=_one_of(value, ENEMY_TYPES + ("any",) + FACTIONS, "enemy type or faction"))
    if key == "explore":
        name = _text(value, "explore")
        if name == "any":
            return ExploreTrigger()
        if name in TILE_BACKS:
            return ExploreTrigger(back=name)
        return ExploreTrigger(tile=name)
    if key == "enter":
        return EnterTrigger(_text(value, "enter"))
    raise EffectError(f"unknown trigger {key!r} (expected kill, explore or enter)")


# --------------------------------------------------------------------------
# Influence (agenda cards).
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Counter:
    """Something counted on the live game for ``per`` influence."""

    what: str  # "caps", "lead", "special", "perks", "items", "kind", "xp_levels"...
    arg: str | None = None  # the faction for "lead", the card kind for "kind"


COUNTERS = ("caps", "lead", "special", "perks", "items", "kind", "traits", "agendas")


@dataclass(frozen=True)
class Influence:
    """``gain`` influence if ``condition`` holds; or ``gain`` for every ``every`` of ``per``."""

    gain: int
    condition: Condition | None = None
    per: Counter | None = None
    every: int = 1
    most: int | None = None  # a cap on what this entry gives


def parse_counter(raw: Any) -> Counter:
    if isinstance(raw, str):
        if raw in ("lead", "kind"):
            raise EffectError(f"per: {raw} needs an argument, e.g. `per: {{{raw}: ...}}`")
        return Counter(_one_of(raw, COUNTERS, "counter"))
    if isinstance(raw, dict) and len(raw) == 1:
        (key, value), = raw.items()
        if key == "lead":
            return Counter("lead", _one_of(value, FACTIONS, "faction"))
        if key == "kind":
            return Counter("kind", _one_of(value, CARD_KINDS, "card kind"))
    raise EffectError(f"per: expected one of {', '.join(COUNTERS)} (lead and kind as `{{lead: star}}`); got {raw!r}")


def parse_influence(raw: Any) -> Influence:
    if not isinstance(raw, dict):
        raise EffectError(f"an influence entry is a mapping such as `{{gain: 1, if: {{trait: idolized}}}}`; got {raw!r}")
    unknown = set(raw) - {"gain", "if", "per", "every", "most"}
    if unknown:
        raise EffectError(f"influence: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
    gain = _count(raw.get("gain", 1), "gain", 1)
    condition = parse_condition(raw["if"]) if "if" in raw else None
    per = parse_counter(raw["per"]) if "per" in raw else None
    if condition is None and per is None:
        raise EffectError("influence: an entry needs `if` or `per` (every agenda already gives its own 1)")
    every = _count(raw.get("every", 1), "every", 1)
    if "every" in raw and per is None:
        raise EffectError("influence: `every` goes with `per`")
    most = _count(raw["most"], "most", 1) if "most" in raw else None
    return Influence(gain, condition, per, every, most)


# --------------------------------------------------------------------------
# Walking parsed forms (for cross-references).
# --------------------------------------------------------------------------


def conditions_in(condition: Condition | None) -> Iterator[Condition]:
    if condition is None:
        return
    yield condition
    if isinstance(condition, (AllOf, AnyOf)):
        for inner in condition.conditions:
            yield from conditions_in(inner)
    elif isinstance(condition, Not):
        yield from conditions_in(condition.condition)


# --------------------------------------------------------------------------
# Checking whole cards: every problem, one line each (for the loader).
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Known:
    """What a pack holds, for cross-references. Empty sets: that reference is not checked."""

    spaces: frozenset[str] = frozenset()
    tiles: frozenset[str] = frozenset()
    traits: frozenset[str] = frozenset()
    cards: frozenset[str] = frozenset()  # ids of Pack.cards
    uniques: frozenset[str] = frozenset()  # ids of unique asset cards
    encounter_numbers: frozenset[int] = frozenset()  # library numbers of encounter cards
    quest_numbers: frozenset[int] = frozenset()
    quests: frozenset[str] = frozenset()  # ids of quest cards
    check_references: bool = True


@dataclass
class _Checker:
    known: Known
    problems: list[str] = field(default_factory=list)

    def _ok(self, where: str, parse: Any, raw: Any) -> Any:
        try:
            return parse(raw)
        except EffectError as exc:
            self.problems.append(f"{where}: {exc}")
            return None

    def _need(self, where: str, ok: bool, message: str, known: frozenset) -> None:
        if self.known.check_references and known and not ok:
            self.problems.append(f"{where}: {message}")

    def condition(self, where: str, raw: Any) -> None:
        if raw is None:
            return
        parsed = self._ok(where, parse_condition, raw)
        for c in conditions_in(parsed):
            if isinstance(c, HasTrait):
                self._need(where, c.trait in self.known.traits, f"no trait {c.trait!r} in the pack", self.known.traits)
            elif isinstance(c, InSpace):
                self._need(where, c.space in self.known.spaces, f"no space {c.space!r}", self.known.spaces)
            elif isinstance(c, HasItem):
                self._need(where, c.card in self.known.cards, f"no card {c.card!r}", self.known.cards)
            elif isinstance(c, AtMarker) and c.number is not None:
                self._need(where, c.number in self.known.quest_numbers, f"no quest card {c.number}", self.known.quest_numbers)

    def tasks(self, where: str, raw: Any) -> None:
        if not isinstance(raw, (list, tuple)):
            self.problems.append(f"{where}: expected a list of tasks")
            return
        for i, t in enumerate(raw):
            self._ok(f"{where}[{i}]", parse_task, t)

    def results(self, where: str, raw: Any) -> None:
        if not isinstance(raw, (list, tuple)):
            self.problems.append(f"{where}: expected a list of results")
            return
        for i, r in enumerate(raw):
            at = f"{where}[{i}]"
            parsed = self._ok(at, parse_result, r)
            k = self.known
            if isinstance(parsed, Add):
                self._need(at, parsed.number in k.encounter_numbers,
                           f"add {parsed.number}: no encounter card with that library number", k.encounter_numbers | k.quest_numbers)
            elif isinstance(parsed, Stage):
                self._need(at, parsed.number in k.quest_numbers,
                           f"stage {parsed.number}: no quest card with that library number", k.encounter_numbers | k.quest_numbers)
            elif isinstance(parsed, (Become, LoseTrait)):
                self._need(at, parsed.trait in k.traits, f"no trait {parsed.trait!r} in the pack", k.traits)
            elif isinstance(parsed, GainUnique) and parsed.card is not None:
                self._need(at, parsed.card in k.uniques, f"no unique asset {parsed.card!r}", k.uniques)
            elif isinstance(parsed, (PlaceMarker, PlaceFactionToken)):
                self._need(at, parsed.space in k.spaces, f"no space {parsed.space!r}", k.spaces)
            elif isinstance(parsed, LoseItem):
                self._need(at, parsed.card in k.cards, f"no card {parsed.card!r}", k.cards)

    def trigger(self, where: str, raw: Any) -> None:
        parsed = self._ok(where, parse_trigger, raw)
        if isinstance(parsed, EnterTrigger):
            self._need(where, parsed.space in self.known.spaces, f"no space {parsed.space!r}", self.known.spaces)
        elif isinstance(parsed, ExploreTrigger) and parsed.tile is not None:
            self._need(where, parsed.tile in self.known.tiles, f"no tile {parsed.tile!r}", self.known.tiles)


def check_encounter(card: EncounterCard, known: Known = Known()) -> list[str]:
    c = _Checker(known)
    if card.deck not in ENCOUNTER_KINDS:
        c.problems.append(f"deck: unknown encounter deck {card.deck!r}")
    if card.deck in ("vault84", "vault109") and card.number is None:
        c.problems.append("a vault encounter has a library number (vault decks never start in play)")
    if not card.options:
        c.problems.append("an encounter card has at least one option")
    for i, o in enumerate(card.options, 1):
        at = f"option {i}"
        if not o.label.strip():
            c.problems.append(f"{at}: label (the bold text) is required")
        if o.forced and o.condition is None:
            c.problems.append(f"{at}: a FORCED option has a condition")
        c.condition(f"{at}: condition", o.condition)
        c.tasks(f"{at}: tasks", o.tasks)
        if o.tasks:
            if o.results or o.text:
                c.problems.append(f"{at}: an option with tasks has succeed/fail outcomes, not text/results")
        elif o.succeed or o.fail or o.succeed_text or o.fail_text:
            c.problems.append(f"{at}: succeed/fail outcomes need tasks")
        for name in ("results", "succeed", "fail"):
            c.results(f"{at}: {name}", getattr(o, name))
    if card.options and all(o.condition is not None and not o.forced for o in card.options):
        c.problems.append("every option has a condition: a survivor meeting none could not resolve the card")
    return c.problems


def check_quest(card: QuestCard, known: Known = Known()) -> list[str]:
    c = _Checker(known)
    c.results("on_stage", card.on_stage)
    if not card.objectives:
        c.problems.append("a quest card has at least one objective")
    for i, o in enumerate(card.objectives, 1):
        at = f"objective {i}"
        if o.trigger is not None:
            if o.requirement is not None or o.instructions:
                c.problems.append(f"{at}: a triggered objective has no requirement or instructions")
            c.trigger(f"{at}: trigger", o.trigger)
        c.condition(f"{at}: requirement", o.requirement)
        c.tasks(f"{at}: instructions", o.instructions)
        c.results(f"{at}: results", o.results)
    return c.problems


def check_card(card: Card, known: Known = Known()) -> list[str]:
    c = _Checker(known)
    if card.deck is not None and card.deck not in CARD_DECKS:
        c.problems.append(f"deck: unknown deck {card.deck!r} (expected one of: {', '.join(CARD_DECKS)})")
    if card.kind == "event" and card.deck != "loot":
        c.problems.append("a one-time event is a loot card (deck: loot)")
    if card.deck == "asset" and card.kind != "companion" and card.cost is None:
        c.problems.append("an asset item has a cost")
    if card.deck in ("asset", "unique") and card.kind in ("weapon", "apparel") + USABLE and card.value is None:
        c.problems.append("an asset item has a value (sold for value - 1)")
    if card.kind != "companion" and (card.recruit is not None or card.keep_if is not None):
        c.problems.append("only a companion has recruit / keep_if")
    if card.unexhaust_cost < 0:
        c.problems.append("unexhaust_cost is never negative")
    c.condition("recruit", card.recruit)
    c.condition("keep_if", card.keep_if)
    if card.recruit is not None:
        parsed = c._ok("recruit", parse_condition, card.recruit)
        if parsed is not None and not isinstance(parsed, (HasTrait, HasSpecial)):
            c.problems.append("recruit: a trait (`{trait: idolized}`) or a letter (`{special: C}`)")
    c.results("effects", card.effects)
    if card.kind == "event" and not card.effects:
        c.problems.append("a one-time event has effects")
    return c.problems


def check_agenda(card: AgendaCard, known: Known = Known()) -> list[str]:
    c = _Checker(known)
    for i, raw in enumerate(card.influence):
        parsed = c._ok(f"influence[{i}]", parse_influence, raw)
        if parsed is not None and isinstance(raw, dict) and "if" in raw:
            c.condition(f"influence[{i}]: if", raw["if"])
    return c.problems


def check_perk(perk: Perk, known: Known = Known()) -> list[str]:
    c = _Checker(known)
    c.results("effects", perk.effects)
    return c.problems


def check_scenario(scenario: Scenario, known: Known = Known()) -> list[str]:
    c = _Checker(known)
    for i, ref in enumerate(scenario.staged_quests):
        if str(ref).isdigit():
            c._need(f"staged_quests[{i}]", int(ref) in known.quest_numbers,
                    f"no quest card with library number {ref}", known.quest_numbers)
        else:
            c._need(f"staged_quests[{i}]", str(ref) in known.quests, f"no quest card {ref!r}", known.quests)
    c.results("setup", scenario.setup)
    return c.problems


def check(component: Any, known: Known = Known()) -> list[str]:
    """Every problem in one component's effects (empty: it is whole)."""
    for kind, checker in (
        (EncounterCard, check_encounter), (QuestCard, check_quest), (Card, check_card),
        (AgendaCard, check_agenda), (Perk, check_perk), (Scenario, check_scenario),
    ):
        if isinstance(component, kind):
            return checker(component, known)
    raise TypeError(f"no effects to check on {type(component).__name__}")
