"""Load a Fallout content pack (YAML) into the data classes of ``model.py``.

A pack is a directory (see ``docs/content-pack.md``)::

    pack.yaml  tiles.yaml  enemies.yaml  dice.yaml  survivors.yaml
    tokens.yaml  agendas.yaml  perks.yaml  cards.yaml  loot.yaml  assets.yaml
    uniques.yaml  encounters.yaml  library.yaml  scenarios/<id>.yaml

Loading has two passes. Each item (a tile, an enemy, a scenario...) is
validated on its own by a marshmallow schema, so one broken item does not hide
the problems of the others. Then the items that loaded are checked against each
other (references, counts, map connectivity), and every card's effects are
read with the vocabulary's own checker (``effects.check``) against the whole
pack, plus what no single card shows (unique library numbers, a deck for every
encounter icon, markers a quest places, library cards that can enter play).
Every problem of both passes ends up in one ``PackError``, one line each,
naming the file and the item: a pack author fixes a whole pack in one round
trip instead of one error per run.

The loader applies no rules; it only guarantees that what the engine reads is
whole and consistent. Ids that failed the first pass are remembered so that the
second pass does not report every reference to them as a second problem.
"""

from __future__ import annotations

import functools
import os
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from dataclasses import replace
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, NamedTuple

import yaml
from marshmallow import RAISE, Schema, ValidationError, fields, post_load, validate, validates_schema

from domain.fallout import effects
from domain.fallout.model import (
    ABILITIES,
    AREAS,
    CARD_DECKS,
    CARD_KINDS,
    DIRECTIONS,
    ENCOUNTER_KINDS,
    ENEMY_TYPES,
    FACTIONS,
    SPECIAL,
    TERRAIN,
    TILE_BACKS,
    AgendaCard,
    Card,
    Die,
    DieFace,
    EncounterCard,
    EncounterIcon,
    EncounterOption,
    EnemyToken,
    Faction,
    Pack,
    Perk,
    Place,
    PowerStep,
    QuestCard,
    QuestObjective,
    Scenario,
    Space,
    SpecialToken,
    Survivor,
    Tile,
    TraitToken,
)

__all__ = ["PackError", "load_pack"]

PACK_FORMAT = 1

# The six traits of the Rules Reference ("Traits"); cards and quests name them.
_TRAITS = ("idolized", "vilified", "synth", "super_mutant", "well_rested", "addicted")
_FACE_DOWN_BACKS = ("dangerous", "deadly")
_FACTION_LETTERS = ("X", "Y")
_TOKENS_PER_LETTER = 5
_DICE = 3
_FACES = 6

_ID_PATTERN = r"^[a-z0-9][a-z0-9_]*$"
_SPACE_ID_PATTERN = r"^[a-z0-9][a-z0-9_]*\.[a-z0-9][a-z0-9_]*$"


class PackError(Exception):
    """A content pack that cannot be loaded; ``problems`` lists every reason."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = list(problems)
        lines = "\n".join(f"  - {problem}" for problem in self.problems)
        super().__init__(f"content pack {source} has {len(self.problems)} problem(s):\n{lines}")


# --------------------------------------------------------------------------
# Schemas: the shape of one item, and what can be checked inside that item.
# --------------------------------------------------------------------------


def _id(**kwargs: Any) -> fields.String:
    return fields.String(
        required=True,
        validate=validate.Regexp(_ID_PATTERN, error="must be lower-case letters, digits and _ (got {input!r})"),
        **kwargs,
    )


def _one_of(choices: Iterable[str]) -> validate.OneOf:
    return validate.OneOf(tuple(choices), error="unknown value {input!r} (expected one of: {choices})")


def _duplicates(values: Iterable[Any]) -> list[Any]:
    return [value for value, count in Counter(values).items() if count > 1]


class _Strict(Schema):
    class Meta:
        unknown = RAISE


class _Level(fields.Field):
    """An enemy level: a number, or a faction letter read off the power track."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int | str:
        if isinstance(value, bool):
            raise ValidationError("must be a number 1-4 or a faction letter (X, Y)")
        if isinstance(value, int):
            if not 1 <= value <= 4:
                raise ValidationError(f"a numeric level must be 1-4 (got {value})")
            return value
        if isinstance(value, str) and len(value) == 1 and value.isupper():
            return value
        raise ValidationError(f"must be a number 1-4 or a faction letter (X, Y) (got {value!r})")


class EncounterIconSchema(_Strict):
    kind = fields.String(required=True, validate=_one_of(ENCOUNTER_KINDS))
    level = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=1))

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> EncounterIcon:
        return EncounterIcon(**data)


class SpaceSchema(_Strict):
    id = fields.String(
        required=True,
        validate=validate.Regexp(_SPACE_ID_PATTERN, error="must be '<tile id>.<local name>' (got {input!r})"),
    )
    name = fields.String(load_default=None)
    terrain = fields.List(fields.String(validate=_one_of(TERRAIN)), load_default=list)
    encounter = fields.Nested(EncounterIconSchema, load_default=None)
    enemy_icons = fields.List(fields.String(validate=_one_of(ENEMY_TYPES)), load_default=list)
    start = fields.Boolean(load_default=False)
    # Listed on both spaces on purpose: the redundancy catches a typo in either.
    links = fields.List(fields.String(), load_default=list)


def _perimeter(edges: list[list[str]]) -> list[str]:
    return [half for edge in edges for half in edge]


