"""Agenda cards in hand (Agenda Cards).

A survivor holds at most four agenda cards: drawing a fifth makes them
discard down (a decision, ``items.over_limit``), the revealed card included.
How many cards a survivor holds is public; what they are is not (views and
``redact`` show them only to their holder, and a revealed card to all).
Drawing the last card of the agenda deck depletes it, as at the end of a
round: the discards become the new deck, the first player passes to the
right and the factions advance.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import integer, string
from domain.fallout import loyalty, rounds
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import Decision, GameState, replace

RULE = "Agenda Cards"
MAX_AGENDAS = 4


def draw(res: Resolution, seat: int, count: int) -> None:
    for _ in range(count):
        if res.state.over:
            return
        if not res.state.agenda_deck:
            if not res.state.agenda_discard:
                return
            rounds.deplete(res)
            continue
        res.emit("AgendaDrawn", seat=seat, card=res.state.agenda_deck[0])
        if not res.state.agenda_deck:
            rounds.deplete(res)


@RULES.answer("discard_agenda", RULE, commands={"discard_agenda": {"agenda": string()}})
def answer_discard(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    res.emit("AgendaDiscardedFromHand", seat=decision.seat, card=command["agenda"])


@RULES.fold("AgendaDrawn", {"card": string(nullable=True), "seat": integer()})
def _drawn(state: GameState, data: dict) -> GameState:
    seat, card = data["seat"], data["card"]
    state = replace(state, agenda_deck=tuple(c for c in state.agenda_deck if c != card))
    return state.with_survivor(seat, agendas=state.survivor(seat).agendas + (card,))


@RULES.fold("AgendaDiscardedFromHand", {"card": string(), "seat": integer()})
def _discarded(state: GameState, data: dict) -> GameState:
    seat, card = data["seat"], data["card"]
    s = state.survivor(seat)
    state = state.with_survivor(seat, agendas=tuple(a for a in s.agendas if a != card))
    state = replace(state, agenda_discard=state.agenda_discard + (card,))
    return loyalty.drop_if_gone(state, seat)
