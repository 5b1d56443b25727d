"""Checks across the items of a pack: ids, references, counts, the scenario's map."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from domain.fallout.model import (
    DOUBLE_SIDED,
    SIDES,
    SPECIAL,
    DoubleSidedTile,
    EnemyToken,
    Scenario,
    SpecialToken,
    Survivor,
    Tile,
)
from domain.fallout.pack.reader import Reader
from domain.fallout.pack.schema_parts import DICE, FACE_DOWN_BACKS, TOKENS_PER_LETTER


def cross_check(
    reader: Reader, entries: dict[str, list[tuple[str, Any]]], scenarios: list[tuple[str, Scenario]]
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
    for where, tile in entries["tiles"]:
        reader.own(tile.id, where)
        for space in tile.spaces:
            reader.own(space.id, where)
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
    if len(loaded["dice"]) != DICE and "dice.yaml" not in failed:
        reader.problem("dice.yaml", f"the pack needs exactly {DICE} V.A.T.S. dice (found {len(loaded['dice'])})")

    # S.P.E.C.I.A.L. Tokens: the supply holds five of each letter; the
    # survivors' own tokens (with a silhouette) come on top and are not counted.
    if "tokens.yaml" not in failed:
        per_letter = Counter(token.letter for token in tokens if token.survivor is None)
        for letter in SPECIAL:
            if per_letter[letter] != TOKENS_PER_LETTER:
                reader.problem(
                    "tokens.yaml",
                    f"letter {letter} has {per_letter[letter]} S.P.E.C.I.A.L. tokens in the supply "
                    f"(not counting survivors' own); each letter needs {TOKENS_PER_LETTER}",
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


def lay_faces(reader: Reader, where: str, scenario: Scenario, entries: dict[str, list[tuple[str, Any]]]) -> Scenario:
    """The scenario with each face-up place holding the tile face it shows (Map Tiles: a double-sided
    tile is placed face up with the side the sheet names; any other tile has one face)."""
    where = f"{where}: scenario {scenario.id!r}"
    singles = {tile.id for _, tile in entries["tiles"] if tile.back != DOUBLE_SIDED}
    doubles: dict[str, DoubleSidedTile] = {double.id: double for _, double in entries["double_sided"]}
    places = []
    for place in scenario.places:
        if place.tile is None:
            places.append(place)
            continue
        double = doubles.get(place.tile)
        if double is not None and place.side is None:
            reader.problem(
                where, f"place {place.id!r} names the double-sided tile {place.tile!r}: `side` ({' or '.join(SIDES)}) "
                "says which face is up",
            )
        elif double is not None:
            place = replace(place, tile=double.face(place.side or "").id, double_sided=double.id)
        elif place.tile in singles and place.side is not None:
            reader.problem(
                where, f"place {place.id!r} names {place.tile!r}, a tile with one face: `side` is only for "
                "double-sided tiles",
            )
        elif place.tile not in singles and place.tile not in reader.broken:
            why = "a face of a double-sided tile: name the tile and its side" if place.tile in _faces(doubles) else (
                "which does not exist")
            reader.problem(where, f"place {place.id!r} names tile {place.tile!r}, {why}")
        places.append(place)
    return replace(scenario, places=tuple(places))


def _faces(doubles: dict[str, DoubleSidedTile]) -> set[str]:
    return {face.id for double in doubles.values() for face in double.faces}


def _check_scenario(
    reader: Reader, where: str, scenario: Scenario, tiles: list[Tile], enemies: list[EnemyToken], failed: set[str]
) -> None:
    by_id = {tile.id: tile for tile in tiles}
    start = next((p for p in scenario.places if p.id == scenario.start_place), None)
    if start is not None:
        tile = by_id.get(start.tile or "")
        if start.tile is None or (tile is not None and tile.back != "start"):
            reader.problem(where, f"start_place {start.id!r} must hold a face-up tile with back: start")

    # Map Tiles: face-down places are dealt from the tiles of their back that
    # are not already face up on this map.
    face_up = {p.tile for p in scenario.places if p.tile}
    if "tiles.yaml" not in failed:
        for back in FACE_DOWN_BACKS:
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