class TileSchema(_Strict):
    id = _id()
    name = fields.String(required=True)
    back = fields.String(required=True, validate=_one_of(TILE_BACKS))
    spaces = fields.List(fields.Nested(SpaceSchema), required=True, validate=validate.Length(min=1))
    edges = fields.List(fields.List(fields.String()), required=True)

    @validates_schema
    def _check(self, data: dict, **kwargs: Any) -> None:
        tile, spaces, edges = data["id"], data["spaces"], data["edges"]
        problems: list[str] = []
        ids = [space["id"] for space in spaces]
        known = set(ids)
        for space_id in ids:
            if not space_id.startswith(tile + "."):
                problems.append(f"space {space_id!r} does not belong to this tile (its id must start with '{tile}.')")
        for space_id in _duplicates(ids):
            problems.append(f"space id {space_id!r} is used twice")

        # Spaces: two spaces are adjacent if they share a border.
        links = {space["id"]: space["links"] for space in spaces}
        for space_id, neighbours in links.items():
            for other in neighbours:
                if other == space_id:
                    problems.append(f"space {space_id!r} links to itself")
                elif other not in known:
                    problems.append(f"space {space_id!r} links to {other!r}, which is not a space of this tile")
                elif space_id not in links[other]:
                    problems.append(
                        f"space {space_id!r} links to {other!r} but {other!r} does not link back "
                        "(adjacency is symmetric)"
                    )
            for other in _duplicates(neighbours):
                problems.append(f"space {space_id!r} lists link {other!r} twice")

        if len(edges) != 6:
            problems.append(f"has {len(edges)} edges; a hex tile has exactly 6")
        for d, edge in enumerate(edges):
            if len(edge) != 2:
                problems.append(f"edge {d} has {len(edge)} halves; each edge has exactly 2")
                continue
            for half, space_id in enumerate(edge):
                if space_id not in known:
                    problems.append(f"edge {d} half {half} names {space_id!r}, which is not a space of this tile")

        # Two different spaces that meet on the tile's rim share a border.
        if len(edges) == 6 and all(len(edge) == 2 for edge in edges):
            rim = _perimeter(edges)
            for i, here in enumerate(rim):
                there = rim[(i + 1) % len(rim)]
                if here != there and here in known and there in known and there not in links[here]:
                    problems.append(
                        f"spaces {here!r} and {there!r} meet on the rim (edge halves {i // 2}.{i % 2} "
                        f"and {(i + 1) % 12 // 2}.{(i + 1) % 2}) but are not linked"
                    )

        # Every space reachable: otherwise a survivor could never walk there.
        if ids and not problems:
            reached = _reach(ids[0], lambda s: links.get(s, ()))
            for space_id in ids:
                if space_id not in reached:
                    problems.append(f"space {space_id!r} cannot be reached from {ids[0]!r} through the tile's links")

        for space in spaces:
            if space["start"] and data["back"] != "start":
                problems.append(f"space {space['id']!r} is a start space but the tile's back is {data['back']!r}")
            for kind in _duplicates(space["terrain"]):
                problems.append(f"space {space['id']!r} lists terrain {kind!r} twice")
        if data["back"] == "start" and not any(space["start"] for space in spaces):
            problems.append("a start tile needs at least one space with start: true")
        if problems:
            raise ValidationError(problems)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Tile:
        pairs: list[tuple[str, str]] = []
        seen: set[frozenset[str]] = set()
        for space in data["spaces"]:
            for other in space["links"]:
                key = frozenset((space["id"], other))
                if key not in seen:
                    seen.add(key)
                    pairs.append((space["id"], other))
        spaces = tuple(
            Space(
                id=space["id"],
                name=space["name"],
                terrain=frozenset(space["terrain"]),
                encounter=space["encounter"],
                enemy_icons=tuple(space["enemy_icons"]),
                start=space["start"],
            )
            for space in data["spaces"]
        )
        return Tile(
            id=data["id"],
            name=data["name"],
            back=data["back"],
            spaces=spaces,
            links=tuple(pairs),
            edges=tuple((edge[0], edge[1]) for edge in data["edges"]),
        )


class EnemySchema(_Strict):
    id = _id()
    name = fields.String(required=True)
    type = fields.String(required=True, validate=_one_of(ENEMY_TYPES))
    level = _Level(required=True)
    vulnerable = fields.List(
        fields.String(validate=_one_of(AREAS)), required=True, validate=validate.Length(min=1)
    )
    abilities = fields.List(
        fields.String(validate=_one_of(ABILITIES)), load_default=list, validate=validate.Length(max=2)
    )

    @validates_schema
    def _check(self, data: dict, **kwargs: Any) -> None:
        problems = [f"vulnerable area {a!r} is listed twice" for a in _duplicates(data["vulnerable"])]
        problems += [f"ability {a!r} is listed twice" for a in _duplicates(data["abilities"])]
        if problems:
            raise ValidationError(problems)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> EnemyToken:
        return EnemyToken(
            id=data["id"],
            type=data["type"],
            name=data["name"],
            level=data["level"],
            vulnerable=frozenset(data["vulnerable"]),
            abilities=tuple(data["abilities"]),
        )


class DieFaceSchema(_Strict):
    hits = fields.Integer(strict=True, required=True, validate=validate.Range(0, 2))
    areas = fields.List(fields.String(validate=_one_of(AREAS)), load_default=list)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> DieFace:
        return DieFace(hits=data["hits"], areas=frozenset(data["areas"]))


class DieSchema(_Strict):
    id = _id()
    faces = fields.List(fields.Nested(DieFaceSchema), required=True, validate=validate.Length(equal=_FACES))

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Die:
        return Die(id=data["id"], faces=tuple(data["faces"]))


class SpecialTokenSchema(_Strict):
    id = _id()
    letter = fields.String(required=True, validate=_one_of(SPECIAL))
    survivor = fields.String(load_default=None)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> SpecialToken:
        return SpecialToken(**data)


class TraitTokenSchema(_Strict):
    id = _id()
    sides = fields.List(fields.String(validate=_one_of(_TRAITS)), required=True, validate=validate.Length(equal=2))
    locked = fields.List(fields.String(validate=_one_of(_TRAITS)), load_default=list)

    @validates_schema
    def _check(self, data: dict, **kwargs: Any) -> None:
        problems = []
        if len(set(data["sides"])) != len(data["sides"]):
            problems.append("a token's two sides must be different traits")
        problems += [f"locked side {s!r} is not a side of this token" for s in data["locked"] if s not in data["sides"]]
        if problems:
            raise ValidationError(problems)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> TraitToken:
        return TraitToken(id=data["id"], sides=(data["sides"][0], data["sides"][1]), locked=frozenset(data["locked"]))


def _effects(**kwargs: Any) -> fields.List:
    """A list in the effects vocabulary (docs/effects.md): mappings, or bare words
    such as ``trash`` and ``"★+"``. Its meaning is checked in the second pass, by
    ``effects.check``, once the whole pack is known."""
    return fields.List(fields.Raw(), load_default=list, **kwargs)


