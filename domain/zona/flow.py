"""Carrying the game on after a command until a seat must act or decide.

The top frame of the resolution stack runs its next step (the engine's
``Frames``: each kind's step registered by its rule module); with no frame, the
phase moves on: the next stalker's turn, then the event phase, then the news
phase, then the next round (Zona §"PRZEBIEG ROZGRYWKI").
"""

from __future__ import annotations

from typing import Any

from domain.game import Event
from domain.rng import Rng
from domain.zona import cards, market, news, setup
from domain.zona.resolution import FRAMES, ZonaResolution
from domain.zona.state import initial_state, turn_order

#: Every frame kind's step, as its rule module registered it (``resolution.FRAMES``).
STEPS = FRAMES.steps


def start(options: dict[str, Any], rng: Rng) -> list[Event]:
    """A new game: the table set (``setup.initial``), then the stalkers' draft, run to its first decision."""
    res = ZonaResolution(initial_state(), rng)
    res.emit("GameSetUp", state=setup.initial(options, rng))
    res.push("draft", order=turn_order(res.state), index=0)
    run(res)
    return res.events


def run(res: ZonaResolution) -> None:
    FRAMES.run(res, _waits, _frames, _between)


def _waits(res: ZonaResolution) -> bool:
    return bool(res.state.over or res.state.pending is not None)


def _frames(res: ZonaResolution) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = res.state.frames
    return frames


def _between(res: ZonaResolution) -> bool:
    """No frame left: the phase moves on; False when it waits for the seat whose turn it is."""
    state = res.state
    phase = state.phase
    if phase == "action":
        return _action_phase(res)
    if phase == "event":
        res.emit("PhaseStarted", phase="news", round=state.round)
        news.start_phase(res)
        return True
    if phase == "news":
        res.emit("PhaseStarted", phase="action", round=state.round + 1)
        return True
    return False


def _action_phase(res: ZonaResolution) -> bool:
    """Move the action phase on; False when it waits for the seat whose turn it is."""
    state = res.state
    turn = state.turn
    if turn is not None:
        if not turn["done"] and not state.stalkers[turn["seat"]]["dead"]:
            return False
        res.emit("TurnEnded", seat=turn["seat"])
        if turn["bought"]:
            market.slide_and_fill(res)
        return True
    waiting = [s for s in turn_order(state) if s not in state.turns_taken and not state.stalkers[s]["dead"]]
    if waiting:
        res.emit("TurnStarted", seat=waiting[0])
    else:
        res.emit("PhaseStarted", phase="event", round=state.round)
        cards.start_phase(res)
    return True
