"""How a game is born from its ``GameCreated``: the one place that says so.

Creating a game, auditing it and self-play all build the rules state from a
``GameCreated`` and a seed. If any two did it differently, every audit would
read "unfair", so they all call ``setup_events``; and the seed's published
commitment is computed by ``commitment`` alone.

``GameCreated.options`` holds the game's options as the game resolved them
(``Game.resolve_options``) together with the table's own settings (turn
clock, bots' budget); the game's setup sees only its own, plus ``players``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from domain import registry
from domain.game import Event, Game
from domain.rng import Rng


def commitment(seed: str) -> str:
    """The sha256 published at creation, so anyone can check the seed revealed at the end."""
    return hashlib.sha256(seed.encode()).hexdigest()


def game_options(module: Game, options: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a ``GameCreated``'s options that belongs to the game itself."""
    own = module.options_schema().fields
    return {k: v for k, v in options.items() if k in own}


def setup_events(created: Mapping[str, Any], seed: str) -> list[Event]:
    """The events the game's setup decides for the ``GameCreated`` data ``created``."""
    module = registry.game_module(created["game"])
    options = {**game_options(module, created["options"]), "players": len(created["seats"])}
    return module.setup(options, Rng.for_position(seed, 0))
