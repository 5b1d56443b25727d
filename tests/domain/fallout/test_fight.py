"""Fight, Fight Action, Enemy Abilities, Enemies (replacement), Component Limitations."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.fallout import enemies
from domain.fallout.game import FALLOUT
from domain.game import RuleViolation
from domain.rng import Rng
from tests.domain.fallout.fixtures import (
    BLANK,
    BODY,
    HEAD,
    HIT,
    HIT_BODY_ARMS,
    ScriptedRng,
    add_enemy,
    play,
    quiet_game,
    survivor,
    types,
)

SCOUT = (("P", "p1"), ("L", "l1"))


def scout_game():
    """Seat 0: the scout (rifle: P, A; ranged) with P and L, at camp.a."""
    return survivor(quiet_game(1), 0, special=SCOUT, space="camp.a")


def keeper_game():
    """Seat 0: the keeper (vest: armor 1; no weapon) at camp.a."""
    state = quiet_game(1, ["keeper"])
    return survivor(state, 0, special=(("E", "e1"), ("L", "l1")), space="camp.a")


def data(events, type_):
    return [e.data for e in events if e.type == type_]


def test_fight_five_steps_damage_hits_and_xp() -> None:
    """Fight steps 1 to 5: roll three dice, one reroll per weapon letter held, enemy hits x level as damage, one
    survivor hit per die with a matching area (a kill at the level), XP = level."""
    state, rat = add_enemy(scout_game(), "rat", "camp.a")
    state, _ = play(state, 0, {"type": "fight", "enemy": rat}, ScriptedRng(HIT_BODY_ARMS, HIT, BLANK))
    assert state.pending.kind == "reroll" and state.roll.rerolls == 1  # P on the rifle
    state, events = play(state, 0, {"type": "keep_dice"})
    resolved = data(events, "FightResolved")[0]
    assert resolved["enemy_hits"] == 2 and resolved["damage"] == 2 and resolved["hits"] == 1
    assert resolved["enemy_killed"]
    assert state.survivor(0).hp == 14
    assert data(events, "XPGained")[0]["amount"] == 1
    assert state.survivor(0).xp == "P"
    assert state.turn.actions == 1


def test_fight_step_2_rerolls_are_spent_one_at_a_time_on_any_dice() -> None:
    """Fight step 2 (Reroll Dice), S.P.E.C.I.A.L. Tokens: one reroll per letter on the weapon that the survivor
    has (rifle P, A with P and A: two); each reroll rolls again any chosen dice, one reroll at a time."""
    state = survivor(quiet_game(1), 0, special=(("P", "p1"), ("A", "a1")), space="camp.a")
    state, rat = add_enemy(state, "rat", "camp.a")
    state, _ = play(state, 0, {"type": "fight", "enemy": rat}, ScriptedRng(HIT, HIT, HIT))
    assert len(state.roll.faces) == 3 and state.roll.rerolls == 2  # step 1: three dice
    state, _ = play(state, 0, {"type": "reroll", "dice": [0, 2]}, ScriptedRng(BLANK, BODY))
    assert state.roll.faces == (BLANK, HIT, BODY) and state.roll.rerolls == 1
    state, events = play(state, 0, {"type": "reroll", "dice": [1]}, ScriptedRng(BLANK))
    assert state.roll is None  # no reroll left: the dice stand and the fight resolves
    resolved = data(events, "FightResolved")[0]
    assert resolved["enemy_hits"] == 0 and resolved["hits"] == 1 and resolved["enemy_killed"]  # body: the rat's area


def test_fight_apparel_armor_cancels_hits_not_damage() -> None:
    """Fight step 3 and Apparel: armor reduces the number of hits before they are multiplied."""
    state, raider = add_enemy(keeper_game(), "raider", "camp.a")
    state, events = play(state, 0, {"type": "fight", "enemy": raider}, ScriptedRng(HIT, HIT, HEAD))
    resolved = data(events, "FightResolved")[0]
    assert resolved["canceled"] == 1 and resolved["damage"] == 2  # (2 hits - 1) x level 2
    assert resolved["hits"] == 1 and not resolved["enemy_killed"]
    assert state.enemy(raider).active  # no retreat: still there, active


def test_fight_action_ranged_weapon_fights_adjacent_with_an_extra_hit() -> None:
    """Fight Action, Weapons: a ranged weapon fights an adjacent enemy; +1 hit if it is not ranged."""
    state, rat = add_enemy(scout_game(), "rat", "ruins.c")
    assert {"type": "fight", "enemy": rat} in FALLOUT.legal_actions(state, 0)
    state, _ = play(state, 0, {"type": "fight", "enemy": rat}, ScriptedRng(BLANK, BLANK, BLANK))
    state, events = play(state, 0, {"type": "keep_dice"})
    resolved = data(events, "FightResolved")[0]
    assert resolved["hits"] == 1 and resolved["enemy_killed"]


def test_fight_action_needs_a_ranged_weapon_for_adjacent_enemies() -> None:
    """Fight Action: without a ranged weapon only enemies in the survivor's space can be fought."""
    state, rat = add_enemy(keeper_game(), "rat", "ruins.c")
    assert not [c for c in FALLOUT.legal_actions(state, 0) if c["type"] == "fight"]
    with pytest.raises(RuleViolation) as err:
        FALLOUT.decide(state, 0, {"type": "fight", "enemy": rat}, Rng("refused"))
    assert err.value.code == "enemy_out_of_reach"


