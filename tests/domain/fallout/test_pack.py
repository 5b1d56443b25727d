"""The base content pack and its loader (domain/fallout/pack.py).

The first half loads the bundled pack and checks what the rules and the issue
ask of it. The second half copies the pack into a temporary directory, breaks
one thing, and checks that ``PackError`` names the problem, the file and the
item.
"""

from __future__ import annotations

import ast
import re
import shutil
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import domain.fallout.pack as pack_module
from domain.fallout import effects
from domain.fallout.model import (
    ABILITIES,
    AREAS,
    DIRECTIONS,
    ENEMY_TYPES,
    SPECIAL,
    Pack,
    Scenario,
)
from domain.fallout.pack import PackError, load_pack

BUNDLED = Path(pack_module.__file__).parent / "packs" / "base"
SCENARIO = "saltmarsh_reach"


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack()


@pytest.fixture(scope="module")
def scenario(pack: Pack) -> Scenario:
    return pack.scenarios[SCENARIO]


# --------------------------------------------------------------------------
# The bundled pack
# --------------------------------------------------------------------------


def test_bundled_pack_loads_and_is_cached(pack: Pack) -> None:
    assert pack.id == "base"
    assert load_pack() is load_pack()
    assert load_pack(BUNDLED) == pack  # an explicit path reads the same pack


def test_bundled_pack_ships_as_package_data() -> None:
    """The YAML is found through importlib.resources, as from an installed wheel."""
    base = resources.files("domain.fallout.packs") / "base"
    for name in ("pack.yaml", "tiles.yaml", "enemies.yaml", "dice.yaml", "survivors.yaml", "tokens.yaml",
                 "agendas.yaml", "perks.yaml", "cards.yaml", "loot.yaml", "assets.yaml", "uniques.yaml",
                 "encounters.yaml", "library.yaml"):
        assert (base / name).is_file(), name
    assert (base / "scenarios" / f"{SCENARIO}.yaml").is_file()


def test_pack_module_imports_only_what_the_domain_may() -> None:
    tree = ast.parse(Path(pack_module.__file__).read_text())
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            roots.add(node.module.split(".")[0])
    allowed = {"__future__", "dataclasses", "functools", "os", "collections", "importlib", "pathlib", "typing", "yaml",
               "marshmallow", "domain"}
    assert roots <= allowed, roots - allowed


def test_tiles_by_back(pack: Pack) -> None:
    """Map Tiles: each map tile is dangerous or deadly by its back; one starting tile."""
    backs = Counter(tile.back for tile in pack.tiles.values())
    assert backs["start"] == 1
    assert 16 <= len(pack.tiles) <= 21
    for tile in pack.tiles.values():
        assert 3 <= len(tile.spaces) <= 6, tile.id
        assert len(tile.edges) == 6, tile.id


def test_starting_tile(pack: Pack) -> None:
    """Complete Setup, step 7: survivors are placed in unoccupied spaces of the starting tile."""
    (start,) = [tile for tile in pack.tiles.values() if tile.back == "start"]
    assert 2 <= sum(space.start for space in start.spaces) <= 4
    assert not any(space.enemy_icons for space in start.spaces)
    assert not any(space.start for tile in pack.tiles.values() if tile.back != "start" for space in tile.spaces)


def test_pack_spaces_index_every_space(pack: Pack) -> None:
    every = [space for tile in pack.tiles.values() for space in tile.spaces]
    assert len(pack.spaces) == len(every)
    assert all(pack.spaces[space.id] is space for space in every)
    for tile in pack.tiles.values():
        assert all(space.id.startswith(tile.id + ".") for space in tile.spaces)


def test_links_name_spaces_of_the_same_tile(pack: Pack) -> None:
    """Spaces: two spaces are adjacent if they share a border (inside one tile)."""
    for tile in pack.tiles.values():
        own = {space.id for space in tile.spaces}
        pairs = [frozenset(link) for link in tile.links]
        assert len(pairs) == len(set(pairs)), tile.id  # each border once
        for a, b in tile.links:
            assert a in own and b in own and a != b, tile.id
        for edge in tile.edges:
            assert set(edge) <= own, tile.id


def test_named_spaces_are_the_encounter_locations(pack: Pack) -> None:
    """Spaces: spaces that represent consequential locations have an encounter icon and a name."""
    for space in pack.spaces.values():
        assert (space.encounter is None) == (space.name is None), space.id


def test_each_vault_appears_once(pack: Pack) -> None:
    """Encounter Icons: vault encounters are drawn only at the vault with the matching number."""
    kinds = Counter(space.encounter.kind for space in pack.spaces.values() if space.encounter)
    assert kinds["vault84"] == 1 and kinds["vault109"] == 1
    assert kinds["wasteland"] >= 8 and kinds["settlement"] >= 3
    for space in pack.spaces.values():
        if space.encounter and space.encounter.kind in ("wasteland", "settlement"):
            assert space.encounter.level in (1, 2, 3), space.id


def _deal(scenario: Scenario, pack: Pack, order: dict[str, list[str]]) -> dict[tuple[int, int], str]:
    """Which tile lies on each hex, dealing face-down places from ``order`` per back."""
    decks = {back: list(tiles) for back, tiles in order.items()}
    return {(p.q, p.r): p.tile if p.tile else decks[p.back].pop(0) for p in scenario.places}


