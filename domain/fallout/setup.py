"""Complete Setup, steps 1 to 9, for one to four players.

Every random outcome of setup (the first player, the tiles under the
face-down places, the enemy stacks, the agenda deck, the cards dealt) is
carried in the ``GameSetUp`` event; views and ``redact`` hide what no seat may
see. Survivors are either given in the options or chosen seat by seat from the
first player (step 7), each choice a pending decision.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import integer, integers, record, records, rows, string, strings
from domain.fallout import library, results, turns
from domain.fallout.content import DEFAULT_PACK, catalog, pack_named
from domain.fallout.model import ENCOUNTER_KINDS, ENEMY_TYPES, Pack
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import (
    MAX_HP,
    SHOP_SIZE,
    STARTING_CAPS,
    Decision,
    EnemyState,
    GameState,
    PlaceState,
    SurvivorState,
    replace,
    with_letter,
)
from domain.game import RuleViolation, malformed
from domain.rng import Rng

RULE = "Complete Setup"


def _bad(code: str, message: str) -> RuleViolation:
    return malformed(code, message, rule=RULE)


def setup(options: dict[str, Any], rng: Rng) -> list:
    if not isinstance(options, dict):
        raise _bad("bad_options", "Options must be an object.")
    pack_id = options.get("pack", DEFAULT_PACK)
    try:
        pack = pack_named(pack_id)
    except KeyError:
        raise _bad("unknown_pack", f"There is no content pack {pack_id!r}.") from None
    scenario_id = options.get("scenario")
    if scenario_id is None and len(pack.scenarios) == 1:
        scenario_id = next(iter(pack.scenarios))
    if scenario_id not in pack.scenarios:
        raise _bad("unknown_scenario", f"There is no scenario {scenario_id!r}.")
    players = options.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4:
        raise _bad("bad_players", "Fallout is played by one to four players.")
    if players > len(pack.survivors):
        raise _bad("bad_players", "There are not enough survivors for that many players.")
    chosen = options.get("survivors")
    if chosen is not None:
        if not isinstance(chosen, list) or len(chosen) != players:
            raise _bad("bad_survivors", "Give one survivor per seat, or none.")
        if any(s not in pack.survivors for s in chosen):
            raise _bad("unknown_survivor", "Every survivor must be one of the pack's survivors.")
        if len(set(chosen)) != players:
            raise _bad("duplicate_survivor", "Each seat plays a different survivor.")

    res = Resolution(GameState(), rng)
    res.emit("GameSetUp", **_deal(pack, pack_id, scenario_id, players, rng))
    starting_effects(res)
    if chosen is None:
        request_choice(res)
    else:
        for seat in res.state.clockwise(res.state.first_player):
            free = free_start_spaces(res.state)
            choose(res, seat, chosen[seat], free[0])
        begin(res)
        # The first turn's scenario rules (on_turn_start), as the engine resolves them after a command.
        results.settle(res)
    return res.events


def _deal(pack: Pack, pack_id: str, scenario_id: str, players: int, rng: Rng) -> dict[str, Any]:
    scenario = pack.scenarios[scenario_id]
    first = rng.below(players)
    # Step 2: shuffle the face-down tiles by back and lay them out.
    used = {p.tile for p in scenario.places if p.tile}
    piles: dict[str, list[str]] = {}
    for back in sorted({p.back for p in scenario.places if not p.tile and p.back}):
        piles[back] = rng.shuffled(sorted(t.id for t in pack.tiles.values() if t.back == back and t.id not in used))
    places: list[dict[str, Any]] = []
    for p in scenario.places:
        if p.tile:
            places.append({"place": p.id, "tile": p.tile, "back": pack.tiles[p.tile].back, "faceup": True})
        else:
            if p.back is None or not piles.get(p.back):
                raise _bad("bad_pack", f"Not enough {p.back} tiles for scenario {scenario_id}.")
            places.append({"place": p.id, "tile": piles[p.back].pop(), "back": p.back, "faceup": False})
    # Step 3: enemy stacks by type, face down and randomised.
    stacks = {
        t: rng.shuffled(sorted(e.id for e in pack.enemies if e.type == t))
        for t in ENEMY_TYPES
    }
    # Step 5: the agenda deck without cards for more players than are playing.
    agenda_deck = rng.shuffled(sorted(a.id for a in pack.agendas if a.players <= players))
    hands = [[agenda_deck.pop(0)] if agenda_deck else [] for _ in range(players)]
    # Step 4: the starting encounter decks (the cards with a star), by back.
    encounter_decks = {
        kind: rng.shuffled(sorted(c.id for c in pack.encounters.values() if c.deck == kind and c.number is None))
        for kind in ENCOUNTER_KINDS
    }
    encounter_decks = {kind: deck for kind, deck in encounter_decks.items() if deck}
    # Steps 5 and 6: the loot and asset decks, the shop of four; the unique assets at hand.
    loot_deck = rng.shuffled(sorted(c.id for c in pack.cards.values() if c.deck == "loot"))
    asset_deck = rng.shuffled(sorted(c.id for c in pack.cards.values() if c.deck == "asset"))
    shop = asset_deck[:SHOP_SIZE]
    # Step 9: one random enemy face up on each enemy icon of a face-up tile.
    enemies: list[dict[str, Any]] = []
    for place in places:
        if not place["faceup"]:
            continue
        for space in pack.tiles[place["tile"]].spaces:
            for enemy_type in space.enemy_icons:
                if stacks.get(enemy_type):
                    token = stacks[enemy_type].pop(0)
                    enemies.append(
                        {"enemy": f"e{len(enemies) + 1}", "type": enemy_type, "token": token,
                         "space": space.id, "active": True}
                    )
    return {
        "pack": pack_id,  # as the options name it: an address keeps the game on its own files
        "scenario": scenario_id,
        "players": players,
        "first_player": first,
        "places": places,
        # S.P.E.C.I.A.L. Tokens: the supply is the tokens without a silhouette; a
        # survivor's own token comes with the character (step 7), and joins the
        # supply only when it leaves its board.
        "special_supply": sorted(t.id for t in pack.special_tokens if t.survivor is None),
        "enemy_stacks": stacks,
        "enemies": enemies,
        "agenda_deck": agenda_deck,
        "agendas": hands,
        "caps": STARTING_CAPS,
        "perk_deck": [p.id for p in pack.perks],
        "asset_deck": asset_deck[SHOP_SIZE:],
        "shop": shop,
        "encounter_decks": encounter_decks,
        "loot_deck": loot_deck,
        "unique_deck": sorted(c.id for c in pack.cards.values() if c.deck == "unique"),
        "power": [0 for _ in scenario.factions],
    }


def starting_effects(res: Resolution) -> None:
    """Step 9: stage the scenario's quests (their top sections), then its other effects."""
    scenario = res.scenario
    cat = res.catalog
    for ref in scenario.staged_quests:
        number = int(ref) if str(ref).isdigit() else cat.quests[ref].number if ref in cat.quests else None
        if number is not None:
            library.stage(res, number, None)
            results.settle(res)
    results.push(res, None, scenario.id, "setup", 1, scenario.setup)
    results.settle(res)


