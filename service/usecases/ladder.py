"""The ladder: every bot level against every other at each player count, and a rating per level.

``holotape selfplay --ladder`` plays, for each player count and each pair of
levels, ``games`` games in which the two levels take the seats in turn (as
``selfplay.run`` deals them), then prints each level's Bradley–Terry rating
with its interval (``bots.ratings``), per player count and over all of them,
and every pair's share of their decisive comparisons with a Wilson interval.
So a change to a bot shows as a number anyone can reprint with the same seed.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, TextIO

from bots.ratings import comparisons, ladder, wilson
from bots.selfplay import GameResult
from service.usecases.selfplay import run


def play(
    game: str, levels: Sequence[str], games: int, counts: Sequence[int], options: dict[str, Any],
    jobs: int = 1, seed: str = "ladder", progress: TextIO | None = None, record: TextIO | None = None,
) -> list[GameResult]:
    """Every pair of ``levels`` plays ``games`` games at each player count of ``counts`` (solo is skipped)."""
    results: list[GameResult] = []
    for players in counts:
        if players < 2:
            continue
        for a, b in itertools.combinations(levels, 2):
            results += run(game, [a, b], games, players, options, jobs=jobs,
                           seed=f"{seed}-{players}p-{a}-{b}", progress=progress, record=record)
    return results


def report(levels: Sequence[str], results: Sequence[GameResult]) -> str:
    """The ratings per player count and overall, then each pair's decisive share."""
    counts = sorted({len(r.levels) for r in results})
    lines = ["ratings (Bradley-Terry on the Elo scale, the first level named at 0; 95% bootstrap interval)"]
    lines.append("players  level        rating   interval")
    for players, chunk in [(str(n), [r for r in results if len(r.levels) == n]) for n in counts] + [("all", list(results))]:
        for rating in ladder(levels, chunk):
            lines.append(f"{players:<8} {rating.level:<10} {rating.elo:>+8.0f}   [{rating.low:+.0f}, {rating.high:+.0f}]")
    lines.append("")
    lines.append("pairs (decisive comparisons: one seat won by the rules and the other did not)")
    lines.append("players  pair                   games  decisive  first's share  95% interval")
    for count in counts:
        chunk = [r for r in results if len(r.levels) == count]
        for a, b in itertools.combinations(levels, 2):
            met = [r for r in chunk if set(r.levels) == {a, b}]
            beaten = comparisons(met)
            decisive = beaten[(a, b)] + beaten[(b, a)]
            low, high = wilson(beaten[(a, b)], decisive)
            share = f"{beaten[(a, b)] / decisive:>12.1%}" if decisive else f"{'-':>12}"
            lines.append(f"{count:<8} {a + ' v ' + b:<22} {len(met):>5} {decisive:>9}  {share}  "
                         f"[{low:.1%}, {high:.1%}]")
    return "\n".join(lines)