def _board(pack: Pack, layout: dict[tuple[int, int], str]) -> dict[str, set[str]]:
    """Space adjacency of a whole map, by the hex-edge convention of model.py."""
    graph: dict[str, set[str]] = defaultdict(set)
    for tile_id in layout.values():
        tile = pack.tiles[tile_id]
        for space in tile.spaces:
            graph[space.id]
        for a, b in tile.links:
            graph[a].add(b)
            graph[b].add(a)
    for (q, r), tile_id in layout.items():
        for d, (dq, dr) in enumerate(DIRECTIONS):
            other = layout.get((q + dq, r + dr))
            if other is None:
                continue
            facing = pack.tiles[other].edges[(d + 3) % 6]
            for half in (0, 1):
                graph[pack.tiles[tile_id].edges[d][half]].add(facing[1 - half])
    return graph


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, queue = {start}, deque([start])
    while queue:
        for other in graph[queue.popleft()]:
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return seen


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_space_is_reachable_for_any_shuffle(data: st.DataObject) -> None:
    """Map Tiles: face-down tiles are shuffled by back and placed randomly; whatever
    the shuffle, a survivor can walk from the starting tile to every space (Move Action)."""
    pack = load_pack()
    scenario = pack.scenarios[SCENARIO]
    face_up = {p.tile for p in scenario.places if p.tile}
    order = {
        back: data.draw(st.permutations(sorted(t.id for t in pack.tiles.values() if t.back == back and t.id not in face_up)))
        for back in ("dangerous", "deadly")
    }
    graph = _board(pack, _deal(scenario, pack, order))
    for space, neighbours in graph.items():  # the edge convention is symmetric
        assert all(space in graph[other] for other in neighbours)
    start = next(s.id for s in pack.spaces.values() if s.start)
    assert _reachable(graph, start) == set(graph)


def test_layout(pack: Pack, scenario: Scenario) -> None:
    """Map Tiles / Complete Setup, step 2: the layout shows face-up tiles and face-down
    dangerous and deadly places; each back has spare tiles so the shuffle matters."""
    places = Counter(p.back or "face up" for p in scenario.places)
    assert places["dangerous"] >= 4 and places["deadly"] >= 4
    start = next(p for p in scenario.places if p.id == scenario.start_place)
    assert pack.tiles[start.tile].back == "start"
    face_up = {p.tile for p in scenario.places if p.tile}
    for back in ("dangerous", "deadly"):
        available = [t for t in pack.tiles.values() if t.back == back and t.id not in face_up]
        assert len(available) > places[back], back


def test_factions_and_power_track(scenario: Scenario) -> None:
    """Factions / Faction Power Track: ★ and ♠, enemies with X and Y levels read off the track."""
    star, spade = scenario.factions
    assert (star.key, star.letter, spade.key, spade.letter) == ("star", "X", "spade", "Y")
    assert star.token_enemy.level == "X" and spade.token_enemy.level == "Y"
    assert 8 <= len(scenario.power_track) <= 10
    for above, below in zip(scenario.power_track, scenario.power_track[1:]):
        assert below.X >= above.X and below.Y >= above.Y  # power only makes enemies tougher


def test_enemy_tokens(pack: Pack, scenario: Scenario) -> None:
    """Enemies: a type, a name, a level, V.A.T.S. vulnerabilities and up to two abilities;
    Complete Setup, step 9: one token per enemy icon on the face-up map, and more left to draw."""
    per_type = Counter(enemy.type for enemy in pack.enemies)
    assert len(pack.enemies) == 27
    assert set(per_type) == set(ENEMY_TYPES) and min(per_type.values()) >= 5
    for enemy in pack.enemies:
        assert enemy.vulnerable and enemy.vulnerable <= set(AREAS)
        assert len(enemy.abilities) <= 2 and set(enemy.abilities) <= set(ABILITIES)
        assert enemy.level in (1, 2, 3, 4, "X", "Y")
    face_up = [pack.tiles[p.tile] for p in scenario.places if p.tile]
    icons = Counter(kind for tile in face_up for space in tile.spaces for kind in space.enemy_icons)
    for kind in ENEMY_TYPES:
        assert per_type[kind] > icons[kind]
    on_tiles = {kind for space in pack.spaces.values() for kind in space.enemy_icons}
    assert on_tiles == set(ENEMY_TYPES)


def test_vats_dice(pack: Pack) -> None:
    """V.A.T.S. Dice: three dice; each face a V.A.T.S. chart of four areas and some hits."""
    assert len(pack.dice) == 3
    for die in pack.dice:
        assert len(die.faces) == 6
        assert 2 <= sum(face.hits > 0 for face in die.faces) <= 4
        assert sum(1 <= len(face.areas) <= 3 for face in die.faces) >= 4
        assert all(0 <= face.hits <= 2 and face.areas <= set(AREAS) for face in die.faces)
        for area in AREAS:
            assert any(area in face.areas for face in die.faces), area


