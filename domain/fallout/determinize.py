"""Fallout's optional contract functions for bots and deadlines (``domain.game``).

``determinize(view, seat, rng)`` builds a complete ``GameState`` from what one
seat sees (``view.view``), sampling everything hidden from it so that the
result is consistent with the view: the seat's own view of the sampled state
is the view it was built from, and its legal actions are the same. A bot
searches over such states (several samples, several futures) and never
touches the real one. What is sampled:

- other seats' agenda cards, the agenda deck and its discard pile: the
  agendas in play for this player count, less the seat's own hand, cards
  revealed for loyalty and the card being resolved at the round end, dealt
  in the counts the view shows;
- the tile under each face-down place: the pack's tiles of that back not
  laid face up;
- the face of every inactive enemy, and the enemy stacks and discards: the
  type's tokens not seen face up, in the counts shown;
- the loot, asset and encounter decks (orders and contents, counts shown),
  and the encounter card being resolved (one whose read-aloud text matches);
- the S.P.E.C.I.A.L. supply is not sampled: it is every token nobody holds (but
  the silhouette tokens of survivors nobody plays).

Bookkeeping the view does not show (and that is not hidden information) is
inferred: the seat whose turn comes after a round end (the first player),
survivors waiting to respawn (off the map, not eliminated), whether an enemy
was drawn for a task (the attempt names it), the next enemy id. Level-ups not
yet begun, killed enemies not yet replaced and triggered quest objectives not
yet completed are not in the view and come back empty; they only ever exist
in the middle of a resolution, which a bot searching from its own decision
rarely meets.

``domain.fallout.ai.FalloutAI`` offers it to the bots (``FALLOUT.ai``).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final

from domain.engine.records import replace
from domain.fallout.content import catalog
from domain.fallout.encounter import read_aloud
from domain.fallout.model import Pack
from domain.fallout.snapshot import load
from domain.fallout.state import (
    Attackers,
    Attempt,
    Decision,
    Encounter,
    EnemyState,
    Fight,
    GameState,
    Leveling,
    PlaceState,
    Placing,
    Questing,
    Resolving,
    Roll,
    RoundEnd,
    Shopping,
    SurvivorState,
    Trade,
    Turn,
)
from domain.rng import Rng


class _Pools:
    """What determinizing reads of a pack, sorted once per pack instead of once per sampled world (a
    greedy bot deals two worlds a decision): each pool below is filtered per world, in this order."""

    def __init__(self, pack: Pack):
        self.pack = pack
        self.tiles = [(t.id, t.back) for t in sorted(pack.tiles.values(), key=lambda t: t.id)]
        self.enemies = {t: sorted(e.id for e in pack.enemies if e.type == t) for t in {e.type for e in pack.enemies}}
        self.loot = sorted(c.id for c in pack.cards.values() if c.deck == "loot")
        self.assets = sorted(c.id for c in pack.cards.values() if c.deck == "asset")
        self.starred: dict[str, list[str]] = {}
        self.numbered: dict[str, list[str]] = {}
        for c in sorted(pack.encounters.values(), key=lambda c: c.id):
            (self.starred if c.number is None else self.numbered).setdefault(c.deck, []).append(c.id)
        self.special = [(t.id, t.survivor) for t in sorted(pack.special_tokens, key=lambda t: t.id)]


_POOLS: dict[int, _Pools] = {}


def _pools(pack: Pack) -> _Pools:
    found = _POOLS.get(id(pack))
    if found is None or found.pack is not pack:
        found = _POOLS[id(pack)] = _Pools(pack)
    return found


#: The places and enemies worlds were built of, by their fields. A bot deals two worlds a decision, and
#: most of their places and enemies are those of the worlds before; a frozen record is dear to build in the
#: compiled build (its ``__init__`` is the data class's own, in Python) and costs a lookup found here.
_MADE: dict[tuple[Any, ...], Any] = {}
MADE = 4096


def _made(cls: type, *fields: Any) -> Any:
    key = (cls, *fields)
    found = _MADE.get(key)
    if found is None:
        if len(_MADE) >= MADE:
            _MADE.clear()
        found = _MADE[key] = cls(*fields)
    return found


#: Every field at its default: each world is this with its fields replaced, quicker than ``GameState(...)``
#: in the compiled build, for the same reason.
_BLANK = GameState()


#: What worlds loaded from parts of their views, by the part's id and type: (the part, the record). A bot
#: deals its two worlds of a decision from one view, and all but the hidden parts load alike: records never
#: change, so the second world shares the first's. The part is held, so its id is not reused meanwhile.
_LOADED: Final[dict[tuple[int, type], tuple[Any, Any]]] = {}
LOADED = 64


def _load(tp: type, data: Any) -> Any:
    if data is None:
        return None
    key = (id(data), tp)
    found = _LOADED.get(key)
    if found is not None and found[0] is data:
        return found[1]
    record = load(tp, data)
    if len(_LOADED) >= LOADED:
        del _LOADED[next(iter(_LOADED))]
    _LOADED[key] = (data, record)
    return record


def _survivor(shown: dict[str, Any], hand: list[str] | None) -> SurvivorState:
    """The survivor ``shown`` in a view, holding ``hand`` where the view hides its agendas."""
    if hand is None:
        return _load(SurvivorState, shown)  # the loader reads the record's fields and passes over the view's others
    dealt = dict(shown)
    dealt["agendas"] = hand
    return load(SurvivorState, dealt)


def _take(pool: list[str], count: int | list[str], rng: Rng) -> list[str]:
    """``count`` cards drawn from ``pool`` (removed from it); short pools give what they have.

    A list instead of a count is a deck the view shows in full (the game is over).
    """
    if isinstance(count, list):
        for card in count:
            if card in pool:
                pool.remove(card)
        return list(count)
    picked = []
    for _ in range(min(count, len(pool))):
        picked.append(pool.pop(rng.below(len(pool))))
    return picked


def determinize(view: dict[str, Any], seat: int, rng: Rng) -> GameState:
    if view.get("phase", "new") == "new":
        return GameState()
    cat = catalog(view["pack"])
    pack = cat.pack
    pools = _pools(pack)
    scenario = pack.scenarios[view["scenario"]]
    players = view["players"]
    decks = view["decks"]

    # -- survivors and the cards they hold -------------------------------------
    shown = view["survivors"]
    held: set[str] = set()
    for s in shown:
        held.update(s["equipped"], s["inventory"], s["abilities"])
    gaining = tuple((g[0], g[1]) for g in view.get("gaining") or ())
    held.update(card for _, card in gaining)

    # Agendas: the seat's own hand and revealed cards are known; deal the rest.
    in_play = [a.id for a in pack.agendas if a.players <= players]
    known: set[str] = set()
    for s in shown:
        if s["agendas"] is not None:
            known.update(s["agendas"])
        if s.get("loyalty"):
            known.add(s["loyalty"])
    round_end = view.get("round_end")
    if round_end:
        known.add(round_end["card"])
    pool = sorted(a for a in in_play if a not in known)
    hands: dict[int, list[str]] = {}
    for s in shown:
        if s["agendas"] is None:
            count = s["agenda_count"] - (1 if s.get("loyalty") else 0)
            hands[s["seat"]] = ([s["loyalty"]] if s.get("loyalty") else []) + _take(pool, count, rng)
    agenda_deck = tuple(_take(pool, decks["agenda"], rng))
    agenda_discard = tuple(_take(pool, decks["agenda_discard"], rng))
    survivors = [_survivor(s, hands.get(s["seat"])) for s in shown]

    # -- the map: face-down tiles ----------------------------------------------
    laid = {p["tile"] for p in view["map"] if p["tile"] is not None}
    tiles_by_back: dict[str, list[str]] = {}
    for tile, back in pools.tiles:
        if tile not in laid:
            tiles_by_back.setdefault(back, []).append(tile)
    places = []
    for p in view["map"]:
        tile_id = p["tile"]
        if tile_id is None:
            unlaid = tiles_by_back.get(p["back"]) or []
            tile_id = unlaid.pop(rng.below(len(unlaid))) if unlaid else None
        places.append(_made(PlaceState, p["place"], tile_id, p["back"], p["faceup"]))

    # -- enemies: faces of inactive ones, stacks, discards ----------------------
    seen_tokens = {e["token"] for e in view["enemies"] if e.get("token") is not None}
    enemy_pool = {t: [i for i in ids if i not in seen_tokens] for t, ids in pools.enemies.items()}
    attempt = _load(Attempt, view.get("attempt"))
    enemies = []
    for e in view["enemies"]:
        token = e.get("token")
        if token is None:
            candidates = enemy_pool.get(e["type"]) or []
            token = candidates.pop(rng.below(len(candidates))) if candidates else ""
        drawn = attempt is not None and attempt.enemy == e["enemy"]
        enemies.append(_made(EnemyState, e["enemy"], e["type"], token, e["space"], e["active"], e.get("faction"), drawn))
    stacks = {t: tuple(_take(enemy_pool.setdefault(t, []), n, rng)) for t, n in decks["enemy_stacks"].items()}
    discards = {t: tuple(_take(enemy_pool.setdefault(t, []), n, rng)) for t, n in decks["enemy_discards"].items()}
    numbers = [int(e["enemy"][1:]) for e in view["enemies"] if e["enemy"][1:].isdigit()]

    # -- decks of cards ----------------------------------------------------------
    trade_view = view.get("trade")
    if trade_view:
        held.update(c for c in trade_view["give"] + trade_view["take"] if c is not None)
    loot_pool = [c for c in pools.loot if c not in held and c not in view["loot_discard"]]
    asset_pool = [c for c in pools.assets if c not in held and c not in view["asset_discard"] and c not in view["shop"]]

    encounter_view = view.get("encounter")
    current_card = None
    if encounter_view is not None:
        matching = sorted(
            c.id
            for c in pack.encounters.values()
            if c.deck == encounter_view["deck"] and read_aloud(c) == encounter_view["read_aloud"]
        )
        current_card = matching[rng.below(len(matching))] if matching else None
    encounter_decks = {}
    for kind, count in decks["encounter"].items():
        if isinstance(count, list):  # the game is over: nothing hidden
            encounter_decks[kind] = tuple(count)
            continue
        starred = [c for c in pools.starred.get(kind, ()) if c != current_card]
        numbered = [c for c in pools.numbered.get(kind, ()) if c != current_card]
        cards = _take(starred, count, rng)
        cards += _take(numbered, count - len(cards), rng)
        encounter_decks[kind] = tuple(cards)

    encounter = None
    if encounter_view is not None:
        encounter = Encounter(
            encounter_view["seat"], current_card or "", encounter_view["deck"], encounter_view["space"],
            encounter_view["level"], encounter_view["option"], encounter_view["outcome"],
        )
    resolving = tuple(
        load(Resolving, {**r, "source": r["source"] if r["source"] is not None else current_card or ""})
        for r in view["resolving"]
    )

    trade = None
    if trade_view:
        proposer_hand = [a for a in survivors[trade_view["seat"]].agendas]
        give = []
        for card in trade_view["give"]:
            if card is None:
                spare = [a for a in proposer_hand if a not in give]
                card = spare[rng.below(len(spare))] if spare else ""
            give.append(card)
        trade = Trade(
            trade_view["seat"], trade_view["partner"], tuple(give), tuple(trade_view["take"]),
            trade_view["give_caps"], trade_view["take_caps"], trade_view["take_agendas"], trade_view["proposed"],
        )

    # -- the supply of S.P.E.C.I.A.L. tokens: every token nobody holds, but the
    # silhouette tokens of survivors nobody plays (they stay in the box) -------
    leveling = _load(Leveling, view.get("leveling"))
    taken = {token for s in survivors for _, token in s.special}
    if leveling is not None:
        taken.update(leveling.drawn)
    playing = {s.survivor for s in survivors}
    supply = tuple(t for t, owner in pools.special if t not in taken and (owner is None or owner in playing))

    pending_view = view.get("pending")
    if pending_view is not None and any(c is None for c in pending_view["choices"]):
        # Another seat's private choices: make them again from its sampled hand.
        hand = survivors[pending_view["seat"]].agendas
        remade: list[dict[str, Any]]
        if pending_view["kind"] == "discard_agenda":
            remade = [{"type": "discard_agenda", "agenda": a} for a in hand]
        else:  # answer_trade
            take = trade.take_agendas if trade is not None else 0
            remade = [{"type": "accept_trade", "agendas": list(c)} for c in combinations(hand, min(take, len(hand)))]
            remade.append({"type": "decline_trade"})
        pending_view = {**pending_view, "choices": remade}
    pending = _load(Decision, pending_view)
    turn = _load(Turn, view.get("turn"))
    respawning = tuple(
        s.seat for s in survivors if s.survivor is not None and s.space is None and not s.eliminated
    )
    if pending is not None and pending.kind == "respawn" and pending.seat in respawning:
        respawning = (pending.seat,) + tuple(s for s in respawning if s != pending.seat)

    return replace(
        _BLANK,
        pack=view["pack"],
        scenario=view["scenario"],
        players=players,
        phase=view["phase"],
        result=view["result"],
        survivors=tuple(survivors),
        first_player=view["first_player"],
        round=view["round"],
        turn=turn,
        next_seat=None if turn is not None or view["phase"] != "playing" else view["first_player"],
        round_end_due=view["round_end_due"],
        round_end=_load(RoundEnd, round_end),
        places=tuple(places),
        enemies=tuple(enemies),
        next_enemy=max(numbers, default=0) + 1,
        enemy_stacks=stacks,
        enemy_discards=discards,
        special_supply=supply,
        agenda_deck=agenda_deck,
        agenda_discard=agenda_discard,
        perk_deck=tuple(view["perk_deck"]),
        loot_deck=tuple(_take(loot_pool, decks["loot"], rng)),
        loot_discard=tuple(view["loot_discard"]),
        asset_deck=tuple(_take(asset_pool, decks["asset"], rng)),
        asset_discard=tuple(view["asset_discard"]),
        shop=tuple(view["shop"]),
        power=tuple(view["power"][f.key] for f in scenario.factions),
        pending=pending,
        roll=_load(Roll, view.get("roll")),
        fight=_load(Fight, view.get("fight")),
        attackers=_load(Attackers, view.get("attackers")),
        respawning=respawning,
        leveling=leveling,
        placing=_load(Placing, view.get("placing")),
        encounter_decks=encounter_decks,
        quests=tuple(view["quests"]),
        markers=tuple((m[0], m[1]) for m in view["markers"]),
        unique_deck=tuple(view["unique_deck"]),
        unique_discard=tuple(view["unique_discard"]),
        encounter=encounter,
        questing=_load(Questing, view.get("questing")),
        attempt=attempt,
        resolving=resolving,
        gaining=gaining,
        shopping=_load(Shopping, view.get("shopping")),
        trade=trade,
        winners=tuple(view["winners"]),
    )
