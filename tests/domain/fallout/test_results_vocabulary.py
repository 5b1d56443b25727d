"""Results, Killed, Faction Power Track, Scenario, Influence: the results and conditions the box's cards need.

Each test plays the example docs/fallout-effects.md gives for the form (★−, move_to,
place_enemy, kill_enemy, a scenario's place_marker, measures and tallies).
"""

from __future__ import annotations

from dataclasses import replace

from domain.fallout import conditions, influence
from domain.fallout import effects as fx
from domain.fallout.content import register_pack
from domain.fallout.game import FALLOUT
from domain.game import SYSTEM
from tests.domain.fallout.fixtures import (
    BLANK,
    BODY,
    FULL,
    ScriptedRng,
    add_enemy,
    data,
    full_game,
    new_game,
    play,
    refused,
    settle,
    survivor,
)
from tests.domain.fallout.test_items import resolve


def test_faction_power_track_a_minus_result_moves_a_faction_back_never_above_the_top() -> None:
    """Faction Power Track, Results (★−): "★-" and `spade: -2` move the faction back; at the top space it stays."""
    assert fx.parse_result("★-") == fx.Power("star", -1) and fx.parse_result("♠−−") == fx.Power("spade", -2)
    assert fx.parse_result({"spade": -2}) == fx.Power("spade", -2) and fx.parse_result({"star": "-"}).steps == -1
    state = replace(full_game(1), power=(3, 1))
    state, events = resolve(state, 0, ["★-", {"spade": -2}])
    assert state.power == (2, 0)
    assert [e["steps"] for e in data(events, "FactionsAdvanced")] == [-1, -1]  # ♠ fell back only to the top


def test_results_move_to_places_the_survivor_and_completes_an_enter_trigger() -> None:
    """Results (move_to), Quest Cards: the survivor's figure goes to the space without movement points or
    terrain, and an objective triggered by entering that space completes."""
    state = replace(full_game(1, space="camp.a"), quests=("q_camp",))
    state, events = resolve(state, 0, [{"move_to": "camp.c"}])  # difficult terrain: no matter
    moved = data(events, "SurvivorMoved")[0]
    assert moved["to"] == "camp.c" and moved["cost"] == 0 and moved["rads"] == 0
    state, more = settle(state)
    assert state.survivor(0).space == "camp.c"
    assert data(events + more, "ObjectiveCompleted") == [{"seat": 0, "quest": "q_camp", "objective": 0}]


def test_enemies_place_enemy_result_draws_one_of_the_type_into_a_space() -> None:
    """Enemies, Results (place_enemy): an enemy of the type is drawn from its stack and placed face up in the
    survivor's space, or face down in a named space."""
    state = replace(full_game(1, space="camp.a"), enemies=())
    state, events = resolve(state, 0, [{"place_enemy": "human"},
                                       {"place_enemy": {"type": "critter", "space": "ruins.a", "active": False}}])
    placed = data(events, "EnemyPlaced")
    assert [(p["type"], p["space"], p["active"], p["reason"]) for p in placed] == [
        ("human", "camp.a", True, "result"), ("critter", "ruins.a", False, "result"),
    ]
    assert all(e.faction is None for e in state.enemies)


def test_killed_an_enemy_killed_outside_a_fight_still_gives_its_xp_and_is_replaced() -> None:
    """Killed, Results (kill_enemy): "If a survivor kills an enemy outside of a fight, that survivor still gains
    the XP"; the enemy is replaced as usual; with several, the survivor picks which."""
    state, raider = add_enemy(full_game(1, space="camp.a"), "raider", "camp.a")
    state, events = resolve(state, 0, [{"kill_enemy": "any"}])
    killed = data(events, "EnemyKilled")[0]
    assert killed["enemy"] == raider and killed["replace"] and killed["seat"] == 0
    assert data(events, "XPGained")[0]["amount"] == 2 and "LootDrawn" in [e.type for e in events]  # raider: loot
    assert state.survivor(0).kills == 1
    two, rat = add_enemy(full_game(1, space="camp.a"), "rat", "camp.a")
    two, beetle = add_enemy(two, "beetle", "camp.a")
    two, _ = resolve(two, 0, [{"kill_enemy": "critter"}])
    assert two.pending.kind == "target_enemy" and two.pending.choices == (
        {"type": "choose_enemy", "enemy": rat}, {"type": "choose_enemy", "enemy": beetle},
    )
    two, events = play(two, 0, {"type": "choose_enemy", "enemy": beetle})
    assert two.enemy(beetle) is None and two.enemy(rat) is not None
    assert refused(full_game(1), 0, {"type": "choose_enemy", "enemy": rat}).code == "no_decision_pending"


