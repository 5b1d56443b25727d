"""A small hand-built content pack and helpers to set up exact situations.

The map of the "mini" pack (axial coordinates; every tile has three spaces,
``a`` touching edges 0 and 1, ``b`` edges 2 and 3, ``c`` edges 4 and 5)::

    camp  (0, 0)  face up, the starting tile (a, b start spaces; c difficult)
    east  (1, 0)  face up "ruins" (a: critter icon, b: irradiated)
    ne    (1, -1) face down, dangerous
    se    (0, 1)  face down, dangerous
    w     (-1, 0) face down, deadly

So camp.a touches ne (edge 0) and meets ruins.c across edge 1; camp.b
touches se (edge 2); camp.c touches w (edge 4).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.fallout.content import register_pack
from domain.fallout.game import FALLOUT
from domain.fallout.model import (
    SPECIAL,
    AgendaCard,
    Card,
    Die,
    DieFace,
    EnemyToken,
    Faction,
    Pack,
    Perk,
    Place,
    PowerStep,
    Scenario,
    Space,
    SpecialToken,
    Survivor,
    Tile,
    TraitToken,
)
from domain.fallout.state import EnemyState, GameState
from domain.game import Event
from domain.rng import Rng

# Die faces: index -> (hits, filled areas)
BLANK, HIT, HEAD, BODY, HIT_BODY_ARMS, TWO_HITS_LEGS = range(6)
FACES = (
    DieFace(0, frozenset()),
    DieFace(1, frozenset()),
    DieFace(0, frozenset({"head"})),
    DieFace(0, frozenset({"body"})),
    DieFace(1, frozenset({"body", "arms"})),
    DieFace(2, frozenset({"legs"})),
)


def tile(tile_id: str, back: str, terrain: dict | None = None, icons: dict | None = None,
         start: tuple[str, ...] = ()) -> Tile:
    terrain = terrain or {}
    icons = icons or {}
    spaces = tuple(
        Space(
            id=f"{tile_id}.{n}",
            terrain=frozenset(terrain.get(n, ())),
            enemy_icons=tuple(icons.get(n, ())),
            start=n in start,
        )
        for n in "abc"
    )
    a, b, c = (f"{tile_id}.{n}" for n in "abc")
    return Tile(
        id=tile_id,
        name=tile_id.title(),
        back=back,
        spaces=spaces,
        links=((a, b), (b, c), (a, c)),
        edges=((a, a), (a, a), (b, b), (b, b), (c, c), (c, c)),
    )


def enemy(token_id: str, type_: str, level: int | str, vulnerable: str, *abilities: str) -> EnemyToken:
    return EnemyToken(token_id, type_, token_id.title(), level, frozenset(vulnerable.split()), tuple(abilities))


ENEMIES = (
    enemy("rat", "critter", 1, "body"),
    enemy("roach", "critter", 1, "body", "aggressive"),
    enemy("beetle", "critter", 2, "legs"),
    enemy("raider", "human", 2, "head body", "loot"),
    enemy("sniper", "human", 1, "head", "ranged"),
    enemy("runner", "human", 1, "legs", "retreat"),
    enemy("brute", "monster", 2, "body", "armor", "radiation"),
    enemy("howler", "monster", 1, "head", "aggressive"),
    enemy("bot", "robot", "X", "body"),
    enemy("hound", "super_mutant", 1, "legs", "aggressive"),
)


def mini_pack() -> Pack:
    tiles = {
        "camp": tile("camp", "start", terrain={"c": ["difficult"]}, start=("a", "b")),
        "ruins": tile("ruins", "dangerous", terrain={"b": ["irradiated"]}, icons={"a": ["critter"]}),
        "bog": tile("bog", "dangerous", terrain={"c": ["difficult"]}, icons={"b": ["human"]}),
        "marsh": tile("marsh", "dangerous", icons={"a": ["critter"], "c": ["monster"]}),
        "crater": tile("crater", "deadly", icons={"a": ["monster"]}),
    }
    scenario = Scenario(
        id="test",
        name="Test Reach",
        places=(
            Place("camp", 0, 0, tile="camp"),
            Place("east", 1, 0, tile="ruins"),
            Place("ne", 1, -1, back="dangerous"),
            Place("se", 0, 1, back="dangerous"),
            Place("w", -1, 0, back="deadly"),
        ),
        start_place="camp",
        factions=(
            Faction("star", "Stars", "X", EnemyToken("star_guard", "robot", "Star Guard", "X", frozenset({"body"}), ("retreat",))),
            Faction("spade", "Spades", "Y", None),
        ),
        power_track=(PowerStep(1, 1), PowerStep(2, 1), PowerStep(2, 2), PowerStep(3, 3)),
    )
    cards = {
        "rifle": Card("rifle", "Rifle", "weapon", special=("P", "A"), ranged=True),
        "club": Card("club", "Club", "weapon", special=("S", "E")),
        "vest": Card("vest", "Vest", "apparel", armor=1),
        "pal": Card("pal", "Pal", "companion"),
        "knack": Card("knack", "Knack", "ability"),
        "stim": Card("stim", "Stim", "aid"),
    }
    survivors = {
        "scout": Survivor("scout", "Scout", "P", "rifle"),
        "keeper": Survivor("keeper", "Keeper", "E", "vest"),
        "voice": Survivor("voice", "Voice", "C", "knack"),
        "mech": Survivor("mech", "Mech", "I", "club"),
        "warden": Survivor("warden", "Warden", "S", "pal"),
    }
    owners = {"P": "scout", "E": "keeper", "C": "voice", "I": "mech", "S": "warden"}
    tokens = tuple(
        SpecialToken(f"{letter.lower()}{i}", letter, owners.get(letter) if i == 1 else None)
        for letter in SPECIAL
        for i in (1, 2, 3)
    )
    pack = Pack(
        id="mini",
        tiles=tiles,
        scenarios={"test": scenario},
        enemies=ENEMIES,
        dice=tuple(Die(f"d{i}", FACES) for i in range(3)),
        survivors=survivors,
        special_tokens=tokens,
        trait_tokens=(
            TraitToken("reputation", ("idolized", "vilified")),
            TraitToken("nature", ("synth", "super_mutant"), frozenset({"synth", "super_mutant"})),
            TraitToken("wellbeing", ("well_rested", "addicted"), frozenset({"addicted"})),
        ),
        agendas=(
            AgendaCard("ag1", "One", 1, ("critter", "human"), "star"),
            AgendaCard("ag2", "Two", 1, ("human",), "spade"),
            AgendaCard("ag3", "Three", 1, ("monster", "critter")),
            AgendaCard("ag4", "Four", 2, ("robot",), "star"),
            AgendaCard("ag5", "Five", 3, ("super_mutant",), "spade"),
            AgendaCard("ag6", "Six", 4, ("critter",)),
            AgendaCard("ag7", "Seven", 1, ("human", "monster")),
            AgendaCard("ag8", "Eight", 2, ("critter",)),
            AgendaCard("ag9", "Nine", 1, ("robot", "critter")),
        ),
        perks=(
            Perk("perk_s", "Strong", "S"),
            Perk("perk_p", "Sharp", "P"),
            Perk("perk_p2", "Sharper", "P"),
            Perk("perk_e", "Tough", "E"),
        ),
        cards=cards,
    )
    return register_pack(pack)


MINI = mini_pack()


class ScriptedRng(Rng):
    """An Rng whose ``below`` answers from a script first (dice faces, choices)."""

    def __init__(self, *values: int, seed: str = "scripted"):
        super().__init__(seed)
        self.script = list(values)

    def below(self, n: int) -> int:
        if self.script:
            return self.script.pop(0) % n
        return super().below(n)


def fold(state: GameState, events: list[Event]) -> GameState:
    for event in events:
        state = FALLOUT.evolve(state, event)
    return state


def new_game(players: int = 1, survivors: list[str] | None = None, seed: str = "t",
             pack: str = "mini", scenario: str = "test") -> GameState:
    options: dict[str, Any] = {"pack": pack, "scenario": scenario, "players": players}
    if survivors is not None:
        options["survivors"] = survivors
    return fold(FALLOUT.initial_state(), FALLOUT.setup(options, Rng(seed)))


def play(state: GameState, seat: Any, command: dict[str, Any], rng: Rng | None = None) -> tuple[GameState, list[Event]]:
    events = FALLOUT.decide(state, seat, command, rng or Rng("play"))
    return fold(state, events), events


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def quiet_game(players: int = 1, survivors: list[str] | None = None, first: int = 0, **kw: Any) -> GameState:
    """A game with no enemies on the map, seat ``first`` first and on turn."""
    names = survivors or ["scout", "keeper", "voice", "mech"][:players]
    state = new_game(players, names, **kw)
    return replace(state, enemies=(), first_player=first, turn=replace(state.turn, seat=first))


def add_enemy(state: GameState, token: str, space: str, active: bool = True, faction: str | None = None) -> tuple[GameState, str]:
    enemy_type = next(e.type for e in ENEMIES if e.id == token) if faction is None else "robot"
    enemy_id = f"e{state.next_enemy}"
    stacks = dict(state.enemy_stacks)
    stacks[enemy_type] = tuple(t for t in stacks.get(enemy_type, ()) if t != token)
    return (
        replace(
            state,
            enemies=state.enemies + (EnemyState(enemy_id, enemy_type, token, space, active, faction),),
            next_enemy=state.next_enemy + 1,
            enemy_stacks=stacks,
        ),
        enemy_id,
    )


def survivor(state: GameState, seat: int, **changes: Any) -> GameState:
    return state.with_survivor(seat, **changes)


def with_turn(state: GameState, **changes: Any) -> GameState:
    return replace(state, turn=replace(state.turn, **changes))
