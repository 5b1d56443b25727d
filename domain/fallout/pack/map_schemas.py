"""Schemas of the map and the scenario: tiles and their spaces, places, factions, the power track."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, ValidationError, fields, post_load, validate, validates_schema

from domain.engine.packs import Strict, duplicates
from domain.fallout.model import (
    DOUBLE_SIDED,
    ENCOUNTER_KINDS,
    ENEMY_TYPES,
    FACTIONS,
    SIDES,
    TERRAIN,
    TILE_BACKS,
    DoubleSidedTile,
    EncounterIcon,
    Faction,
    Place,
    PowerStep,
    Scenario,
    Space,
    Tile,
)
from domain.fallout.pack.component_schemas import EnemySchema
from domain.fallout.pack.geometry import hex_neighbours, reach
from domain.fallout.pack.schema_parts import (
    FACE_DOWN_BACKS,
    FACTION_LETTERS,
    SPACE_ID_PATTERN,
    effects_field,
    id_field,
    one_of,
)


class EncounterIconSchema(Strict):
    kind = fields.String(required=True, validate=one_of(ENCOUNTER_KINDS))
    level = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=1))

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> EncounterIcon:
        return EncounterIcon(**data)


class SpaceSchema(Strict):
    id = fields.String(
        required=True,
        validate=validate.Regexp(SPACE_ID_PATTERN, error="must be '<tile id>.<local name>' (got {input!r})"),
    )
    name = fields.String(load_default=None)
    terrain = fields.List(fields.String(validate=one_of(TERRAIN)), load_default=list)
    encounter = fields.Nested(EncounterIconSchema, load_default=None)
    enemy_icons = fields.List(fields.String(validate=one_of(ENEMY_TYPES)), load_default=list)
    start = fields.Boolean(load_default=False)
    # Listed on both spaces on purpose: the redundancy catches a typo in either.
    links = fields.List(fields.String(), load_default=list)


def _perimeter(edges: list[list[str]]) -> list[str]:
    return [half for edge in edges for half in edge]


class TileSchema(Strict):
    id = id_field()
    name = fields.String(required=True)
    back = fields.String(required=True, validate=one_of(TILE_BACKS))
    spaces = fields.List(fields.Nested(SpaceSchema), required=True, validate=validate.Length(min=1))
    edges = fields.List(fields.List(fields.String()), required=True)

    @validates_schema
    def _check(self, data: dict, **kwargs: Any) -> None:
        tile, spaces, edges = data["id"], data["spaces"], data["edges"]
        back = data.get("back", DOUBLE_SIDED)
        problems: list[str] = []
        ids = [space["id"] for space in spaces]
        known = set(ids)
        for space_id in ids:
            if not space_id.startswith(tile + "."):
                problems.append(f"space {space_id!r} does not belong to this tile (its id must start with '{tile}.')")
        for space_id in duplicates(ids):
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
            for other in duplicates(neighbours):
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
            reached = reach(ids[0], lambda s: links.get(s, ()))
            for space_id in ids:
                if space_id not in reached:
                    problems.append(f"space {space_id!r} cannot be reached from {ids[0]!r} through the tile's links")

        for space in spaces:
            if space["start"] and back != "start":
                problems.append(f"space {space['id']!r} is a start space but the tile's back is {back!r}")
            for kind in duplicates(space["terrain"]):
                problems.append(f"space {space['id']!r} lists terrain {kind!r} twice")
        if back == "start" and not any(space["start"] for space in spaces):
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
            back=data.get("back", DOUBLE_SIDED),
            spaces=spaces,
            links=tuple(pairs),
            edges=tuple((edge[0], edge[1]) for edge in data["edges"]),
        )


class FaceSchema(TileSchema):
    """One face of a double-sided tile: a tile without a back of its own (its back is the other face)."""

    class Meta:
        unknown = RAISE
        exclude = ("back",)


class SidesSchema(Strict):
    a = fields.Nested(FaceSchema, required=True)
    b = fields.Nested(FaceSchema, required=True)


class DoubleSidedTileSchema(Strict):
    """Map Tiles: a tile with a face on both sides, placed face up by the scenario sheets that name it."""

    id = id_field()
    sides = fields.Nested(SidesSchema, required=True)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> DoubleSidedTile:
        return DoubleSidedTile(id=data["id"], faces=(data["sides"]["a"], data["sides"]["b"]))


class PlaceSchema(Strict):
    id = id_field()
    q = fields.Integer(strict=True, required=True)
    r = fields.Integer(strict=True, required=True)
    tile = fields.String(load_default=None)
    back = fields.String(load_default=None, validate=one_of(FACE_DOWN_BACKS))
    side = fields.String(load_default=None, validate=one_of(SIDES))

    @validates_schema
    def _check(self, data: dict, **kwargs: Any) -> None:
        if (data["tile"] is None) == (data["back"] is None):
            raise ValidationError("a place shows either a face-up `tile` or a face-down `back`, not both or neither")
        if data["side"] is not None and data["tile"] is None:
            raise ValidationError("`side` names the face of a double-sided tile placed face up; a face-down place has none")

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Place:
        return Place(**data)


class FactionSchema(Strict):
    key = fields.String(required=True, validate=one_of(FACTIONS))
    name = fields.String(required=True)
    letter = fields.String(required=True, validate=one_of(FACTION_LETTERS))
    token_enemy = fields.Nested(EnemySchema, load_default=None)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Faction:
        return Faction(**data)


class PowerStepSchema(Strict):
    X = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    Y = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> PowerStep:
        return PowerStep(**data)


class LibraryRef(fields.Field):
    """A quest staged at setup: its library number (``130``) or its card id."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return str(value)
        if isinstance(value, str) and value.strip():
            return value.strip()
        raise ValidationError(f"must be a library number or a quest card id (got {value!r})")


