"""A scenario sheet's own rules (Scenario: "Side B contains all information used for the
scenario during the game"): results resolved at a moment of the game, when a condition holds.

``on_turn_start`` entries are about the survivor whose turn starts; ``on_round_end`` entries
are about the game, so their condition may only ask where the factions stand (``ahead``, and
``all``/``any``/``not`` of that). A scenario's ``passive`` modifiers are read by the modifiers
module like a card's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.fallout.effects.conditions import Ahead, AllOf, AnyOf, Condition, Not, conditions_in, parse_condition
from domain.fallout.effects.reading import EffectError
from domain.fallout.effects.results import parse_results

#: The moments a scenario rule can name, and whether its results are about one survivor.
MOMENTS = {"on_turn_start": True, "on_round_end": False}


@dataclass(frozen=True)
class ScenarioRule:
    condition: Condition | None
    results: tuple[Any, ...]  # the plain results bar, pushed as cards' bars are


def parse_scenario_rule(raw: Any, about_survivor: bool = True) -> ScenarioRule:
    if not isinstance(raw, dict) or "results" not in raw or set(raw) - {"if", "results"}:
        raise EffectError(f"a scenario rule is a mapping with `results` and optionally `if`; got {raw!r}")
    bar = raw["results"]
    if not isinstance(bar, list) or not bar:
        raise EffectError("results: expected a non-empty list of results")
    parse_results(bar)
    condition = parse_condition(raw["if"]) if raw.get("if") is not None else None
    if not about_survivor:
        for c in conditions_in(condition):
            if not isinstance(c, (Ahead, AllOf, AnyOf, Not)):
                raise EffectError(
                    f"if: a rule about the game (no survivor) may only ask where the factions stand "
                    f"(`ahead`, with all/any/not); got {c!r}"
                )
    return ScenarioRule(condition, tuple(bar))
