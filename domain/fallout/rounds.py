"""The round end: reveal an agenda card, activate its enemy types, discard it.

At the moment the final agenda card is drawn (Agenda Cards), the discards are
shuffled into a new deck (the order is in the event; the card just drawn is
not among them: it is discarded into the new discard pile after it activates),
the deck passes to the right and its holder becomes the first player, and
both factions advance one space (solo: only the weaker one, unless they are
tied). A faction on the final space ends the game (``factions.check_end``)
before the drawn card activates anything (``agendas.deplete``, which a result
drawing the last agenda card runs too).
"""

from __future__ import annotations

from domain.engine.shapes import integer, string, strings
from domain.fallout import activation, agendas, conditions, factions, results, turns
from domain.fallout import effects as fx
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import GameState, RoundEnd, replace

RULE = "Rounds"
RULE_AGENDA = "Agenda Cards"

#: Only the system sends it, whenever ``ready`` says the round end is due or waits to carry on.
RULES.system_command("round_end", {})


def ready(state: GameState) -> bool:
    """The round end is due, or waits to carry on after a seat's decision."""
    if state.phase != "playing" or state.pending is not None:
        return False
    if not (state.round_end_due or state.round_end is not None):
        return False
    busy = (
        state.roll, state.fight, state.attackers, state.respawning, state.replacing, state.level_ups,
        state.leveling, state.placing, state.resolving, state.gaining, state.shopping, state.attempt,
        state.encounter, state.questing, state.triggered, state.trade,
    )
    return not any(busy)


def step(res: Resolution) -> None:
    state = res.state
    re = state.round_end
    if re is None:
        agendas.rebuild(res)
        if not res.state.agenda_deck:
            finish(res)
            return
        card = res.state.agenda_deck[0]
        types = res.catalog.agendas[card].activation
        res.emit("AgendaRevealed", seat=res.state.first_player, card=card, activation=list(types))
        if not res.state.agenda_deck:
            agendas.deplete(res)
        return
    if re.types:
        activation.step(res)
        return
    finish(res)


def finish(res: Resolution) -> None:
    state = res.state
    re = state.round_end
    if re is not None:
        res.emit("AgendaDiscarded", card=re.card)
    # Scenario: the sheet's rules for the end of each round, about the game.
    for raw in res.scenario.on_round_end:
        rule = fx.parse_scenario_rule(raw, about_survivor=False)
        if conditions.game_holds(res.state, rule.condition):
            results.push(res, None, res.scenario.id, "scenario", 1, rule.results)
            results.settle(res)
            factions.check_end(res)
            if res.state.over:
                return
    state = res.state
    nxt = state.next_seat
    if nxt is None or state.survivors[nxt].eliminated:
        living = state.clockwise(nxt if nxt is not None else state.first_player)
        if not living:
            return
        nxt = living[0]
    res.emit("RoundStarted", round=state.round + 1)
    turns.start_turn(res, nxt)


@RULES.fold("AgendaRevealed", {"activation": strings(), "card": string(), "seat": integer()})
def _revealed(state: GameState, data: dict) -> GameState:
    return replace(
        state,
        agenda_deck=state.agenda_deck[1:],
        round_end=RoundEnd(card=data["card"], types=tuple(data["activation"])),
        round_end_due=False,
    )


@RULES.fold("AgendaDiscarded", {"card": string()})
def _discarded(state: GameState, data: dict) -> GameState:
    return replace(state, agenda_discard=state.agenda_discard + (data["card"],), round_end=None)

