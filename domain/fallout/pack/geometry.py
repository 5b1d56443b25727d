"""Hex geometry shared by the map schemas and the cross-checks."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from domain.fallout.model import (
    DIRECTIONS,
)


def hex_neighbours(hex_: tuple[int, int]) -> Iterator[tuple[int, int]]:
    q, r = hex_
    for dq, dr in DIRECTIONS:
        yield (q + dq, r + dr)


def reach(start: Any, neighbours: Any) -> set[Any]:
    seen = {start}
    queue = deque([start])
    while queue:
        for other in neighbours(queue.popleft()):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return seen
