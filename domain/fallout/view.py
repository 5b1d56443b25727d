"""What one seat may see: of the state (``view``) and of each event (``redact``).

Hidden: other seats' agenda cards (their number is public; a card revealed
for loyalty shows), every deck's order and contents (encounter, loot, asset,
agenda decks: counts only), the card library, the encounter card being
resolved (only what was read aloud, and the chosen outcome once chosen), the
tile under each face-down place (only its back shows), and the face of every
inactive enemy (only its type shows). Decisions whose choices name a seat's
agenda cards (discarding down, answering a trade) show their choices to that
seat only. Once the game is over,
``view`` hides nothing. ``redact`` sees only the event, not whether the game
has ended: a caller that wants the whole log revealed after the end skips it.

A view carries ``names``: the pack's name for each id it shows, so a board
labels cards as the log's words do (``domain.fallout.names``), and ``faces``:
each shown card's face, its rules in words (``domain.fallout.faces``). Both
are read off the view itself, so neither tells what the view hides.
"""

from __future__ import annotations

from typing import Any

from domain.fallout import encounter, enemies, faces, influence, trade
from domain.fallout.content import catalog
from domain.fallout.names import Names
from domain.fallout.snapshot import dump
from domain.fallout.state import GameState
from domain.game import Event


def _hidden(items: list | tuple) -> list[None]:
    return [None] * len(items)


#: Decisions whose choices are the deciding seat's own agenda cards.
PRIVATE_DECISIONS = frozenset({"discard_agenda", "answer_trade"})


def _pending(state: GameState, seat: int | None) -> Any:
    p = state.pending
    if p is None:
        return None
    out = dump(p)
    if p.kind in PRIVATE_DECISIONS and p.seat != seat and not state.over:
        out["choices"] = _hidden(p.choices)
    return out


def _resolving(state: GameState) -> list[dict[str, Any]]:
    """Results bars in progress; an encounter card is not named (it is read aloud only)."""
    return [
        {**dump(r), "source": None if r.origin == "encounter" and not state.over else r.source}
        for r in state.resolving
    ]


def _names(state: GameState, strings: dict[str, None]) -> dict[str, str]:
    """The pack's name for every id among ``strings`` (those of the view, keys included) that has one, and for
    nothing else.

    Read off the view itself, not the state, so it can only name what the
    seat already sees (another seat's agenda cards, a face-down tile, an
    inactive enemy's token stay unnamed because they are not shown)."""
    names = Names(state)
    out: dict[str, str] = {}
    for key in strings:
        name = names.of(key)
        if name:
            out[key] = name
    return out


