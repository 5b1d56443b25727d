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
    EncounterCard,
    EncounterIcon,
    EnemyToken,
    Faction,
    Pack,
    Perk,
    Place,
    PowerStep,
    QuestCard,
    Scenario,
    Space,
    SpecialToken,
    Survivor,
    Tile,
    TraitToken,
)
from domain.fallout.model import (
    EncounterOption as Option,
)
from domain.fallout.model import (
    QuestObjective as Objective,
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
    # S.P.E.C.I.A.L. Tokens: a supply of three per letter, plus each survivor's own.
    tokens = tuple(
        SpecialToken(f"{letter.lower()}{i}", letter, None) for letter in SPECIAL for i in (1, 2, 3)
    ) + tuple(SpecialToken(f"own_{owner}", letter, owner) for letter, owner in owners.items())
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
            AgendaCard("ag4", "Four", 2, ("star",), "star"),
            AgendaCard("ag5", "Five", 3, ("super_mutant",), "spade"),
            AgendaCard("ag6", "Six", 4, ("critter",)),
            AgendaCard("ag7", "Seven", 1, ("human", "monster")),
            AgendaCard("ag8", "Eight", 2, ("critter",)),
            AgendaCard("ag9", "Nine", 1, ("robot", "spade", "critter")),
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


# -- the full pack: encounters, quests, items, the shop and influence ---------



def _with_icons(t: Tile, icons: dict[str, tuple[str, str, int | None]]) -> Tile:
    """The tile with encounter icons: local name -> (name, kind, level)."""
    spaces = []
    for s in t.spaces:
        local = s.id.split(".")[1]
        if local in icons:
            name, kind, level = icons[local]
            s = replace(s, name=name, encounter=EncounterIcon(kind, level))
        spaces.append(s)
    return replace(t, spaces=tuple(spaces))


ENCOUNTERS = (
    EncounterCard("w_wreck", "wasteland", "A rusted truck lies on its side.", (
        Option("Search the wreck.", tasks=({"test": {"special": "SP", "difficulty": "L"}},),
               succeed_text="Caps in the glovebox.", succeed=({"caps": "L+1"}, {"loot": 1}),
               fail_text="The cab collapses on you.", fail=({"damage": 1},)),
        Option("(Vilified) Scare off the scavengers.", condition={"trait": "vilified"},
               text="They flee.", results=({"xp": 1}, "trash")),
        Option("FORCED: Addicted? The pills on the seat.", forced=True, condition={"trait": "addicted"},
               text="Bad pills.", results=({"rads": 1},)),
        Option("Walk away.", text="Nothing here for you."),
    )),
    EncounterCard("w_burrow", "wasteland", "Something burrows under the sand.", (
        Option("Dig it out.", tasks=({"draw_and_fight": "critter"},),
               succeed_text="Tracks lead on.", succeed=({"xp": 1}, {"add": 101}),
               fail_text="It bites.", fail=({"damage": 2},)),
        Option("Leave it be.", text="Wise."),
    )),
    EncounterCard("w_cache", "wasteland", "A buried cache.", (
        Option("Open it.", tasks=({"test": {"special": "E", "difficulty": 1}},),
               succeed_text="Gear!", succeed=({"asset": 1},), fail_text="Empty."),
        Option("Rest here.", text="You rest among the spoils.", results=({"recover": 2}, {"loot": 2})),
    )),
    EncounterCard("s_market", "settlement", "The market is busy.", (
        Option("Trade.", text="Stalls everywhere.", results=({"shop": 2},)),
        Option("Help the guards.", text="They thank you.", results=({"become": "idolized"}, {"caps": 1})),
        Option("Scavenge the dump.", text="Junk, and more junk.", results=({"loot": 3}, {"asset": 2})),
    )),
    EncounterCard("s_tavern", "settlement", "A smoky tavern.", (
        Option("Haggle.", text="A quick deal.", results=({"shop": 1},)),
        Option("Buy rumours (2 Caps).", condition={"caps": 2}, text="Old debts...",
               results=({"lose_caps": 2}, {"stage": 202})),
        Option("Listen to gossip.", text="Everyone has a plan.", results=({"agenda": 2},)),
    )),
    EncounterCard("w_tracks", "wasteland", "Fresh tracks.", (
        Option("Follow them.", text="To a vault door!", results=({"xp": 2}, {"add": 102}, "trash")),
    ), number=101),
    EncounterCard("v_door", "vault84", "A huge cog door.", (
        Option("Crack it.", tasks=({"test": {"special": "I", "difficulty": 2}},),
               succeed_text="Supplies.", succeed=({"loot": 2}, "trash"), fail_text="Alarm.", fail=({"rads": 1},)),
        Option("Knock.", text="Nobody.", results=({"caps": 1},)),
    ), number=102),
    EncounterCard("v_hall", "vault84", "An empty hall.", (
        Option("Look around.", text="Dust.", results=({"caps": 1},)),
    ), number=103),
    EncounterCard("v_lab", "vault109", "A humming lab.", (
        Option("Touch the console.", text="It hums back.", results=({"xp": 1},)),
    ), number=104),
)

QUESTS = (
    QuestCard("q_signal", 201, "Signal Fire", text="Someone signals at night.",
              on_stage=({"place_marker": "ruins.c"},), objectives=(
                  Objective("Clear the ruins.", trigger={"kill": "critter"}, results=({"xp": 1}, "★+")),
                  Objective("Answer the signal.", requirement={"marker": True},
                            instructions=({"test": {"special": "P", "difficulty": 2}},),
                            results=({"agenda": 1}, {"caps": 2}, {"add": 104}, "remove_marker", "trash")),
              )),
    QuestCard("q_debts", 202, "Old Debts", objectives=(
        Objective("Collect with a friend.", requirement={"with_survivor": True},
                  instructions=({"test": {"special": "C", "difficulty": 2, "by": "partner"}},),
                  results=({"caps": 3}, {"spade": "++"}, "trash")),
        Objective("Scout for the debtors.", trigger={"explore": "dangerous"}, results=({"xp": 1},)),
    )),
    QuestCard("q_camp", 203, "Night Watch", objectives=(
        Objective("Walk the camp's edge.", trigger={"enter": "camp.c"}, results=({"caps": 1},)),
    )),
)

ITEM_CARDS = {
    c.id: c for c in (
        Card("medkit", "Medkit", "aid", deck="loot", value=1, effects=({"recover": 3},)),
        Card("jet", "Jet", "drug", deck="loot", value=1, effects=({"movement": 1}, {"become": "addicted"})),
        Card("zine", "Zine", "magazine", deck="loot", value=1, effects=({"xp": 1},)),
        Card("pipe", "Pipe", "weapon", deck="loot", special=("S",), value=1),
        Card("jacket", "Jacket", "apparel", deck="loot", armor=1, value=1),
        Card("mutt", "Mutt", "companion", deck="loot", keep_if={"not": {"trait": "vilified"}}, effects=({"recover": 1},)),
        Card("stash", "Stash", "event", deck="loot", effects=({"caps": 2},)),
        Card("ambush", "Ambush", "event", deck="loot", effects=({"damage": 1}, {"add": 103})),
        Card("hunting_rifle", "Hunting Rifle", "weapon", deck="asset", special=("P",), ranged=True, cost=4, value=3),
        Card("combat_armor", "Combat Armor", "apparel", deck="asset", armor=2, cost=5, value=3),
        Card("first_aid", "First Aid", "aid", deck="asset", cost=2, value=1, effects=({"recover": 4},)),
        Card("dogmeat", "Dogmeat", "companion", deck="asset", recruit={"special": "S"}, unexhaust_cost=1,
             effects=({"movement": 1},)),
        Card("codsworth", "Codsworth", "companion", deck="asset", recruit={"trait": "idolized"},
             effects=({"caps": 1},)),
        Card("knife", "Knife", "weapon", deck="asset", special=("A",), cost=1, value=1),
        Card("stimpak", "Stimpak", "aid", deck="asset", cost=3, value=2, effects=({"recover": 5},)),
        Card("helmet", "Helmet", "apparel", deck="asset", armor=1, cost=2, value=1),
        Card("bat", "Bat", "weapon", deck="asset", special=("S",), cost=2, value=1),
        Card("radaway", "RadAway", "aid", deck="asset", cost=2, value=1, effects=({"remove_rads": 3},)),
        Card("buffout", "Buffout", "drug", deck="asset", cost=1, value=1, effects=({"recover": 2},)),
        Card("guns_mag", "Guns and Bullets", "magazine", deck="asset", cost=3, value=1, effects=({"xp": 2},)),
        Card("crown", "Tide Crown", "apparel", deck="unique", armor=2, value=5),
        Card("lucky_gun", "Lucky Gun", "weapon", deck="unique", special=("P", "A"), ranged=True, value=4),
        Card("robo", "Robo", "companion", deck="unique", effects=({"caps": 2},)),
    )
}

USABLE_PERKS = (
    Perk("perk_s", "Strong", "S", effects=({"recover": 2},)),
    Perk("perk_p", "Sharp", "P", effects=({"movement": 1},)),
    Perk("perk_p2", "Sharper", "P", effects=({"caps": 1},)),
    Perk("perk_e", "Tough", "E", effects=({"remove_rads": 1},)),
    Perk("perk_c", "Smooth", "C", effects=({"xp": 1},)),
    Perk("perk_i", "Clever", "I", effects=("unexhaust",)),
    Perk("perk_a", "Quick", "A", effects=({"movement": 2},)),
    Perk("perk_l", "Lucky", "L", effects=({"caps": 2},)),
)

AGENDA_INFLUENCE = {
    "ag1": ({"per": {"lead": "star"}},),
    "ag2": ({"per": {"lead": "spade"}},),
    "ag3": ({"gain": 1, "if": {"trait": "idolized"}},),
    "ag7": ({"per": "caps", "every": 5, "most": 2},),
    "ag9": ({"gain": 1, "if": {"has": "companion"}},),
}


def full_pack() -> Pack:
    """The mini pack with every kind of component: encounter icons on the map, the
    decks, the library, the shop's assets, uniques, usable perks, influence."""
    tiles = dict(MINI.tiles)
    tiles["camp"] = _with_icons(tiles["camp"], {"a": ("Camp Market", "settlement", 1)})
    tiles["ruins"] = _with_icons(tiles["ruins"], {"c": ("Old Ruins", "wasteland", 2)})
    tiles["bog"] = _with_icons(tiles["bog"], {"a": ("Bog Shack", "wasteland", 1)})
    tiles["marsh"] = _with_icons(tiles["marsh"], {"b": ("Vault 84", "vault84", None)})
    tiles["crater"] = _with_icons(tiles["crater"], {"b": ("Vault 109", "vault109", None)})
    base = MINI.scenarios["test"]
    star, spade = base.factions
    spade = replace(spade, token_enemy=EnemyToken("spade_enforcer", "human", "Spade Enforcer", "Y", frozenset({"head"})))
    track = tuple(PowerStep(1 + i // 3, 1 + i // 4) for i in range(8))
    scenario = replace(
        base, factions=(star, spade), staged_quests=("201",), power_track=track,
        setup=({"faction_token": {"faction": "spade", "space": "ruins.b"}},),
    )
    agendas = tuple(
        replace(a, influence=AGENDA_INFLUENCE.get(a.id, ()), text=f"Secret plan of {a.name}") for a in MINI.agendas
    )
    pack = replace(
        MINI, id="mini2", tiles=tiles, scenarios={"test": scenario}, agendas=agendas, perks=USABLE_PERKS,
        cards={**MINI.cards, **ITEM_CARDS},
        encounters={c.id: c for c in ENCOUNTERS}, quests={q.id: q for q in QUESTS},
    )
    return register_pack(pack)


FULL = full_pack()


def data(events: list[Event], type_: str) -> list[dict]:
    return [e.data for e in events if e.type == type_]


def refused(state: GameState, seat: Any, command: dict[str, Any]) -> Any:
    """The RuleViolation ``decide`` raises for this command (and that nothing changed)."""
    import pytest

    from domain.game import RuleViolation

    before = FALLOUT.dump_state(state)
    with pytest.raises(RuleViolation) as err:
        FALLOUT.decide(state, seat, command, Rng("refused"))
    assert FALLOUT.dump_state(state) == before
    return err.value


def full_game(players: int = 1, survivors: list[str] | None = None, space: str = "camp.a", **changes: Any) -> GameState:
    """A quiet game of the full test pack, seat 0 on turn at ``space``, with ``changes`` for seat 0."""
    state = quiet_game(players, survivors, pack=FULL.id)
    return survivor(state, 0, space=space, **changes)


def decks(state: GameState, **order: tuple[str, ...]) -> GameState:
    """Stack encounter decks (top first)."""
    return replace(state, encounter_decks={**state.encounter_decks, **{k: tuple(v) for k, v in order.items()}})


def settle(state: GameState, seat: int = 0, rng: Rng | None = None) -> tuple[GameState, list[Event]]:
    """Keep the dice whenever a roll waits for seat ``seat``."""
    events: list[Event] = []
    while state.pending is not None and state.pending.kind == "reroll" and state.pending.seat == seat:
        state, more = play(state, seat, {"type": "keep_dice"}, rng)
        events += more
    return state, events
