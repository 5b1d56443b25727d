"""``python -m tests.bench.greedy_logs [decisions]``: the event logs of seeded greedy games of both games, hashed.

A change that must leave greedy's choices as they were (speed work on the
engine or the bots) is checked by running this before and after and
comparing the lines: each game's line is the SHA-256 of every event it
recorded, setup first, each event's canonical JSON in order (as
``tests.compiled.plays`` records them), so one event that differs by a byte
changes it. The games are longer than the digests' greedy openings
(``tests.bench.digest``, ``tests.bench.zona_digest``, which also hash
greedy's scores): two, three and mixed seats, ``decisions`` each (default 300).
"""

from __future__ import annotations

import hashlib
import sys

from domain import registry
from tests.compiled.plays import play

#: (bot levels, seed) of each game played, for every hosted game.
GAMES = ((["greedy"] * 2, "gl-a"), (["greedy"] * 2, "gl-b"), (["greedy"] * 3, "gl-c"), (["greedy", "random"], "gl-d"))


def main() -> None:
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    total = hashlib.sha256()
    for game in registry.builtin_names():
        for levels, seed in GAMES:
            events = play(game, levels, seed, limit)
            found = hashlib.sha256("".join(events).encode()).hexdigest()
            total.update(found.encode())
            print(f"{found[:16]} {len(events):>6} events {game}/{'-'.join(levels)}/{seed}", flush=True)
    print(f"{total.hexdigest()[:16]} all")


if __name__ == "__main__":
    main()
