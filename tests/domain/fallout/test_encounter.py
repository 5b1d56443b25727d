"""Encounter Action, Encounter Cards, Encounter Icons, Results (level), Solo Play (read-aloud)."""

from __future__ import annotations

import json
from dataclasses import replace

from domain.fallout.content import register_pack
from domain.fallout.game import FALLOUT
from domain.fallout.model import EncounterCard
from domain.fallout.model import EncounterOption as Option
from domain.fallout.state import Turn
from tests.domain.fallout.fixtures import (
    BLANK,
    BODY,
    FULL,
    HIT,
    ScriptedRng,
    add_enemy,
    data,
    decks,
    full_game,
    play,
    quiet_game,
    refused,
    settle,
    survivor,
    types,
)

# Seat 0 (scout: P and L, rifle P A) at the Old Ruins (wasteland, level 2).
RUINS = "ruins.c"


def ruins_game(*wasteland: str, **changes):
    state = full_game(1, space=RUINS, special=(("P", "p1"), ("L", "l1")), **changes)
    return decks(state, wasteland=wasteland or ("w_wreck", "w_cache", "w_burrow"))


def test_encounter_action_read_aloud_split_hides_outcomes_until_chosen() -> None:
    """Encounter Action, Solo Play: the seat sees the intro and bold lines, chooses, then only the chosen outcome."""
    state = ruins_game("w_cache")
    state, events = play(state, 0, {"type": "encounter"})
    assert state.pending.kind == "encounter_option"
    asked = state.pending.context["read_aloud"]
    assert asked["intro"] == "A buried cache." and [o["label"] for o in asked["options"]] == ["Open it.", "Rest here."]
    seen = json.dumps(FALLOUT.view(state, 0)) + json.dumps([FALLOUT.redact(e, 0).data for e in events])
    assert "Gear!" not in seen and "You rest among the spoils." not in seen and "w_cache" not in seen
    state, events = play(state, 0, {"type": "choose_option", "option": 1})
    seen = json.dumps(FALLOUT.view(state, 0)) + json.dumps([FALLOUT.redact(e, 0).data for e in events])
    assert "You rest among the spoils." in seen
    assert "Gear!" not in seen and "Empty." not in seen  # the other option's outcomes are never read
    assert state.encounter is None and state.encounter_decks["wasteland"][-1] == "w_cache"  # back to the bottom


def test_encounter_cards_conditions_limit_the_options() -> None:
    """Encounter Action: an option with a condition (Vilified) can be chosen only when it holds."""
    state, _ = play(ruins_game("w_wreck"), 0, {"type": "encounter"})
    assert [c["option"] for c in state.pending.choices] == [0, 3]
    assert refused(state, 0, {"type": "choose_option", "option": 1}).code == "not_a_choice"
    vilified = ruins_game("w_wreck", traits=(("reputation", "vilified"),))
    state, _ = play(vilified, 0, {"type": "encounter"})
    assert [c["option"] for c in state.pending.choices] == [0, 1, 3]
    state, events = play(state, 0, {"type": "choose_option", "option": 1})
    assert data(events, "XPGained")[0]["amount"] == 1
    assert "w_wreck" in state.trashed and "w_wreck" not in state.encounter_decks["wasteland"]  # trashed


def test_encounter_action_forced_option_is_the_only_choice() -> None:
    """Encounter Action (FORCED): when its condition holds it must be resolved instead of the others."""
    state, _ = play(ruins_game("w_wreck", traits=(("wellbeing", "addicted"),)), 0, {"type": "encounter"})
    assert state.pending.choices == ({"type": "choose_option", "option": 2},)
    state, events = play(state, 0, {"type": "choose_option", "option": 2})
    assert state.survivor(0).rads == 1


def test_results_level_substitution_and_test_succeed_or_fail() -> None:
    """Encounter Icons, Results, Tests: L reads the icon's level (2): test S P 2, succeed: L+1 = 3 Caps."""
    state, _ = play(ruins_game("w_wreck"), 0, {"type": "encounter"})
    state, _ = play(state, 0, {"type": "choose_option", "option": 0}, ScriptedRng(HIT, HIT, BLANK))
    assert state.roll.test.difficulty == 2 and state.roll.rerolls == 1  # P only
    state, events = settle(state)
    assert data(events, "TestResolved")[0]["success"]
    assert data(events, "CapsGained") == [{"seat": 0, "amount": 3}]
    assert data(events, "EncounterOutcome")[0]["text"] == "Caps in the glovebox."
    state, _ = play(ruins_game("w_wreck"), 0, {"type": "encounter"})
    state, _ = play(state, 0, {"type": "choose_option", "option": 0}, ScriptedRng(HIT, BLANK, BLANK))
    state, events = settle(state, rng=ScriptedRng(BLANK, BLANK, BLANK))
    assert data(events, "EncounterOutcome")[0]["outcome"] == "fail" and state.survivor(0).hp == 15


def test_fight_draw_and_fight_succeeds_only_by_killing_and_is_always_discarded() -> None:
    """Fight, Enemies (draw and fight): draw a critter, fight it; succeed only by killing it; never replaced."""
    state = ruins_game("w_burrow")
    state = replace(state, enemy_stacks={**state.enemy_stacks, "critter": ("rat",)})
    state, _ = play(state, 0, {"type": "encounter"})
    state, events = play(state, 0, {"type": "choose_option", "option": 0}, ScriptedRng(BODY, BLANK, BLANK))
    state, events = settle(state)
    assert data(events, "EnemyKilled")[0]["replace"] is False
    assert not state.enemies and state.enemy_discards["critter"] == ("rat",)
    assert "CardAdded" in types(events) and "w_tracks" in state.encounter_decks["wasteland"]  # add 101
    state = ruins_game("w_burrow")
    state, _ = play(state, 0, {"type": "encounter"})
    state, _ = play(state, 0, {"type": "choose_option", "option": 0}, ScriptedRng(BLANK, BLANK, BLANK))
    state, events = settle(state, rng=ScriptedRng(BLANK, BLANK, BLANK))
    assert data(events, "EncounterOutcome")[0]["outcome"] == "fail"
    assert not state.enemies and "EnemyDiscarded" in types(events)


