"""Turns and actions: two actions a turn, clockwise from the first player.

A round ends right before the first player's next turn. When the first player
changes (the agenda deck passed to the right), whose turn is next does not
change, so the round end simply moves to before the new first player's turn.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import boolean, integer
from domain.fallout import conditions, results
from domain.fallout import effects as fx
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import GameState, Turn, replace
from domain.game import RuleViolation

RULE_ACTIONS = "Actions"
RULE_TURNS = "Turns"


def next_seat(state: GameState, seat: int) -> int | None:
    living = state.clockwise((seat + 1) % state.players)
    return living[0] if living else None


def start_turn(res: Resolution, seat: int) -> None:
    res.emit("TurnStarted", seat=seat, round=res.state.round)
    # Scenario: the sheet's rules for the start of a survivor's turn; the
    # engine resolves them (advance) before the survivor acts.
    for raw in reversed(res.scenario.on_turn_start):  # the stack resolves the top first
        rule = fx.parse_scenario_rule(raw)
        if conditions.holds(res.state, seat, rule.condition):
            results.push(res, seat, res.scenario.id, "scenario", 1, rule.results)


def end_turn(res: Resolution) -> None:
    turn = res.state.turn
    assert turn is not None
    nxt = next_seat(res.state, turn.seat)
    if nxt is None:
        return
    due = nxt == res.state.first_player
    res.emit("TurnEnded", seat=turn.seat, next=nxt, round_end_due=due)
    if not due:
        start_turn(res, nxt)


def need_action(state: GameState, rule: str = RULE_ACTIONS) -> Turn:
    turn = state.turn
    assert turn is not None
    if turn.actions <= 0:
        raise RuleViolation("no_actions_left", "Both actions of this turn are spent.", rule=rule)
    return turn


@RULES.command("end_turn", {})
def end_turn_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    """Skipping the remaining actions: skipped actions are lost."""
    end_turn(res)


@RULES.fold("TurnStarted", {"round": integer(), "seat": integer()})
def _turn_started(state: GameState, data: dict) -> GameState:
    return replace(state, turn=Turn(data["seat"]), next_seat=None)


@RULES.fold("TurnEnded", {"next": integer(), "round_end_due": boolean(), "seat": integer()})
def _turn_ended(state: GameState, data: dict) -> GameState:
    return replace(state, turn=None, next_seat=data["next"], round_end_due=data["round_end_due"])


@RULES.fold("RoundStarted", {"round": integer()})
def _round_started(state: GameState, data: dict) -> GameState:
    return replace(state, round=data["round"], phase="playing", round_end_due=False)