def test_enemy_abilities_ranged_enemy_gives_no_extra_hit_to_a_ranged_weapon() -> None:
    """Enemy Abilities (ranged): a ranged weapon against a ranged enemy: neither gets the extra hit."""
    state, sniper = add_enemy(scout_game(), "sniper", "ruins.c")
    state, _ = play(state, 0, {"type": "fight", "enemy": sniper}, ScriptedRng(BLANK, BLANK, HIT))
    state, events = play(state, 0, {"type": "keep_dice"})
    resolved = data(events, "FightResolved")[0]
    assert resolved["hits"] == 0 and resolved["enemy_hits"] == 1


def test_enemy_abilities_armor_needs_one_more_hit_and_radiation_gives_rads() -> None:
    """Enemy Abilities (armor, radiation): one more hit to kill; rads equal to level after damage."""
    state, brute = add_enemy(keeper_game(), "brute", "camp.a")
    state, events = play(state, 0, {"type": "fight", "enemy": brute}, ScriptedRng(BODY, BODY, BLANK))
    resolved = data(events, "FightResolved")[0]
    assert resolved["needed"] == 3 and not resolved["enemy_killed"]
    assert resolved["damage"] == 0 and resolved["rads"] == 0  # no damage, no rads
    state, brute = add_enemy(keeper_game(), "brute", "camp.a")
    state, events = play(state, 0, {"type": "fight", "enemy": brute}, ScriptedRng(BODY, BODY, HIT_BODY_ARMS))
    resolved = data(events, "FightResolved")[0]
    assert resolved["enemy_killed"]
    # one hit, one canceled by the vest: no damage, so no rads either
    assert resolved["damage"] == 0 and state.survivor(0).rads == 0
    state, brute = add_enemy(scout_game(), "brute", "camp.a")
    state, _ = play(state, 0, {"type": "fight", "enemy": brute}, ScriptedRng(HIT, BLANK, BLANK))
    state, events = play(state, 0, {"type": "keep_dice"})
    assert data(events, "FightResolved")[0]["damage"] == 2
    assert state.survivor(0).rads == 2 and state.survivor(0).hp == 14


def test_enemy_abilities_retreat_becomes_inactive_if_not_killed() -> None:
    """Enemy Abilities (retreat): an enemy the survivor fails to kill becomes inactive in its space."""
    state, runner = add_enemy(keeper_game(), "runner", "camp.a")
    state, events = play(state, 0, {"type": "fight", "enemy": runner}, ScriptedRng(BLANK, BLANK, BLANK))
    assert "EnemyRetreated" in types(events)
    assert not state.enemy(runner).active and state.enemy(runner).space == "camp.a"


def test_enemy_abilities_loot_draws_a_loot_card() -> None:
    """Enemy Abilities (loot): killing it draws a loot card (none yet: the draw is recorded empty)."""
    state, raider = add_enemy(keeper_game(), "raider", "camp.a")
    state, events = play(state, 0, {"type": "fight", "enemy": raider}, ScriptedRng(HEAD, BODY, BLANK))
    assert data(events, "LootDrawn") == [{"seat": 0, "card": None}]
    state = replace(state, loot_deck=("stim",))
    state, raider = add_enemy(state, "raider", "camp.a")
    state, events = play(state, 0, {"type": "fight", "enemy": raider}, ScriptedRng(HEAD, BODY, BLANK))
    assert state.survivor(0).inventory == ("stim",)


