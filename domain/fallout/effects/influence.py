"""Influence on agenda cards: points a survivor gains, flat or per something counted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.fallout.effects.conditions import Condition, parse_condition
from domain.fallout.effects.reading import EffectError, count, one_of
from domain.fallout.model import (
    CARD_KINDS,
    FACTIONS,
)


@dataclass(frozen=True)
class Counter:
    """Something counted on the live game for ``per`` influence."""

    what: str  # "caps", "lead", "special", "perks", "items", "kind", "xp_levels"...
    arg: str | None = None  # the faction for "lead", the card kind for "kind"


# The tallies of the game so far (xp_gained, kills, quests_done, tiles_explored) count too.
COUNTERS = (
    "caps", "lead", "special", "perks", "items", "kind", "traits", "agendas",
    "xp_gained", "kills", "quests_done", "tiles_explored",
)


@dataclass(frozen=True)
class Influence:
    """``gain`` influence if ``condition`` holds; or ``gain`` for every ``every`` of ``per``."""

    gain: int
    condition: Condition | None = None
    per: Counter | None = None
    every: int = 1
    most: int | None = None  # a cap on what this entry gives


def parse_counter(raw: Any) -> Counter:
    if isinstance(raw, str):
        if raw in ("lead", "kind"):
            raise EffectError(f"per: {raw} needs an argument, e.g. `per: {{{raw}: ...}}`")
        return Counter(one_of(raw, COUNTERS, "counter"))
    if isinstance(raw, dict) and len(raw) == 1:
        (key, value), = raw.items()
        if key == "lead":
            return Counter("lead", one_of(value, FACTIONS, "faction"))
        if key == "kind":
            return Counter("kind", one_of(value, CARD_KINDS, "card kind"))
    raise EffectError(f"per: expected one of {', '.join(COUNTERS)} (lead and kind as `{{lead: star}}`); got {raw!r}")


def parse_influence(raw: Any) -> Influence:
    if not isinstance(raw, dict):
        raise EffectError(f"an influence entry is a mapping such as `{{gain: 1, if: {{trait: idolized}}}}`; got {raw!r}")
    unknown = set(raw) - {"gain", "if", "per", "every", "most"}
    if unknown:
        raise EffectError(f"influence: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
    gain = count(raw.get("gain", 1), "gain", 1)
    condition = parse_condition(raw["if"]) if "if" in raw else None
    per = parse_counter(raw["per"]) if "per" in raw else None
    if condition is None and per is None:
        raise EffectError("influence: an entry needs `if` or `per` (every agenda already gives its own 1)")
    every = count(raw.get("every", 1), "every", 1)
    if "every" in raw and per is None:
        raise EffectError("influence: `every` goes with `per`")
    most = count(raw["most"], "most", 1) if "most" in raw else None
    return Influence(gain, condition, per, every, most)
