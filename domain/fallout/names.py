"""Fallout's names for the ids its events carry, for its words (``domain.fallout.words``, ``domain.fallout.prompts``)
and its views' ``names`` (``domain.fallout.view``): one source, so the board and the log agree.

Names come from the pack and the public parts of the state only: who plays
which survivor, what a space, card or quest is called, which enemy an active
token is. An inactive enemy's token is hidden (Enemies: face-down tokens), so
it is named by its type. The words read the state right before the event they
name things for (the service folds the log to it), so an enemy an event kills
or sends off is still there; a view reads the state it shows. Every name
still falls back to the id rather than fail.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from domain.engine.addressing import YOU
from domain.fallout.content import catalog
from domain.fallout.state import FACE_DOWN, GameState

LISTED = 6


def plain(key: object) -> str:
    return str(key).replace("_", " ")


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``1 cap``, ``2 caps``; ``plural`` for nouns that do not take an s (``die``/``dice``)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def listed(items: Sequence[str], last: str = "and") -> str:
    items = [i for i in items if i]
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


@functools.cache
def pack_names(pack_id: str, scenario_id: str | None) -> dict[str, str]:
    """Every id of a pack with a name, and the scenario's faction keys: one lookup for a view's every string.
    The pack loader keeps ids unique across the pack (``pack.cross_checks``), so no table shadows another."""
    c = catalog(pack_id)
    pack = c.pack
    names: dict[str, str] = {}
    for table in (pack.survivors, pack.tiles, c.cards, c.agendas, c.perks, c.enemies, pack.scenarios):
        names.update((key, str(item.name)) for key, item in table.items())
    names.update((key, space.name) for key, space in pack.spaces.items() if space.name)
    names.update((key, str(quest.title)) for key, quest in c.quests.items())
    names.update((key, card.title) for key, card in c.encounters.items() if card.title)
    scenario = pack.scenarios.get(scenario_id) if scenario_id else None
    names.update((f.key, f.name) for f in (scenario.factions if scenario else ()))
    return names


class Names:
    """The pack's names for the ids an event carries, with the id when the pack does not know it."""

    def __init__(self, state: GameState, reader: int | None = None):
        self.state = state
        #: The seat the words are for: named ``YOU`` (``domain.engine.addressing``), never by its survivor.
        self.reader = reader
        try:
            self.catalog: Any = catalog(state.pack) if state.pack else None
        except KeyError:
            self.catalog = None

    def of(self, key: str) -> str | None:
        """The pack's own name for an id a view shows, or None: a survivor's full name, a tile's, a named
        space's, a card's (character, item, asset, loot, agenda, perk), a quest's or encounter card's title,
        an enemy token's, the scenario's and its factions' (by key)."""
        if self.catalog is None:
            return None
        return pack_names(self.state.pack, self.state.scenario).get(key)

    def seat(self, seat: object) -> str:
        if self.reader is not None and seat == self.reader:
            return YOU
        survivors = self.state.survivors
        chosen = survivors[seat].survivor if isinstance(seat, int) and 0 <= seat < len(survivors) else None
        if chosen:
            return self.survivor(chosen)
        return f"Seat {seat}"

    def survivor(self, survivor_id: str) -> str:
        found = self.catalog.pack.survivors.get(survivor_id) if self.catalog else None
        # "Tamsin Reed, Marsh Scout" is called Tamsin at the table.
        return found.name.split(",")[0].split(" ")[0] if found else plain(survivor_id).title()

    def space(self, space_id: object) -> str:
        if not isinstance(space_id, str):
            return "a space"
        if space_id.startswith(FACE_DOWN):
            return "a face-down tile"
        pack = self.catalog.pack if self.catalog else None
        space = pack.spaces.get(space_id) if pack else None
        if space is not None and space.name:
            return space.name
        tile_id, _, local = space_id.partition(".")
        tile = pack.tiles.get(tile_id) if pack else None
        return f"the {plain(local)} of {tile.name if tile else plain(tile_id).title()}"

    def tile(self, tile_id: object) -> str:
        tile = self.catalog.pack.tiles.get(tile_id) if self.catalog and isinstance(tile_id, str) else None
        return tile.name if tile else plain(tile_id).title()

    def card(self, card_id: object) -> str:
        if not isinstance(card_id, str):
            return "a card"
        c = self.catalog
        for table in (c.cards, c.agendas, c.perks) if c else ():
            if card_id in table:
                return str(table[card_id].name)
        if c and card_id in c.quests:
            return str(c.quests[card_id].title)
        if c and card_id in c.pack.scenarios:
            return str(c.pack.scenarios[card_id].name)
        if c and card_id in c.encounters:
            return str(c.encounters[card_id].title or "an encounter card")
        return plain(card_id)

    def cards(self, card_ids: object) -> str:
        return listed([self.card(c) for c in card_ids]) if isinstance(card_ids, list) else "some cards"

    def token(self, token_id: object) -> str:
        found = self.catalog.enemies.get(token_id) if self.catalog and isinstance(token_id, str) else None
        return f"the {found.name}" if found else "an enemy"

    def enemy(self, enemy_id: object, token: object = None) -> str:
        """An enemy on the map: its token's name when the token is known (active), else its type."""
        if token:
            return self.token(token)
        found = self.state.enemy(enemy_id) if isinstance(enemy_id, str) else None
        if found is None:
            return f"enemy {enemy_id}"
        if found.faction:
            return f"a token of {self.faction(found.faction)}"
        return self.token(found.token) if found.active else f"a face-down {found.type} enemy"

    def faction(self, key: object) -> str:
        scenario = self.catalog.pack.scenarios.get(self.state.scenario) if self.catalog else None
        for faction in scenario.factions if scenario else ():
            if faction.key == key:
                return faction.name
        return f"the {key} faction"

    def quest(self, quest_id: object) -> str:
        c = self.catalog
        return str(c.quests[quest_id].title) if c and isinstance(quest_id, str) and quest_id in c.quests else "a quest"