def test_enemies_inactive_enemies_cannot_be_fought() -> None:
    """Enemies: survivors cannot fight an inactive enemy."""
    state, rat = add_enemy(scout_game(), "rat", "camp.a", active=False)
    assert not [c for c in FALLOUT.legal_actions(state, 0) if c["type"] == "fight"]
    with pytest.raises(RuleViolation) as err:
        FALLOUT.decide(state, 0, {"type": "fight", "enemy": rat}, Rng("refused"))
    assert err.value.code == "enemy_inactive"


def test_enemies_killed_enemy_is_replaced_face_down_on_the_nearest_icon() -> None:
    """Enemies, Killed: a new token of the type goes face down on the nearest matching enemy icon."""
    state, rat = add_enemy(keeper_game(), "rat", "camp.a")
    state, events = play(state, 0, {"type": "fight", "enemy": rat}, ScriptedRng(BODY, BLANK, BLANK))
    placed = data(events, "EnemyPlaced")
    assert len(placed) == 1 and placed[0]["space"] == "ruins.a" and not placed[0]["active"]
    assert placed[0]["type"] == "critter" and placed[0]["reason"] == "replacement"
    assert "rat" in state.enemy_discards["critter"]


def test_enemies_replacement_tie_is_the_first_players_choice() -> None:
    """Enemies: equally near matching icons: the first player chooses the space."""
    state = keeper_game()
    places = tuple(
        replace(p, tile="marsh", faceup=True) if p.id == "se" else replace(p, tile="bog") if p.id == "ne" else p
        for p in state.places
    )
    state = survivor(replace(state, places=places), 0, space="ruins.b")
    state, rat = add_enemy(state, "rat", "ruins.b")
    state, _ = play(state, 0, {"type": "fight", "enemy": rat}, ScriptedRng(BODY, BLANK, BLANK))
    assert state.pending.kind == "replacement_space" and state.pending.seat == state.first_player
    assert [c["space"] for c in state.pending.choices] == ["marsh.a", "ruins.a"]
    state, events = play(state, 0, {"type": "choose_space", "space": "marsh.a"})
    assert data(events, "EnemyPlaced")[0]["space"] == "marsh.a"


def test_faction_tokens_are_not_replaced_and_discarded_instead_of_inactive() -> None:
    """Faction Tokens: a killed faction token is not replaced; one that would become inactive is discarded."""
    state, guard = add_enemy(keeper_game(), "star_guard", "camp.a", faction="star")
    state, events = play(state, 0, {"type": "fight", "enemy": guard}, ScriptedRng(BODY, BLANK, BLANK))
    assert "EnemyKilled" in types(events) and "EnemyPlaced" not in types(events)
    state, guard = add_enemy(state, "star_guard", "camp.a", faction="star")
    state = replace(state, turn=replace(state.turn, actions=1))
    state, events = play(state, 0, {"type": "fight", "enemy": guard}, ScriptedRng(BLANK, BLANK, BLANK))
    assert "EnemyDiscarded" in types(events) and state.enemy(guard) is None


def test_faction_power_track_sets_letter_levels() -> None:
    """Faction Power Track: a letter level (X) is read off the track for that faction."""
    state, bot = add_enemy(keeper_game(), "bot", "camp.a")
    token = enemies.token_of(state, state.enemy(bot))
    assert enemies.level(state, token) == 1
    state = replace(state, power=(1, 0))
    assert enemies.level(state, token) == 2
    state, events = play(state, 0, {"type": "fight", "enemy": bot}, ScriptedRng(HIT, HIT, BLANK))
    assert data(events, "FightResolved")[0]["damage"] == 2  # (2 hits - 1 armor) x 2


def test_component_limitations_empty_enemy_stack_reshuffles_its_discards() -> None:
    """Component Limitations: an empty enemy stack is made again from its shuffled discards."""
    state, rat = add_enemy(keeper_game(), "rat", "camp.a")
    state = replace(
        state,
        enemy_stacks={**state.enemy_stacks, "critter": ()},
        enemy_discards={**state.enemy_discards, "critter": ("beetle",)},
    )
    state, events = play(state, 0, {"type": "fight", "enemy": rat}, ScriptedRng(BODY, BLANK, BLANK))
    reshuffled = data(events, "EnemyStackReshuffled")[0]
    assert reshuffled["type"] == "critter" and sorted(reshuffled["order"]) == ["beetle", "rat"]
    assert state.enemy_discards["critter"] == ()
    placed = data(events, "EnemyPlaced")[0]
    assert placed["token"] == reshuffled["order"][0]
