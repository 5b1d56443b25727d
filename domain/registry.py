"""Which game modules this server hosts, by name.

The games this project ships are imported here, plainly: the registry is the
one place in ``domain/`` that knows them all (the service, the workers and the
bots ask it, and never name a game). Importing a game reads none of its
content packs; a pack is read on first use.

Hosting more games is the deployment's business, not the domain's: the
service's wiring registers the modules its configuration names
(``HOLOTAPE_GAMES``, ``service.wiring.host_games``), and tests register games
of their own with ``register``.
"""

from __future__ import annotations

from domain.fallout.game import FALLOUT
from domain.game import Game
from domain.zona.game import ZONA

#: The games this server ships, in the order it lists them (the first is the default).
_BUILTIN: dict[str, Game] = {FALLOUT.name: FALLOUT, ZONA.name: ZONA}
_extra: dict[str, Game] = {}


class UnknownGame(KeyError):
    pass


def register(module: Game) -> None:
    """Host another game module (a deployment's own, or a test's)."""
    _extra[module.name] = module


def builtin_names() -> list[str]:
    """The games this server ships, in the order it lists them (the first is the default)."""
    return list(_BUILTIN)


def names() -> list[str]:
    return sorted({*_BUILTIN, *_extra})


def game_module(name: str) -> Game:
    found = _extra.get(name) or _BUILTIN.get(name)
    if found is None:
        raise UnknownGame(name)
    return found
