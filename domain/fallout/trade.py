"""Trading during a camp action (Camp Action).

Right after camping, and until their next action or the end of the turn, the
camping survivor may trade with any survivor in the same or an adjacent
space. They put the trade together one step at a time (each a command, so
``legal_actions`` can list every step): their own items, companions and
agenda cards to give, the other survivor's items and companions to take,
Caps either way, and how many agenda cards the other survivor should hand
over. Then they propose it and the other seat decides: decline, or accept,
picking which of their agenda cards to hand over. Traits, S.P.E.C.I.A.L.
tokens, perks and character cards that are not items are never tradable.

Cards received are gained like any other card (equip or stow, discard down);
an exhausted card stays exhausted. Agenda cards given are hidden from every
seat but the two trading.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from domain.engine.shapes import boolean, integer, string, strings
from domain.fallout import loyalty
from domain.fallout.board import board_of
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import Decision, GameState, Trade, replace
from domain.game import RuleViolation

RULE = "Camp Action"
#: The steps of putting a trade together, each a command with its fields.
BUILDING_FIELDS = {
    "trade_give": {"card": string()},
    "trade_take": {"card": string()},
    "trade_give_caps": {},
    "trade_take_caps": {},
    "trade_take_agenda": {},
    "trade_propose": {},
    "trade_cancel": {},
}
BUILDING = frozenset(BUILDING_FIELDS)
COMMANDS = BUILDING | {"trade"}


def partners(state: GameState, seat: int) -> list[int]:
    s = state.survivor(seat)
    if s.space is None:
        return []
    near = set(board_of(state).adjacent_spaces(s.space, state.faceup_places())) | {s.space}
    return [o.seat for o in state.survivors if o.seat != seat and o.on_map and o.space in near]


def choices(state: GameState, seat: int) -> list[dict[str, Any]]:
    turn = state.turn
    if turn is None or turn.seat != seat or not turn.camping:
        return []
    t = state.trade
    if t is None:
        return [{"type": "trade", "with": p} for p in partners(state, seat)]
    if t.proposed:
        return []
    me, them = state.survivor(seat), state.survivor(t.partner)
    out: list[dict[str, Any]] = []
    out += [{"type": "trade_give", "card": c} for c in me.equipped + me.inventory + me.agendas if c not in t.give]
    out += [{"type": "trade_take", "card": c} for c in them.equipped + them.inventory if c not in t.take]
    if t.give_caps < me.caps:
        out.append({"type": "trade_give_caps"})
    if t.take_caps < them.caps:
        out.append({"type": "trade_take_caps"})
    if t.take_agendas < len(them.agendas):
        out.append({"type": "trade_take_agenda"})
    if t.give or t.take or t.give_caps or t.take_caps or t.take_agendas:
        out.append({"type": "trade_propose"})
    out.append({"type": "trade_cancel"})
    return out


def command(res: Resolution, seat: int, cmd: dict[str, Any]) -> None:
    if cmd not in choices(res.state, seat):
        raise RuleViolation(
            "not_a_trade_step", "Trade right after camping, with a survivor in your space or an adjacent one, "
            "one listed step at a time.", rule=RULE,
        )
    kind = cmd["type"]
    if kind == "trade":
        res.emit("TradeOpened", seat=seat, partner=cmd["with"])
        return
    t = res.state.trade
    assert t is not None  # every other step is listed only while a trade is put together
    if kind == "trade_propose":
        res.emit("TradeProposed", seat=seat, partner=t.partner)
    elif kind == "trade_cancel":
        res.emit("TradeDeclined", seat=seat, partner=t.partner, by=seat)
    else:
        card = cmd.get("card")
        agenda = card is not None and card in res.state.survivor(seat).agendas
        res.emit("TradeChanged", seat=seat, partner=t.partner, change=kind, card=card, agenda=agenda)


RULES.command("trade", {"with": integer()})(command)
for _kind, _fields in BUILDING_FIELDS.items():
    RULES.command(_kind, _fields)(command)


def request_answer(res: Resolution) -> None:
    t = res.state.trade
    assert t is not None and t.proposed
    hand = res.state.survivor(t.partner).agendas
    accepts = [
        {"type": "accept_trade", "agendas": list(combo)} for combo in combinations(hand, min(t.take_agendas, len(hand)))
    ]
    res.request(t.partner, "answer_trade", accepts + [{"type": "decline_trade"}], proposer=t.seat)


@RULES.answer("answer_trade", RULE, commands={"accept_trade": {"agendas": strings()}, "decline_trade": {}})
def answer(res: Resolution, cmd: dict[str, Any], decision: Decision) -> None:
    t = res.state.trade
    assert t is not None
    if cmd["type"] == "decline_trade":
        res.emit("TradeDeclined", seat=t.seat, partner=t.partner, by=t.partner)
        return
    me, them = res.state.survivor(t.seat), res.state.survivor(t.partner)
    # Something may have changed hands since it was offered; trade what is still there.
    res.emit(
        "TradeCompleted", seat=t.seat, partner=t.partner,
        give=[c for c in t.give if c in me.equipped + me.inventory],
        give_agendas=[c for c in t.give if c in me.agendas],
        take=[c for c in t.take if c in them.equipped + them.inventory],
        give_caps=min(t.give_caps, me.caps), take_caps=min(t.take_caps, them.caps),
        agendas=list(cmd["agendas"]),
    )


# -- folds -------------------------------------------------------------------


@RULES.fold("TradeOpened", {"partner": integer(), "seat": integer()})
def _opened(state: GameState, data: dict) -> GameState:
    return replace(state, trade=Trade(data["seat"], data["partner"]))


@RULES.fold(
    "TradeChanged",
    {
        "agenda": boolean(),
        "card": string(nullable=True),
        "change": string(),
        "partner": integer(),
        "seat": integer(),
    },
)
def _changed(state: GameState, data: dict) -> GameState:
    t = state.trade
    if t is None:
        return state
    change = data["change"]
    if change == "trade_give":
        t = replace(t, give=t.give + (data["card"],))
    elif change == "trade_take":
        t = replace(t, take=t.take + (data["card"],))
    elif change == "trade_give_caps":
        t = replace(t, give_caps=t.give_caps + 1)
    elif change == "trade_take_caps":
        t = replace(t, take_caps=t.take_caps + 1)
    elif change == "trade_take_agenda":
        t = replace(t, take_agendas=t.take_agendas + 1)
    return replace(state, trade=t)


@RULES.fold("TradeProposed", {"partner": integer(), "seat": integer()})
def _proposed(state: GameState, data: dict) -> GameState:
    t = state.trade
    return state if t is None else replace(state, trade=replace(t, proposed=True))


@RULES.fold("TradeDeclined", {"by": integer(), "partner": integer(), "seat": integer()})
def _declined(state: GameState, data: dict) -> GameState:
    return replace(state, trade=None)


def _hand_over(state: GameState, giver: int, taker: int, cards: list[str]) -> GameState:
    g, t = state.survivor(giver), state.survivor(taker)
    moving = set(cards)
    agendas = [c for c in cards if c in g.agendas]
    things = [c for c in cards if c not in g.agendas]
    state = state.with_survivor(
        giver,
        equipped=tuple(c for c in g.equipped if c not in moving),
        inventory=tuple(c for c in g.inventory if c not in moving),
        agendas=tuple(c for c in g.agendas if c not in moving),
        exhausted=tuple(c for c in g.exhausted if c not in moving),
    )
    state = state.with_survivor(
        taker,
        agendas=t.agendas + tuple(agendas),
        exhausted=t.exhausted + tuple(c for c in things if c in g.exhausted),
    )
    state = replace(state, gaining=state.gaining + tuple((taker, c) for c in things))
    return loyalty.drop_if_gone(state, giver)


@RULES.fold(
    "TradeCompleted",
    {
        "agendas": strings(hidden=True),
        "give": strings(),
        "give_agendas": strings(hidden=True),
        "give_caps": integer(),
        "partner": integer(),
        "seat": integer(),
        "take": strings(),
        "take_caps": integer(),
    },
)
def _completed(state: GameState, data: dict) -> GameState:
    seat, partner = data["seat"], data["partner"]
    state = _hand_over(state, seat, partner, list(data["give"]) + list(data.get("give_agendas") or ()))
    state = _hand_over(state, partner, seat, list(data["take"]) + list(data["agendas"]))
    me, them = state.survivor(seat), state.survivor(partner)
    state = state.with_survivor(seat, caps=me.caps - data["give_caps"] + data["take_caps"])
    state = state.with_survivor(partner, caps=them.caps + data["give_caps"] - data["take_caps"])
    return replace(state, trade=None)


def view(state: GameState, seat: int | None) -> dict[str, Any] | None:
    """The trade on the table; the agenda cards in it only for the two trading."""
    t = state.trade
    if t is None:
        return None
    party = seat in (t.seat, t.partner)
    agendas = state.survivor(t.seat).agendas
    return {
        "seat": t.seat, "partner": t.partner, "proposed": t.proposed,
        "give": [c if party or c not in agendas else None for c in t.give],
        "take": list(t.take), "give_caps": t.give_caps, "take_caps": t.take_caps, "take_agendas": t.take_agendas,
    }


@RULES.fold("TradingClosed", {"seat": integer()})
def _closed(state: GameState, data: dict) -> GameState:
    turn = state.turn
    return state if turn is None else replace(state, turn=replace(turn, camping=False), trade=None)
