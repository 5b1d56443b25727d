"""Quest Action, Quest Cards, Card Library, Results, Solo Play (another survivor)."""

from __future__ import annotations

from dataclasses import replace

from domain.fallout.game import FALLOUT
from domain.fallout.state import Turn
from tests.domain.fallout.fixtures import (
    BLANK,
    BODY,
    HIT,
    TWO_HITS_LEGS,
    ScriptedRng,
    add_enemy,
    data,
    full_game,
    new_game,
    play,
    refused,
    settle,
    survivor,
    types,
)
from tests.domain.fallout.test_items import resolve


def test_quest_cards_staged_at_setup_execute_their_top_section() -> None:
    """Quest Cards, Scenario, Complete Setup: the staged quest's top section places its marker; the setup effects
    place a faction token."""
    state = new_game(2, ["scout", "keeper"], pack="mini2")
    assert state.quests == ("q_signal",) and state.markers == (("q_signal", "ruins.c"),)
    assert [(e.faction, e.space, e.active) for e in state.enemies if e.faction] == [("spade", "ruins.b", True)]
    assert "q_signal" in state.library_out


def test_quest_cards_triggered_objective_completes_by_itself() -> None:
    """Quest Cards (triggered objectives): killing a critter completes "Clear the ruins": 1 XP, ★+."""
    state, rat = add_enemy(full_game(1, special=(("P", "p1"), ("L", "l1"))), "rat", "camp.a")
    state, events = play(state, 0, {"type": "fight", "enemy": rat}, ScriptedRng(BODY, BLANK, BLANK))
    state, events = settle(state)
    assert data(events, "ObjectiveCompleted") == [{"seat": 0, "quest": "q_signal", "objective": 0}]
    assert state.power == (1, 0) and "q_signal" in state.quests  # not trashed: it stays


def test_quest_action_requirement_instructions_and_results_left_to_right() -> None:
    """Quest Action, Quest Cards, Results: at the marker, test P 2; succeed: agenda, 2 Caps, add 104, remove the
    marker, trash (the vault 109 deck is created)."""
    state = full_game(1, space="ruins.c", special=(("P", "p1"), ("L", "l1")))
    assert refused(survivor(state, 0, space="camp.a"), 0, {"type": "quest", "quest": "q_signal", "objective": 1}).code \
        == "requirement_not_met"
    assert {"type": "quest", "quest": "q_signal", "objective": 1} in FALLOUT.legal_actions(state, 0)
    state, _ = play(state, 0, {"type": "quest", "quest": "q_signal", "objective": 1}, ScriptedRng(HIT, HIT, BLANK))
    state, events = settle(state)
    order = [e.type for e in events if e.type in ("AgendaDrawn", "CapsGained", "CardAdded", "MarkersRemoved", "CardTrashed")]
    assert order == ["AgendaDrawn", "CapsGained", "CardAdded", "MarkersRemoved", "CardTrashed"]
    assert state.quests == () and state.markers == () and state.encounter_decks["vault109"] == ("v_lab",)
    assert len(state.survivor(0).agendas) == 2 and state.turn.actions == 1


def test_quest_action_fails_when_an_instruction_fails_and_not_with_a_faceup_enemy() -> None:
    """Quest Action: failing the test completes nothing; no quest action with a face-up enemy in the space."""
    state = full_game(1, space="ruins.c", special=(("P", "p1"), ("L", "l1")))
    state, _ = play(state, 0, {"type": "quest", "quest": "q_signal", "objective": 1}, ScriptedRng(BLANK, BLANK, BLANK))
    state, events = settle(state, rng=ScriptedRng(BLANK, BLANK, BLANK))
    assert data(events, "QuestActionResolved")[0]["success"] is False
    assert "ObjectiveCompleted" not in types(events) and state.quests == ("q_signal",)
    state, _ = add_enemy(full_game(1, space="ruins.c"), "rat", "ruins.c")
    assert refused(state, 0, {"type": "quest", "quest": "q_signal", "objective": 1}).code == "enemy_in_space"


