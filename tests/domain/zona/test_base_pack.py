"""The base pack at the box's size: every count of the component list, and content that is whole."""

from __future__ import annotations

from collections import Counter

from domain.zona.checks import DICE
from domain.zona.model import ATTRIBUTES, QUEUES
from domain.zona.pack import PACKS, pack_named
from domain.zona.setup import FACILITY_LOCKS
from domain.zona.state import BACKPACK_SLOTS, MAX_INJURIES

BASE = pack_named("base")


def _copies(kind: str, colour: str | None = None) -> int:
    return sum(t.copies for t in BASE.items.values() if t.kind == kind and (colour is None or t.colour == colour))


def test_the_base_pack_has_every_count_of_the_component_list():
    """Zona §"SPIS ELEMENTÓW": 10 characters with 4 starting cards each; 38 junk, 38 equipment, 17 green and
    17 yellow artifacts, 16 finds (126 item cards); 25 green-sector, 25 yellow-sector, 14 sarcophagus event
    cards and 4 facility decks of 10 (104 event cards); 21 news, 20 emission cards; 14 tokens in each of the
    4 threat queues (56); 8 lock tokens, 4 used a game; 3 dice; a two-sided board with 4 facilities; and the
    engine's side of the box: 12 injury tokens (3 for each of 4 stalkers), backpacks of 5 slots."""
    assert len(BASE.stalkers) == 10
    assert all(len(s.equipment) == 4 for s in BASE.stalkers.values())
    assert (_copies("junk"), _copies("equipment")) == (38, 38)
    assert (_copies("artifact", "green"), _copies("artifact", "yellow")) == (17, 17)
    assert _copies("find") == 16
    assert sum(_copies(k) for k in ("junk", "equipment", "artifact", "find")) == 126
    decks = Counter(c.deck for c in BASE.events.values())
    assert (decks["green"], decks["yellow"], decks["sarcophagus"]) == (25, 25, 14)
    assert sorted(BASE.facilities) == sorted(d for d in decks if d not in ("green", "yellow", "sarcophagus"))
    assert [decks[f] for f in sorted(BASE.facilities)] == [10, 10, 10, 10]
    assert sum(decks.values()) == 104
    assert (len(BASE.news), len(BASE.emissions)) == (21, 20)
    queues = Counter()
    for t in BASE.threats.values():
        queues[t.queue] += t.copies
    assert {q: queues[q] for q in QUEUES} == dict.fromkeys(QUEUES, 14)
    assert sum(queues.values()) == 56
    assert (len(BASE.locks), FACILITY_LOCKS) == (8, 4)
    assert DICE == 3
    assert (MAX_INJURIES * 4, BACKPACK_SLOTS) == (12, 5)
    assert len(BASE.sides) == 2 and sorted(n for s in BASE.sides.values() for n in s.players) == [1, 2, 3, 4]
    assert sum(1 for a in BASE.areas.values() if a.sector == "facility") == 4


def test_every_stalker_is_whole_and_none_is_strictly_better():
    """Zona §"WYBÓR I PRZYGOTOWANIE SZPERACZY": attributes 1-4, stamina, an ability and the back's setup
    lines on each board; attributes sum alike, so the draft is a choice of style, not of strength."""
    for s in BASE.stalkers.values():
        assert set(s.attributes) == set(ATTRIBUTES) and all(1 <= v <= 4 for v in s.attributes.values())
        assert sum(s.attributes.values()) == 10, s.id
        assert s.ability and s.stamina > s.damage and len(s.threats) == 2
        assert BASE.areas[s.area].sector == "bunker"
    assert len({s.name for s in BASE.stalkers.values()}) == 10


def test_the_lobby_plays_the_base_pack_by_default_and_keeps_the_test_pack():
    """Zona §"SPIS ELEMENTÓW": the box is the default pack; the small test pack stays for fast tests."""
    from domain.zona.game import ZONA

    assert ZONA.resolve_options({})["pack"].split("@")[0] == "base"
    assert set(PACKS) == {"base", "test"}


def test_no_base_name_repeats_a_test_pack_name():
    """Every name in the base pack is written for it (original content, not the test pack's reused)."""
    test = pack_named("test")
    for part in ("items", "threats", "stalkers", "locks", "events", "news", "emissions", "areas"):
        ours = {x.name for x in getattr(BASE, part).values()}
        theirs = {x.name for x in getattr(test, part).values()}
        assert ours & theirs == set(), (part, ours & theirs)
