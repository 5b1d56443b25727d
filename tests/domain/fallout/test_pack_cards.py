"""The bundled content pack: its cards, the card library and their effects; and that its content is original."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

import yaml

from domain.fallout import effects
from domain.fallout.model import (
    ENEMY_TYPES,
    Pack,
    Scenario,
)
from domain.fallout.pack import card_checks
from tests.domain.fallout.bundled_pack import BUNDLED


def _library(pack: Pack) -> dict[int, Any]:
    cards: dict[int, Any] = {q.number: q for q in pack.quests.values()}
    cards.update({c.number: c for c in pack.encounters.values() if c.number is not None})
    return cards


def _results(pack: Pack) -> Iterator[tuple[Any, effects.Result]]:
    """Every parsed result on every component, with the component."""
    for item in [*pack.encounters.values(), *pack.quests.values(), *pack.cards.values(), *pack.perks,
                 *pack.scenarios.values()]:
        for _, result in card_checks.parsed_results(item):
            yield item, result


def _options(pack: Pack, deck: str, starting: bool) -> list[Any]:
    return [o for c in pack.encounters.values() if c.deck == deck and (c.number is None) == starting
            for o in c.options]


def test_starting_encounter_decks(pack: Pack) -> None:
    """Encounter Cards / Complete Setup, step 4: the wasteland and settlement decks start with
    the cards with a star; the read-aloud split, conditions, FORCED options, tests and
    "draw and fight", amounts relative to the encounter level, trash or back to the bottom."""
    starting = [c for c in pack.encounters.values() if c.number is None]
    decks = Counter(c.deck for c in starting)
    assert decks["wasteland"] >= 12 and decks["settlement"] >= 8
    assert set(decks) == {"wasteland", "settlement"}  # vault cards come only from the library
    for card in starting:
        assert card.title and card.intro and card.options
        assert all(o.label for o in card.options)
        # At least one option any survivor can choose.
        assert any(o.condition is None for o in card.options), card.id
    options = [o for c in pack.encounters.values() for o in c.options]
    tasks = [effects.parse_task(t) for o in options for t in o.tasks]
    assert any(isinstance(t, effects.TestTask) and t.by == "partner" for t in tasks)
    assert {t.type for t in tasks if isinstance(t, effects.DrawAndFight)} == set(ENEMY_TYPES)
    for option in options:
        if option.tasks:
            assert option.succeed_text and not option.text and not option.results
        else:
            assert option.text and not (option.succeed or option.fail)
    forced = [o for o in options if o.forced]
    assert len(forced) >= 4 and all(o.condition and o.label.startswith("FORCED") for o in forced)
    conditions = {type(c).__name__ for o in options if o.condition
                  for c in effects.conditions_in(effects.parse_condition(o.condition))}
    assert {"HasTrait", "HasSpecial", "InSpace", "OnTerrain", "WithSurvivor", "HasCaps", "HasKind", "HasItem",
            "Loyal", "Not"} <= conditions
    amounts = {str(t.difficulty) for t in tasks if isinstance(t, effects.TestTask)}
    amounts |= {str(r.amount) for _, r in _results(pack) if hasattr(r, "amount")}
    assert {"L", "L+1", "L-1", "2"} <= amounts
    bars = [o.results + o.succeed + o.fail for c in starting for o in c.options]
    trashing = [b for b in bars if "trash" in b]
    assert trashing and len(trashing) < len(bars)


def test_card_library(pack: Pack) -> None:
    """Card Library: at least 30 numbered cards, quests and encounters, the vault decks only
    here; add finds an encounter card, stage a quest card, and several chain on."""
    library = _library(pack)
    numbered = [c for c in pack.encounters.values() if c.number is not None] + list(pack.quests.values())
    assert len(library) == len(numbered) >= 30  # numbers are unique
    assert len(pack.quests) >= 12 and len(numbered) - len(pack.quests) >= 12
    vaults = Counter(c.deck for c in pack.encounters.values() if c.deck.startswith("vault"))
    assert vaults["vault84"] >= 4 and vaults["vault109"] >= 4
    adds, stages = set(), set()
    for item, result in _results(pack):
        if isinstance(result, effects.Add):
            assert result.number in library and library[result.number].id in pack.encounters, result
            adds.add((getattr(item, "number", None), result.number))
        elif isinstance(result, effects.Stage):
            assert result.number in library and library[result.number].id in pack.quests, result
            stages.add((getattr(item, "number", None), result.number))
    # Chains: quests staging quests, cards adding vault cards, vault cards staging a quest.
    quest_numbers = {q.number for q in pack.quests.values()}
    assert len({(a, b) for a, b in stages if a in quest_numbers}) >= 5
    added_decks = {library[b].deck for _, b in adds}
    assert {"vault84", "vault109"} <= added_decks
    assert any(library[a].id in pack.encounters and library[a].deck.startswith("vault") for a, _ in stages if a)


def test_quest_cards(pack: Pack) -> None:
    """Quest Cards: triggered and quest-action objectives with results bars; a quest line for
    each faction advancing its power, neutral quests; markers on real spaces."""
    triggers = set()
    for quest in pack.quests.values():
        assert quest.title and quest.text and quest.objectives
        for objective in quest.objectives:
            assert objective.text and objective.results
            if objective.trigger:
                triggers.add(type(effects.parse_trigger(objective.trigger)).__name__)
                assert objective.requirement is None and not objective.instructions
    assert triggers >= {"KillTrigger", "ExploreTrigger"}
    powers = Counter(r.faction for item, r in _results(pack) if isinstance(r, effects.Power) and item.id in pack.quests)
    assert powers["star"] >= 5 and powers["spade"] >= 5
    neutral = [q for q in pack.quests.values()
               if not any(isinstance(r, effects.Power) for _, r in card_checks.parsed_results(q))]
    assert len(neutral) >= 4
    markers = [r.space for _, r in _results(pack) if isinstance(r, effects.PlaceMarker)]
    assert markers and set(markers) <= set(pack.spaces)
    # The hooks the vocabulary gives a quest line: kill a faction token, a named unique asset.
    assert any(q.objectives[0].trigger == {"kill": "star"} for q in pack.quests.values())
    assert any(isinstance(r, effects.LoseItem) for _, r in _results(pack))


def test_scenario_sheet_stages_a_quest_and_sets_up(pack: Pack, scenario: Scenario) -> None:
    """Complete Setup, step 9: the quest on the scenario sheet is staged (its top section
    places a marker on a real space), then the other setup effects resolve."""
    library = _library(pack)
    assert scenario.staged_quests
    for ref in scenario.staged_quests:
        quest = library[int(ref)]
        assert quest.id in pack.quests
        placed = [effects.parse_result(r) for r in quest.on_stage]
        assert any(isinstance(r, effects.PlaceMarker) and r.space in pack.spaces for r in placed)
    setup = effects.parse_results(scenario.setup)
    assert any(isinstance(r, effects.PlaceFactionToken) and r.space in pack.spaces for r in setup)
    assert any(isinstance(r, effects.Add) and r.number in library for r in setup)


def test_agenda_influence(pack: Pack) -> None:
    """Agenda Cards / Influence: every card gives 1 plus conditions evaluated on the live game;
    faction cards pay for their faction's lead."""
    with_influence = [a for a in pack.agendas if a.influence]
    assert len(with_influence) >= 16
    for faction in ("star", "spade", None):
        cards = [a for a in with_influence if a.faction == faction]
        assert len(cards) >= 4 and {a.players for a in cards} >= {1, 2}
    for agenda in with_influence:
        parsed = [effects.parse_influence(raw) for raw in agenda.influence]
        if agenda.faction:
            assert any(i.per == effects.Counter("lead", agenda.faction) for i in parsed), agenda.id
    counters = {effects.parse_influence(raw).per.what for a in pack.agendas for raw in a.influence if "per" in raw}
    assert counters >= {"lead", "caps", "special", "items", "kind", "perks"}


