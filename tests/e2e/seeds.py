"""The seeds the whole-game tests over HTTP play, pinned per rules version.

Such a test wants a game that ends a given way (a solo victory, a faction's
takeover), so it searches seeds by playing whole games in-process and then
plays the first that ends so over HTTP, where the ending is asserted again.
The search costs several whole games of CPU and finds the same seed every
time under the same rules, so the seed it found is kept here under the rules
it was found under (``Game.rules``). Under other rules the search runs again,
and warns with the seed to pin.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

from domain import registry

#: (rules, what the test wants) -> the first seed that ends so.
PINNED: dict[tuple[str, str], str] = {
    ("fallout/2", "1 greedy seat, a victory"): "end-1-1",
    ("fallout/2", "3 random seats, a faction's takeover within 800 steps"): "end-3-1",
    ("zona/2", "1 greedy stalker, a win"): "zona-end-1-1",
}


def seed_for(game: str, wanted: str, search: Callable[[], str]) -> str:
    """The pinned seed of ``game``'s rules that ends as ``wanted``, or else the one ``search`` finds."""
    rules = registry.game_module(game).rules
    pinned = PINNED.get((rules, wanted))
    if pinned is not None:
        return pinned
    found = search()
    warnings.warn(f"tests/e2e/seeds.py: pin {found!r} for ({rules!r}, {wanted!r})", stacklevel=2)
    return found
