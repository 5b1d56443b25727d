"""Fallout's pack reader: the engine's (``domain.engine.packs``), remembering broken library numbers too."""

from __future__ import annotations

from typing import Any

from domain.engine.packs import PackReader


class Reader(PackReader):
    def __init__(self) -> None:
        super().__init__()
        self.broken_numbers: set[int] = set()  # library numbers of cards that failed their schema

    def broke(self, data: Any) -> None:
        super().broke(data)
        if isinstance(data, dict) and isinstance(data.get("number"), int):
            self.broken_numbers.add(data["number"])