def _condition(**kwargs: Any) -> fields.Dict:
    return fields.Dict(keys=fields.String(), load_default=None, allow_none=True, **kwargs)


class CardSchema(_Strict):
    id = _id()
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=_one_of(CARD_KINDS))
    text = fields.String(load_default="")
    special = fields.List(fields.String(validate=_one_of(SPECIAL)), load_default=list)
    ranged = fields.Boolean(load_default=False)
    armor = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0))
    cost = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=0))
    value = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=0))
    effects = _effects()
    # Which deck the card comes from and goes back to; a file of one deck
    # (loot.yaml, assets.yaml, uniques.yaml) fills it in. None: a character card.
    deck = fields.String(load_default=None, validate=_one_of(CARD_DECKS))
    recruit = _condition()
    keep_if = _condition()
    unexhaust_cost = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0))
    exhaust = fields.Boolean(load_default=None, allow_none=True)

    @validates_schema
    def _check(self, data: dict, **kwargs: Any) -> None:
        problems = [f"special letter {s!r} is listed twice" for s in _duplicates(data["special"])]
        # Weapons: only a weapon generates rerolls or has the ranged icon.
        if data["kind"] != "weapon" and (data["special"] or data["ranged"]):
            problems.append("only a weapon has special letters or the ranged icon")
        # Apparel: only apparel cancels hits.
        if data["kind"] != "apparel" and data["armor"]:
            problems.append("only apparel has an armor value")
        if problems:
            raise ValidationError(problems)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Card:
        return Card(
            **{**data, "special": tuple(data["special"]), "effects": tuple(data["effects"])},
        )


class SurvivorSchema(_Strict):
    id = _id()
    name = fields.String(required=True)
    special = fields.String(required=True, validate=_one_of(SPECIAL))
    character_card = fields.String(required=True)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Survivor:
        return Survivor(**data)


class AgendaSchema(_Strict):
    id = _id()
    name = fields.String(required=True)
    players = fields.Integer(strict=True, required=True, validate=validate.Range(1, 4))
    activation = fields.List(
        fields.String(validate=_one_of(ENEMY_TYPES)), required=True, validate=validate.Length(1, 3)
    )
    faction = fields.String(load_default=None, validate=_one_of(FACTIONS))
    text = fields.String(load_default="")
    influence = fields.List(fields.Dict(keys=fields.String()), load_default=list)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> AgendaCard:
        return AgendaCard(**{**data, "activation": tuple(data["activation"]), "influence": tuple(data["influence"])})


class PerkSchema(_Strict):
    id = _id()
    name = fields.String(required=True)
    special = fields.String(required=True, validate=_one_of(SPECIAL))
    text = fields.String(load_default="")
    effects = _effects()

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Perk:
        return Perk(**{**data, "effects": tuple(data["effects"])})


def _number(**kwargs: Any) -> fields.Integer:
    """A card-library number (the number in the upper-left corner)."""
    return fields.Integer(strict=True, validate=validate.Range(min=1), **kwargs)


class EncounterOptionSchema(_Strict):
    label = fields.String(required=True, validate=validate.Length(min=1))
    condition = _condition()
    forced = fields.Boolean(load_default=False)
    tasks = _effects()
    text = fields.String(load_default="")
    results = _effects()
    succeed_text = fields.String(load_default="")
    succeed = _effects()
    fail_text = fields.String(load_default="")
    fail = _effects()

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> EncounterOption:
        bars = ("tasks", "results", "succeed", "fail")
        return EncounterOption(**{key: tuple(value) if key in bars else value for key, value in data.items()})


class EncounterSchema(_Strict):
    id = _id()
    deck = fields.String(required=True, validate=_one_of(ENCOUNTER_KINDS))
    number = _number(load_default=None)
    title = fields.String(load_default="")
    intro = fields.String(required=True, validate=validate.Length(min=1))
    options = fields.List(fields.Nested(EncounterOptionSchema), required=True, validate=validate.Length(min=1))

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> EncounterCard:
        return EncounterCard(**{**data, "options": tuple(data["options"])})


class QuestObjectiveSchema(_Strict):
    text = fields.String(load_default="")
    trigger = fields.Dict(keys=fields.String(), load_default=None, allow_none=True)
    requirement = _condition()
    instructions = _effects()
    results = _effects()

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> QuestObjective:
        return QuestObjective(
            **{**data, "instructions": tuple(data["instructions"]), "results": tuple(data["results"])}
        )


class QuestSchema(_Strict):
    id = _id()
    number = _number(required=True)
    title = fields.String(required=True, validate=validate.Length(min=1))
    text = fields.String(load_default="")
    on_stage = _effects()
    objectives = fields.List(fields.Nested(QuestObjectiveSchema), required=True, validate=validate.Length(min=1))

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> QuestCard:
        return QuestCard(**{**data, "on_stage": tuple(data["on_stage"]), "objectives": tuple(data["objectives"])})


class PlaceSchema(_Strict):
    id = _id()
    q = fields.Integer(strict=True, required=True)
    r = fields.Integer(strict=True, required=True)
    tile = fields.String(load_default=None)
    back = fields.String(load_default=None, validate=_one_of(_FACE_DOWN_BACKS))

    @validates_schema
    def _check(self, data: dict, **kwargs: Any) -> None:
        if (data["tile"] is None) == (data["back"] is None):
            raise ValidationError("a place shows either a face-up `tile` or a face-down `back`, not both or neither")

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Place:
        return Place(**data)


class FactionSchema(_Strict):
    key = fields.String(required=True, validate=_one_of(FACTIONS))
    name = fields.String(required=True)
    letter = fields.String(required=True, validate=_one_of(_FACTION_LETTERS))
    token_enemy = fields.Nested(EnemySchema, load_default=None)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Faction:
        return Faction(**data)


class PowerStepSchema(_Strict):
    X = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    Y = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> PowerStep:
        return PowerStep(**data)