def test_fight_a_result_may_start_a_fight_that_takes_no_action() -> None:
    """Fight, Results (fight_enemy): a result makes the survivor fight an enemy in their space; the fight's five
    steps run as usual, no action is spent, and the results after it resolve once it is over."""
    state, rat = add_enemy(full_game(1, space="camp.a", special=(("S", "s1"), ("L", "l1"))), "rat", "camp.a")
    state = replace(state, quests=())
    state, events = resolve(state, 0, [{"fight_enemy": "critter"}, {"caps": 1}], ScriptedRng(BODY, BLANK, BLANK))
    assert data(events, "FightStarted")[0] == {"seat": 0, "enemy": rat, "cause": "result", "at_range": False}
    state, more = settle(state)
    happened = [e.type for e in events + more]
    assert happened.index("EnemyKilled") < happened.index("CapsGained")
    assert state.turn.actions == 2 and state.survivor(0).kills == 1


def test_scenario_setup_places_its_own_markers_found_by_marker_scenario() -> None:
    """Scenario, Complete Setup step 9: the scenario's setup may place markers of its own; `marker: scenario`
    holds in their spaces, for the whole game."""
    base = FULL.scenarios["test"]
    scenario = replace(base, setup=base.setup + ({"place_marker": "ruins.a"},))
    pack = register_pack(replace(FULL, id="mini2_marked", scenarios={"test": scenario}))
    state = new_game(1, ["scout"], pack=pack.id)
    assert ("test", "ruins.a") in state.markers
    at_marker = fx.parse_condition({"marker": "scenario"})
    assert conditions.holds(survivor(state, 0, space="ruins.a"), 0, at_marker)
    assert not conditions.holds(survivor(state, 0, space="camp.a"), 0, at_marker)


def test_scenario_rule_on_deplete_resolves_each_time_the_agenda_deck_runs_out() -> None:
    """Scenario, Agenda Cards: a scenario sheet's own rule, `on_deplete`, resolves its results about the game
    each time the agenda deck runs out, after the factions advance."""
    base = FULL.scenarios["test"]
    rule = ({"place_enemy": {"type": "critter", "space": "ruins.a"}}, "♠+")
    pack = register_pack(replace(FULL, id="mini2_rule", scenarios={"test": replace(base, on_deplete=rule)}))
    state = new_game(1, ["scout"], pack=pack.id)
    state = replace(state, turn=None, round_end_due=True, next_seat=0, agenda_deck=("ag1",),
                    agenda_discard=("ag3",), power=(0, 0), enemies=())
    state, events = play(state, SYSTEM, {"type": "round_end"})
    happened = [e.type for e in events]
    assert happened.index("FactionsAdvanced") < happened.index("EnemyPlaced")
    assert data(events, "EnemyPlaced")[0]["space"] == "ruins.a" and state.power == (1, 2)


def test_hp_track_conditions_on_hp_rads_and_the_games_tallies() -> None:
    """HP Track, Rads, XP: conditions read HP, rads and remaining HP, and what the survivor did so far (XP gained,
    kills, quest objectives, tiles explored); influence can count the tallies."""
    hurt = fx.parse_condition({"hp": {"at_most": 6}, "kills": {"at_least": 1}})
    state = survivor(full_game(1, space="camp.a"), 0, hp=6, rads=2)
    assert not conditions.holds(state, 0, hurt)  # no kill yet
    state, rat = add_enemy(state, "rat", "camp.a")
    state, _ = play(state, 0, {"type": "fight", "enemy": rat}, ScriptedRng(BODY, BLANK, BLANK))
    state, _ = settle(state)
    s = state.survivor(0)
    assert (s.kills, s.xp_gained) == (1, 2) and conditions.holds(state, 0, hurt)  # 1 for the rat, 1 its quest
    assert conditions.holds(state, 0, fx.parse_condition({"remaining_hp": {"at_least": 4, "at_most": 4}}))
    assert influence.count(state, 0, fx.parse_counter("kills")) == 1
    assert FALLOUT.view(state, 0)["survivors"][0]["kills"] == 1
