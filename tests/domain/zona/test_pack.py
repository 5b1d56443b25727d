"""The shipped packs (the small test pack and the base box) each cover every mechanic the engine has."""

from __future__ import annotations

from dataclasses import fields as dataclass_fields

import pytest

from domain.zona.effects import HANDLERS
from domain.zona.model import ItemType
from domain.zona.pack import PACKS, pack_named


def _keys(effects, found):
    for effect in effects or []:
        key = next(iter(effect))
        found.add(key)
        value = effect[key]
        _keys(effect.get("pass"), found)
        _keys(effect.get("fail"), found)
        _keys(effect.get("then"), found)
        _keys(effect.get("effects"), found)
        if key == "choose":
            for option in value:
                _keys(option.get("effects"), found)
        elif key in ("may", "category"):
            _keys(value.get("effects"), found)
        elif key == "reputation_sections":
            for branch in value.values():
                _keys(branch, found)
        elif key == "all":
            _keys(value, found)


@pytest.mark.parametrize("name", PACKS)
def test_every_effect_of_the_vocabulary_is_on_some_card_area_or_news(name):
    """Zona §"SPIS ELEMENTÓW": each pack exercises the whole effect vocabulary."""
    pack = pack_named(name)
    found: set[str] = set()
    for area in pack.areas.values():
        _keys(area.action, found)
    for card in pack.events.values():
        for section in card.sections.values():
            _keys(section, found)
        for paragraph in card.paragraphs:
            _keys(paragraph, found)
    for news in pack.news.values():
        _keys(news.effects, found)
    for item in pack.items.values():
        if item.use_at:
            _keys(item.use_at["effects"], found)
    assert set(HANDLERS) - found == set()


@pytest.mark.parametrize("name", PACKS)
def test_every_item_power_threat_ability_lock_and_timed_news_is_in_the_pack(name):
    """Zona §"PRZEDMIOTY": every item power, threat ability, lock price and timed news kind is used."""
    pack = pack_named(name)
    powers = {f.name for f in dataclass_fields(ItemType)} - {
        "id", "name", "kind", "price", "use", "colour", "durability", "copies", "small", "outfit", "category"}
    used = {name for name in powers if any(getattr(item, name) for item in pack.items.values())}
    assert used == powers
    assert {"spawn", "trophy_lowers"} <= {key for t in pack.threats.values() for key in t.ability}
    assert {"trophy", "artifact"} <= {key for t in pack.threats.values() for key in t.loot}
    locks = pack.locks.values()
    assert any(lock.fatigue for lock in locks) and any(lock.damage for lock in locks)
    assert any(lock.roubles for lock in locks) and any(lock.trophy for lock in locks)
    assert {next(iter(n.timed)) for n in pack.news.values() if n.timed} == {"toxic", "closed", "blocked"}
    assert {item.use for item in pack.items.values()} == {"single", "consumable", "durable"}
    assert {item.kind for item in pack.items.values()} == {"junk", "equipment", "find", "artifact", "starting"}
    assert any(item.category == "crowbar" for item in pack.items.values())
    assert {next(iter(s.ability)) for s in pack.stalkers.values()} == {"reroll", "protect", "camp", "mend", "haggle"}
