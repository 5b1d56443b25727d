"""Fallout: The Board Game (``domain.fallout.game.FALLOUT``).

Importing the package imports every rule module, so whichever module of it
is imported first, the rule table (``domain.fallout.rulebook.RULES``) is
complete: every command, decision answer and event fold.
"""

from __future__ import annotations

from domain.fallout import (  # noqa: F401 - each registers its commands, answers and folds in RULES
    activation,
    agendas,
    camp,
    decisions,
    encounter,
    enemies,
    explore,
    fight,
    items,
    killed,
    library,
    loyalty,
    modifiers,
    movement,
    perks,
    quest,
    results,
    rounds,
    setup,
    shop,
    tallies,
    tasks,
    trade,
    traits,
    turns,
    vats,
    xp,
)
from domain.fallout.rulebook import RULES

RULES.check()
results.check()