def test_loot_asset_and_unique_cards(pack: Pack) -> None:
    """Loot Cards, Asset Cards, Unique Asset Cards, Companions, Weapons, Apparel."""
    by_deck: dict[str | None, list] = defaultdict(list)
    for card in pack.cards.values():
        by_deck[card.deck].append(card)
    loot, assets, uniques = by_deck["loot"], by_deck["asset"], by_deck["unique"]
    assert len(loot) >= 20 and len(assets) >= 15 and len(uniques) >= 6
    assert {c.kind for c in loot} == {"weapon", "apparel", "aid", "drug", "magazine", "companion", "event"}
    assert any(c.kind == "weapon" and c.ranged for c in loot) and any(c.kind == "weapon" and c.special for c in loot)
    assert all(c.armor >= 1 for c in loot + assets if c.kind == "apparel")
    for card in assets:
        if card.kind == "companion":
            assert card.cost is None and card.keep_if is not None and card.effects, card.id
        else:
            assert card.cost is not None and card.value is not None, card.id
    companions = [c for c in assets if c.kind == "companion"]
    assert len(companions) >= 4
    assert any(c.recruit and "trait" in c.recruit for c in companions)
    assert any(c.recruit and "special" in c.recruit for c in companions)
    assert any(c.unexhaust_cost for c in companions)
    for card in loot + assets + uniques:
        if card.kind in ("aid", "drug", "magazine", "event"):
            assert card.effects, card.id
        effects.parse_results(card.effects)
    # Every unique asset is named by some result; the random one exists too.
    named = {r.card for _, r in _results(pack) if isinstance(r, effects.GainUnique)}
    assert {c.id for c in uniques} - {"tide_crown"} <= named


