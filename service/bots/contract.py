"""The optional parts of the game contract that bots and deadlines use.

``domain.game`` documents them: ``determinize(view, seat, rng)`` and
``timeout_command(state, seat)``. A game module may offer them itself; for
Fallout they live in ``domain.fallout.determinize`` until ``FalloutGame``
takes them over, and are found here by the game's name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from domain.game import GameModule

#: Where a game keeps optional functions it does not offer as attributes yet.
_EXTENSIONS = {"fallout": "domain.fallout.determinize"}


def optional(module: GameModule, name: str) -> Callable[..., Any] | None:
    found = getattr(module, name, None)
    if found is not None:
        return found
    where = _EXTENSIONS.get(getattr(module, "name", ""))
    if where is None:
        return None
    return getattr(importlib.import_module(where), name, None)


def timeout_command(module: GameModule, state: Any, seat: int) -> dict[str, Any] | None:
    """What a lapsed deadline sends for ``seat`` under ``pass``.

    A game without its own ``timeout_command`` gets a generic one: its first
    legal action of type ``end_turn`` (or a usual default), else the first
    legal action listed.
    """
    own = optional(module, "timeout_command")
    if own is not None:
        return own(state, seat)
    actions = module.legal_actions(state, seat)
    for kind in ("end_turn", "pass", "keep_dice", "done"):
        for action in actions:
            if action.get("type") == kind:
                return action
    return actions[0] if actions else None
