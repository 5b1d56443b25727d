"""Which content pack a game plays with.

A game's state names its pack by id (so snapshots stay small and JSON-ready)
and the engine looks the pack up here. A game created since packs had
addresses names its pack by address (``base@<content hash>``,
``domain.engine.shelf``) and plays that frozen copy for good; a bare name is
the bundled folder as it is now. Packs load lazily; tests register their own.
"""

from __future__ import annotations

from typing import Final

from domain.engine.shelf import Shelf, UnknownPack
from domain.fallout import pack as packs
from domain.fallout.model import Pack

_PACKS: dict[str, Pack] = {}

DEFAULT_PACK = "base"
#: The packs that ship, and every frozen copy of them.
SHELF = Shelf("domain.fallout.packs", (DEFAULT_PACK,))


def register_pack(pack: Pack) -> Pack:
    _PACKS[pack.id] = pack
    _BY_ID.pop(pack.id, None)
    return pack


def pack_named(pack_id: str) -> Pack:
    """The pack a state names: a registered pack's id, a bundled pack's name or a frozen copy's address."""
    found = _PACKS.get(pack_id)
    if found is not None:
        return found
    if pack_id == DEFAULT_PACK or pack_id == SHELF.address(DEFAULT_PACK):
        # The bundled pack is read on first use (importing the game reads no YAML), and once a process: by its
        # name and by the address of its bytes as they are (what a new game records) alike.
        pack = packs.load_pack()
    else:
        try:
            folder = SHELF.open(pack_id)
        except UnknownPack:
            raise KeyError(f"no content pack {pack_id!r}") from None
        pack = packs.load_folder(folder, pack_id)
    _PACKS[pack_id] = pack
    _BY_ID.pop(pack_id, None)
    return pack


def pinned(pack_id: str) -> str:
    """The address a new game records for ``pack_id``: a shipped pack's current one, else the id itself."""
    return SHELF.address(pack_id) if pack_id in SHELF.names else pack_id


class Catalog:
    """A pack's components indexed by id, built once per pack."""

    def __init__(self, pack: Pack):
        self.pack = pack
        self.enemies = {e.id: e for e in pack.enemies}
        self.tokens = {t.id: t for t in pack.special_tokens}
        self.agendas = {a.id: a for a in pack.agendas}
        self.perks = {p.id: p for p in pack.perks}
        self.traits = {t.id: t for t in pack.trait_tokens}
        self.cards = dict(pack.cards)
        self.encounters = dict(pack.encounters)
        self.quests = dict(pack.quests)
        # The card library, by the number in the upper-left corner (Card Library).
        self.library: dict[int, str] = {c.number: c.id for c in pack.encounters.values() if c.number is not None}
        self.library.update({q.number: q.id for q in pack.quests.values()})
        self.uniques = tuple(sorted(c.id for c in pack.cards.values() if c.deck == "unique"))


_CATALOGS: dict[int, Catalog] = {}
#: Each pack id's catalog: the rules look one up some ten times a decision. A pack registered again
#: under its id (``register_pack``) drops its entry.
_BY_ID: Final[dict[str, Catalog]] = {}


def catalog(pack_id: str) -> Catalog:
    found = _BY_ID.get(pack_id)
    if found is None:
        found = _BY_ID[pack_id] = _catalog(pack_id)
    return found


def _catalog(pack_id: str) -> Catalog:
    pack = _PACKS.get(pack_id) or pack_named(pack_id)
    found = _CATALOGS.get(id(pack))
    if found is None or found.pack is not pack:
        found = _CATALOGS[id(pack)] = Catalog(pack)
    return found
