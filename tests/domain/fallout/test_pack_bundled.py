"""The bundled content pack: what the rules ask of its map, enemies, dice, survivors, tokens and decks."""

from __future__ import annotations

import ast
from collections import Counter, defaultdict, deque
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import domain.engine.packs as packs_engine
import domain.fallout.pack as pack_module
from domain.fallout import effects
from domain.fallout.model import (
    ABILITIES,
    AREAS,
    DIRECTIONS,
    DOUBLE_SIDED,
    ENEMY_TYPES,
    SPECIAL,
    Pack,
    Scenario,
)
from domain.fallout.pack import load_pack
from tests.domain.fallout.bundled_pack import BUNDLED, SCENARIOS
from tests.domain.fallout.fixtures import new_game


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
    assert SCENARIOS
    for scenario in SCENARIOS:
        assert (base / "scenarios" / f"{scenario}.yaml").is_file()


def test_pack_module_imports_only_what_the_domain_may() -> None:
    roots = set()
    sources = [*Path(pack_module.__file__).parent.glob("*.py"), Path(packs_engine.__file__)]
    for node in (node for source in sources for node in ast.walk(ast.parse(source.read_text()))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            roots.add(node.module.split(".")[0])
    allowed = {"__future__", "dataclasses", "functools", "os", "collections", "importlib", "pathlib", "typing", "yaml",
               "marshmallow", "domain"}
    assert roots <= allowed, roots - allowed


def test_tiles_by_back(pack: Pack) -> None:
    """Map Tiles: each map tile is dangerous, deadly or double-sided by its back; one starting tile. A
    double-sided tile's two faces are tiles of their own."""
    backs = Counter(tile.back for tile in pack.tiles.values())
    assert backs["start"] == 1
    assert backs[DOUBLE_SIDED] == 2 * len(pack.double_sided)
    assert 16 <= len(pack.tiles) - len(pack.double_sided) <= 21
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


@pytest.mark.parametrize("scenario_id", SCENARIOS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_space_is_reachable_for_any_shuffle(scenario_id: str, data: st.DataObject) -> None:
    """Map Tiles: face-down tiles are shuffled by back and placed randomly; whatever
    the shuffle, a survivor can walk from the starting tile to every space (Move Action)."""
    pack = load_pack()
    scenario = pack.scenarios[scenario_id]
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
    for above, below in zip(scenario.power_track, scenario.power_track[1:], strict=False):
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
    """S.P.E.C.I.A.L. Tokens: seven letters; the supply is the box's 35 tokens, five per letter,
    plus the survivors' own (one each, of their starting letter, with their silhouette)."""
    supply = [t for t in pack.special_tokens if t.survivor is None]
    own = [t for t in pack.special_tokens if t.survivor is not None]
    assert len(supply) == 35
    assert Counter(t.letter for t in supply) == {letter: 5 for letter in SPECIAL}
    assert sorted(t.survivor for t in own) == sorted(pack.survivors)
    assert all(t.letter == pack.survivors[t.survivor].special for t in own)


def test_special_tokens_the_supply_at_setup_is_35_less_the_drawn(pack: Pack) -> None:
    """S.P.E.C.I.A.L. Tokens / Complete Setup steps 7-8: each survivor takes their own token and draws
    one more from the supply of 35, so the supply after setup is 35 less one per survivor, and holds
    no survivor's own token."""
    for players in (1, 4):
        names = sorted(pack.survivors)[:players]
        state = new_game(players, names, seed=f"supply{players}", pack=pack.id, scenario=next(iter(pack.scenarios)))
        assert len(state.special_supply) == 35 - players
        own = {t.id: t.survivor for t in pack.special_tokens if t.survivor is not None}
        assert not own.keys() & set(state.special_supply)
        for s in state.survivors:
            held = [token for _, token in s.special]
            assert [own[t] for t in held if t in own] == [s.survivor]


def test_trait_tokens(pack: Pack) -> None:
    """Traits: six traits across three double-sided tokens; a face-up locked side cannot be flipped."""
    sides = {token.sides: token for token in pack.trait_tokens}
    assert set(sides) == {("idolized", "vilified"), ("synth", "super_mutant"), ("well_rested", "addicted")}
    assert sides[("synth", "super_mutant")].locked == {"synth", "super_mutant"}
    assert sides[("well_rested", "addicted")].locked == {"addicted"}
    assert not sides[("idolized", "vilified")].locked


def test_agenda_deck(pack: Pack) -> None:
    """Agenda Cards / Complete Setup, step 5: cards numbered above the player count are
    removed; Rounds: each card activates one to three enemy types, left to right;
    Faction Tokens: some cards show a faction's icon, which activates its tokens."""
    assert len(pack.agendas) >= 20
    for players in (1, 2, 3, 4):
        assert sum(a.players <= players for a in pack.agendas) >= 12
    assert sum(a.players == 1 for a in pack.agendas) >= 12
    on_cards = Counter(kind for agenda in pack.agendas for kind in agenda.activation)
    enemies = {kind: n for kind, n in on_cards.items() if kind in ENEMY_TYPES}
    assert set(enemies) == set(ENEMY_TYPES) and min(enemies.values()) >= 5
    # Both factions' tokens get their turn: each icon stands on several cards.
    assert on_cards["star"] >= 3 and on_cards["spade"] >= 3
    assert set(on_cards) - set(ENEMY_TYPES) == {"star", "spade"}
    factions = Counter(agenda.faction for agenda in pack.agendas)
    assert factions["star"] >= 4 and factions["spade"] >= 4 and factions[None] >= 4
    assert all(1 <= sum(k in ENEMY_TYPES for k in a.activation) <= 3 and a.text for a in pack.agendas)


def test_perks(pack: Pack) -> None:
    """Leveling Up: a survivor who draws a token they hold takes a perk showing that letter."""
    assert len(pack.perks) == 14
    assert Counter(perk.special for perk in pack.perks) == {letter: 2 for letter in SPECIAL}
    assert all(perk.name and perk.text for perk in pack.perks)