def start_spaces(state: GameState) -> list[str]:
    pack = catalog(state.pack).pack
    scenario = pack.scenarios[state.scenario]
    start = state.place(scenario.start_place)
    assert start is not None and start.tile is not None
    spaces = pack.tiles[start.tile].spaces
    marked = [s.id for s in spaces if s.start]
    return marked or [s.id for s in spaces]


def free_start_spaces(state: GameState) -> list[str]:
    spaces = start_spaces(state)
    taken = {s.space for s in state.survivors}
    free = [s for s in spaces if s not in taken]
    return free or spaces


def available_survivors(state: GameState) -> list[str]:
    taken = {s.survivor for s in state.survivors}
    return sorted(s for s in catalog(state.pack).pack.survivors if s not in taken)


def request_choice(res: Resolution) -> None:
    state = res.state
    waiting = [seat for seat in state.clockwise(state.first_player) if state.survivors[seat].survivor is None]
    seat = waiting[0]
    res.request(
        seat,
        "choose_survivor",
        [
            {"type": "choose_survivor", "survivor": s, "space": space}
            for s in available_survivors(state)
            for space in free_start_spaces(state)
        ],
    )


def choose(res: Resolution, seat: int, survivor_id: str, space: str) -> None:
    """Steps 7 and 8 for one seat: the figure, the character card, two tokens."""
    cat = res.catalog
    survivor = cat.pack.survivors[survivor_id]
    supply = [cat.tokens[t] for t in res.state.special_supply]
    own = [t for t in cat.pack.special_tokens if t.letter == survivor.special and t.survivor == survivor_id]
    start = (own or [t for t in supply if t.letter == survivor.special])[0]
    others = [t for t in supply if t.letter != start.letter and t.survivor is None]
    extra = res.rng.choice(others)
    card = cat.cards.get(survivor.character_card)
    equipped, inventory, abilities = [], [], []
    if card is not None:
        if card.kind in ("weapon", "apparel", "companion"):
            equipped.append(card.id)
        elif card.kind in ("aid", "drug", "magazine"):
            inventory.append(card.id)
        else:
            abilities.append(card.id)
    res.emit(
        "SurvivorChosen",
        seat=seat,
        survivor=survivor_id,
        space=space,
        tokens=[[start.letter, start.id], [extra.letter, extra.id]],
        equipped=equipped,
        inventory=inventory,
        abilities=abilities,
    )