def test_card_library_stage_and_add_never_reveal_other_cards() -> None:
    """Card Library, Results (stage #, add #): stage 202 from an encounter; add shuffles the card with as many
    cards from the top of its deck as players and puts them on top; the seats see neither card nor order."""
    state = full_game(2, ["scout", "keeper"], caps=3)
    state = replace(state, encounter_decks={**state.encounter_decks, "settlement": ("s_tavern", "s_market")})
    state, _ = play(state, 0, {"type": "encounter"})
    state, events = play(state, 0, {"type": "choose_option", "option": 1})
    assert "q_debts" in state.quests and state.survivor(0).caps == 1
    # Next turn, at the ruins: w_burrow's kill adds 101 to a deck of two more cards.
    state = replace(
        survivor(state, 0, space="ruins.c"), turn=Turn(0),
        encounter_decks={**state.encounter_decks, "wasteland": ("w_burrow", "w_wreck", "w_cache")},
        enemy_stacks={**state.enemy_stacks, "critter": ("rat",)},
    )
    state, _ = play(state, 0, {"type": "encounter"})
    state, _ = play(state, 0, {"type": "choose_option", "option": 0}, ScriptedRng(BODY, BLANK, BLANK))
    state, events = settle(state)
    added = data(events, "CardAdded")[0]
    assert added["number"] == 101 and sorted(added["order"]) == ["w_cache", "w_tracks", "w_wreck"]
    assert state.encounter_decks["wasteland"][:3] == tuple(added["order"])
    seen = FALLOUT.redact(next(e for e in events if e.type == "CardAdded"), 1).data
    assert seen["card"] is None and seen["order"] == [None, None, None]


def test_solo_play_quest_needing_another_survivor() -> None:
    """Solo Play: "with another survivor" means a settlement space; the other survivor's test counts as 3 hits."""
    state = full_game(1)
    state = replace(state, quests=state.quests + ("q_debts",))
    assert {"type": "quest", "quest": "q_debts", "objective": 0} in FALLOUT.legal_actions(state, 0)
    state, events = play(state, 0, {"type": "quest", "quest": "q_debts", "objective": 0})
    assert data(events, "TaskDone")[0] == {"seat": 0, "success": True, "assumed": 3}
    assert state.power == (0, 2) and "q_debts" not in state.quests
    assert {"type": "quest", "quest": "q_debts", "objective": 0} not in FALLOUT.legal_actions(
        replace(full_game(1, space="camp.b"), quests=("q_debts",)), 0)


def test_quest_action_a_partner_rolls_the_test_in_a_multiplayer_game() -> None:
    """Quest Cards, Tests: another survivor in the space makes the test; they decide its rerolls."""
    state = full_game(2, ["scout", "voice"])
    state = survivor(state, 1, space="camp.a", special=(("C", "c1"), ("L", "l1")))
    state = replace(state, quests=("q_debts",))
    state, _ = play(state, 0, {"type": "quest", "quest": "q_debts", "objective": 0}, ScriptedRng(TWO_HITS_LEGS, BLANK, BLANK))
    assert state.pending.seat == 1 and state.pending.kind == "reroll"
    state, events = settle(state, seat=1)
    assert data(events, "ObjectiveCompleted") and state.survivor(0).caps == 3 + 3


def test_quest_cards_triggered_by_exploring_and_entering() -> None:
    """Quest Cards (triggered objectives): explore a dangerous tile; enter a space."""
    state = replace(full_game(1), quests=("q_debts", "q_camp"))
    state, events = play(state, 0, {"type": "explore", "place": "ne"})
    assert [d["quest"] for d in data(events, "ObjectiveCompleted")] == ["q_debts"]
    state = replace(full_game(1), quests=("q_camp",))
    state, _ = play(state, 0, {"type": "move"})
    state, _ = play(state, 0, {"type": "move"})
    state, events = play(state, 0, {"type": "step", "to": "camp.c"})
    assert data(events, "ObjectiveCompleted") == [{"seat": 0, "quest": "q_camp", "objective": 0}]
    assert state.survivor(0).caps == 4


def test_trash_returns_the_card_to_the_box_for_good() -> None:
    """Trash, Results: a trashed quest leaves play with its markers and goes back to the box: a later STAGE of
    its number finds nothing; a trashed encounter card is not put back under its deck."""
    state = full_game(1, space="ruins.c", special=(("P", "p1"), ("L", "l1")))
    state, _ = play(state, 0, {"type": "quest", "quest": "q_signal", "objective": 1}, ScriptedRng(HIT, HIT, BLANK))
    state, events = settle(state)
    assert "q_signal" in state.trashed and state.quests == () and state.markers == ()
    state, events = resolve(state, 0, [{"stage": 201}])
    assert data(events, "LibraryCardUnavailable") == [{"number": 201}] and state.quests == ()
    wreck = replace(survivor(state, 0, space="ruins.c", traits=(("reputation", "vilified"),)), turn=Turn(seat=0))
    wreck = replace(wreck, encounter_decks={**wreck.encounter_decks, "wasteland": ("w_wreck", "w_cache")})
    wreck, _ = play(wreck, 0, {"type": "encounter"})
    wreck, _ = play(wreck, 0, {"type": "choose_option", "option": 1})  # its results end with "trash"
    assert "w_wreck" in wreck.trashed and wreck.encounter_decks["wasteland"] == ("w_cache",)
