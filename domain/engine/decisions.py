"""Pending decisions: the game waits until one seat sends back one listed choice.

A decision is requested with the complete commands a seat may answer with
(``legal_actions`` hands them out as they are), and answered by sending one of
them back. Both the request and the answer are events, so the log shows who
was asked what and what they chose.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.engine.records import compiled


@dataclass(frozen=True)
class Decision:
    """The game waits for ``seat`` to send one of ``choices`` (each a complete command)."""

    seat: int
    kind: str
    choices: tuple[dict[str, Any], ...]
    context: dict[str, Any] = field(default_factory=dict)


def normalized(command: Mapping[str, Any]) -> dict[str, Any]:
    """The command with its dice sorted, so ``[2, 0]`` and ``[0, 2]`` are one choice."""
    out = dict(command)
    if isinstance(out.get("dice"), list):
        out["dice"] = sorted(out["dice"], key=lambda d: (not isinstance(d, int), d))
    return out


def matching_choice(choices: Iterable[dict[str, Any]], command: Mapping[str, Any]) -> dict[str, Any] | None:
    """The listed choice ``command`` names, or None."""
    wanted = normalized(command)
    for choice in choices:
        if choice == wanted:
            return choice
    return None


#: Whether ``Decision`` is compiled (the compiled build, mypyc_build.py): a native class, without an instance dict.
_NATIVE = compiled(Decision)


def requested(data: Mapping[str, Any]) -> Decision:
    """The decision a ``DecisionRequested`` event's data describes."""
    seat, kind, choices, context = data["seat"], data["kind"], tuple(data["choices"]), dict(data.get("context") or {})
    # Either way without the frozen data class's ``__init__`` (a guarded setattr per field, twice the time, and
    # compiled too): Fallout folds one about every other decision, Zona's dispatch reads one as often.
    if _NATIVE:  # as ``records.replace`` makes a native record
        decision = Decision.__new__(Decision)
        object.__setattr__(decision, "seat", seat)
        object.__setattr__(decision, "kind", kind)
        object.__setattr__(decision, "choices", choices)
        object.__setattr__(decision, "context", context)
        return decision
    decision = object.__new__(Decision)
    fields = decision.__dict__
    fields["seat"] = seat
    fields["kind"] = kind
    fields["choices"] = choices
    fields["context"] = context
    return decision