@RULES.answer("choose_survivor", RULE, commands={"choose_survivor": {"survivor": string(), "space": string()}})
def answer_choice(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    choose(res, decision.seat, command["survivor"], command["space"])
    if any(s.survivor is None for s in res.state.survivors):
        request_choice(res)
    else:
        begin(res)


def begin(res: Resolution) -> None:
    res.emit("RoundStarted", round=1)
    turns.start_turn(res, res.state.first_player)


# -- folds -------------------------------------------------------------------


@RULES.fold(
    "GameSetUp",
    {
        "agenda_deck": strings(hidden=True),
        "agendas": rows(hidden=True),
        "asset_deck": strings(hidden=True),
        "caps": integer(),
        "encounter_decks": record(),
        "enemies": records(),
        "enemy_stacks": record(),
        "first_player": integer(),
        "loot_deck": strings(hidden=True),
        "pack": string(),
        "perk_deck": strings(),
        "places": records(),
        "players": integer(),
        "power": integers(),
        "scenario": string(),
        "shop": strings(),
        "special_supply": strings(),
        "unique_deck": strings(),
    },
)
def _set_up(state: GameState, data: dict) -> GameState:
    return GameState(
        pack=data["pack"],
        scenario=data["scenario"],
        players=data["players"],
        phase="choosing",
        survivors=tuple(
            SurvivorState(seat=i, hp=MAX_HP, caps=data["caps"], agendas=tuple(data["agendas"][i]))
            for i in range(data["players"])
        ),
        first_player=data["first_player"],
        places=tuple(PlaceState(p["place"], p["tile"], p["back"], p["faceup"]) for p in data["places"]),
        enemies=tuple(
            EnemyState(e["enemy"], e["type"], e["token"], e["space"], e["active"]) for e in data["enemies"]
        ),
        next_enemy=len(data["enemies"]) + 1,
        enemy_stacks={t: tuple(ids) for t, ids in data["enemy_stacks"].items()},
        enemy_discards={t: () for t in data["enemy_stacks"]},
        special_supply=tuple(data["special_supply"]),
        agenda_deck=tuple(data["agenda_deck"]),
        perk_deck=tuple(data["perk_deck"]),
        asset_deck=tuple(data["asset_deck"]),
        shop=tuple(data["shop"]),
        power=tuple(data["power"]),
        encounter_decks={k: tuple(v) for k, v in (data.get("encounter_decks") or {}).items()},
        loot_deck=tuple(data.get("loot_deck") or ()),
        unique_deck=tuple(data.get("unique_deck") or ()),
    )


@RULES.fold(
    "SurvivorChosen",
    {
        "abilities": strings(),
        "equipped": strings(),
        "inventory": strings(),
        "seat": integer(),
        "space": string(),
        "survivor": string(),
        "tokens": rows(),
    },
)
def _chosen(state: GameState, data: dict) -> GameState:
    special: tuple[tuple[str, str], ...] = ()
    for letter, token in data["tokens"]:
        special = with_letter(special, letter, token)
    taken = {token for _, token in data["tokens"]}
    state = state.with_survivor(
        data["seat"],
        survivor=data["survivor"],
        space=data["space"],
        special=special,
        equipped=tuple(data["equipped"]),
        inventory=tuple(data["inventory"]),
        abilities=tuple(data["abilities"]),
    )
    return replace(state, special_supply=tuple(t for t in state.special_supply if t not in taken))