def test_encounter_action_not_with_a_faceup_enemy_and_once_per_turn() -> None:
    """Encounter Action: not in a space with a face-up enemy (inactive ones do not stop it)."""
    state, _ = add_enemy(ruins_game(), "rat", RUINS)
    assert refused(state, 0, {"type": "encounter"}).code == "enemy_in_space"
    assert {"type": "encounter"} not in FALLOUT.legal_actions(state, 0)
    state, _ = add_enemy(ruins_game("w_cache", "w_burrow"), "rat", RUINS, active=False)
    state, _ = play(state, 0, {"type": "encounter"})
    state, _ = play(state, 0, {"type": "choose_option", "option": 1})
    assert state.turn.actions == 1
    assert refused(state, 0, {"type": "encounter"}).code == "already_encountered"
    assert {"type": "encounter"} not in FALLOUT.legal_actions(state, 0)


def test_actions_the_encounter_action_at_most_once_per_turn_even_at_another_icon() -> None:
    """Actions: a survivor may repeat any action in a turn "except for the encounter action", so a second
    encounter icon reached in the same turn cannot be encountered."""
    state = decks(full_game(1, space="camp.a"), settlement=("s_market",), wasteland=("w_cache",))
    state, _ = play(state, 0, {"type": "encounter"})
    state, _ = play(state, 0, {"type": "choose_option", "option": 1})  # Help the guards
    state = survivor(state, 0, space=RUINS)  # another icon, the second action still unspent
    assert state.turn.actions == 1
    assert refused(state, 0, {"type": "encounter"}).code == "already_encountered"
    assert {"type": "encounter"} not in FALLOUT.legal_actions(state, 0)
    state = replace(state, turn=Turn(seat=0))  # the next turn: allowed again
    assert {"type": "encounter"} in FALLOUT.legal_actions(state, 0)


def test_enemy_abilities_retreat_a_drawn_enemy_that_flees_fails_the_task() -> None:
    """Fight (draw and fight), Enemy Abilities (Retreat): a quest or encounter task succeeds only if the drawn
    enemy is killed; a Retreat enemy that survives the fight flees, and the fail result resolves."""
    chase = EncounterCard("w_chase", "wasteland", "Someone runs off with your pack.", (
        Option("Chase them.", tasks=({"draw_and_fight": "human"},),
               succeed_text="You get it back.", succeed=({"caps": 2},),
               fail_text="Gone over the dunes.", fail=({"lose_caps": 1},)),
    ))
    pack = register_pack(replace(FULL, id="mini2_chase", encounters={**FULL.encounters, "w_chase": chase}))
    state = decks(quiet_game(1, pack=pack.id), wasteland=("w_chase",))
    state = survivor(state, 0, space=RUINS, special=(("P", "p1"), ("L", "l1")), caps=3)
    state = replace(state, enemy_stacks={**state.enemy_stacks, "human": ("runner",)})
    state, _ = play(state, 0, {"type": "encounter"})
    state, _ = play(state, 0, {"type": "choose_option", "option": 0}, ScriptedRng(BLANK, BLANK, BLANK))
    state, events = settle(state, rng=ScriptedRng(BLANK, BLANK, BLANK))
    assert not data(events, "FightResolved")[0]["enemy_killed"]
    assert "EnemyRetreated" not in types(events)
    assert data(events, "TaskDone")[-1]["success"] is False
    assert data(events, "EncounterOutcome")[0]["outcome"] == "fail" and state.survivor(0).caps == 2
    assert not state.enemies and state.enemy_discards["human"] == ("runner",)  # discarded all the same


def test_encounter_icons_vault_encounters_only_once_their_deck_exists() -> None:
    """Encounter Icons, Card Library: a vault deck exists only once a result adds one of its cards."""
    state = full_game(1, space="marsh.b")
    assert "vault84" not in state.encounter_decks
    assert refused(state, 0, {"type": "encounter"}).code == "no_encounter_deck"
    state = ruins_game("w_tracks")
    state, _ = play(state, 0, {"type": "encounter"})
    state, events = play(state, 0, {"type": "choose_option", "option": 0})
    assert state.encounter_decks["vault84"] == ("v_door",)  # add 102 creates the deck
    assert "w_tracks" in state.trashed
    state = survivor(state, 0, space="marsh.b")
    state = replace(state, turn=Turn(0))
    state, events = play(state, 0, {"type": "encounter"})
    assert data(events, "EncounterDrawn")[0]["deck"] == "vault84"


def test_encounter_icons_the_deck_matches_the_icon() -> None:
    """Encounter Icons: a settlement icon draws from the settlement deck."""
    state = decks(full_game(1), settlement=("s_market", "s_tavern"))
    state, events = play(state, 0, {"type": "encounter"})
    assert data(events, "EncounterDrawn")[0]["deck"] == "settlement"
    assert state.pending.context["read_aloud"]["intro"] == "The market is busy."
    assert FALLOUT.redact(events[0], 0).data["card"] is None


