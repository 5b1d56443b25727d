"""Pending decisions in the state (``domain.engine.decisions`` says how they work)."""

from __future__ import annotations

from typing import Any

from domain.engine.decisions import requested
from domain.engine.shapes import integer, record, records, string
from domain.fallout.rulebook import RULES
from domain.fallout.state import GameState, replace


@RULES.fold("DecisionRequested", {"choices": records(hidden=True), "context": record(), "kind": string(), "seat": integer()})
def _requested(state: GameState, data: dict[str, Any]) -> GameState:
    return replace(state, pending=requested(data))


@RULES.fold("DecisionMade", {"command": record(), "kind": string(), "seat": integer()})
def _made(state: GameState, data: dict[str, Any]) -> GameState:
    return replace(state, pending=None)
