"""Which content pack a game plays with.

A game's state names its pack by id (so snapshots stay small and JSON-ready)
and the engine looks the pack up here. The bundled pack loads lazily from
``domain.fallout.pack``; tests and other packs register their own.
"""

from __future__ import annotations

from domain.fallout import pack as packs
from domain.fallout.model import Pack

_PACKS: dict[str, Pack] = {}

DEFAULT_PACK = "base"


def register_pack(pack: Pack) -> Pack:
    _PACKS[pack.id] = pack
    return pack


def pack_named(pack_id: str) -> Pack:
    found = _PACKS.get(pack_id)
    if found is not None:
        return found
    if pack_id == DEFAULT_PACK:
        # The bundled pack is read on first use: importing the game reads no YAML.
        register_pack(packs.load_pack())
    if pack_id not in _PACKS:
        raise KeyError(f"no content pack {pack_id!r}")
    return _PACKS[pack_id]


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


def catalog(pack_id: str) -> Catalog:
    pack = _PACKS.get(pack_id) or pack_named(pack_id)
    found = _CATALOGS.get(id(pack))
    if found is None or found.pack is not pack:
        found = _CATALOGS[id(pack)] = Catalog(pack)
    return found
