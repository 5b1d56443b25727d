"""Pending decisions: the game waits until one seat picks one listed choice.

A decision is requested with the complete commands a seat may answer with
(``legal_actions`` hands them out as they are), and answered by sending one of
them back. Both the request and the answer are events, so the log shows who
was asked what and what they chose.
"""

from __future__ import annotations

from typing import Any

from domain.fallout.state import Decision, GameState, replace


def normalized(command: dict[str, Any]) -> dict[str, Any]:
    """The command with its dice sorted, so ``[2, 0]`` and ``[0, 2]`` are one choice."""
    out = dict(command)
    if isinstance(out.get("dice"), list):
        out["dice"] = sorted(out["dice"], key=lambda d: (not isinstance(d, int), d))
    return out


def matching_choice(decision: Decision, command: dict[str, Any]) -> dict[str, Any] | None:
    wanted = normalized(command)
    for choice in decision.choices:
        if choice == wanted:
            return choice
    return None


def _requested(state: GameState, data: dict) -> GameState:
    return replace(
        state,
        pending=Decision(
            seat=data["seat"],
            kind=data["kind"],
            choices=tuple(data["choices"]),
            context=dict(data.get("context") or {}),
        ),
    )


def _made(state: GameState, data: dict) -> GameState:
    return replace(state, pending=None)


FOLDS = {"DecisionRequested": _requested, "DecisionMade": _made}
