"""Actions, Turns, Rounds and the Move Action / Terrain."""

from __future__ import annotations

import pytest

from domain.fallout.game import FALLOUT
from domain.game import SYSTEM, Refusal, RuleViolation
from domain.rng import Rng
from tests.domain.fallout.fixtures import add_enemy, play, quiet_game, survivor, types


def violation(state, seat, command) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        FALLOUT.decide(state, seat, command, Rng("refused"))
    return err.value


def test_actions_two_per_turn_and_the_same_action_repeats() -> None:
    """Actions: two actions per turn; the same action may be performed twice."""
    state = quiet_game(2)
    state, _ = play(state, 0, {"type": "move"})
    state, _ = play(state, 0, {"type": "move"})
    assert state.turn.seat == 0 and state.turn.actions == 0 and state.turn.movement == 4
    assert {"type": "move"} not in FALLOUT.legal_actions(state, 0)
    assert violation(state, 0, {"type": "move"}).code == "no_actions_left"


def test_actions_skipped_actions_are_lost() -> None:
    """Actions: a survivor may skip actions; they are lost, not carried over."""
    state = quiet_game(2)
    state, events = play(state, 0, {"type": "end_turn"})
    assert "TurnEnded" in types(events)
    assert state.turn.seat == 1 and state.turn.actions == 2


def test_turns_only_the_active_seat_acts() -> None:
    """Turns: only the survivor whose turn it is acts; others get not_your_turn."""
    state = quiet_game(2)
    err = violation(state, 1, {"type": "move"})
    assert err.code == "not_your_turn" and err.kind is Refusal.NOT_NOW
    assert FALLOUT.legal_actions(state, 1) == []
    assert violation(state, 0, {"type": "dance"}).code == "unknown_command"
    assert violation(state, 0, {"type": "dance"}).kind is Refusal.MALFORMED


def test_actions_only_the_move_action_can_be_interrupted() -> None:
    """Move Action / Actions: the second movement point may be spent after one other action."""
    state = quiet_game(1)
    state, _ = play(state, 0, {"type": "move"})
    state, _ = play(state, 0, {"type": "step", "to": "camp.b"})
    state, _ = play(state, 0, {"type": "camp"})
    assert state.turn.actions == 0 and state.turn.movement == 1
    state, events = play(state, 0, {"type": "step", "to": "camp.a"})
    assert state.survivor(0).space == "camp.a"
    # Both actions and all points spent: the turn ends by itself.
    assert "TurnEnded" in types(events)


def test_move_action_gives_two_points_and_difficult_terrain_costs_one_more() -> None:
    """Move Action, Terrain: 2 points; entering difficult terrain needs an additional point."""
    state = quiet_game(1)
    state, _ = play(state, 0, {"type": "move"})
    state, _ = play(state, 0, {"type": "step", "to": "camp.b"})
    assert state.turn.movement == 1
    assert {"type": "step", "to": "camp.c"} not in FALLOUT.legal_actions(state, 0)
    assert violation(state, 0, {"type": "step", "to": "camp.c"}).code == "not_enough_movement"
    # The two points to enter need not come from the same move action.
    state, _ = play(state, 0, {"type": "move"})
    state, _ = play(state, 0, {"type": "step", "to": "camp.c"})
    assert state.survivor(0).space == "camp.c" and state.turn.movement == 1


def test_move_action_steps_only_to_adjacent_face_up_spaces() -> None:
    """Move Action, Spaces: a step goes to an adjacent space; face-down tiles are not spaces to enter."""
    state = quiet_game(1)
    assert violation(state, 0, {"type": "step", "to": "camp.b"}).code == "no_movement_left"
    state, _ = play(state, 0, {"type": "move"})
    assert violation(state, 0, {"type": "step", "to": "ruins.a"}).code == "not_adjacent"
    assert violation(state, 0, {"type": "step", "to": "bog.b"}).code == "not_adjacent"
    assert violation(state, 0, {"type": "step", "to": "nowhere"}).kind is Refusal.MALFORMED
    steps = {c["to"] for c in FALLOUT.legal_actions(state, 0) if c["type"] == "step"}
    assert steps == {"camp.b", "camp.c", "ruins.c"}  # camp.c costs 2, which the move just gave


def test_terrain_irradiated_gives_one_rad_on_entering() -> None:
    """Terrain: a survivor suffers one rad when moving into an irradiated space."""
    state = survivor(quiet_game(1), 0, space="ruins.a")
    state, _ = play(state, 0, {"type": "move"})
    state, events = play(state, 0, {"type": "step", "to": "ruins.b"})
    assert state.survivor(0).rads == 1
    assert events[0].data["rads"] == 1


