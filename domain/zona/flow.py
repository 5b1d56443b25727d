"""Carrying the game on after a command until a seat must act or decide.

The top frame of the resolution stack runs its next step; with no frame, the
phase moves on: the next stalker's turn, then the event phase, then the news
phase, then the next round (Zona §"PRZEBIEG ROZGRYWKI").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.game import Event
from domain.rng import Rng
from domain.zona import cards, checks, choices, damage, effects, encounter, facilities, items, market, news, setup
from domain.zona.resolution import ZonaResolution
from domain.zona.state import initial_state, turn_order

Step = Callable[[ZonaResolution, dict[str, Any]], None]

STEPS: dict[str, Step] = {
    "draft": setup.step_draft,
    "rebirth": setup.step_rebirth,
    "test": checks.step_test,
    "damage": damage.step_damage,
    "injury": damage.step_injury,
    "heal_injury": damage.step_heal_injury,
    "encounter": encounter.step_encounter,
    "arrival": encounter.step_arrival,
    "effects": effects.step_effects,
    "choice": choices.step_choice,
    "keep": items.step_keep,
    "gain": items.step_gain,
    "sixth": items.step_sixth,
    "trade": market.step_trade,
    "repair": market.step_repair,
    "sale": market.step_sale,
    "find": facilities.step_find,
    "event_phase": cards.step_phase,
    "card": cards.step_card,
    "news": news.step_news,
    "voice_area": news.step_voice_area,
    "emission": news.step_emission,
}

#: A guard against a step that makes no progress (a bug, never a rule).
MAX_STEPS = 100_000


def start(options: dict[str, Any], rng: Rng) -> list[Event]:
    """A new game: the table set (``setup.initial``), then the stalkers' draft, run to its first decision."""
    res = ZonaResolution(initial_state(), rng)
    res.emit("GameSetUp", state=setup.initial(options, rng))
    res.push("draft", order=turn_order(res.state), index=0)
    run(res)
    return res.events


def run(res: ZonaResolution) -> None:
    for _ in range(MAX_STEPS):
        state = res.state
        if state["over"] or state["pending"] is not None:
            return
        if state["frames"]:
            frame = state["frames"][-1]
            STEPS[frame["kind"]](res, frame)
            continue
        phase = state["phase"]
        if phase == "action":
            if not _action_phase(res):
                return
        elif phase == "event":
            res.emit("PhaseStarted", phase="news", round=state["round"])
            news.start_phase(res)
        elif phase == "news":
            res.emit("PhaseStarted", phase="action", round=state["round"] + 1)
        else:
            return
    raise RuntimeError("the resolution made no progress")


def _action_phase(res: ZonaResolution) -> bool:
    """Move the action phase on; False when it waits for the seat whose turn it is."""
    state = res.state
    turn = state["turn"]
    if turn is not None:
        if not turn["done"] and not state["stalkers"][turn["seat"]]["dead"]:
            return False
        res.emit("TurnEnded", seat=turn["seat"])
        if turn["bought"]:
            market.slide_and_fill(res)
        return True
    waiting = [s for s in turn_order(state) if s not in state["turns_taken"] and not state["stalkers"][s]["dead"]]
    if waiting:
        res.emit("TurnStarted", seat=waiting[0])
    else:
        res.emit("PhaseStarted", phase="event", round=state["round"])
        cards.start_phase(res)
    return True
