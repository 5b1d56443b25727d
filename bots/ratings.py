"""How strong each bot level is, from the games they played: pairwise wins and Bradley–Terry ratings.

A game says who won by the rules (``GameResult.winners``). Between two seats
of different levels it is a *decisive* comparison when one of them won and
the other did not; a game both won (a shared victory) or both lost tells
nothing about which level is stronger and is left out. Seats of the same
level are never compared.

Ratings are Bradley–Terry strengths fitted by Hunter's MM algorithm and shown
on the Elo scale (400 × log10 of the strength ratio), the first level named
anchored at 0. Every pair that met gets one virtual drawn comparison (half a
win each way), so a level that never lost still has a finite rating; with
hundreds of comparisons it moves a rating by a few points. Intervals come
from resampling the games (a seeded bootstrap, so a run reprints the same).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bots.selfplay import GameResult
from domain.rng import Rng

#: Half a win each way for every pair that met (see the module's docstring).
VIRTUAL_DRAW = 0.5
#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def comparisons(results: Sequence[GameResult]) -> Counter[tuple[str, str]]:
    """(winner level, loser level) → how many decisive comparisons went that way."""
    beaten: Counter[tuple[str, str]] = Counter()
    for result in results:
        won = set(result.winners)
        for s, level in enumerate(result.levels):
            for t, other in enumerate(result.levels):
                if level != other and s in won and t not in won:
                    beaten[(level, other)] += 1
    return beaten


def wilson(successes: float, trials: float) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials <= 0:
        return (0.0, 1.0)
    share = successes / trials
    centre = (share + Z95 * Z95 / (2 * trials)) / (1 + Z95 * Z95 / trials)
    spread = Z95 * math.sqrt(share * (1 - share) / trials + Z95 * Z95 / (4 * trials * trials)) / (1 + Z95 * Z95 / trials)
    return (max(0.0, centre - spread), min(1.0, centre + spread))


def bradley_terry(levels: Sequence[str], beaten: Counter[tuple[str, str]], iterations: int = 2000) -> dict[str, float]:
    """Elo-scale ratings of ``levels`` from ``beaten``, the first level at 0."""
    wins = {a: float(sum(n for (w, _), n in beaten.items() if w == a)) for a in levels}
    meetings: dict[tuple[str, str], float] = {}
    for a in levels:
        for b in levels:
            if a != b:
                met = beaten[(a, b)] + beaten[(b, a)]
                if met:
                    meetings[(a, b)] = met + 2 * VIRTUAL_DRAW
                    wins[a] += VIRTUAL_DRAW
    strength = dict.fromkeys(levels, 1.0)
    for _ in range(iterations):
        moved = 0.0
        for a in levels:
            denominator = sum(n / (strength[a] + strength[b]) for (x, b), n in meetings.items() if x == a)
            if denominator == 0:
                continue  # never met anyone: no evidence, keeps the average strength
            new = wins[a] / denominator
            moved = max(moved, abs(math.log(new / strength[a])))
            strength[a] = new
        mean = math.exp(sum(math.log(v) for v in strength.values()) / len(strength))
        strength = {a: v / mean for a, v in strength.items()}
        if moved < 1e-10:
            break
    anchor = strength[levels[0]]
    return {a: 400 * math.log10(strength[a] / anchor) for a in levels}


@dataclass(frozen=True)
class Rating:
    level: str
    elo: float
    low: float
    high: float


def ladder(levels: Sequence[str], results: Sequence[GameResult], resamples: int = 200,
           seed: str = "ladder") -> list[Rating]:
    """Each level's rating with a 95% bootstrap interval over the games, strongest first."""
    fitted = bradley_terry(levels, comparisons(results))
    draws = Rng(seed, "bootstrap")
    samples: dict[str, list[float]] = {a: [] for a in levels}
    for _ in range(resamples if results else 0):
        picked = [results[draws.below(len(results))] for _ in results]
        for a, elo in bradley_terry(levels, comparisons(picked), iterations=300).items():
            samples[a].append(elo)
    rated = []
    for a in levels:
        found = sorted(samples[a]) or [fitted[a]]
        low = found[int(0.025 * (len(found) - 1))]
        high = found[int(math.ceil(0.975 * (len(found) - 1)))]
        rated.append(Rating(a, fitted[a], low, high))
    return sorted(rated, key=lambda r: -r.elo)