class _LibraryRef(fields.Field):
    """A quest staged at setup: its library number (``130``) or its card id."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return str(value)
        if isinstance(value, str) and value.strip():
            return value.strip()
        raise ValidationError(f"must be a library number or a quest card id (got {value!r})")


class ScenarioSchema(_Strict):
    id = _id()
    name = fields.String(required=True)
    places = fields.List(fields.Nested(PlaceSchema), required=True, validate=validate.Length(min=1))
    start_place = fields.String(required=True)
    factions = fields.List(fields.Nested(FactionSchema), required=True, validate=validate.Length(equal=2))
    power_track = fields.List(fields.Nested(PowerStepSchema), required=True, validate=validate.Length(min=2))
    staged_quests = fields.List(_LibraryRef(), load_default=list)
    setup = _effects()

    @validates_schema
    def _check(self, data: dict, **kwargs: Any) -> None:
        problems: list[str] = []
        places: list[Place] = data["places"]
        for place_id in _duplicates(p.id for p in places):
            problems.append(f"place id {place_id!r} is used twice")
        for q, r in _duplicates((p.q, p.r) for p in places):
            names = ", ".join(repr(p.id) for p in places if (p.q, p.r) == (q, r))
            problems.append(f"places {names} share the hex ({q}, {r})")
        if data["start_place"] not in {p.id for p in places}:
            problems.append(f"start_place {data['start_place']!r} is not a place of this scenario")
        for tile in _duplicates(p.tile for p in places if p.tile):
            problems.append(f"tile {tile!r} is placed face up twice")

        # Map Tiles: the layout must be one piece, or some tiles are unreachable
        # whatever tiles the shuffle puts where.
        at = {(p.q, p.r): p for p in places}
        if places:
            reached = _reach((places[0].q, places[0].r), lambda h: [n for n in _hex_neighbours(h) if n in at])
            for place in places:
                if (place.q, place.r) not in reached:
                    problems.append(
                        f"place {place.id!r} at ({place.q}, {place.r}) does not touch the rest of the layout"
                    )

        keys = [f.key for f in data["factions"]]
        letters = [f.letter for f in data["factions"]]
        if sorted(keys) != sorted(FACTIONS):
            problems.append(f"factions must be one {' and one '.join(FACTIONS)} (got {keys})")
        if sorted(letters) != sorted(_FACTION_LETTERS):
            problems.append(f"faction letters must be X and Y, one each (got {letters})")
        for faction in data["factions"]:
            enemy = faction.token_enemy
            if enemy and isinstance(enemy.level, str) and enemy.level not in letters:
                problems.append(
                    f"faction {faction.key!r} token enemy {enemy.id!r} has level {enemy.level!r}, "
                    f"which is no faction letter"
                )
        if problems:
            raise ValidationError(problems)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Scenario:
        factions = tuple(sorted(data["factions"], key=lambda f: FACTIONS.index(f.key)))
        return Scenario(
            id=data["id"],
            name=data["name"],
            places=tuple(data["places"]),
            start_place=data["start_place"],
            factions=(factions[0], factions[1]),
            power_track=tuple(data["power_track"]),
            staged_quests=tuple(data["staged_quests"]),
            setup=tuple(data["setup"]),
        )


class ManifestSchema(_Strict):
    id = _id()
    format = fields.Integer(strict=True, required=True, validate=validate.Equal(PACK_FORMAT))


# --------------------------------------------------------------------------
# Geometry shared by the schema and the cross-checks.
# --------------------------------------------------------------------------


def _hex_neighbours(hex_: tuple[int, int]) -> Iterator[tuple[int, int]]:
    q, r = hex_
    for dq, dr in DIRECTIONS:
        yield (q + dq, r + dr)


def _reach(start: Any, neighbours: Any) -> set[Any]:
    seen = {start}
    queue = deque([start])
    while queue:
        for other in neighbours(queue.popleft()):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return seen


# --------------------------------------------------------------------------
# Reading the files.
# --------------------------------------------------------------------------

class _Section(NamedTuple):
    """One top-level key of one file: a list of items of one schema."""

    file: str
    key: str
    schema: type[Schema]
    noun: str  # what one item is called in messages
    bucket: str  # which list of the pack the items join (several files can feed one)
    deck: str | None = None  # card files: the deck every card of the file belongs to


_SECTIONS: tuple[_Section, ...] = (
    _Section("tiles.yaml", "tiles", TileSchema, "tile", "tiles"),
    _Section("enemies.yaml", "enemies", EnemySchema, "enemy", "enemies"),
    _Section("dice.yaml", "dice", DieSchema, "die", "dice"),
    _Section("survivors.yaml", "survivors", SurvivorSchema, "survivor", "survivors"),
    _Section("tokens.yaml", "special_tokens", SpecialTokenSchema, "special token", "special_tokens"),
    _Section("tokens.yaml", "trait_tokens", TraitTokenSchema, "trait token", "trait_tokens"),
    _Section("agendas.yaml", "agendas", AgendaSchema, "agenda", "agendas"),
    _Section("perks.yaml", "perks", PerkSchema, "perk", "perks"),
    # Character cards (and any card that names its deck).
    _Section("cards.yaml", "cards", CardSchema, "card", "cards"),
    _Section("loot.yaml", "cards", CardSchema, "loot card", "cards", deck="loot"),
    _Section("assets.yaml", "cards", CardSchema, "asset card", "cards", deck="asset"),
    _Section("uniques.yaml", "cards", CardSchema, "unique asset", "cards", deck="unique"),
    # The starting encounter decks (the cards with a star): no library number.
    _Section("encounters.yaml", "encounters", EncounterSchema, "encounter", "encounters"),
    # The card library: numbered encounter and quest cards.
    _Section("library.yaml", "encounters", EncounterSchema, "encounter", "encounters"),
    _Section("library.yaml", "quests", QuestSchema, "quest", "quests"),
)
#: Files holding the starting encounter decks and the card library.
_STARTING = "encounters.yaml"
_LIBRARY = "library.yaml"


class _Reader:
    """Collects the loaded items, the problems, and which ids were broken."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.broken: set[str] = set()  # ids of items that failed their schema
        self.broken_numbers: set[int] = set()  # library numbers of cards that failed their schema
        # every id seen, with where it was seen, for the pack-wide uniqueness check
        self.owners: dict[str, list[str]] = {}

    def problem(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def yaml(self, node: Traversable, name: str) -> Any:
        if not node.is_file():
            self.problem(name, "file is missing")
            return None
        try:
            return yaml.safe_load(node.read_text(encoding="utf-8"))
        except yaml.YAMLError as err:
            self.problem(name, f"is not valid YAML: {err}".replace("\n", " "))
            return None

    def mapping(self, raw: Any, name: str, keys: Iterable[str]) -> dict | None:
        if raw is None:
            return None
        if not isinstance(raw, dict):
            self.problem(name, f"must be a mapping with the key(s) {', '.join(keys)}")
            return None
        for key in raw:
            if key not in keys:
                self.problem(name, f"unknown top-level key {key!r} (expected {', '.join(keys)})")
        return raw

    def items(self, raw: dict | None, name: str, key: str, schema: type[Schema], noun: str) -> list[tuple[str, Any]]:
        """The items that loaded, each with where it is (``file: noun 'id'``)."""
        if raw is None:
            return []
        if key not in raw:
            self.problem(name, f"missing top-level key {key!r}")
            return []
        items = raw[key]
        if not isinstance(items, list):
            self.problem(name, f"{key!r} must be a list of {noun}s")
            return []
        out = []
        for i, item in enumerate(items):
            where = f"{name}: {_label(noun, item, i)}"
            obj = self.item(item, where, schema)
            if obj is not None:
                out.append((where, obj))
        return out

    def item(self, data: Any, where: str, schema: type[Schema]) -> Any:
        try:
            return schema().load(data)
        except ValidationError as err:
            if isinstance(data, dict) and isinstance(data.get("id"), str):
                self.broken.add(data["id"])
            if isinstance(data, dict) and isinstance(data.get("number"), int):
                self.broken_numbers.add(data["number"])
            for path, message in _flatten(err.messages, data):
                self.problem(where, f"{path}: {message}" if path else message)
            return None

    def own(self, item_id: str, where: str) -> None:
        self.owners.setdefault(item_id, []).append(where)

    def files_with_problems(self) -> set[str]:
        # every problem starts with its file name
        return {problem.split(":", 1)[0] for problem in self.problems}


def _label(noun: str, item: Any, index: int) -> str:
    if isinstance(item, dict) and isinstance(item.get("id"), str):
        return f"{noun} {item['id']!r}"
    return f"{noun} #{index + 1}"


def _flatten(messages: Any, data: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Turn marshmallow's nested error dict into (path, message) lines.

    List positions are shown by the item's id where it has one, because a pack
    author searches the YAML for ids, not for positions.
    """
    if isinstance(messages, dict):
        for key, sub in messages.items():
            if key == "_schema":
                yield from _flatten(sub, data, path)
            elif isinstance(key, int):
                child = data[key] if isinstance(data, list) and 0 <= key < len(data) else None
                label = child["id"] if isinstance(child, dict) and isinstance(child.get("id"), str) else key
                yield from _flatten(sub, child, f"{path}[{label}]")
            else:
                child = data.get(key) if isinstance(data, dict) else None
                yield from _flatten(sub, child, f"{path}.{key}" if path else str(key))
    elif isinstance(messages, list):
        for message in messages:
            yield from _flatten(message, data, path)
    else:
        yield path, str(messages)


# --------------------------------------------------------------------------
# Loading and the cross-checks.
# --------------------------------------------------------------------------


def load_pack(path: str | os.PathLike[str] | None = None) -> Pack:
    """Load and check the pack in directory ``path`` (default: the bundled base pack).

    Raises ``PackError`` listing every problem found. The default pack is
    loaded once per process and shared; treat the returned ``Pack`` (its dicts
    included) as read-only.
    """
    if path is None:
        return _bundled_pack()
    return _load(Path(path), str(path))


@functools.lru_cache(maxsize=1)
def _bundled_pack() -> Pack:
    # importlib.resources rather than __file__ so the pack also loads from a
    # zipped install.
    return _load(resources.files("domain.fallout.packs") / "base", "domain/fallout/packs/base")


def _load(root: Traversable, source: str) -> Pack:
    if not root.is_dir():
        raise PackError(source, [f"{source}: not a directory"])
    reader = _Reader()

    manifest_raw = reader.yaml(root / "pack.yaml", "pack.yaml")
    manifest = reader.item(manifest_raw, "pack.yaml", ManifestSchema) if manifest_raw is not None else None

    # bucket -> [(where, item)], in file order
    entries: dict[str, list[tuple[str, Any]]] = {section.bucket: [] for section in _SECTIONS}
    for name in dict.fromkeys(section.file for section in _SECTIONS):
        sections = [section for section in _SECTIONS if section.file == name]
        raw = reader.mapping(reader.yaml(root / name, name), name, [section.key for section in sections])
        for section in sections:
            for where, item in reader.items(raw, name, section.key, section.schema, section.noun):
                if section.deck is not None:
                    item = _in_deck(reader, where, item, section.deck)
                entries[section.bucket].append((where, item))
    loaded = {bucket: [item for _, item in pairs] for bucket, pairs in entries.items()}

    scenarios: list[tuple[str, Scenario]] = []
    scenario_dir = root / "scenarios"
    names = sorted(n.name for n in scenario_dir.iterdir() if n.name.endswith(".yaml")) if scenario_dir.is_dir() else []
    if not names:
        reader.problem("scenarios/", "the pack has no scenario (scenarios/<id>.yaml)")
    for file_name in names:
        where = f"scenarios/{file_name}"
        raw = reader.yaml(scenario_dir / file_name, where)
        if raw is None:
            continue
        label = f"scenario {raw['id']!r}" if isinstance(raw, dict) and isinstance(raw.get("id"), str) else "scenario"
        scenario = reader.item(raw, f"{where}: {label}", ScenarioSchema)
        if scenario is None:
            continue
        if scenario.id != file_name.removesuffix(".yaml"):
            reader.problem(f"{where}: scenario {scenario.id!r}", f"the file must be named {scenario.id}.yaml")
        scenarios.append((where, scenario))

    _cross_check(reader, entries, scenarios)
    _check_cards(reader, entries, scenarios)
    if reader.problems:
        raise PackError(source, reader.problems)

    tiles = {tile.id: tile for tile in loaded["tiles"]}
    return Pack(
        id=manifest["id"],
        tiles=tiles,
        scenarios={scenario.id: scenario for _, scenario in scenarios},
        enemies=tuple(loaded["enemies"]),
        dice=tuple(loaded["dice"]),  # type: ignore[arg-type]  # exactly three, checked
        survivors={survivor.id: survivor for survivor in loaded["survivors"]},
        special_tokens=tuple(loaded["special_tokens"]),
        trait_tokens=tuple(loaded["trait_tokens"]),
        agendas=tuple(loaded["agendas"]),
        perks=tuple(loaded["perks"]),
        cards={card.id: card for card in loaded["cards"]},
        spaces={space.id: space for tile in tiles.values() for space in tile.spaces},
        encounters={card.id: card for card in loaded["encounters"]},
        quests={quest.id: quest for quest in loaded["quests"]},
    )


def _in_deck(reader: _Reader, where: str, card: Card, deck: str) -> Card:
    """A card of a one-deck file (loot.yaml...) belongs to that deck."""
    if card.deck is None:
        return replace(card, deck=deck)
    if card.deck != deck:
        reader.problem(where, f"deck: {card.deck!r}, but this file holds the {deck} deck")
    return card


def _cross_check(
    reader: _Reader, entries: dict[str, list[tuple[str, Any]]], scenarios: list[tuple[str, Scenario]]
) -> None:
    loaded = {bucket: [item for _, item in pairs] for bucket, pairs in entries.items()}
    tiles: list[Tile] = loaded["tiles"]
    enemies: list[EnemyToken] = loaded["enemies"]
    cards = {card.id: card for card in loaded["cards"]}
    survivors: list[Survivor] = loaded["survivors"]
    tokens: list[SpecialToken] = loaded["special_tokens"]
    # Counts are meaningless over a file whose items were dropped by the schema
    # pass; those problems are already reported.
    failed = reader.files_with_problems()

    # Ids unique across the pack: events and commands name components by id
    # alone, so one id must never mean two things.
    for tile in tiles:
        reader.own(tile.id, f"tiles.yaml: tile {tile.id!r}")
        for space in tile.spaces:
            reader.own(space.id, f"tiles.yaml: tile {tile.id!r}")
    for bucket, pairs in entries.items():
        if bucket != "tiles":
            for where, item in pairs:
                reader.own(item.id, where)
    for where, scenario in scenarios:
        reader.own(scenario.id, f"{where}: scenario {scenario.id!r}")
        for faction in scenario.factions:
            if faction.token_enemy:
                reader.own(faction.token_enemy.id, f"{where}: faction {faction.key!r} token enemy")
    for item_id, owners in reader.owners.items():
        if len(owners) > 1:
            others = ", ".join(owners[1:])
            reader.problem(owners[0], f"id {item_id!r} is also used by {others}; ids must be unique across the pack")

    # Encounter Icons: each vault deck is drawn only at the vault with its number.
    for kind in ("vault84", "vault109"):
        at = [space.id for tile in tiles for space in tile.spaces if space.encounter and space.encounter.kind == kind]
        if len(at) != 1 and "tiles.yaml" not in failed:
            reader.problem("tiles.yaml", f"exactly one space must show the {kind} encounter icon (found {at})")

    # Enemies: a killed enemy is replaced from the stack of its type, and an
    # explored tile draws one token per icon, so every icon type needs a stack.
    per_type = Counter(enemy.type for enemy in enemies)
    if "enemies.yaml" not in failed:
        for tile in tiles:
            for space in tile.spaces:
                for kind in space.enemy_icons:
                    if per_type[kind] == 0:
                        reader.problem(
                            f"tiles.yaml: tile {tile.id!r}",
                            f"space {space.id!r} shows a {kind} icon but enemies.yaml has no {kind} token",
                        )

    # V.A.T.S. Dice: fights and tests roll exactly three.
    if len(loaded["dice"]) != _DICE and "dice.yaml" not in failed:
        reader.problem("dice.yaml", f"the pack needs exactly {_DICE} V.A.T.S. dice (found {len(loaded['dice'])})")

    # S.P.E.C.I.A.L. tokens: the supply holds five of each letter.
    if "tokens.yaml" not in failed:
        per_letter = Counter(token.letter for token in tokens)
        for letter in SPECIAL:
            if per_letter[letter] != _TOKENS_PER_LETTER:
                reader.problem(
                    "tokens.yaml",
                    f"letter {letter} has {per_letter[letter]} S.P.E.C.I.A.L. tokens; "
                    f"each letter needs {_TOKENS_PER_LETTER}",
                )
    survivor_ids = {survivor.id for survivor in survivors}
    for token in tokens:
        if token.survivor is not None and token.survivor not in survivor_ids | reader.broken:
            reader.problem(f"tokens.yaml: special token {token.id!r}", f"survivor {token.survivor!r} does not exist")

    # Setup, step 7: each survivor takes their character card and the token
    # with their silhouette.
    for survivor in survivors:
        where = f"survivors.yaml: survivor {survivor.id!r}"
        if survivor.character_card not in cards.keys() | reader.broken:
            reader.problem(where, f"character card {survivor.character_card!r} does not exist in cards.yaml")
        own = [token for token in tokens if token.survivor == survivor.id]
        if not own and "tokens.yaml" not in failed:
            reader.problem(
                where, f"has no starting S.P.E.C.I.A.L. token (a token in tokens.yaml with survivor: {survivor.id})"
            )
        elif len(own) > 1:
            listed = ", ".join(token.id for token in own)
            reader.problem(where, f"has {len(own)} starting tokens ({listed}); a survivor has one")
        for token in own:
            if token.letter != survivor.special:
                reader.problem(where, f"starts with {survivor.special} but its token {token.id!r} shows {token.letter}")

    for where, scenario in scenarios:
        _check_scenario(reader, f"{where}: scenario {scenario.id!r}", scenario, tiles, enemies, failed)


def _check_scenario(
    reader: _Reader, where: str, scenario: Scenario, tiles: list[Tile], enemies: list[EnemyToken], failed: set[str]
) -> None:
    by_id = {tile.id: tile for tile in tiles}
    for place in scenario.places:
        if place.tile is not None and place.tile not in by_id and place.tile not in reader.broken:
            reader.problem(where, f"place {place.id!r} names tile {place.tile!r}, which does not exist")
    start = next((p for p in scenario.places if p.id == scenario.start_place), None)
    if start is not None:
        tile = by_id.get(start.tile or "")
        if start.tile is None or (tile is not None and tile.back != "start"):
            reader.problem(where, f"start_place {start.id!r} must hold a face-up tile with back: start")

    # Map Tiles: face-down places are dealt from the tiles of their back that
    # are not already face up on this map.
    face_up = {p.tile for p in scenario.places if p.tile}
    if "tiles.yaml" not in failed:
        for back in _FACE_DOWN_BACKS:
            needed = sum(1 for p in scenario.places if p.back == back)
            available = sum(1 for t in tiles if t.back == back and t.id not in face_up)
            if needed > available:
                reader.problem(
                    where,
                    f"the layout needs {needed} face-down {back} tiles but the pack has only {available} to shuffle",
                )

    # Faction Power Track: a letter level is read off a faction's track position.
    letters = {faction.letter for faction in scenario.factions}
    for enemy in enemies:
        if isinstance(enemy.level, str) and enemy.level not in letters:
            reader.problem(
                where,
                f"enemy {enemy.id!r} has level {enemy.level!r}, which is none of the faction letters "
                f"({', '.join(sorted(letters))})",
            )

    # Complete Setup, step 9: one enemy from the stack per icon on the face-up map.
    if "enemies.yaml" not in failed:
        shown = [by_id[tile_id] for tile_id in face_up if tile_id in by_id]
        icons = Counter(kind for tile in shown for space in tile.spaces for kind in space.enemy_icons)
        per_type = Counter(enemy.type for enemy in enemies)
        for kind, count in icons.items():
            if per_type[kind] < count:
                reader.problem(
                    where,
                    f"the face-up tiles show {count} {kind} icons but the pack has only {per_type[kind]} {kind} tokens",
                )



# --------------------------------------------------------------------------
# Cards, the card library and their effects.
# --------------------------------------------------------------------------

# Results about the game rather than a survivor: the only ones a scenario's
# setup can resolve, since no survivor resolves it.
_SETUP_RESULTS = (effects.Add, effects.Stage, effects.Power, effects.PlaceFactionToken)

# An id is never empty and a library number is at least 1: these stand in a
# known set so that it is checked even when the pack has none of that thing
# (``effects.Known`` skips a reference whose set is empty).
_NO_ID = ""
_NO_NUMBER = 0


def _known_ids(values: Iterable[str], checked: bool = True) -> frozenset[str]:
    return frozenset(values) | {_NO_ID} if checked else frozenset()


def _known_numbers(values: Iterable[int]) -> frozenset[int]:
    return frozenset(values) | {_NO_NUMBER}


def _bars(item: Any) -> Iterator[tuple[str, tuple]]:
    """Every list of results on a component, with where it is on the card."""
    if isinstance(item, EncounterCard):
        for i, option in enumerate(item.options, 1):
            for name in ("results", "succeed", "fail"):
                yield f"option {i}: {name}", getattr(option, name)
    elif isinstance(item, QuestCard):
        yield "on_stage", item.on_stage
        for i, objective in enumerate(item.objectives, 1):
            yield f"objective {i}: results", objective.results
    elif isinstance(item, (Card, Perk)):
        yield "effects", item.effects
    elif isinstance(item, Scenario):
        yield "setup", item.setup


def _conditions(item: Any) -> Iterator[tuple[str, Any]]:
    """Every condition on a component, with where it is on the card."""
    if isinstance(item, EncounterCard):
        for i, option in enumerate(item.options, 1):
            yield f"option {i}: condition", option.condition
    elif isinstance(item, QuestCard):
        for i, objective in enumerate(item.objectives, 1):
            yield f"objective {i}: requirement", objective.requirement
    elif isinstance(item, Card):
        yield "recruit", item.recruit
        yield "keep_if", item.keep_if
    elif isinstance(item, AgendaCard):
        for i, entry in enumerate(item.influence):
            yield f"influence[{i}]: if", entry.get("if") if isinstance(entry, dict) else None


def _parsed_results(item: Any) -> Iterator[tuple[str, Any]]:
    """The results on a component that parse (the others are reported by ``effects.check``)."""
    for at, bar in _bars(item):
        for i, raw in enumerate(bar):
            try:
                yield f"{at}[{i}]", effects.parse_result(raw)
            except effects.EffectError:
                pass


def _parsed_conditions(item: Any) -> Iterator[tuple[str, Any]]:
    """Every condition (nested ones too) on a component that parses."""
    for at, raw in _conditions(item):
        if raw is None:
            continue
        try:
            parsed = effects.parse_condition(raw)
        except effects.EffectError:
            continue
        for condition in effects.conditions_in(parsed):
            yield at, condition


def _check_cards(
    reader: _Reader, entries: dict[str, list[tuple[str, Any]]], scenarios: list[tuple[str, Scenario]]
) -> None:
    failed = reader.files_with_problems()
    tiles: list[Tile] = [tile for _, tile in entries["tiles"]]
    encounters: list[tuple[str, EncounterCard]] = entries["encounters"]
    quests: list[tuple[str, QuestCard]] = entries["quests"]
    cards: list[tuple[str, Card]] = entries["cards"]
    library = [(where, card) for where, card in encounters + quests if card.number is not None]
    scenario_entries = [(f"{where}: scenario {scenario.id!r}", scenario) for where, scenario in scenarios]

    # Card Library: a number finds exactly one card.
    by_number: dict[int, list[str]] = {}
    for where, card in library:
        by_number.setdefault(card.number, []).append(where)
    for number, owners in sorted(by_number.items()):
        if len(owners) > 1:
            reader.problem(
                owners[0], f"library number {number} is also used by {', '.join(owners[1:])}; "
                "library numbers must be unique",
            )

    # The starting decks are the cards with a star; the library holds the numbered ones.
    for where, card in encounters:
        if where.startswith(_STARTING) and card.number is not None:
            reader.problem(
                where, f"a starting encounter card (the star) has no library number; "
                f"numbered cards ({card.number}) belong in {_LIBRARY}",
            )
        elif where.startswith(_LIBRARY) and card.number is None:
            reader.problem(where, "a card of the card library needs its library number")

    # Encounter Icons: every icon on the map has a deck to draw from, sooner or later.
    if "tiles.yaml" not in failed:
        shown = sorted({space.encounter.kind for tile in tiles for space in tile.spaces if space.encounter})
        for kind in shown:
            if kind in ("vault84", "vault109"):
                if _LIBRARY not in failed and not any(card.deck == kind for _, card in encounters):
                    reader.problem(
                        _LIBRARY, f"the tiles show the {kind} icon but the library has no {kind} card: "
                        "that vault could never be encountered",
                    )
            elif _STARTING not in failed and not any(c.deck == kind and c.number is None for _, c in encounters):
                reader.problem(_STARTING, f"the tiles show {kind} encounter icons but there is no starting {kind} card")

    # Every effect parses and every name it uses exists.
    traits = {side for _, token in entries["trait_tokens"] for side in token.sides} or set(_TRAITS)
    known = effects.Known(
        spaces=_known_ids(
            (space.id for tile in tiles for space in tile.spaces), checked="tiles.yaml" not in failed
        ),
        tiles=_known_ids(tile.id for tile in tiles) | reader.broken,
        traits=_known_ids(traits),
        cards=_known_ids(card.id for _, card in cards) | reader.broken,
        uniques=_known_ids(card.id for _, card in cards if card.deck == "unique") | reader.broken,
        encounter_numbers=_known_numbers(c.number for _, c in library if isinstance(c, EncounterCard))
        | reader.broken_numbers,
        quest_numbers=_known_numbers(q.number for _, q in quests) | reader.broken_numbers,
        quests=_known_ids(q.id for _, q in quests) | reader.broken,
    )
    everything = (
        encounters + quests + cards + entries["agendas"] + entries["perks"] + scenario_entries
    )
    for where, item in everything:
        for problem in effects.check(item, known):
            reader.problem(where, problem)

    _check_markers(reader, quests, everything)
    # A card that failed its schema may be the one bringing others into play:
    # what is unreachable is worth knowing only once every item loads.
    if not reader.broken:
        _check_reachable(reader, library, everything, scenario_entries)

    # Complete Setup, step 9: nobody resolves the scenario's setup, so only
    # results about the game mean something there.
    for where, scenario in scenario_entries:
        for at, result in _parsed_results(scenario):
            if isinstance(result, effects.PlaceMarker):
                reader.problem(
                    where, f"{at}: place_marker does nothing at setup: a marker pairs with a quest card, "
                    "so place it in the on_stage of a staged quest",
                )
            elif not isinstance(result, _SETUP_RESULTS):
                reader.problem(
                    where, f"{at}: {type(result).__name__} needs a survivor to resolve it; setup has none "
                    "(only add, stage, faction_token and ★+ / ♠+)",
                )

    for where, item in everything:
        for at, result in _parsed_results(item):
            # TRASH: the card resolving it goes back to the box, which only an
            # encounter or quest card can (an item or perk goes to its pile).
            if isinstance(result, effects.Trash) and not isinstance(item, (EncounterCard, QuestCard)):
                reader.problem(where, f"{at}: trash means something only on an encounter or a quest card")
            # Faction Tokens: a result placing one needs the scenario to say what it is.
            if isinstance(result, effects.PlaceFactionToken):
                for scenario_where, scenario in scenario_entries:
                    faction = next((f for f in scenario.factions if f.key == result.faction), None)
                    if faction is not None and faction.token_enemy is None:
                        reader.problem(
                            where, f"{at}: places a {result.faction} faction token, but {scenario_where} "
                            "gives that faction no token_enemy",
                        )

    # Character Cards: what a survivor starts with is no card of a deck.
    by_id = {card.id: card for _, card in cards}
    for where, survivor in entries["survivors"]:
        card = by_id.get(survivor.character_card)
        if card is not None and card.deck is not None:
            reader.problem(
                where, f"character card {card.id!r} is a {card.deck} card; a character card belongs to no deck",
            )


def _check_markers(
    reader: _Reader, quests: list[tuple[str, QuestCard]], everything: list[tuple[str, Any]]
) -> None:
    """Quest Markers: a pair is one on the map and one on the quest card placing it."""
    places = {
        quest.number for _, quest in quests
        if any(isinstance(result, effects.PlaceMarker) for _, result in _parsed_results(quest))
    }
    numbers = {quest.number for _, quest in quests}
    for where, item in everything:
        quest_card = isinstance(item, QuestCard)
        for at, result in _parsed_results(item):
            if isinstance(result, (effects.PlaceMarker, effects.RemoveMarker)) and not quest_card:
                reader.problem(where, f"{at}: only a quest card places or removes its quest markers")
        for at, condition in _parsed_conditions(item):
            if not isinstance(condition, effects.AtMarker):
                continue
            if condition.number is None:
                if not quest_card:
                    reader.problem(where, f"{at}: `marker: true` means the marker of the quest being resolved; "
                                          "elsewhere name the quest (`marker: <number>`)")
                elif item.number not in places:
                    reader.problem(where, f"{at}: `marker: true`, but this quest never places a marker")
            elif condition.number in numbers and condition.number not in places:
                reader.problem(where, f"{at}: `marker: {condition.number}`, but quest {condition.number} "
                                      "never places a marker")


def _check_reachable(
    reader: _Reader,
    library: list[tuple[str, Any]],
    everything: list[tuple[str, Any]],
    scenarios: list[tuple[str, Scenario]],
) -> None:
    """Card Library: a library card enters play only by ADD, STAGE or the scenario sheet."""
    by_number = {card.number: card for _, card in library}
    ids = {card.id: card.number for _, card in library}
    # Everything that is in play from the start: the starting encounter decks,
    # the loot, asset and unique decks, perks, agendas and the scenario sheets.
    reached: set[int] = set()
    queue = deque(item for _, item in everything if getattr(item, "number", None) is None)
    for _, scenario in scenarios:
        for ref in scenario.staged_quests:
            number = int(ref) if str(ref).isdigit() else ids.get(str(ref))
            if number in by_number and number not in reached:
                reached.add(number)
                queue.append(by_number[number])
    while queue:
        for _, result in _parsed_results(queue.popleft()):
            number = result.number if isinstance(result, (effects.Add, effects.Stage)) else None
            if number in by_number and number not in reached:
                reached.add(number)
                queue.append(by_number[number])
    for where, card in library:
        if card.number not in reached:
            reader.problem(
                where, f"library card {card.number} is never added or staged by anything in play: "
                "it could never enter play",
            )
