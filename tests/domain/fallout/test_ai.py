"""Fallout's AI (``FALLOUT.ai``): how a seat scores its own view, and what bots leave alone."""

from __future__ import annotations

from typing import Any

from domain.fallout.ai import LOST, WON
from domain.fallout.game import FALLOUT
from domain.fallout.state import replace
from tests.domain.fallout.fixtures import full_game

AI = FALLOUT.ai
assert AI is not None


def _view(**changes: Any) -> dict[str, Any]:
    return FALLOUT.view(replace(full_game(2, ["scout", "keeper"]), **changes), 0)


def test_winning_the_game_scores_above_any_position_and_losing_below() -> None:
    """Winning the Game: a won game is WON for its winners, LOST for everyone else."""
    over = _view(phase="over", result="won", winners=(0,))
    assert AI.evaluate(over, 0) == WON and AI.evaluate(over, 1) == LOST
    playing = _view()
    assert LOST < AI.evaluate(playing, 0) < WON


def test_standing_sets_the_end_aside() -> None:
    """Self-play's leads: who stood best when everyone lost is read as if the game went on."""
    lost = _view(phase="over", result="lost")
    assert AI.evaluate(lost, 0) == LOST
    assert AI.standing(lost, 0) == AI.evaluate({**lost, "phase": "playing"}, 0)


def test_influence_counts_most() -> None:
    """Influence: a point of influence outweighs a card or a few Caps."""
    state = full_game(1, agendas=("ag3",), traits=(("reputation", "idolized"),))
    richer = FALLOUT.view(replace(state, survivors=(replace(state.survivors[0], caps=10),)), 0)
    influential = FALLOUT.view(state, 0)
    assert influential["survivors"][0]["influence"] > 0
    plain = FALLOUT.view(full_game(1), 0)
    assert AI.evaluate(influential, 0) - AI.evaluate(plain, 0) > AI.evaluate(richer, 0) - AI.evaluate(influential, 0)


def test_free_choice_and_the_commands_bots_leave_alone() -> None:
    assert AI.free_choice(FALLOUT.view(full_game(1), 0), 0)
    assert AI.never_taken == {"trade", "withdraw_loyalty", "equip"}
    assert AI.wander == {"move", "step", "explore"} and AI.end_turn == "end_turn"
    assert {*AI.never_taken, *AI.wander, AI.end_turn} <= set(FALLOUT.command_schemas)
