"""Scenario: a scenario sheet's own rules (side B), in the effects vocabulary of docs/fallout-effects.md.

The vocabulary's example (docs/fallout-effects.md, "The scenario sheet") is read from the page and played on
the full test pack; then each of the box's four scenarios plays its own rule.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from domain.fallout import effects as fx
from domain.fallout import modifiers
from domain.fallout.content import register_pack
from domain.fallout.state import GameState
from domain.game import SYSTEM
from tests.domain.fallout.fixtures import FULL, data, new_game, play, quiet_game, survivor

DOCS = Path(__file__).parents[3] / "docs" / "fallout-effects.md"


def sheet_example() -> dict:
    """The YAML example of the scenario's special rules in docs/fallout-effects.md (the block with `on_turn_start`)."""
    part = DOCS.read_text().split("\n## The scenario sheet")[1]
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", part, re.S) if "on_turn_start" in b]
    return yaml.safe_load(block)


EXAMPLE = sheet_example()
PACK = register_pack(replace(FULL, id="mini2_sheet_rules", scenarios={
    "test": replace(FULL.scenarios["test"], **{k: tuple(v) for k, v in EXAMPLE.items()})}))


def two_seats(pack: str = PACK.id, scenario: str = "test", **seat1: object) -> GameState:
    """Two seats, seat 0 on turn, no enemies; seat 1 changed as given."""
    names = ["scout", "keeper"] if pack == PACK.id else ["wren_okafor", "tamsin_reed"]
    state = quiet_game(2, names, pack=pack, scenario=scenario)
    return survivor(state, 1, **seat1) if seat1 else state


def round_end(state: GameState, power: tuple[int, int]) -> tuple[GameState, list]:
    """The round end with an agenda deck that does not run out, at the given power."""
    state = replace(state, turn=None, round_end_due=True, next_seat=state.first_player,
                    agenda_deck=state.agenda_deck[:3], agenda_discard=(), power=power)
    return play(state, SYSTEM, {"type": "round_end"})


def test_scenario_sheet_the_documented_example_loads_and_checks() -> None:
    """Scenario: the example of docs/fallout-effects.md is whole (the loader's check finds nothing in it)."""
    assert set(EXAMPLE) == {"passive", "on_turn_start", "on_round_end"}
    assert fx.check_scenario(PACK.scenarios["test"]) == []


def test_scenario_passive_modifiers_hold_for_every_survivor_where_their_condition_holds() -> None:
    """Scenario, Tests: the sheet's `passive` modifiers count like a held card's, for every survivor."""
    state = two_seats()
    irradiated = survivor(state, 0, space="ruins.b")
    plain = survivor(state, 0, space="camp.a")
    assert modifiers.bonus(irradiated, 0, "test_rerolls") == 1
    assert modifiers.bonus(plain, 0, "test_rerolls") == 0


def test_scenario_on_turn_start_resolves_for_the_survivor_whose_turn_starts() -> None:
    """Scenario, Turns: an `on_turn_start` rule resolves its results for the survivor starting a turn, when the
    condition holds for them; a survivor elsewhere is untouched."""
    state = two_seats(space="ruins.b")
    assert state.turn.seat == 0
    state, events = play(state, 0, {"type": "end_turn"})
    assert state.turn.seat == 1
    assert data(events, "SurvivorHurt") == [{"seat": 1, "damage": 0, "rads": 1}]
    assert state.survivor(1).rads == 1
    state = survivor(state, 0, space="camp.a")
    state, events = play(state, 1, {"type": "end_turn"})
    assert not data(events, "SurvivorHurt")


def test_scenario_on_round_end_resolves_about_the_game_when_the_factions_stand_so() -> None:
    """Scenario, Faction Power Track: an `on_round_end` rule resolves at each round's end while its condition
    about the factions holds, and not otherwise."""
    state, events = round_end(two_seats(), (3, 0))
    assert [e["faction"] for e in data(events, "FactionsAdvanced")] == ["spade"] and state.power == (3, 1)
    state, events = round_end(two_seats(), (1, 0))
    assert not data(events, "FactionsAdvanced") and state.power == (1, 0)


