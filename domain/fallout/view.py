"""What one seat may see: of the state (``view``) and of each event (``redact``).

Hidden: other seats' agenda cards (their number is public), every deck's
order, the tile under each face-down place (only its back shows), and the
face of every inactive enemy (only its type shows). Once the game is over,
``view`` hides nothing. ``redact`` sees only the event, not whether the game
has ended: a caller that wants the whole log revealed after the end skips it.
"""

from __future__ import annotations

from typing import Any

from domain.fallout import enemies
from domain.fallout.content import catalog
from domain.fallout.snapshot import dump
from domain.fallout.state import GameState
from domain.game import Event


def _hidden(items: list | tuple) -> list[None]:
    return [None] * len(items)


def view(state: GameState, seat: int | None) -> dict[str, Any]:
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
        survivors.append(entry)
    enemy_views = []
    for e in state.enemies:
        entry: dict[str, Any] = {"enemy": e.id, "type": e.type, "space": e.space, "active": e.active}
        if e.faction is not None:
            entry["faction"] = e.faction
        if e.active or over:
            token = enemies.token_of(state, e)
            entry.update(
                token=token.id, name=token.name, level=enemies.level(state, token),
                abilities=list(token.abilities), vulnerable=sorted(token.vulnerable),
            )
        enemy_views.append(entry)
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
            "asset": len(state.asset_deck),
        },
        "pending": dump(state.pending),
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
        )
    return out


def redact(event: Event, seat: int | None) -> Event:
    data = event.data
    if event.type == "GameSetUp":
        data = dict(data)
        data["places"] = [p if p["faceup"] else {**p, "tile": None} for p in data["places"]]
        data["enemy_stacks"] = {t: _hidden(ids) for t, ids in data["enemy_stacks"].items()}
        data["agenda_deck"] = _hidden(data["agenda_deck"])
        data["agendas"] = [hand if i == seat else _hidden(hand) for i, hand in enumerate(data["agendas"])]
    elif event.type == "EnemyPlaced" and not data.get("active"):
        data = {**data, "token": None}
    elif event.type in ("EnemyStackReshuffled", "AgendaDeckReshuffled", "LootDeckReshuffled"):
        data = {**data, "order": _hidden(data["order"])}
    elif event.type == "AgendaDrawn" and data.get("seat") != seat:
        data = {**data, "card": None}
    else:
        return event
    return Event(event.type, data)
