"""An API document's examples of a game, played from a real game the first time they are read.

A game's examples (``Game.examples``: the options a creator sends, the view and legal actions at a start, the
words) are played out rather than written by hand, so they never drift from the rules; playing them at import
would set a game up in every process that imports the game, so they wait for the first reader.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any


class Examples(Mapping[str, Any]):
    """``{"options", "view", "actions", "prompt", "events"}``, played the first time one is read."""

    def __init__(self, play: Callable[[], dict[str, Any]]) -> None:
        self._play = play
        self._played: dict[str, Any] | None = None

    def _examples(self) -> dict[str, Any]:
        if self._played is None:
            self._played = self._play()
        return self._played

    def __getitem__(self, key: str) -> Any:
        return self._examples()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._examples())

    def __len__(self) -> int:
        return len(self._examples())
