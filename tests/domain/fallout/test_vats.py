"""Tests and V.A.T.S. Dice: roll three dice, reroll per matching token, compare hits."""

from __future__ import annotations

from domain.fallout import traits, vats
from domain.fallout.game import FALLOUT
from domain.fallout.rulebook import Resolution
from domain.fallout.state import WELL_RESTED
from tests.domain.fallout.fixtures import (
    BLANK,
    HIT,
    HIT_BODY_ARMS,
    TWO_HITS_LEGS,
    ScriptedRng,
    fold,
    play,
    quiet_game,
    survivor,
    types,
)


def scout() :
    return survivor(quiet_game(1), 0, special=(("P", "p1"), ("L", "l1")))


def start_test(state, letters, difficulty, *faces):
    res = Resolution(state, ScriptedRng(*faces))
    vats.start_test(res, 0, letters, difficulty, then={"encounter": "x"})
    from domain.fallout.advance import advance

    advance(res, 0)
    return fold(state, res.events), res.events


def test_tests_succeed_when_hits_reach_the_difficulty() -> None:
    """Tests: with no matching token there is no reroll; hits >= difficulty succeeds."""
    state = scout()  # P and L
    state, events = start_test(state, ["S"], 3, HIT, TWO_HITS_LEGS, BLANK)
    resolved = [e for e in events if e.type == "TestResolved"][0].data
    assert resolved["hits"] == 3 and resolved["success"] and resolved["then"] == {"encounter": "x"}
    assert state.roll is None and state.pending is None


def test_tests_one_reroll_per_matching_token_each_on_any_subset() -> None:
    """Tests: one reroll per listed letter the survivor has, spent one at a time on any dice."""
    state = scout()
    state, _ = start_test(state, ["P", "P"], 4, BLANK, BLANK, HIT)
    decision = state.pending
    assert decision.kind == "reroll" and decision.seat == 0 and state.roll.rerolls == 2
    rerolls = [c["dice"] for c in decision.choices if c["type"] == "reroll"]
    assert sorted(map(tuple, rerolls)) == [(0,), (0, 1), (0, 1, 2), (0, 2), (1,), (1, 2), (2,)]
    state, events = play(state, 0, {"type": "reroll", "dice": [1, 0]}, ScriptedRng(TWO_HITS_LEGS, HIT))
    assert state.roll.faces == (TWO_HITS_LEGS, HIT, HIT) and state.roll.rerolls == 1
    state, events = play(state, 0, {"type": "keep_dice"})
    resolved = [e for e in events if e.type == "TestResolved"][0].data
    assert resolved["hits"] == 4 and resolved["success"]


def test_tests_fail_below_the_difficulty_after_the_last_reroll() -> None:
    """Tests: when the rerolls are spent the result resolves; fewer hits than the difficulty fails."""
    state = scout()
    state, _ = start_test(state, ["P"], 3, BLANK, BLANK, BLANK)
    state, events = play(state, 0, {"type": "reroll", "dice": [0]}, ScriptedRng(HIT))
    resolved = [e for e in events if e.type == "TestResolved"][0].data
    assert resolved == {**resolved, "hits": 1, "success": False}


def test_traits_well_rested_may_be_given_up_for_one_reroll() -> None:
    """Traits (Well Rested): lose it during a test to generate one reroll."""
    state = scout()
    res = Resolution(state, ScriptedRng())
    traits.gain(res, 0, WELL_RESTED)
    state = fold(state, res.events)
    state, _ = start_test(state, ["S", "C", "I"], 2, BLANK, BLANK, BLANK)
    assert state.pending.kind == "reroll"
    assert [c["type"] for c in state.pending.choices] == ["give_up_well_rested", "keep_dice"]
    state, events = play(state, 0, {"type": "give_up_well_rested"})
    assert not state.survivor(0).has_trait(WELL_RESTED)
    assert state.roll.rerolls == 1
    state, events = play(state, 0, {"type": "reroll", "dice": [0, 1, 2]}, ScriptedRng(HIT, HIT_BODY_ARMS, BLANK))
    assert [e for e in events if e.type == "TestResolved"][0].data["success"]


def test_tests_reroll_choices_are_the_legal_actions() -> None:
    """V.A.T.S. Dice: every reroll choice is listed by legal_actions and only for the rolling seat."""
    state = scout()
    state, _ = start_test(state, ["P"], 9, BLANK, BLANK, BLANK)
    assert FALLOUT.legal_actions(state, 0) == list(state.pending.choices)
    assert types(FALLOUT.decide(state, 0, {"type": "reroll", "dice": [2, 1]}, ScriptedRng(0, 0)))[:2] == [
        "DecisionMade", "DiceRerolled"
    ]
