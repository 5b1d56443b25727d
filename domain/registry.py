"""Which game modules this server hosts, by name.

Modules load lazily so that importing the registry never pulls in a game's
content pack until someone plays that game.
"""

from __future__ import annotations

import importlib
import os

from domain.game import Game

_BUILTIN = {
    "fallout": ("domain.fallout.game", "FALLOUT"),
    "zona": ("domain.zona.game", "ZONA"),
}
_extra: dict[str, Game] = {}


class UnknownGame(KeyError):
    pass


def _from_environment() -> None:
    # HOLOTAPE_GAMES="package.module:ATTR,..." hosts more games, in the API
    # and in every worker alike (the workers are separate processes).
    for spec in filter(None, os.environ.get("HOLOTAPE_GAMES", "").split(",")):
        module_path, _, attribute = spec.strip().partition(":")
        module = getattr(importlib.import_module(module_path), attribute)
        _extra.setdefault(module.name, module)


def register(module: Game) -> None:
    """Host another game module (tests use this for a tiny game of their own)."""
    _extra[module.name] = module


def builtin_names() -> list[str]:
    """The games this server ships, in the order it lists them (the first is the default)."""
    return list(_BUILTIN)


def names() -> list[str]:
    _from_environment()
    return sorted({*_BUILTIN, *_extra})


def game_module(name: str) -> Game:
    if name not in _extra and name not in _BUILTIN:
        _from_environment()
    if name in _extra:
        return _extra[name]
    if name not in _BUILTIN:
        raise UnknownGame(name)
    module_path, attribute = _BUILTIN[name]
    return getattr(importlib.import_module(module_path), attribute)