def test_move_action_entering_an_aggressive_enemy_space_fights_it() -> None:
    """Enemy Abilities (aggressive): a survivor moving into its space fights it at once, no action spent."""
    state = quiet_game(1)
    state, roach = add_enemy(state, "roach", "camp.b")
    state, _ = play(state, 0, {"type": "move"})
    state, events = play(state, 0, {"type": "step", "to": "camp.b"})
    started = [e for e in events if e.type == "FightStarted"]
    assert started and started[0].data == {"seat": 0, "enemy": roach, "cause": "aggressive", "at_range": False}
    assert state.turn.actions == 1


def test_move_action_survivor_orders_several_aggressive_fights() -> None:
    """Enemy Abilities (aggressive): entering a space with several, the survivor picks the order."""
    state = quiet_game(1)
    state, a = add_enemy(state, "roach", "camp.b")
    state, b = add_enemy(state, "hound", "camp.b")
    state, _ = add_enemy(state, "rat", "camp.b")  # not aggressive: no fight
    state, _ = play(state, 0, {"type": "move"})
    state, _ = play(state, 0, {"type": "step", "to": "camp.b"})
    assert state.pending.kind == "order_attacks"
    assert [c["enemy"] for c in state.pending.choices] == [a, b]
    state, events = play(state, 0, {"type": "order_attacks", "enemy": b})
    assert [e.data["enemy"] for e in events if e.type == "FightStarted"][0] == b


def test_rounds_run_clockwise_from_the_first_player_then_the_round_end() -> None:
    """Rounds: each player takes one turn from the first player clockwise; then the round end."""
    state = quiet_game(3, first=1)
    seen = []
    for _ in range(3):
        seen.append(state.turn.seat)
        state, _ = play(state, state.turn.seat, {"type": "end_turn"})
    assert seen == [1, 2, 0]
    assert state.round_end_due and state.turn is None
    assert FALLOUT.system_command(state) == {"type": "round_end"}
    assert FALLOUT.waiting_for(state) == []
    assert violation(state, 1, {"type": "move"}).code == "round_end_in_progress"
    state, events = play(state, SYSTEM, {"type": "round_end"})
    assert types(events)[0] == "AgendaRevealed"
    assert state.turn.seat == 1 and state.round == 2


def test_rounds_round_end_not_due_is_refused() -> None:
    """Rounds: running the round end when it is not due raises round_end_not_due, appending nothing."""
    state = quiet_game(2)
    assert FALLOUT.system_command(state) is None
    err = violation(state, SYSTEM, {"type": "round_end"})
    assert err.code == "round_end_not_due"


def test_actions_rejected_commands_change_nothing() -> None:
    """Actions: decide only returns events; a refused command leaves the state as it was."""
    state = quiet_game(1)
    before = FALLOUT.dump_state(state)
    for command in ({"type": "step", "to": "camp.b"}, {"type": "fight", "enemy": "e99"}, {"type": "keep_dice"}):
        with pytest.raises(RuleViolation):
            FALLOUT.decide(state, 0, command, Rng("refused"))
    assert FALLOUT.dump_state(state) == before


def test_first_player_passing_does_not_change_whose_turn_is_next() -> None:
    """First Player: when the deck passes, whose turn is next does not change."""
    state = quiet_game(3, first=0)
    for _ in range(3):
        state, _ = play(state, state.turn.seat, {"type": "end_turn"})
    # Force the last agenda card: the deck runs out at this round end.
    from dataclasses import replace
    state = replace(state, agenda_deck=state.agenda_deck[:1])
    state, events = play(state, SYSTEM, {"type": "round_end"})
    assert "AgendaDeckReshuffled" in types(events)
    assert state.first_player == 2  # passed to the right
    assert state.turn.seat == 0  # the turn that was next
    # The round now ends before the new first player's turn.
    state, _ = play(state, 0, {"type": "end_turn"})
    state, _ = play(state, 1, {"type": "end_turn"})
    assert state.round_end_due


def test_actions_malformed_commands_are_unknown() -> None:
    """Actions: a command that is not a known action is refused with 422 unknown_command."""
    state = quiet_game(1)
    for command in ({}, {"type": ["move"]}, {"type": None}, {"type": "teleport"}):
        err = violation(state, 0, command)
        assert err.code == "unknown_command" and err.kind is Refusal.MALFORMED
