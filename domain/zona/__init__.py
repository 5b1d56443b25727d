"""Zona: The Secret of Chernobyl on the game contract (``domain.zona.game.ZONA``).

The rule modules register their commands, answers, folds and effects in one
table (``resolution.RULES``, ``effects.HANDLERS``) where they define them, and
none imports a module above its own layer (docs/zona-engine.md, "Layers";
``pyproject.toml``'s import-linter contract). So that importing any one of
them yields the complete table, the package loads them all: Python runs this
file before any module in it.
"""

from domain.zona import (
           actions,
           cards,
           checks,
           choices,
           damage,
           effects,
           encounter,
           facilities,
           flow,
           folds,
           harm,
           items,
           market,
           news,
           setup,
)

__all__ = ["actions", "cards", "checks", "choices", "damage", "effects", "encounter", "facilities", "flow", "folds",
           "harm", "items", "market", "news", "setup"]
