"""How a game is born: its seed, and its setup from its ``GameCreated``: the one place that says so.

Creating a game, starting it, auditing it and self-play all build the rules
state from a ``GameCreated`` and a seed. If any two did it differently, every
audit would read "unfair", so they all call ``setup_events``; the server's
secret is committed to by ``commitment`` alone, and the seed the rules draw
from is derived by ``effective_seed`` alone (docs/audit.md, "The seed").

``GameCreated.options`` holds the game's options as the game resolved them
(``Game.resolve_options``) together with the table's own settings (turn
clock, bots' budget); the game's setup sees only its own, plus ``players``.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping
from typing import Any

from domain import registry
from domain.game import Event, Game, strict_schema
from domain.rng import Rng
from events.envelope import canonical_json

#: How a game's seed comes from its committed secret (``GameCreated.seed_mix``).
#: Absent in games created before seats contributed: the secret is the seed,
#: and the setup was dealt at creation.
SECRET_ONLY = "secret"  # the secret is the seed: a creator's chosen seed, a fork
WITH_CONTRIBUTIONS = "contributions"  # the secret mixed with each seat's contribution

#: What a seat may contribute: printable ASCII without spaces, long enough to hold some chance.
CONTRIBUTION = re.compile(r"[!-~]{16,128}")


def commitment(secret: str) -> str:
    """The sha256 published at creation, so anyone can check the secret revealed at the end."""
    return hashlib.sha256(secret.encode()).hexdigest()


def effective_seed(secret: str, mix: str | None, contributions: Mapping[int, str]) -> str:
    """The seed every random outcome of the game is drawn from.

    With contributions: the hex sha256 of the canonical JSON of
    ``{"secret": secret, "contributions": [[seat, contribution], ...]}``
    (by seat, the contributions given before the start). Otherwise the
    secret itself.
    """
    if mix != WITH_CONTRIBUTIONS:
        return secret
    return _mixed(secret, tuple((seat, contributions[seat]) for seat in sorted(contributions)))


@functools.lru_cache(maxsize=1024)  # every action of a game draws from it: worked out once per game and process
def _mixed(secret: str, contributions: tuple[tuple[int, str], ...]) -> str:
    mixed = {"secret": secret, "contributions": [list(pair) for pair in contributions]}
    return hashlib.sha256(canonical_json(mixed).encode()).hexdigest()


def dealt_at_start(created: Mapping[str, Any]) -> bool:
    """Whether the setup is dealt when the game starts (every game that records its ``seed_mix``).

    Older games were dealt in their creation's batch, before any seat joined.
    """
    return "seed_mix" in created


def game_options(module: Game, options: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a ``GameCreated``'s options that belongs to the game itself."""
    own = strict_schema(module.options_schema).fields  # the one instance: making a schema costs more than this
    return {k: v for k, v in options.items() if k in own}


def setup_events(created: Mapping[str, Any], seed: str) -> list[Event]:
    """The events the game's setup decides for the ``GameCreated`` data ``created``."""
    module = registry.game_module(created["game"])
    options = {**game_options(module, created["options"]), "players": len(created["seats"])}
    return module.setup(options, Rng.for_position(seed, 0))