def test_survivors_and_their_starting_tokens(pack: Pack) -> None:
    """Complete Setup, step 7: each survivor takes their character card and the
    S.P.E.C.I.A.L. token marked with their silhouette."""
    assert len(pack.survivors) == 5
    assert len({s.special for s in pack.survivors.values()}) == 5
    for survivor in pack.survivors.values():
        (token,) = [t for t in pack.special_tokens if t.survivor == survivor.id]
        assert token.letter == survivor.special
        assert survivor.character_card in pack.cards
    kinds = {pack.cards[s.character_card].kind for s in pack.survivors.values()}
    assert {"weapon", "apparel", "companion"} <= kinds
    cards = [pack.cards[s.character_card] for s in pack.survivors.values()]
    assert any(c.kind == "weapon" and c.ranged and c.special == ("P", "A") for c in cards)
    assert any(c.kind == "apparel" and c.armor == 1 for c in cards)
    # Character Cards: items and companions, equipped at setup, belonging to no
    # deck; each has an ability the engine can use (an `ability` card's text
    # has no effect in the vocabulary, so none of ours is one).
    for card in cards:
        assert card.deck is None and card.kind in ("weapon", "apparel", "companion")
        assert card.text and effects.parse_results(card.effects)


def test_special_tokens(pack: Pack) -> None:
    """S.P.E.C.I.A.L. Tokens: seven letters; the box holds 35 tokens, five per letter."""
    assert Counter(t.letter for t in pack.special_tokens) == {letter: 5 for letter in SPECIAL}
    assert sum(t.survivor is not None for t in pack.special_tokens) == 5


def test_trait_tokens(pack: Pack) -> None:
    """Traits: six traits across three double-sided tokens; a face-up locked side cannot be flipped."""
    sides = {token.sides: token for token in pack.trait_tokens}
    assert set(sides) == {("idolized", "vilified"), ("synth", "super_mutant"), ("well_rested", "addicted")}
    assert sides[("synth", "super_mutant")].locked == {"synth", "super_mutant"}
    assert sides[("well_rested", "addicted")].locked == {"addicted"}
    assert not sides[("idolized", "vilified")].locked


def test_agenda_deck(pack: Pack) -> None:
    """Agenda Cards / Complete Setup, step 5: cards numbered above the player count are
    removed; Rounds: each card activates one to three enemy types, left to right."""
    assert len(pack.agendas) >= 20
    for players in (1, 2, 3, 4):
        assert sum(a.players <= players for a in pack.agendas) >= 12
    assert sum(a.players == 1 for a in pack.agendas) >= 12
    on_cards = Counter(kind for agenda in pack.agendas for kind in agenda.activation)
    assert set(on_cards) == set(ENEMY_TYPES) and min(on_cards.values()) >= 5
    factions = Counter(agenda.faction for agenda in pack.agendas)
    assert factions["star"] >= 4 and factions["spade"] >= 4 and factions[None] >= 4
    assert all(1 <= len(a.activation) <= 3 and a.text for a in pack.agendas)


def test_perks(pack: Pack) -> None:
    """Leveling Up: a survivor who draws a token they hold takes a perk showing that letter."""
    assert len(pack.perks) == 14
    assert Counter(perk.special for perk in pack.perks) == {letter: 2 for letter in SPECIAL}
    assert all(perk.name and perk.text for perk in pack.perks)


# --------------------------------------------------------------------------
# The bundled pack: cards and the card library
# --------------------------------------------------------------------------


def _library(pack: Pack) -> dict[int, Any]:
    cards: dict[int, Any] = {q.number: q for q in pack.quests.values()}
    cards.update({c.number: c for c in pack.encounters.values() if c.number is not None})
    return cards