class ScenarioSchema(Strict):
    id = id_field()
    name = fields.String(required=True)
    places = fields.List(fields.Nested(PlaceSchema), required=True, validate=validate.Length(min=1))
    start_place = fields.String(required=True)
    factions = fields.List(fields.Nested(FactionSchema), required=True, validate=validate.Length(equal=2))
    power_track = fields.List(fields.Nested(PowerStepSchema), required=True, validate=validate.Length(min=2))
    staged_quests = fields.List(LibraryRef(), load_default=list)
    setup = effects_field()
    on_deplete = effects_field()
    passive = effects_field()
    on_turn_start = effects_field()
    on_round_end = effects_field()

    @validates_schema
    def _check(self, data: dict, **kwargs: Any) -> None:
        problems: list[str] = []
        places: list[Place] = data["places"]
        for place_id in duplicates(p.id for p in places):
            problems.append(f"place id {place_id!r} is used twice")
        for q, r in duplicates((p.q, p.r) for p in places):
            names = ", ".join(repr(p.id) for p in places if (p.q, p.r) == (q, r))
            problems.append(f"places {names} share the hex ({q}, {r})")
        if data["start_place"] not in {p.id for p in places}:
            problems.append(f"start_place {data['start_place']!r} is not a place of this scenario")
        for tile in duplicates(p.tile for p in places if p.tile):
            problems.append(f"tile {tile!r} is placed face up twice")

        # Map Tiles: the layout must be one piece, or some tiles are unreachable
        # whatever tiles the shuffle puts where.
        at = {(p.q, p.r): p for p in places}
        if places:
            reached = reach((places[0].q, places[0].r), lambda h: [n for n in hex_neighbours(h) if n in at])
            for place in places:
                if (place.q, place.r) not in reached:
                    problems.append(
                        f"place {place.id!r} at ({place.q}, {place.r}) does not touch the rest of the layout"
                    )

        keys = [f.key for f in data["factions"]]
        letters = [f.letter for f in data["factions"]]
        if sorted(keys) != sorted(FACTIONS):
            problems.append(f"factions must be one {' and one '.join(FACTIONS)} (got {keys})")
        if sorted(letters) != sorted(FACTION_LETTERS):
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
            on_deplete=tuple(data["on_deplete"]),
            passive=tuple(data["passive"]),
            on_turn_start=tuple(data["on_turn_start"]),
            on_round_end=tuple(data["on_round_end"]),
        )
