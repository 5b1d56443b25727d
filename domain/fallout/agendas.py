"""Agenda cards in hand (Agenda Cards).

A survivor holds at most four agenda cards: drawing a fifth makes them
discard down (a decision, ``items.over_limit``), the revealed card included.
How many cards a survivor holds is public; what they are is not (views and
``redact`` show them only to their holder, and a revealed card to all).
Drawing the last card of the agenda deck depletes it, as at the end of a
round: the discards become the new deck, the first player passes to the
right and the factions advance. A deck that a depletion left empty (every
other card in hands) is rebuilt from the discards when next drawn from,
by a result as at the end of a round, without depleting it again.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import integer, string, strings
from domain.fallout import effects as fx
from domain.fallout import factions, items, killed, loyalty, results
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import Decision, GameState, replace

RULE = "Agenda Cards"


def draw(res: Resolution, seat: int, count: int) -> None:
    for _ in range(count):
        if res.state.over:
            return
        rebuild(res)
        if not res.state.agenda_deck:
            return
        res.emit("AgendaDrawn", seat=seat, card=res.state.agenda_deck[0])
        if not res.state.agenda_deck:
            deplete(res)


@results.about_survivor(fx.Draw)
def _draw_result(res: Resolution, seat: int, level: int, r: fx.Draw) -> None:
    """One result for three decks: the agenda deck is this module's, loot and assets ``items``'."""
    if r.deck == "agenda":
        draw(res, seat, r.amount.of(level))
    else:
        items.draw(res, seat, r.deck, r.amount.of(level))


def rebuild(res: Resolution) -> None:
    """A deck left empty by a depletion that found every other card in hands is made again from the
    discards when next drawn from (Component Limitations): a rebuild, not a depletion, so the factions do
    not advance and the first player keeps the deck. Nothing to do while the deck holds a card."""
    state = res.state
    if not state.agenda_deck and state.agenda_discard:
        res.emit("AgendaDeckReshuffled", order=res.rng.shuffled(list(state.agenda_discard)))


def deplete(res: Resolution) -> None:
    """The final card drawn: the discards become the deck, the first player passes to the right
    and the factions advance (Agenda Cards, Rounds); the scenario's ``on_deplete`` rules follow."""
    state = res.state
    order = res.rng.shuffled(list(state.agenda_discard))
    res.emit("AgendaDeckReshuffled", order=order)
    res.emit("FirstPlayerPassed", seat=killed.right_of(state, state.first_player))
    power = list(state.power)
    if state.players == 1 and len(set(power)) > 1:
        weakest = power.index(min(power))
        power[weakest] += 1
    else:
        power = [p + 1 for p in power]
    res.emit("FactionsAdvanced", power=power)
    # A faction on (or past) the final space: survivors with enough influence
    # still win, otherwise everyone loses (Faction Power Track).
    factions.check_end(res)
    if not res.state.over:
        # The scenario sheet's own rule for this moment: results about the game, no seat decides.
        results.push(res, None, res.scenario.id, "scenario", 1, res.scenario.on_deplete)
        results.settle(res)


@RULES.answer("discard_agenda", RULE, commands={"discard_agenda": {"agenda": string()}})
def answer_discard(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    res.emit("AgendaDiscardedFromHand", seat=decision.seat, card=command["agenda"])


@RULES.fold("AgendaDrawn", {"card": string(nullable=True), "seat": integer()})
def _drawn(state: GameState, data: dict) -> GameState:
    seat, card = data["seat"], data["card"]
    state = replace(state, agenda_deck=tuple(c for c in state.agenda_deck if c != card))
    return state.with_survivor(seat, agendas=state.survivor(seat).agendas + (card,))


@RULES.fold("AgendaDeckReshuffled", {"order": strings(hidden=True)})
def _reshuffled(state: GameState, data: dict) -> GameState:
    return replace(state, agenda_deck=tuple(data["order"]), agenda_discard=())


@RULES.fold("AgendaDiscardedFromHand", {"card": string(), "seat": integer()})
def _discarded(state: GameState, data: dict) -> GameState:
    seat, card = data["seat"], data["card"]
    s = state.survivor(seat)
    state = state.with_survivor(seat, agendas=tuple(a for a in s.agendas if a != card))
    state = replace(state, agenda_discard=state.agenda_discard + (card,))
    return loyalty.drop_if_gone(state, seat)