def _results(pack: Pack) -> Iterator[tuple[Any, effects.Result]]:
    """Every parsed result on every component, with the component."""
    for item in [*pack.encounters.values(), *pack.quests.values(), *pack.cards.values(), *pack.perks,
                 *pack.scenarios.values()]:
        for _, result in pack_module._parsed_results(item):
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
               if not any(isinstance(r, effects.Power) for _, r in pack_module._parsed_results(q))]
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
    named_spaces = [c.space for comp in components for _, c in pack_module._parsed_conditions(comp)
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


# --------------------------------------------------------------------------
# Broken packs
# --------------------------------------------------------------------------


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "pack"
    shutil.copytree(BUNDLED, target, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    return target


def _edit(root: Path, name: str, change: Callable[[Any], Any]) -> None:
    """Rewrite one YAML file of the copy; ``change`` mutates the parsed data in place."""
    path = root / name
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def _problems(root: Path) -> list[str]:
    with pytest.raises(PackError) as caught:
        load_pack(root)
    assert str(root) in str(caught.value)
    for problem in caught.value.problems:
        assert problem in str(caught.value)
    return caught.value.problems


def _one(problems: list[str], *parts: str) -> str:
    hits = [p for p in problems if all(part in p for part in parts)]
    assert hits, f"no problem mentions {parts}:\n" + "\n".join(problems)
    return hits[0]


def _tile(data: dict, tile_id: str) -> dict:
    return next(t for t in data["tiles"] if t["id"] == tile_id)


def _space(data: dict, space_id: str) -> dict:
    return next(s for t in data["tiles"] for s in t["spaces"] if s["id"] == space_id)


def test_the_copied_pack_is_valid(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    assert load_pack(root).tiles.keys() == load_pack().tiles.keys()


def test_asymmetric_adjacency(tmp_path: Path) -> None:
    """Spaces: two spaces are adjacent if they share a border, so adjacency is symmetric."""
    root = _copy(tmp_path)
    _edit(root, "tiles.yaml", lambda d: _space(d, "saltmarsh.reedbeds")["links"].remove("saltmarsh.pumping_shack"))
    _one(_problems(root), "tiles.yaml", "tile 'saltmarsh'", "'saltmarsh.pumping_shack' links to 'saltmarsh.reedbeds'",
         "does not link back")


def test_unknown_adjacency(tmp_path: Path) -> None:
    """Spaces: a link names a space of the same tile."""
    root = _copy(tmp_path)
    _edit(root, "tiles.yaml", lambda d: _space(d, "saltmarsh.reedbeds")["links"].append("saltmarsh.lagoon"))
    _one(_problems(root), "tiles.yaml", "tile 'saltmarsh'", "'saltmarsh.lagoon'", "not a space of this tile")


def test_link_to_a_space_of_another_tile(tmp_path: Path) -> None:
    """Spaces: adjacency inside a tile never crosses into another tile; edges do that."""
    root = _copy(tmp_path)
    _edit(root, "tiles.yaml", lambda d: _space(d, "saltmarsh.reedbeds")["links"].append("halfmoon.car_lot"))
    _one(_problems(root), "tile 'saltmarsh'", "'halfmoon.car_lot'", "not a space of this tile")


def test_unknown_enemy_type(tmp_path: Path) -> None:
    """Enemies: each enemy has one of the five types (critter, human, robot, monster, super mutant)."""
    root = _copy(tmp_path)
    _edit(root, "enemies.yaml", lambda d: d["enemies"][0].update(type="ghoul"))
    _one(_problems(root), "enemies.yaml", "enemy 'glowgull'", "type", "'ghoul'")


def test_unknown_enemy_icon_type(tmp_path: Path) -> None:
    """Explore Action: each enemy icon draws a token of its type."""
    root = _copy(tmp_path)
    _edit(root, "tiles.yaml", lambda d: _space(d, "halfmoon.snack_bar").update(enemy_icons=["gremlin"]))
    _one(_problems(root), "tiles.yaml", "tile 'halfmoon'", "enemy_icons", "'gremlin'")


def test_unknown_ability(tmp_path: Path) -> None:
    """Enemy Abilities: aggressive, armor, radiation, ranged, loot, retreat."""
    root = _copy(tmp_path)
    _edit(root, "enemies.yaml", lambda d: d["enemies"][1].update(abilities=["cloaking"]))
    _one(_problems(root), "enemies.yaml", "enemy 'brine_skipper'", "abilities", "'cloaking'")


def test_too_many_abilities(tmp_path: Path) -> None:
    """Enemies: up to two icons representing abilities."""
    root = _copy(tmp_path)
    _edit(root, "enemies.yaml", lambda d: d["enemies"][1].update(abilities=["armor", "loot", "ranged"]))
    _one(_problems(root), "enemy 'brine_skipper'", "abilities")


def test_unknown_vulnerable_area_and_no_area(tmp_path: Path) -> None:
    """V.A.T.S. Dice: the chart's four areas are head, body, arms and legs."""
    root = _copy(tmp_path)

    def change(d: dict) -> None:
        d["enemies"][0]["vulnerable"] = ["tail"]
        d["enemies"][1]["vulnerable"] = []

    _edit(root, "enemies.yaml", change)
    problems = _problems(root)
    _one(problems, "enemy 'glowgull'", "vulnerable", "'tail'")
    _one(problems, "enemy 'brine_skipper'", "vulnerable")


def test_unknown_encounter_kind(tmp_path: Path) -> None:
    """Encounter Icons: wasteland, settlement, and the two vaults 84 and 109."""
    root = _copy(tmp_path)
    _edit(root, "tiles.yaml", lambda d: _space(d, "halfmoon.car_lot")["encounter"].update(kind="casino"))
    _one(_problems(root), "tiles.yaml", "tile 'halfmoon'", "halfmoon.car_lot", "encounter.kind", "'casino'")


def test_unknown_terrain(tmp_path: Path) -> None:
    """Terrain: difficult (red border) or irradiated (green border)."""
    root = _copy(tmp_path)
    _edit(root, "tiles.yaml", lambda d: _space(d, "halfmoon.car_lot").update(terrain=["swamp"]))
    _one(_problems(root), "tile 'halfmoon'", "terrain", "'swamp'")


def test_space_that_cannot_be_reached(tmp_path: Path) -> None:
    """Move Action: a survivor moves into adjacent spaces, so a space without borders is unreachable."""
    root = _copy(tmp_path)
    _edit(root, "tiles.yaml", lambda d: _tile(d, "halfmoon")["spaces"].append({"id": "halfmoon.sinkhole", "links": []}))
    _one(_problems(root), "tiles.yaml", "tile 'halfmoon'", "'halfmoon.sinkhole' cannot be reached")


def test_edge_half_naming_a_space_of_another_tile(tmp_path: Path) -> None:
    """Map Tiles: a tile's edge halves are its own spaces."""
    root = _copy(tmp_path)
    _edit(root, "tiles.yaml", lambda d: _tile(d, "halfmoon")["edges"][2].__setitem__(0, "gullwing.sidings"))
    _one(_problems(root), "tiles.yaml", "tile 'halfmoon'", "edge 2 half 0", "'gullwing.sidings'", "not a space of this tile")


def test_tile_needs_six_edges(tmp_path: Path) -> None:
    """Map Tiles: tiles are hexes with six edges."""
    root = _copy(tmp_path)
    _edit(root, "tiles.yaml", lambda d: _tile(d, "halfmoon")["edges"].pop())
    _one(_problems(root), "tile 'halfmoon'", "5 edges")


def test_spaces_meeting_on_the_rim_must_be_linked(tmp_path: Path) -> None:
    """Spaces: two spaces are adjacent if they share a border; neighbours along the rim do."""
    root = _copy(tmp_path)

    def change(d: dict) -> None:
        _space(d, "saltmarsh.reedbeds")["links"].remove("saltmarsh.sinkhole")
        _space(d, "saltmarsh.sinkhole")["links"].remove("saltmarsh.reedbeds")

    _edit(root, "tiles.yaml", change)
    _one(_problems(root), "tile 'saltmarsh'", "'saltmarsh.reedbeds' and 'saltmarsh.sinkhole' meet on the rim")


def test_space_id_must_carry_its_tile(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "tiles.yaml", lambda d: _space(d, "halfmoon.screen_ruins").update(id="screen"))
    _one(_problems(root), "tile 'halfmoon'", "'screen'")


def test_scenario_place_naming_an_unknown_tile(tmp_path: Path) -> None:
    """Scenario / Map Tiles: the layout names tiles of the pack."""
    root = _copy(tmp_path)
    _edit(root, f"scenarios/{SCENARIO}.yaml", lambda d: d["places"][1].update(tile="atlantis"))
    _one(_problems(root), f"scenarios/{SCENARIO}.yaml", f"scenario '{SCENARIO}'", "place 'harbor'", "'atlantis'")


def test_fewer_face_down_tiles_than_places(tmp_path: Path) -> None:
    """Complete Setup, step 2: a random deadly tile goes face down in each deadly place."""
    root = _copy(tmp_path)
    doomed = {"redfin_yard", "glass_marsh", "hangman_trestle"}
    _edit(root, "tiles.yaml", lambda d: d.update(tiles=[t for t in d["tiles"] if t["id"] not in doomed]))
    _one(_problems(root), f"scenario '{SCENARIO}'", "needs 6 face-down deadly tiles", "only 5")


def test_start_place_must_hold_the_starting_tile(tmp_path: Path) -> None:
    """Complete Setup, step 7: survivors start on the starting tile."""
    root = _copy(tmp_path)
    _edit(root, f"scenarios/{SCENARIO}.yaml", lambda d: d.update(start_place="harbor"))
    _one(_problems(root), f"scenario '{SCENARIO}'", "start_place 'harbor'", "back: start")


def test_layout_must_be_connected_and_without_overlaps(tmp_path: Path) -> None:
    """Map Tiles: the map is one piece of hexes, one tile per hex."""
    root = _copy(tmp_path)

    def change(d: dict) -> None:
        d["places"].append({"id": "island", "q": 9, "r": 9, "back": "deadly"})
        d["places"].append({"id": "ghost", "q": 0, "r": 1, "back": "dangerous"})

    _edit(root, f"scenarios/{SCENARIO}.yaml", change)
    problems = _problems(root)
    _one(problems, "place 'island' at (9, 9) does not touch")
    _one(problems, "'d_se'", "'ghost'", "share the hex (0, 1)")


def test_faction_letters(tmp_path: Path) -> None:
    """Faction Power Track: the factions' enemies show the letters X and Y."""
    root = _copy(tmp_path)
    _edit(root, f"scenarios/{SCENARIO}.yaml", lambda d: d["factions"][1].update(letter="Z"))
    _one(_problems(root), f"scenario '{SCENARIO}'", "letter", "'Z'")


def test_letter_level_without_a_faction(tmp_path: Path) -> None:
    """Faction Power Track: a letter level is read off the faction that shows that letter."""
    root = _copy(tmp_path)
    _edit(root, "enemies.yaml", lambda d: d["enemies"][0].update(level="Q"))
    _one(_problems(root), f"scenario '{SCENARIO}'", "enemy 'glowgull'", "'Q'")


def test_survivor_without_starting_token(tmp_path: Path) -> None:
    """Complete Setup, step 7: each survivor takes the S.P.E.C.I.A.L. token with their silhouette."""
    root = _copy(tmp_path)
    _edit(root, "tokens.yaml", lambda d: d["special_tokens"][0].pop("survivor"))
    _one(_problems(root), "survivors.yaml", "survivor 'wren_okafor'", "no starting S.P.E.C.I.A.L. token")


def test_starting_token_of_another_letter(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "survivors.yaml", lambda d: d["survivors"][0].update(special="L"))
    _one(_problems(root), "survivor 'tamsin_reed'", "starts with L", "shows P")


def test_survivor_without_character_card(tmp_path: Path) -> None:
    """Character Cards: each survivor gains the card unique to their character."""
    root = _copy(tmp_path)
    _edit(root, "survivors.yaml", lambda d: d["survivors"][3].update(character_card="gizmo"))
    _one(_problems(root), "survivors.yaml", "survivor 'marek_sallow'", "'gizmo'")


def test_token_naming_an_unknown_survivor(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "tokens.yaml", lambda d: d["special_tokens"][1].update(survivor="nobody"))
    _one(_problems(root), "tokens.yaml", "special token 'special_s2'", "'nobody'")


def test_five_tokens_per_letter(tmp_path: Path) -> None:
    """S.P.E.C.I.A.L. Tokens: the supply holds five of each letter."""
    root = _copy(tmp_path)
    _edit(root, "tokens.yaml", lambda d: d["special_tokens"].pop())
    _one(_problems(root), "tokens.yaml", "letter L has 4")


def test_three_dice_of_six_faces(tmp_path: Path) -> None:
    """V.A.T.S. Dice: three dice, six faces each."""
    root = _copy(tmp_path)

    def change(d: dict) -> None:
        d["dice"].pop()
        d["dice"][0]["faces"] = d["dice"][0]["faces"][:5]

    _edit(root, "dice.yaml", change)
    problems = _problems(root)
    _one(problems, "dice.yaml", "die 'vats_1'", "faces")
    # the count is not reported while a die is broken; fix the die and it is
    root2 = _copy(tmp_path / "again")
    _edit(root2, "dice.yaml", lambda d: d["dice"].pop())
    _one(_problems(root2), "dice.yaml", "exactly 3")


def test_ids_unique_across_the_pack(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "perks.yaml", lambda d: d["perks"][0].update(id="agenda_map_the_reach"))
    _one(_problems(root), "'agenda_map_the_reach'", "agendas.yaml", "perks.yaml", "unique")


def test_unknown_fields_are_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "perks.yaml", lambda d: d["perks"][0].update(colour="red"))
    _edit(root, "agendas.yaml", lambda d: d.update(decks=[]))
    problems = _problems(root)
    _one(problems, "perks.yaml", "perk 'perk_shoulder_the_load'", "colour")
    _one(problems, "agendas.yaml", "'decks'")


def test_every_problem_is_listed(tmp_path: Path) -> None:
    """One load reports the problems of every file, not only the first."""
    root = _copy(tmp_path)
    _edit(root, "enemies.yaml", lambda d: d["enemies"][0].update(type="ghoul"))
    _edit(root, "agendas.yaml", lambda d: d["agendas"][0].update(activation=["ghost"]))
    _edit(root, "agendas.yaml", lambda d: d["agendas"][1].update(players=7))
    _edit(root, "survivors.yaml", lambda d: d["survivors"][3].update(character_card="gizmo"))
    _edit(root, f"scenarios/{SCENARIO}.yaml", lambda d: d["places"][1].update(tile="atlantis"))
    problems = _problems(root)
    _one(problems, "enemies.yaml", "'ghoul'")
    _one(problems, "agendas.yaml", "agenda 'agenda_hold_the_sluices'", "activation", "'ghost'")
    _one(problems, "agendas.yaml", "agenda 'agenda_wardens_ledger'", "players")
    _one(problems, "survivors.yaml", "'gizmo'")
    _one(problems, "'atlantis'")
    assert len(problems) == 5, problems


def test_a_broken_item_does_not_cascade(tmp_path: Path) -> None:
    """A tile that fails its schema is reported once, not again by every place that names it."""
    root = _copy(tmp_path)
    _edit(root, "tiles.yaml", lambda d: _tile(d, "kettle_harbor").update(back="shiny"))
    problems = _problems(root)
    assert problems == [_one(problems, "tile 'kettle_harbor'", "back", "'shiny'")]


def test_missing_file_and_bad_yaml(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "perks.yaml").unlink()
    (root / "cards.yaml").write_text("cards: [unclosed\n")
    problems = _problems(root)
    _one(problems, "perks.yaml", "missing")
    _one(problems, "cards.yaml", "not valid YAML")


def test_not_a_directory(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="not a directory"):
        load_pack(tmp_path / "nowhere")


# --------------------------------------------------------------------------
# Broken packs: cards and the card library
# --------------------------------------------------------------------------


def _card(data: dict, key: str, card_id: str) -> dict:
    return next(c for c in data[key] if c["id"] == card_id)


def test_a_result_naming_a_missing_library_card(tmp_path: Path) -> None:
    """Card Library / Results: ADD # and STAGE # find the card with that number."""
    root = _copy(tmp_path)

    def change(d: dict) -> None:
        _card(d, "encounters", "enc_drowned_tollbooth")["options"][1]["succeed"].insert(0, {"add": 999})
        _card(d, "encounters", "enc_market_day")["options"][0]["results"].append({"stage": 998})

    _edit(root, "encounters.yaml", change)
    problems = _problems(root)
    _one(problems, "encounters.yaml", "encounter 'enc_drowned_tollbooth'", "option 2: succeed[0]", "add 999")
    _one(problems, "encounters.yaml", "encounter 'enc_market_day'", "option 1: results[1]", "stage 998")
    assert len(problems) == 2, problems


def test_add_finds_an_encounter_and_stage_a_quest(tmp_path: Path) -> None:
    """ADD # shuffles an encounter card into its deck; STAGE # puts a quest in the play area."""
    root = _copy(tmp_path)
    wrong = [{"add": 110}, {"stage": 121}]  # a quest's number, an encounter's number
    _edit(root, "loot.yaml", lambda d: _card(d, "cards", "court_summons").update(effects=wrong))
    problems = _problems(root)
    _one(problems, "loot.yaml", "loot card 'court_summons'", "effects[0]", "add 110", "no encounter card")
    _one(problems, "loot.yaml", "loot card 'court_summons'", "effects[1]", "stage 121", "no quest card")


def test_a_quest_naming_an_unknown_space(tmp_path: Path) -> None:
    """Quest Cards: requirements and markers name spaces of the map."""
    root = _copy(tmp_path)

    def change(d: dict) -> None:
        quest = _card(d, "quests", "q_drowned_bell")
        quest["on_stage"] = [{"place_marker": "grayhook.atlantis"}]
        quest["objectives"][2]["requirement"] = {"space": "grayhook.lamp_room"}
        _card(d, "quests", "q_pumphouse_survey")["objectives"][1]["trigger"] = {"explore": "pumphouse_hill"}

    _edit(root, "library.yaml", change)
    problems = _problems(root)
    _one(problems, "library.yaml", "quest 'q_drowned_bell'", "on_stage[0]", "no space 'grayhook.atlantis'")
    _one(problems, "library.yaml", "quest 'q_drowned_bell'", "objective 3: requirement", "'grayhook.lamp_room'")
    _one(problems, "library.yaml", "quest 'q_pumphouse_survey'", "objective 2: trigger", "no tile 'pumphouse_hill'")


def test_an_effect_that_does_not_parse(tmp_path: Path) -> None:
    """Every condition, task, result and influence entry is in the vocabulary (docs/effects.md)."""
    root = _copy(tmp_path)

    def encounters(d: dict) -> None:
        options = _card(d, "encounters", "enc_reed_ambush")["options"]
        options[1]["succeed"][0] = {"xp": "lots"}
        options[3]["tasks"] = [{"test": {"special": ["Q"], "difficulty": 2}}]
        options[2]["condition"] = {"wealthy": True}

    _edit(root, "encounters.yaml", encounters)
    _edit(root, "agendas.yaml", lambda d: d["agendas"][0].update(influence=[{"per": "enemies_killed"}]))
    _edit(root, "perks.yaml", lambda d: d["perks"][0].update(effects=["teleport"]))
    _edit(root, "uniques.yaml", lambda d: _card(d, "cards", "hatch_mother").update(keep_if={"trait": "grumpy"}))
    problems = _problems(root)
    _one(problems, "encounter 'enc_reed_ambush'", "option 2: succeed[0]", "'lots'")
    _one(problems, "encounter 'enc_reed_ambush'", "option 4: tasks[0]", "'Q'")
    _one(problems, "encounter 'enc_reed_ambush'", "option 3: condition", "unknown condition 'wealthy'")
    _one(problems, "agendas.yaml", "agenda 'agenda_hold_the_sluices'", "influence[0]", "'enemies_killed'")
    _one(problems, "perks.yaml", "perk 'perk_shoulder_the_load'", "effects[0]", "'teleport'")
    _one(problems, "uniques.yaml", "unique asset 'hatch_mother'", "keep_if", "no trait 'grumpy'")
    assert len(problems) == 6, problems


def test_a_duplicate_library_number(tmp_path: Path) -> None:
    """Card Library: a number finds exactly one card, encounter or quest."""
    root = _copy(tmp_path)
    _edit(root, "library.yaml", lambda d: _card(d, "encounters", "enc_fallen_courier").update(number=110))
    problems = _problems(root)
    _one(problems, "library.yaml", "library number 110", "quest 'q_sluice_keys'", "encounter 'enc_fallen_courier'",
         "unique")


def test_starting_cards_have_a_star_and_library_cards_a_number(tmp_path: Path) -> None:
    """Encounter Cards: the starting decks are the cards with a star; vault decks start empty."""
    root = _copy(tmp_path)

    def starting(d: dict) -> None:
        _card(d, "encounters", "enc_gull_storm")["number"] = 300
        _card(d, "encounters", "enc_sea_fog")["deck"] = "vault84"

    _edit(root, "encounters.yaml", starting)
    _edit(root, "library.yaml", lambda d: _card(d, "encounters", "enc_bells_echo").pop("number"))
    problems = _problems(root)
    _one(problems, "encounters.yaml", "encounter 'enc_gull_storm'", "(300) belong in library.yaml")
    _one(problems, "encounters.yaml", "encounter 'enc_sea_fog'", "vault encounter has a library number")
    _one(problems, "library.yaml", "encounter 'enc_bells_echo'", "needs its library number")


def test_every_icon_has_a_deck(tmp_path: Path) -> None:
    """Encounter Icons: the map's settlement icons need a starting deck, its vaults library cards."""
    root = _copy(tmp_path)
    _edit(root, "encounters.yaml",
          lambda d: d.update(encounters=[c for c in d["encounters"] if c["deck"] != "settlement"]))

    def no_vault_109(d: dict) -> None:
        d["encounters"] = [c for c in d["encounters"] if c["deck"] != "vault109"]
        d["quests"] = [q for q in d["quests"] if q["number"] != 195]
        for quest in d["quests"]:
            for objective in quest["objectives"]:
                objective["results"] = [r for r in objective["results"] if r not in ({"add": 190}, {"add": 191})]

    _edit(root, "library.yaml", no_vault_109)
    problems = _problems(root)
    _one(problems, "encounters.yaml", "settlement encounter icons", "no starting settlement card")
    _one(problems, "library.yaml", "vault109 icon", "no vault109 card")


def test_a_library_card_nothing_brings_into_play(tmp_path: Path) -> None:
    """Card Library: a card is retrieved only by ADD, STAGE or the scenario sheet."""
    root = _copy(tmp_path)

    def change(d: dict) -> None:
        for quest in d["quests"]:
            quest["on_stage"] = [r for r in quest.get("on_stage", []) if r != {"add": 176}]

    _edit(root, "library.yaml", change)
    _one(_problems(root), "library.yaml", "encounter 'enc_late_request_line'", "library card 176",
         "never added or staged")


def test_quest_markers_belong_to_a_quest(tmp_path: Path) -> None:
    """Quest Markers: one of a pair goes on the quest card placing it."""
    root = _copy(tmp_path)

    def library(d: dict) -> None:
        _card(d, "quests", "q_drowned_bell")["on_stage"] = []
        bells_echo = _card(d, "encounters", "enc_bells_echo")
        bells_echo["options"][1]["results"].append({"place_marker": "grayhook.tide_pools"})

    _edit(root, "library.yaml", library)
    _edit(root, "encounters.yaml", lambda d: _card(d, "encounters", "enc_market_day")["options"][0].update(
        condition={"marker": True}))
    problems = _problems(root)
    _one(problems, "quest 'q_drowned_bell'", "objective 1: requirement", "never places a marker")
    _one(problems, "encounter 'enc_bells_echo'", "option 2: results[2]", "only a quest card")
    _one(problems, "encounter 'enc_market_day'", "option 1: condition", "marker: <number>")


def test_scenario_setup_and_staged_quests(tmp_path: Path) -> None:
    """Complete Setup, step 9: the staged quests exist; setup resolves only results about the game."""
    root = _copy(tmp_path)

    def change(d: dict) -> None:
        d["staged_quests"] = [101, 404, "q_nowhere"]
        d["setup"] += [{"place_marker": "tollbridge.camp"}, {"caps": 3}, {"faction_token": {"faction": "star",
                                                                                           "space": "atlantis.gate"}}]

    _edit(root, f"scenarios/{SCENARIO}.yaml", change)
    problems = _problems(root)
    where = f"scenarios/{SCENARIO}.yaml: scenario '{SCENARIO}'"
    _one(problems, where, "staged_quests[1]", "library number 404")
    _one(problems, where, "staged_quests[2]", "'q_nowhere'")
    _one(problems, where, "setup[2]", "place_marker does nothing at setup")
    _one(problems, where, "setup[3]", "GainCaps needs a survivor")
    _one(problems, where, "setup[4]", "no space 'atlantis.gate'")


def test_trash_only_on_encounter_and_quest_cards(tmp_path: Path) -> None:
    """TRASH sends the card being resolved to the box: an encounter or a quest card."""
    root = _copy(tmp_path)
    _edit(root, "perks.yaml", lambda d: d["perks"][0]["effects"].append("trash"))
    _one(_problems(root), "perks.yaml", "perk 'perk_shoulder_the_load'", "effects[1]", "trash")


def test_faction_tokens_need_the_scenarios_token_enemy(tmp_path: Path) -> None:
    """Faction Tokens: the scenario says which enemy a faction's tokens are."""
    root = _copy(tmp_path)
    _edit(root, f"scenarios/{SCENARIO}.yaml", lambda d: d["factions"][0].pop("token_enemy"))
    _one(_problems(root), "library.yaml", "quest 'q_salt_ledger'", "on_stage[1]", "star faction token",
         "no token_enemy")


def test_cards_belong_to_their_files_deck(tmp_path: Path) -> None:
    """Loot, asset and unique asset cards go back to their own deck; character cards to none."""
    root = _copy(tmp_path)
    _edit(root, "loot.yaml", lambda d: _card(d, "cards", "gutting_knife").update(deck="asset"))
    _edit(root, "cards.yaml", lambda d: _card(d, "cards", "sprocket").update(deck="loot"))
    _edit(root, "assets.yaml", lambda d: _card(d, "cards", "harpoon_gun").pop("cost"))
    _edit(root, "library.yaml", lambda d: _card(d, "encounters", "enc_fallen_courier")["options"][0]["succeed"]
          .__setitem__(0, {"unique": "lost_crown"}))
    problems = _problems(root)
    _one(problems, "loot.yaml", "loot card 'gutting_knife'", "'asset'", "loot deck")
    _one(problems, "survivors.yaml", "survivor 'marek_sallow'", "'sprocket' is a loot card")
    _one(problems, "assets.yaml", "asset card 'harpoon_gun'", "has a cost")
    _one(problems, "library.yaml", "encounter 'enc_fallen_courier'", "no unique asset 'lost_crown'")


def test_broken_library_cards_do_not_cascade(tmp_path: Path) -> None:
    """A card that fails its schema is reported once; results naming its number are not reported again."""
    root = _copy(tmp_path)
    _edit(root, "library.yaml", lambda d: _card(d, "quests", "q_sluice_keys").update(title=7))
    problems = _problems(root)
    assert problems == [_one(problems, "library.yaml", "quest 'q_sluice_keys'", "title")]
