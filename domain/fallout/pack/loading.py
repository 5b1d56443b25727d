"""Reading a pack's files into a ``Pack``, then running the checks that span items."""

from __future__ import annotations

import functools
import os
from dataclasses import replace
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, NamedTuple

from marshmallow import Schema

from domain.engine.packs import PackError
from domain.fallout.model import (
    SIDES,
    Card,
    Pack,
    Scenario,
)
from domain.fallout.pack.card_checks import check_cards
from domain.fallout.pack.component_schemas import (
    AgendaSchema,
    CardSchema,
    DieSchema,
    EncounterSchema,
    EnemySchema,
    ManifestSchema,
    PerkSchema,
    QuestSchema,
    SpecialTokenSchema,
    SurvivorSchema,
    TraitTokenSchema,
)
from domain.fallout.pack.cross_checks import cross_check, lay_faces
from domain.fallout.pack.map_schemas import DoubleSidedTileSchema, ScenarioSchema, TileSchema
from domain.fallout.pack.reader import Reader


class _Section(NamedTuple):
    """One top-level key of one file: a list of items of one schema."""

    file: str
    key: str
    schema: type[Schema]
    noun: str  # what one item is called in messages
    bucket: str  # which list of the pack the items join (several files can feed one)
    deck: str | None = None  # card files: the deck every card of the file belongs to
    optional: bool = False  # a key a pack may leave out (one written before it existed)


_SECTIONS: tuple[_Section, ...] = (
    _Section("tiles.yaml", "tiles", TileSchema, "tile", "tiles"),
    _Section("tiles.yaml", "double_sided", DoubleSidedTileSchema, "double-sided tile", "double_sided", optional=True),
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


def load_pack(path: str | os.PathLike[str] | None = None) -> Pack:
    """Load and check the pack in directory ``path`` (default: the bundled base pack).

    Raises ``PackError`` listing every problem found. The default pack is
    loaded once per process and shared; treat the returned ``Pack`` (its dicts
    included) as read-only.
    """
    if path is None:
        return _bundled_pack()
    return _load(Path(path), str(path))


def load_folder(root: Traversable, source: str) -> Pack:
    """Load and check the pack in ``root`` (a frozen copy inside the install), as ``load_pack`` does."""
    return _load(root, source)


@functools.lru_cache(maxsize=1)
def _bundled_pack() -> Pack:
    # importlib.resources rather than __file__ so the pack also loads from a
    # zipped install.
    return _load(resources.files("domain.fallout.packs") / "base", "domain/fallout/packs/base")


def _load(root: Traversable, source: str) -> Pack:
    if not root.is_dir():
        raise PackError(source, [f"{source}: not a directory"])
    reader = Reader()

    manifest_raw = reader.yaml(root / "pack.yaml", "pack.yaml")
    manifest = reader.item(manifest_raw, "pack.yaml", ManifestSchema) if manifest_raw is not None else None

    # bucket -> [(where, item)], in file order
    entries: dict[str, list[tuple[str, Any]]] = {section.bucket: [] for section in _SECTIONS}
    for name in dict.fromkeys(section.file for section in _SECTIONS):
        sections = [section for section in _SECTIONS if section.file == name]
        raw = reader.mapping(reader.yaml(root / name, name), name, [section.key for section in sections])
        for section in sections:
            if section.optional and isinstance(raw, dict) and section.key not in raw:
                continue
            for where, item in reader.items(raw, name, section.key, section.schema, section.noun):
                if section.deck is not None:
                    item = _in_deck(reader, where, item, section.deck)
                entries[section.bucket].append((where, item))
    # Map Tiles: each face of a double-sided tile is a tile of the map like any other.
    for where, double in entries["double_sided"]:
        entries["tiles"] += [(f"{where} side {side}", face) for side, face in zip(SIDES, double.faces, strict=True)]
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

    # Which face of a double-sided tile each sheet places (the engine reads only faces).
    scenarios = [(where, lay_faces(reader, where, scenario, entries)) for where, scenario in scenarios]
    cross_check(reader, entries, scenarios)
    check_cards(reader, entries, scenarios)
    reader.finish(source)

    assert manifest is not None  # a manifest that failed its schema is one of the problems raised above
    tiles = {tile.id: tile for tile in loaded["tiles"]}
    return Pack(
        id=manifest["id"],
        tiles=tiles,
        scenarios={scenario.id: scenario for _, scenario in scenarios},
        enemies=tuple(loaded["enemies"]),
        dice=tuple(loaded["dice"]),  # exactly three, checked
        survivors={survivor.id: survivor for survivor in loaded["survivors"]},
        special_tokens=tuple(loaded["special_tokens"]),
        trait_tokens=tuple(loaded["trait_tokens"]),
        agendas=tuple(loaded["agendas"]),
        perks=tuple(loaded["perks"]),
        cards={card.id: card for card in loaded["cards"]},
        spaces={space.id: space for tile in tiles.values() for space in tile.spaces},
        encounters={card.id: card for card in loaded["encounters"]},
        quests={quest.id: quest for quest in loaded["quests"]},
        double_sided={double.id: double for double in loaded["double_sided"]},
    )


def _in_deck(reader: Reader, where: str, card: Card, deck: str) -> Card:
    """A card of a one-deck file (loot.yaml...) belongs to that deck."""
    if card.deck is None:
        return replace(card, deck=deck)
    if card.deck != deck:
        reader.problem(where, f"deck: {card.deck!r}, but this file holds the {deck} deck")
    return card
