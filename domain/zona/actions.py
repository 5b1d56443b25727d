"""The action phase: up to two actions a turn, in turn order from the Voice of the Zone.

Zona §"AKCJE", §"RUCH", §"WYKONYWANIE AKCJI OBSZARÓW", §"POSZUKIWANIE",
§"ODPOCZYNEK", §"PAS", §"SKRÓTY", §"BLOKADA", §"GRANICE".
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from domain.game import Command, RuleViolation
from domain.zona import effects, encounter, facilities, harm, items
from domain.zona.board import board_for
from domain.zona.pack import pack_named
from domain.zona.resolution import RULES, ZonaResolution
from domain.zona.state import State, owned_items

RULE_AREA = 'Zona §"WYKONYWANIE AKCJI OBSZARÓW"'


def destinations(state: State, seat: int) -> list[str]:
    """Areas one move reaches: across a border (a shortcut too), never a blockade, the power-plant
    border or a border a timed news card blocks, into a facility only when it is open and has room,
    never out of the sarcophagus."""
    pack = pack_named(state.pack)
    board = board_for(state.pack, state.side)
    s = state.stalkers[seat]
    here = s["area"]
    if pack.areas[here].sector == "sarcophagus":
        return []
    out = []
    timed = state.timed
    blocked = timed["target"] if timed is not None and "blocked" in (pack.news[timed["card"]].timed or {}) else None
    for there, border in board.neighbours(here).items():
        if blocked is not None and blocked == "|".join(sorted((here, there))):
            continue
        if pack.areas[there].sector == "facility":
            if border.kind != "entrance" or facilities.entry_refusal(state, seat, there) is not None:
                continue
        out.append(there)
    return out


def map_items(state: State, seat: int) -> list[str]:
    pack = pack_named(state.pack)
    s = state.stalkers[seat]
    return [c for c in owned_items(s) if pack.item_type(c).shortcut and items.works(pack, state, s, c)]


def move_choices(state: State, seat: int) -> list[dict[str, Any]]:
    board = board_for(state.pack, state.side)
    here = state.stalkers[seat]["area"]
    out: list[dict[str, Any]] = []
    for there in destinations(state, seat):
        out.append({"type": "move", "to": there})
        if board.neighbours(here)[there].kind == "shortcut":
            out += [{"type": "move", "to": there, "map": c} for c in map_items(state, seat)]
    return out


@RULES.command("move", {"to": fields.String(required=True), "map": fields.String()})
def move_command(res: ZonaResolution, seat: int, command: dict[str, Any]) -> None:
    # The dispatch's turn check (``ZonaGame.turn``) refused every move not among ``move_choices`` of this very
    # state (``turn_actions(state, seat, "move")``), before anything was emitted: listing them again here
    # doubled the dearest part of a move's decision.
    here, there = res.stalker(seat)["area"], command["to"]
    border = res.board.neighbours(here)[there]
    res.emit("ActionTaken", seat=seat, action="move")
    res.set("StalkerMoved", seat, area=there, must_leave=False, by="move")
    encounter.arrive(res, seat, there)
    timed = res.state.timed
    if timed is not None and timed["target"] == there:
        card = res.pack.news[timed_card(res.state)]
        if card.timed and "toxic" in card.timed:
            harm.suffer(res, seat, dict(card.timed["toxic"]), by="news")
    if border.kind == "shortcut":
        if "map" in command:
            items.use(res, seat, command["map"], "shortcut")
        else:
            harm.suffer(res, seat, {str(border.shortcut): 1}, by="shortcut")


def timed_card(state: State) -> str:
    return str(state.timed["card"])


@RULES.command("search", {"token": fields.String(required=True)})
def search_command(res: ZonaResolution, seat: int, command: dict[str, Any]) -> None:
    area = res.stalker(seat)["area"]
    if command["token"] not in res.state.threats.get(area, []):
        raise RuleViolation("no_such_threat", "No such threat token in your area.", rule='Zona §"POSZUKIWANIE"')
    res.emit("ActionTaken", seat=seat, action="search")
    encounter.met(res, seat, command["token"], area)


@RULES.command("rest", {})
def rest_command(res: ZonaResolution, seat: int, command: dict[str, Any]) -> None:
    res.emit("ActionTaken", seat=seat, action="rest")
    harm.change_fatigue(res, seat, -1, by="rest")


@RULES.command("pass", {})
def pass_command(res: ZonaResolution, seat: int, command: dict[str, Any]) -> None:
    res.emit("ActionTaken", seat=seat, action="pass", ends_turn=True)


def area_action_refusal(state: State, seat: int) -> RuleViolation | None:
    """Why the stalker cannot take the area's action now, as the refusal to raise, or None."""
    pack = pack_named(state.pack)
    s = state.stalkers[seat]
    area = pack.areas[s["area"]]
    if not area.action:
        return RuleViolation("area_action_no_action", "This area has no action.", rule=RULE_AREA)
    if state.turn["area_action"]:
        return RuleViolation("area_action_once_per_turn", "You took an area's action this turn.", rule=RULE_AREA)
    if area.requires and s["reputation"] not in area.requires:
        return RuleViolation("area_action_reputation", "Your reputation does not let you take it.", rule=RULE_AREA)
    timed = state.timed
    if timed is not None and timed["target"] == area.id and "closed" in (pack.news[timed["card"]].timed or {}):
        return RuleViolation("area_action_closed_by_news", "A news card closes this area.", rule=RULE_AREA)
    return None


@RULES.command("area_action", {})
def area_action_command(res: ZonaResolution, seat: int, command: dict[str, Any]) -> None:
    refused = area_action_refusal(res.state, seat)
    if refused is not None:
        raise refused
    res.emit("ActionTaken", seat=seat, action="area_action")
    effects.run(res, seat, ["area", res.stalker(seat)["area"], "action"])


def turn_actions(state: State, seat: int, kind: str | None = None) -> list[dict[str, Any]]:
    """Every action the seat may take now (their turn, nothing pending); with ``kind``, only those of that
    kind (checking one command needs no others: moving is the dearest to list)."""
    s = state.stalkers[seat]
    every = kind is None
    if s["must_leave"]:
        # A looted facility: the first action must take the stalker out.
        return move_choices(state, seat) if every or kind == "move" else []
    out: list[dict[str, Any]] = move_choices(state, seat) if every or kind == "move" else []
    if every or kind == "search":
        out += [{"type": "search", "token": t} for t in state.threats.get(s["area"], [])]
    if every or kind == "rest":
        out.append({"type": "rest"})  # allowed at fatigue 0 too: it only changes nothing
    if (every or kind == "area_action") and area_action_refusal(state, seat) is None:
        out.append({"type": "area_action"})
    if every or kind == "open_facility":
        out += [{"type": "open_facility", "facility": f} for f in facilities.openable(state, seat)]
    if every or kind == "pass":
        out.append({"type": "pass"})
    return out


def legal_actions(state: State, seat: int) -> list[Command]:
    """Every command ``seat`` may send now: the pending decision's choices, or on its turn its actions and
    the free item commands. The game contract's ``legal_actions``; the AI's lapsed-turn default reads it too."""
    if state.phase == "new" or state.over:
        return []
    pending = state.pending
    if pending is not None:
        return [dict(c) for c in pending["choices"]] if pending["seat"] == seat else []
    turn = state.turn
    if state.phase != "action" or turn is None or turn["seat"] != seat or turn["done"]:
        return []
    return [*turn_actions(state, seat), *items.own_turn_items(state, seat)]
