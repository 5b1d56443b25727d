"""HP Track, Killed, XP, Leveling Up, Traits, Camp Action."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.fallout import results, traits, xp
from domain.fallout.game import FALLOUT
from domain.fallout.rulebook import Resolution
from domain.fallout.state import MAX_HP, WELL_RESTED
from domain.game import RuleViolation
from domain.rng import Rng
from tests.domain.fallout.fixtures import (
    BLANK,
    BODY,
    HIT,
    ScriptedRng,
    add_enemy,
    fold,
    play,
    quiet_game,
    survivor,
    types,
)


def data(events, type_):
    return [e.data for e in events if e.type == type_]


def test_hp_track_killed_when_hp_reaches_rads_and_respawns_on_the_start_tile() -> None:
    """HP Track, Killed: killed at HP <= rads; inventory discarded, equipped kept, rads kept, HP full."""
    state = quiet_game(2)
    state = survivor(state, 0, hp=4, rads=2, inventory=("stim",), space="camp.a", special=(("S", "s1"), ("L", "l1")))
    state, raider = add_enemy(state, "raider", "camp.a")
    state, events = play(state, 0, {"type": "fight", "enemy": raider}, ScriptedRng(HIT, BLANK, BLANK))
    assert state.pending.kind == "respawn" and state.pending.seat == 0  # HP 2 <= rads 2
    assert data(events, "FightResolved")[0]["hits"] == 0  # the fight stopped: no survivor hits
    assert "XPGained" not in types(events)
    s = state.survivor(0)
    assert s.space is None and s.inventory == () and s.equipped == ("rifle",) and s.rads == 2 and s.hp == MAX_HP
    assert state.enemy(raider).active
    spaces = [c["space"] for c in state.pending.choices]
    assert spaces == ["camp.a", "camp.b", "camp.c"]
    state, events = play(state, 0, {"type": "respawn", "space": "camp.c"})
    assert state.survivor(0).space == "camp.c"
    # Killed during the own turn: the turn ended at once.
    assert "TurnEnded" in types(events) and state.turn.seat == 1


def test_killed_by_rads_from_irradiated_terrain() -> None:
    """HP Track: rads count too; entering an irradiated space can kill."""
    state = survivor(quiet_game(1), 0, space="ruins.a", hp=5, rads=4)
    state, _ = play(state, 0, {"type": "move"})
    state, events = play(state, 0, {"type": "step", "to": "ruins.b"})
    assert "SurvivorKilled" in types(events) and state.pending.kind == "respawn"


def test_killed_eliminated_at_maximum_rads_and_first_player_passes_right() -> None:
    """Killed: still killed at full HP (rads at maximum) is eliminated; the deck passes to the right."""
    state = quiet_game(3, first=0)
    state = survivor(state, 0, hp=MAX_HP, rads=MAX_HP - 1, space="ruins.a")
    state, _ = play(state, 0, {"type": "move"})
    state, events = play(state, 0, {"type": "step", "to": "ruins.b"})
    killed = data(events, "SurvivorKilled")[0]
    assert killed["eliminated"]
    assert state.survivor(0).eliminated and state.first_player == 2
    assert state.turn.seat == 1
    assert FALLOUT.legal_actions(state, 0) == []


def test_killed_every_survivor_eliminated_ends_the_game() -> None:
    """Killed: when no survivor is left, the game ends and everyone lost."""
    state = survivor(quiet_game(1), 0, rads=MAX_HP - 1, space="ruins.a")
    state, _ = play(state, 0, {"type": "move"})
    state, events = play(state, 0, {"type": "step", "to": "ruins.b"})
    assert FALLOUT.is_over(state) and state.result == "lost"
    with pytest.raises(RuleViolation) as err:
        FALLOUT.decide(state, 0, {"type": "move"}, Rng("refused"))
    assert err.value.code == "game_over"


def test_xp_peg_moves_under_each_token_and_wraps_to_level_up() -> None:
    """XP: the peg moves under the next token the survivor has; past the rightmost it wraps: level up."""
    assert xp.move_peg(("P", "L"), None, 1) == ("P", 0)
    assert xp.move_peg(("P", "L"), "P", 1) == ("L", 0)
    assert xp.move_peg(("P", "L"), "L", 1) == (None, 1)
    assert xp.move_peg(("P", "L"), None, 7) == ("P", 2)  # three XP a level with two tokens


def test_leveling_up_draw_two_keep_one_and_duplicates_become_perks() -> None:
    """Leveling Up: draw two tokens, keep one; a letter already held becomes a perk of that letter."""
    state = survivor(quiet_game(1), 0, special=(("P", "p1"), ("L", "l1")), xp="L")
    state = replace(state, special_supply=("p2", "s2"))
    res = Resolution(state, Rng("x"))
    xp.gain(res, 0, 1)
    from domain.fallout.advance import advance

    advance(res, 0)
    state = fold(state, res.events)
    assert state.pending.kind == "choose_special"
    assert [c["letter"] for c in state.pending.choices] == ["S", "P"]
    state, events = play(state, 0, {"type": "choose_special", "letter": "P"})
    assert state.pending.kind == "choose_perk"
    assert [c["perk"] for c in state.pending.choices] == ["perk_p", "perk_p2"]
    assert sorted(state.special_supply) == ["p2", "s2"]  # the duplicate is discarded, the other returned
    state, events = play(state, 0, {"type": "choose_perk", "perk": "perk_p2"})
    assert state.survivor(0).perks == ("perk_p2",) and "perk_p2" not in state.perk_deck
    assert state.leveling is None and state.pending is None


def test_leveling_up_new_letter_is_added_in_order() -> None:
    """Leveling Up: a token the survivor does not have goes on the board; the other goes back."""
    state = survivor(quiet_game(1), 0, special=(("P", "p1"), ("L", "l1")), xp="L")
    state = replace(state, special_supply=("e2", "s2"))
    res = Resolution(state, Rng("x"))
    xp.gain(res, 0, 1)
    from domain.fallout.advance import advance

    advance(res, 0)
    state = fold(state, res.events)
    state, _ = play(state, 0, {"type": "choose_special", "letter": "E"})
    assert state.survivor(0).letters == ("P", "E", "L")
    assert state.special_supply == ("s2",)


def test_leveling_up_perk_fallback_to_any_letter_held() -> None:
    """Leveling Up: no perk of the chosen letter: any perk of a letter the survivor has; none: nothing."""
    state = survivor(quiet_game(1), 0, special=(("P", "p1"), ("L", "l1")))
    res = Resolution(replace(state, perk_deck=("perk_s", "perk_p")), Rng("x"))
    assert xp.perk_choices(res, state.survivor(0), "L") == ["perk_p"]
    res = Resolution(replace(state, perk_deck=("perk_s",)), Rng("x"))
    assert xp.perk_choices(res, state.survivor(0), "L") == []


def test_traits_gain_flip_lock_and_lose() -> None:
    """Traits: gaining the other side flips the token; a lock stops the flip; losing discards even locked."""
    state = quiet_game(1)
    res = Resolution(state, Rng("x"))
    traits.gain(res, 0, "idolized")
    traits.gain(res, 0, "vilified")
    assert res.state.survivor(0).traits == (("reputation", "vilified"),)
    traits.gain(res, 0, "addicted")
    traits.gain(res, 0, WELL_RESTED)  # addicted shows the lock: no flip
    assert dict(res.state.survivor(0).traits)["wellbeing"] == "addicted"
    traits.lose(res, 0, "addicted")
    assert "wellbeing" not in dict(res.state.survivor(0).traits)
    assert fold(state, res.events) == res.state


def test_camp_action_recovers_unexhausts_and_rests() -> None:
    """Camp Action: recover 3 HP, unexhaust all cards, become Well Rested."""
    state = survivor(quiet_game(1), 0, hp=10, exhausted=("rifle",))
    state, events = play(state, 0, {"type": "camp"})
    s = state.survivor(0)
    assert s.hp == 13 and s.exhausted == () and s.has_trait(WELL_RESTED)
    state = survivor(state, 0, hp=15)
    state, _ = play(state, 0, {"type": "camp"})
    assert state.survivor(0).hp == MAX_HP


def test_camp_action_forbidden_with_a_face_up_enemy() -> None:
    """Camp Action: not in the same space as a face-up enemy (an inactive one does not stop it)."""
    state = survivor(quiet_game(1), 0, space="camp.a")
    state, _ = add_enemy(state, "rat", "camp.a", active=False)
    assert {"type": "camp"} in FALLOUT.legal_actions(state, 0)
    state, _ = add_enemy(state, "rat", "camp.a")
    assert {"type": "camp"} not in FALLOUT.legal_actions(state, 0)
    with pytest.raises(RuleViolation) as err:
        FALLOUT.decide(state, 0, {"type": "camp"}, Rng("refused"))
    assert err.value.code == "enemy_in_space"


def test_fight_well_rested_reroll_in_a_fight() -> None:
    """Traits (Well Rested): given up during a fight for one reroll."""
    state = survivor(quiet_game(1, ["keeper"]), 0, special=(("E", "e1"), ("L", "l1")), traits=(("wellbeing", "well_rested"),))
    state, rat = add_enemy(state, "rat", "camp.a")
    state = survivor(state, 0, space="camp.a")
    state, _ = play(state, 0, {"type": "fight", "enemy": rat}, ScriptedRng(BLANK, BLANK, BLANK))
    state, _ = play(state, 0, {"type": "give_up_well_rested"})
    state, events = play(state, 0, {"type": "reroll", "dice": [0]}, ScriptedRng(BODY))
    assert data(events, "FightResolved")[0]["enemy_killed"]


def test_damage_lowers_hp_never_below_zero_and_recovering_never_above_sixteen() -> None:
    """Damage, HP Track: suffering damage lowers HP by that amount; HP stays between 0 and its maximum, so
    recovering more than was lost stops at 16."""
    state = survivor(quiet_game(1), 0, hp=10, rads=0, space="camp.a")
    res = Resolution(state, Rng("damage"))
    results.push(res, 0, "test", "item", 1, [{"damage": 3}])
    results.settle(res)
    assert res.state.survivor(0).hp == 7
    results.push(res, 0, "test", "item", 1, [{"recover": 20}])
    results.settle(res)
    assert res.state.survivor(0).hp == MAX_HP
    results.push(res, 0, "test", "item", 1, [{"damage": 40}])
    results.settle(res)
    assert "SurvivorKilled" in types(res.events)  # 0 HP <= 0 rads: killed, never negative HP
    assert all(e.data.get("hp", 0) >= 0 for e in res.events)


def test_rads_raise_the_rads_peg_and_shrink_the_remaining_hp() -> None:
    """Rads, HP Track: suffering rads raises the rads value; the remaining HP is HP minus rads (12 HP, 3 rads:
    9), which is what ties are broken on; removing rads never goes below 0."""
    state = survivor(quiet_game(2), 0, hp=12, rads=1, space="camp.a")
    state = survivor(state, 1, hp=11, rads=0, space="camp.a")
    res = Resolution(state, Rng("rads"))
    results.push(res, 0, "test", "item", 1, [{"rads": 2}])
    results.settle(res)
    assert res.state.survivor(0).rads == 3 and res.state.survivor(0).remaining_hp == 9
    assert res.state.survivor(0).remaining_hp < res.state.survivor(1).remaining_hp
    results.push(res, 0, "test", "item", 1, [{"remove_rads": 5}])
    results.settle(res)
    assert res.state.survivor(0).rads == 0


def test_dying_is_being_killed_at_full_rads_eliminated_with_everything_discarded() -> None:
    """Dying, Killed: a survivor whose rads are at the maximum dies for good: eliminated, their tokens back
    to the supply, their agendas discarded; the others play on."""
    state = quiet_game(2, first=0)
    state = survivor(state, 0, hp=MAX_HP, rads=MAX_HP - 1, space="ruins.a", agendas=("ag3",), caps=4)
    tokens = {token for _, token in state.survivor(0).special}
    state, _ = play(state, 0, {"type": "move"})
    state, events = play(state, 0, {"type": "step", "to": "ruins.b"})
    assert data(events, "SurvivorKilled")[0]["eliminated"]
    gone = state.survivor(0)
    assert gone.eliminated and gone.special == () and gone.agendas == () and gone.caps == 0
    assert tokens <= set(state.special_supply) and "ag3" in state.agenda_discard
    assert not FALLOUT.is_over(state) and state.first_player == 1 and FALLOUT.legal_actions(state, 0) == []


def test_survivors_each_board_tracks_hp_rads_xp_tokens_traits_and_cards() -> None:
    """Survivors: each survivor's board tracks HP, rads, XP, S.P.E.C.I.A.L. tokens and traits, with the equipped
    cards and the inventory; every seat sees all of it (but the agenda cards of others)."""
    state = survivor(quiet_game(2), 1, hp=9, rads=2, xp="L", traits=(("reputation", "vilified"),),
                     inventory=("stim",))
    for seat in (0, 1):
        board = FALLOUT.view(state, seat)["survivors"][1]
        assert (board["hp"], board["rads"], board["xp"]) == (9, 2, "L")
        assert board["traits"] == [["reputation", "vilified"]]
        assert board["equipped"] == ["vest"] and board["inventory"] == ["stim"]
        assert [letter for letter, _ in board["special"]] == [letter for letter, _ in state.survivor(1).special]
