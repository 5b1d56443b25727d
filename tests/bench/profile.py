"""`make profile`: where a self-play run spends its time, game by game and bot level by level.

For each hosted game (``BENCH_GAMES`` to choose) and each of the random and
greedy levels, plays two-seat self-play games under cProfile for
``PROFILE_SECONDS`` (default 4) and writes what it found into
``PROFILE_DIR`` (default ``.profile/``, gitignored): ``<game>-<level>.txt``,
the top functions by own time and by cumulative time, and
``<game>-<level>.pstats`` for ``python -m pstats`` or snakeviz. It prints
the decisions per second it saw (after one short game to read the
content packs, which a process pays once) with the profiler on (a profiled run is two
to three times slower than a plain one: compare the shares, not the rates),
and whether the compiled build (``make compiled``) was in use.
"""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import time
from pathlib import Path

from domain import registry
from service.usecases.selfplay import play_game
from tests.bench.report import build

GAMES = [g for g in os.environ.get("BENCH_GAMES", ",".join(registry.builtin_names())).split(",") if g]
SECONDS = float(os.environ.get("PROFILE_SECONDS", "4"))
OUTPUT = Path(os.environ.get("PROFILE_DIR", ".profile"))
#: How many functions each listing shows.
TOP = 40


def profile(game: str, level: str) -> str:
    """Self-play of ``game`` at ``level`` for ``SECONDS`` under the profiler; the report's path."""
    # One game first, unprofiled: reading the content packs is paid once per process, not per decision.
    play_game(game, [level] * 2, "profile-warm-up", max_decisions=50)
    profiler = cProfile.Profile()
    decisions = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < SECONDS:
        profiler.enable()
        result = play_game(game, [level] * 2, f"profile-{games}", max_decisions=2000 if level == "random" else 150)
        profiler.disable()
        decisions += result.decisions
        games += 1
    elapsed = time.perf_counter() - started
    OUTPUT.mkdir(exist_ok=True)
    stem = OUTPUT / f"{game}-{level}"
    profiler.dump_stats(f"{stem}.pstats")
    text = io.StringIO()
    text.write(
        f"{game}, {level} bots, 2 seats: {games} games, {decisions} decisions in {elapsed:.1f} s "
        f"({decisions / elapsed:,.0f} decisions/s under the profiler); "
        f"{build()} build; load average {os.getloadavg()[0]:.2f}\n\n"
    )
    stats = pstats.Stats(profiler, stream=text)
    stats.sort_stats("tottime").print_stats(TOP)
    stats.sort_stats("cumulative").print_stats(TOP)
    Path(f"{stem}.txt").write_text(text.getvalue())
    return f"{stem}.txt: {decisions / elapsed:,.0f} decisions/s under the profiler"


def main() -> None:
    for game in GAMES:
        for level in ("random", "greedy"):
            print(profile(game, level), flush=True)


if __name__ == "__main__":
    main()
