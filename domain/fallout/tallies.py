"""What each survivor has done so far, counted for cards (docs/fallout-effects.md, "Measures").

Cards may ask how much XP a survivor has gained, how many enemies they have
killed, how many quest objectives they have completed and how many tiles
they have explored. No rule of the Rules Reference keeps these counts; they
are read off the events as they fold, so a stored game counts them too.
"""

from __future__ import annotations

from domain.fallout.rulebook import RULES
from domain.fallout.state import GameState


def _add(state: GameState, seat: int | None, field: str, amount: int = 1) -> GameState:
    if seat is None or not 0 <= seat < len(state.survivors):
        return state
    s = state.survivor(seat)
    return state.with_survivor_changed(seat, {field: getattr(s, field) + amount})


@RULES.watch("XPGained")
def _xp(state: GameState, data: dict) -> GameState:
    return _add(state, data.get("seat"), "xp_gained", data.get("amount", 0))


@RULES.watch("EnemyKilled")
def _kill(state: GameState, data: dict) -> GameState:
    return _add(state, data.get("seat"), "kills")


@RULES.watch("ObjectiveCompleted")
def _objective(state: GameState, data: dict) -> GameState:
    return _add(state, data.get("seat"), "quests_done")


@RULES.watch("TileExplored")
def _explored(state: GameState, data: dict) -> GameState:
    return _add(state, data.get("seat"), "tiles_explored")
