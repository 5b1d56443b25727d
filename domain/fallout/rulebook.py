"""Fallout's one table of rules: every command, decision answer, event fold and
event schema, registered by the rule module that owns it (``domain.engine.rulebook``).

``domain.fallout.evolve`` imports every rule module, so once it is imported
the table is complete; ``FalloutGame`` reads its commands and event schemas
from here and ``evolve`` its folds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.engine.rulebook import Rulebook
from domain.fallout.state import GameState

if TYPE_CHECKING:
    from domain.fallout.resolution import Resolution

RULES: Rulebook[GameState, Resolution] = Rulebook("fallout")
