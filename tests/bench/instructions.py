"""`make profile-instructions`: the CPU instructions one unit of the service's work costs, counted.

This VM's pace moves by a third between hours and its timings by more between
runs, so a change worth a few per cent cannot be seen in seconds. Callgrind
(valgrind) counts the instructions the process executes, which do not move
with the machine's load or pace: the same code gives the same count within a
fraction of a per cent. Each unit is repeated between two toggles so that
neither the start-up nor the warm-up is counted: once ``FEW`` times and once
``MANY``, and the difference divided by ``MANY - FEW``, so what the toggles
cost cancels out. Redis runs apart and is not counted. The units:

- ``action``: ``http_profile``'s request (the bench's own-game ``redraw``
  with ``If-Match``, the app called as gunicorn calls it, without gunicorn);
- ``append``: the store's append of one event with the chain tip in hand,
  as the bench's append figure makes it (``tests.bench.store``);
- ``xadd``: that figure's baseline, a bare ``XADD`` of the event's JSON
  through redis-py;
- ``bare``: the HTTP figures' baseline, the bench's bare Flask endpoint
  doing one ``XADD`` (``tests.bench.http``), called as ``action`` is. The
  HTTP p99 at many clients follows the ratio of ``action`` to it;
- ``greedy-fallout``, ``greedy-zona``: a greedy bot's decision at each of
  ``POSITIONS`` fixed positions of seeded random two-seat games (options at
  their defaults), in turn: the same positions whatever the bots do, so a
  change to the bots or the engine is counted on the same work. Each
  decision has its own fixed source, the n-th of the run (not of its
  position), so every lap deals new worlds, as self-play does: a lap that
  met its worlds again would find their boards kept from the lap before.
  Counted over one lap and over three, so the difference is two whole laps.

``python -m tests.bench.instructions [unit ...]`` (every unit by default);
needs valgrind (Debian's package), about a minute a unit. Compare a count
before and after a change; it is no time, and a change that waits rather
than computes does not show in it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import redis

from bots.policies import decide, make_bot
from domain import registry
from domain.game import SYSTEM
from domain.rng import Rng
from events.envelope import GENESIS
from service import wiring
from service.adapters.embedded_redis import EmbeddedRedis
from tests.bench.http import bare_app
from tests.bench.http_profile import acting, call
from tests.bench.store import MOVED
from tests.bots.play import random_play

FEW, MANY = 100, 300
#: Warm-up repetitions before counting: scripts loaded, caches and pools filled.
WARM = 200


@contextmanager
def appending() -> Iterator[Callable[[], None]]:
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, durable=False) as server:
        store = wiring.event_store(redis.Redis.from_url(server.url))
        game_id, version, tip = store.new_game_id(), 0, GENESIS

        def append() -> None:
            nonlocal version, tip
            tip = store.append(game_id, version, [MOVED], prev_hash=tip).last_hash
            version += 1

        yield append


@contextmanager
def xadding() -> Iterator[Callable[[], None]]:
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, durable=False) as server:
        client = redis.Redis.from_url(server.url)
        yield lambda: client.xadd("bare:{x}", {"e": json.dumps(MOVED.data)})


@contextmanager
def bare() -> Iterator[Callable[[], None]]:
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, durable=False) as server:
        bare_app.extensions["redis"] = redis.Redis.from_url(server.url)

        def post() -> None:
            status, _, body = call(bare_app, "POST", "/xadd/k", b"", {})
            assert status.startswith("200"), body

        yield post


#: The positions a greedy unit decides at, and every how many commands of its random games one is taken.
POSITIONS, EVERY = 20, 37


def _greedy(game: str) -> Callable[[], AbstractContextManager[Callable[[], None]]]:
    @contextmanager
    def deciding() -> Iterator[Callable[[], None]]:
        module = registry.game_module(game)
        options = module.resolve_options({})
        positions: list[tuple[Any, int]] = []
        for g in range(POSITIONS):
            for n, seat, state in random_play(module, options, 2, f"instructions-{g}", 400):
                if seat != SYSTEM and n % EVERY == EVERY - 1 and len(module.legal_actions(state, seat)) > 1:
                    positions.append((state, seat))
            if len(positions) >= POSITIONS:
                break
        positions = positions[:POSITIONS]
        bot, turn = make_bot("greedy"), 0

        def choose() -> None:
            nonlocal turn
            state, seat = positions[turn % len(positions)]
            decide(bot, module, state, module.legal_actions(state, seat), seat, Rng("instructions", str(turn)))
            turn += 1

        yield choose

    return deciding


UNITS = {
    "action": acting, "append": appending, "xadd": xadding, "bare": bare,
    "greedy-fallout": _greedy("fallout"), "greedy-zona": _greedy("zona"),
}
#: (once, more, warm-up) repetitions where a unit's differ from ``FEW``, ``MANY`` and ``WARM``: one lap of the
#: positions and three, after a few decisions.
TIMES = {"greedy-fallout": (POSITIONS, 3 * POSITIONS, 3), "greedy-zona": (POSITIONS, 3 * POSITIONS, 3)}


def _toggle(on: bool) -> None:
    """Start or stop callgrind's counting in this process (it runs under valgrind, told to count nothing yet)."""
    subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(os.getpid())], check=True, capture_output=True)


def count(unit: str, times: int) -> None:
    """Under callgrind: ``unit`` done ``times`` times, counted, after ``WARM`` uncounted."""
    with UNITS[unit]() as do:
        for _ in range(TIMES.get(unit, (FEW, MANY, WARM))[2]):
            do()
        _toggle(True)
        for _ in range(times):
            do()
        _toggle(False)


def instructions(unit: str, times: int) -> int:
    """The instructions ``count(unit, times)`` executes between its toggles, as callgrind totals them."""
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [
                "valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}/callgrind.%p",
                sys.executable, "-m", "tests.bench.instructions", "--count", unit, str(times),
            ],
            check=True, capture_output=True, env={**os.environ, "PYTHONHASHSEED": "0"},
        )  # fmt: skip
        (written,) = Path(out).glob("callgrind.*")
        totals = [line for line in written.read_text().splitlines() if line.startswith("totals:")]
        return int(totals[0].split()[1])


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--count":
        count(sys.argv[2], int(sys.argv[3]))
        return
    units = sys.argv[1:] or list(UNITS)
    unknown = [u for u in units if u not in UNITS]
    if unknown:
        sys.exit(f"no unit {', '.join(unknown)}: choose from {', '.join(UNITS)}")
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.exit("this needs valgrind (apt-get install valgrind)")
    for unit in units:
        once, more, _ = TIMES.get(unit, (FEW, MANY, WARM))
        few, many = instructions(unit, once), instructions(unit, more)
        print(f"{unit}: {(many - few) / (more - once):,.0f} instructions ({more} {many:,}, {once} {few:,})")


if __name__ == "__main__":
    main()
