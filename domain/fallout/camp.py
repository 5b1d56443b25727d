"""The camp action: recover 3 HP, unexhaust all cards, become Well Rested.

Not allowed in a space with a face-up enemy. Trading arrives with part 2.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from domain.fallout import traits, turns
from domain.fallout.state import CAMP_RECOVERY, MAX_HP, WELL_RESTED, GameState
from domain.game import RuleViolation

if TYPE_CHECKING:
    from domain.fallout.resolution import Resolution

RULE = "Camp Action"


def allowed(state: GameState, seat: int) -> bool:
    space = state.survivor(seat).space
    return space is not None and not any(e.active and e.space == space for e in state.enemies)


def camp_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    turns.need_action(res.state, RULE)
    if not allowed(res.state, seat):
        raise RuleViolation("enemy_in_space", "You cannot camp in a space with a face-up enemy.", rule=RULE)
    survivor = res.state.survivor(seat)
    res.emit(
        "SurvivorCamped",
        seat=seat,
        recovered=min(CAMP_RECOVERY, MAX_HP - survivor.hp),
        unexhausted=list(survivor.exhausted),
    )
    traits.gain(res, seat, WELL_RESTED)


def _camped(state: GameState, data: dict) -> GameState:
    seat = data["seat"]
    survivor = state.survivor(seat)
    state = state.with_survivor(seat, hp=min(MAX_HP, survivor.hp + data["recovered"]), exhausted=())
    turn = state.turn
    return replace(state, turn=replace(turn, actions=turn.actions - 1)) if turn else state


FOLDS = {"SurvivorCamped": _camped}