def _strings(value: Any, found: dict[str, None]) -> dict[str, None]:
    """Every string in ``value``, keys included, once each, in the order met."""
    if isinstance(value, str):
        found[value] = None
    elif isinstance(value, dict):
        for key, item in value.items():
            found[key] = None
            _strings(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _strings(item, found)
    return found


def view(state: GameState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees, with the names of what it shows."""
    shown = scoring_view(state, seat)
    if shown.get("phase") != "new":
        strings = _strings(shown, {})
        shown["names"] = _names(state, strings)
        shown["faces"] = faces.shown(state.pack, state.scenario, strings)
    return shown


def scoring_view(state: GameState, seat: int | None) -> dict[str, Any]:
    """``view`` without ``names``: what the bots score (``domain.fallout.ai``), thousands of positions a
    decision, none of them reading a name; naming every string of a view made it five times dearer."""
    if state.phase == "new":
        return {"phase": "new"}
    over = state.over
    pack = catalog(state.pack).pack
    scenario = pack.scenarios[state.scenario]
    coords = {p.id: (p.q, p.r) for p in scenario.places}
    survivors = []
    for s in state.survivors:
        entry = dump(s)
        entry["remaining_hp"] = s.remaining_hp
        entry["letters"] = list(s.letters)
        entry["agenda_count"] = len(s.agendas)
        if not over and s.seat != seat:
            entry["agendas"] = None
        if over or s.seat == seat:
            entry["influence"] = influence.of(state, s.seat) if s.survivor is not None else 0
        survivors.append(entry)
    enemy_views = []
    for e in state.enemies:
        shown: dict[str, Any] = {"enemy": e.id, "type": e.type, "space": e.space, "active": e.active}
        if e.faction is not None:
            shown["faction"] = e.faction
        if e.active or over:
            token = enemies.token_of(state, e)
            shown.update(
                token=token.id, name=token.name, level=enemies.level(state, token),
                abilities=list(token.abilities), vulnerable=sorted(token.vulnerable),
            )
        enemy_views.append(shown)
    out: dict[str, Any] = {
        "seat": seat,
        "pack": state.pack,
        "scenario": state.scenario,
        "players": state.players,
        "phase": state.phase,
        "result": state.result,
        "round": state.round,
        "first_player": state.first_player,
        "turn": dump(state.turn),
        "round_end_due": state.round_end_due,
        "round_end": dump(state.round_end),
        "survivors": survivors,
        "map": [
            {
                "place": p.id,
                "q": coords[p.id][0],
                "r": coords[p.id][1],
                "back": p.back,
                "faceup": p.faceup,
                "tile": p.tile if p.faceup or over else None,
            }
            for p in state.places
        ],
        "enemies": enemy_views,
        "power": {f.key: state.power[i] for i, f in enumerate(scenario.factions)},
        "shop": list(state.shop),
        "perk_deck": list(state.perk_deck),  # perks are open information
        "decks": {
            "agenda": len(state.agenda_deck),
            "agenda_discard": len(state.agenda_discard),
            "special_supply": len(state.special_supply),
            "enemy_stacks": {t: len(ids) for t, ids in state.enemy_stacks.items()},
            "enemy_discards": {t: len(ids) for t, ids in state.enemy_discards.items()},
            "loot": len(state.loot_deck),
            "loot_discard": len(state.loot_discard),
            "asset": len(state.asset_deck),
            "asset_discard": len(state.asset_discard),
            "encounter": {k: len(v) for k, v in state.encounter_decks.items()},
        },
        "unique_deck": list(state.unique_deck),  # kept sorted by name, open to all
        "unique_discard": list(state.unique_discard),  # face up beside the deck
        "loot_discard": list(state.loot_discard),
        "asset_discard": list(state.asset_discard),
        "quests": list(state.quests),  # staged quest cards lie face up
        "markers": [list(m) for m in state.markers],
        "encounter": encounter.view(state),
        "attempt": dump(state.attempt),
        "questing": dump(state.questing),
        "resolving": _resolving(state),
        "gaining": [list(g) for g in state.gaining],
        "shopping": dump(state.shopping),
        "trade": trade.view(state, seat),
        "winners": list(state.winners),
        "influence_needed": influence.needed(state.players) if state.players else None,
        "pending": _pending(state, seat),
        "roll": dump(state.roll),
        "fight": dump(state.fight),
        "attackers": dump(state.attackers),
        "leveling": dump(state.leveling),
        "placing": dump(state.placing),
    }
    if over:
        out["decks"].update(
            agenda=list(state.agenda_deck),
            enemy_stacks={t: list(ids) for t, ids in state.enemy_stacks.items()},
            encounter={k: list(v) for k, v in state.encounter_decks.items()},
        )
    return out


#: What the bots' evaluation (``domain.fallout.ai``) reads of the seat's own survivor entry in a view.
SCORED_FIELDS = ("eliminated", "survivor", "xp", "perks", "equipped", "inventory", "caps", "traits", "space")


def scored_parts(state: GameState, seat: int) -> dict[str, Any]:
    """The parts of ``seat``'s view that the bots' ``evaluate`` and ``free_choice`` read, each as the view
    shows it: the phase, the winners, whose decision is pending and its kind, and the seat's own survivor's
    scored fields (the other seats' entries are None). A greedy bot scores some forty positions a decision, and the
    whole view (every survivor, the map, the decks) was half its time."""
    if state.phase == "new":
        return {"phase": "new"}
    survivors: list[dict[str, Any] | None] = [None] * len(state.survivors)
    if survivors:
        s = state.survivors[seat]
        # Each field as ``dump`` shows it, written out: the generic ``dump`` of nine fields was a third of it.
        entry: dict[str, Any] = {
            "eliminated": s.eliminated, "survivor": s.survivor, "xp": s.xp, "perks": list(s.perks),
            "equipped": list(s.equipped), "inventory": list(s.inventory), "caps": s.caps,
            "traits": [list(t) for t in s.traits], "space": s.space,
        }  # fmt: skip
        entry["remaining_hp"] = s.remaining_hp
        entry["letters"] = list(s.letters)
        entry["influence"] = influence.of(state, s.seat) if s.survivor is not None else 0
        survivors[seat] = entry
    return {
        "seat": seat, "phase": state.phase, "survivors": survivors, "winners": list(state.winners),
        "pending": _scored_pending(state),
    }


def _scored_pending(state: GameState) -> dict[str, Any] | None:
    """The pending decision as the scored parts show it: whose it is and its kind, as the view shows them.
    The bots read only whether one is pending, and dumping its choices (a reroll lists nine) was a twentieth
    of a greedy decision: every command a search tries makes decisions of its own."""
    p = state.pending
    return None if p is None else {"seat": p.seat, "kind": p.kind}


def redact(event: Event, seat: int | None) -> Event:
    data = event.data
    if event.type == "GameSetUp":
        data = dict(data)
        data["places"] = [p if p["faceup"] else {**p, "tile": None} for p in data["places"]]
        data["enemy_stacks"] = {t: _hidden(ids) for t, ids in data["enemy_stacks"].items()}
        data["agenda_deck"] = _hidden(data["agenda_deck"])
        data["agendas"] = [hand if i == seat else _hidden(hand) for i, hand in enumerate(data["agendas"])]
        for deck in ("loot_deck", "asset_deck"):
            if deck in data:
                data[deck] = _hidden(data[deck])
        if "encounter_decks" in data:
            data["encounter_decks"] = {k: _hidden(v) for k, v in data["encounter_decks"].items()}
    elif event.type == "EnemyPlaced" and not data.get("active"):
        data = {**data, "token": None}
    elif event.type in ("EnemyStackReshuffled", "AgendaDeckReshuffled", "LootDeckReshuffled", "AssetDeckReshuffled"):
        data = {**data, "order": _hidden(data["order"])}
    elif event.type in ("AgendaDrawn", "AgendaDiscardedFromHand") and data.get("seat") != seat:
        data = {**data, "card": None}
    elif event.type == "CardAdded":
        # The number was read off the result; the card's place in the deck is not known.
        data = {**data, "card": None, "order": _hidden(data["order"])}
    elif event.type == "EncounterDrawn":
        data = {**data, "card": None}
    elif event.type in ("ResultsQueued", "ResultsResolved") and data.get("origin") == "encounter":
        data = {**data, "source": None}
    elif event.type == "CardTrashed" and data.get("origin") == "encounter":
        data = {**data, "card": None}
    elif event.type == "DecisionRequested" and data.get("kind") in PRIVATE_DECISIONS and data.get("seat") != seat:
        data = {**data, "choices": _hidden(data["choices"])}
    elif event.type == "DecisionMade" and data.get("kind") in PRIVATE_DECISIONS and data.get("seat") != seat:
        data = {**data, "command": {"type": data["command"].get("type")}}
    elif event.type == "TradeChanged" and data.get("agenda") and seat not in (data.get("seat"), data.get("partner")):
        data = {**data, "card": None}
    elif event.type == "TradeCompleted" and seat not in (data.get("seat"), data.get("partner")):
        data = {**data, "give_agendas": _hidden(data.get("give_agendas") or []), "agendas": _hidden(data["agendas"])}
    else:
        return event
    return Event(event.type, data)