@pytest.mark.parametrize(("moment", "raw", "problem"), [
    ("on_round_end", {"if": {"caps": 2}, "results": ["★+"]}, "only ask where the factions stand"),
    ("on_turn_start", {"results": []}, "non-empty list"),
    ("on_turn_start", {"when": "dawn", "results": [{"rads": 1}]}, "a scenario rule is a mapping"),
])
def test_scenario_rules_the_loader_refuses_what_the_engine_cannot_do(moment: str, raw: dict, problem: str) -> None:
    """Scenario: a rule about the game cannot ask about a survivor nor give one anything; a rule has results."""
    scenario = replace(FULL.scenarios["test"], **{moment: (raw,)})
    problems = fx.check_scenario(scenario)
    assert len(problems) == 1 and problem in problems[0] and problems[0].startswith(f"{moment}[0]"), problems


# -- the box's four scenarios, each its own rule -----------------------------------------------


def test_scenario_saltmarsh_reach_lamps_on_the_weir() -> None:
    """Scenario (Saltmarsh Reach, "Lamps on the Weir"), Tests: one more reroll in tests in a settlement space."""
    state = new_game(1, ["wren_okafor"], pack="base", scenario="saltmarsh_reach")
    settlement = "kettle_harbor.market"
    assert modifiers.bonus(survivor(state, 0, space=settlement), 0, "test_rerolls") == 1
    assert modifiers.bonus(survivor(state, 0, space="kettle_harbor.quay"), 0, "test_rerolls") == 0


def test_scenario_sulphur_flats_sulphur_vents() -> None:
    """Scenario (Sulphur Flats, "Sulphur Vents"), Rads: a survivor starting a turn in an irradiated space
    suffers one rad."""
    state = two_seats("base", "sulphur_flats", space="ventmouth.geyser_field")
    state, events = play(state, 0, {"type": "end_turn"})
    assert data(events, "SurvivorHurt") == [{"seat": 1, "damage": 0, "rads": 1}]


def test_scenario_thornwood_hollow_lanterns_in_the_thorns() -> None:
    """Scenario (Thornwood Hollow, "Lanterns in the Thorns"), Faction Power Track: the Society advances at a
    round's end while the Quorum leads it by two or more."""
    state, _ = round_end(two_seats("base", "thornwood_hollow"), (2, 0))
    assert state.power == (2, 1)
    state, _ = round_end(two_seats("base", "thornwood_hollow"), (1, 0))
    assert state.power == (1, 0)


def test_scenario_vesper_heights_tithe_and_signal() -> None:
    """Scenario (Vesper Heights, "Tithe and Signal"), Caps, Faction Tokens: a Cap for starting a turn in the
    counting house; a Signal Corps drone to the mast each time the agenda deck runs out."""
    state = two_seats("base", "vesper_heights", space="vesper_spire.counting_house")
    caps = state.survivor(1).caps
    state, _ = play(state, 0, {"type": "end_turn"})
    assert state.survivor(1).caps == caps + 1
    state = replace(two_seats("base", "vesper_heights"), turn=None, round_end_due=True, next_seat=0,
                    agenda_deck=state.agenda_deck[:1], power=(0, 0), enemies=())
    state, events = play(state, SYSTEM, {"type": "round_end"})
    placed = [e for e in data(events, "EnemyPlaced") if e["reason"] == "faction_token"]
    assert [(e["faction"], e["space"]) for e in placed] == [("star", "vesper_spire.mast")]


def test_scenario_on_turn_start_applies_to_the_very_first_turn() -> None:
    """Scenario, Complete Setup step 9: the first player's first turn starts with the sheet's rule too, whether
    the survivors were given in the options or chosen in play."""
    rule = ({"results": [{"caps": 1}]},)
    pack = register_pack(replace(FULL, id="mini2_first_turn", scenarios={
        "test": replace(FULL.scenarios["test"], on_turn_start=rule)}))
    state = new_game(1, ["scout"], pack=pack.id)
    assert state.survivor(0).caps == 4 and not state.resolving
    choosing = new_game(1, None, pack=pack.id)
    state, _ = play(choosing, 0, dict(choosing.pending.choices[0]))
    assert state.survivor(0).caps == 4 and not state.resolving