def test_perks_have_usable_effects(pack: Pack) -> None:
    """Perk Cards: used during one's own turn; each of the 14 does something."""
    for perk in pack.perks:
        assert perk.effects and effects.parse_results(perk.effects), perk.id


def test_every_cross_reference_of_the_bundled_pack(pack: Pack) -> None:
    """Every card number a result names exists, every space named exists, every condition and
    effect parses: the vocabulary's own check finds nothing in any component."""
    cards = pack.cards.values()
    known = effects.Known(
        spaces=frozenset(pack.spaces), tiles=frozenset(pack.tiles),
        traits=frozenset(side for t in pack.trait_tokens for side in t.sides),
        cards=frozenset(pack.cards), uniques=frozenset(c.id for c in cards if c.deck == "unique"),
        encounter_numbers=frozenset(c.number for c in pack.encounters.values() if c.number is not None),
        quest_numbers=frozenset(q.number for q in pack.quests.values()), quests=frozenset(pack.quests),
    )
    components = [*pack.encounters.values(), *pack.quests.values(), *cards, *pack.agendas, *pack.perks,
                  *pack.scenarios.values()]
    assert len(components) >= 140
    for component in components:
        assert effects.check(component, known) == [], component.id
    named_spaces = [c.space for comp in components for _, c in card_checks.parsed_conditions(comp)
                    if isinstance(c, effects.InSpace)]
    placing = (effects.PlaceMarker, effects.PlaceFactionToken)
    named_spaces += [r.space for _, r in _results(pack) if isinstance(r, placing)]
    assert named_spaces and set(named_spaces) <= set(pack.spaces)


# Names of the published game's components we must never reproduce.
PUBLISHED_NAMES = [
    "Diamond City", "Crossroads", "Sanctuary", "Brotherhood", "Institute", "Minutemen", "Railroad",
    "Nate", "Nora", "Dogmeat", "Codsworth", "Nick Valentine", "Piper", "Preston", "Paladin Danse",
    "Red Rocket", "Concord", "Lexington", "Goodneighbor", "Vault 111", "Vault 81", "Radroach", "Mole Rat",
    "Bloatfly", "Mirelurk", "Deathclaw", "Feral Ghoul", "Protectron", "Mister Handy", "Assaultron",
    "Behemoth", "Raider", "Synth", "Yao Guai", "Stingwing", "Gunner", "Forged", "Triggerman",
    "Super Mutant", "Brahmin", "Nuka", "Pip-Boy", "Power Armor", "Vault Dweller", "Wastelander",
    "Ghoul", "Strong Back", "Lone Wanderer", "Scrounger", "Bloody Mess", "Gun Nut", "Commando",
]


PROSE_KEYS = ("name", "text", "title", "intro", "label", "succeed_text", "fail_text")


def _prose(node: Any) -> Iterator[str]:
    """Every name and text in a YAML tree (ids and mechanics keywords are vocabulary)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in PROSE_KEYS and isinstance(value, str):
                yield value
            else:
                yield from _prose(value)
    elif isinstance(node, list):
        for item in node:
            yield from _prose(item)


def test_content_is_original() -> None:
    """The project ships original content (DESIGN.md, Content): no published names."""
    prose = "\n".join(text for path in BUNDLED.rglob("*.yaml") for text in _prose(yaml.safe_load(path.read_text())))
    assert "Tollbridge Camp" in prose
    found = [name for name in PUBLISHED_NAMES if re.search(rf"\b{re.escape(name)}\b", prose, re.IGNORECASE)]
    assert found == []
