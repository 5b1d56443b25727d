"""The optional AI part: what the bots search and score must agree with the rules."""

from __future__ import annotations

import math
from typing import Any

import pytest

from domain.game import Game, GameAI
from domain.rng import Rng
from tests.contract.driver import Play

SAMPLED = 15
WORLDS = 3
#: How many of a seat's legal actions are played side by side from one state (``scoring_key``).
SIDE_BY_SIDE = 8


@pytest.fixture
def ai(game: Game) -> GameAI:
    if game.ai is None:
        pytest.skip(f"{game.name} has no AI part: its bots play at random")
    return game.ai


def test_the_ai_declares_command_types_the_game_has(game: Game, ai: GameAI):
    commands = set(game.command_schemas)
    assert isinstance(ai.never_taken, frozenset) and ai.never_taken <= commands, ai.never_taken
    assert isinstance(ai.wander, frozenset) and ai.wander <= commands, ai.wander
    assert ai.end_turn is None or ai.end_turn in commands, ai.end_turn


def test_a_determinized_view_is_the_view_it_came_from(game: Game, ai: GameAI, plays: list[Play]):
    """Bots search sampled worlds only: each must look, to the seat, exactly like the game it sees,
    offer it the same choices, and be a state the rules can go on from."""
    for play in plays:
        for n, state in enumerate(play.sampled(SAMPLED)):
            if game.is_over(state):
                continue
            for seat in play.seat_range:
                view, actions = game.view(state, seat), game.legal_actions(state, seat)
                for world in range(WORLDS):
                    sampled = ai.determinize(view, seat, Rng(play.seed, f"world{n}-{world}"))
                    assert game.view(sampled, seat) == view, f"{play.name}: seat {seat} sees another game"
                    assert game.legal_actions(sampled, seat) == actions, f"{play.name}: seat {seat}'s choices differ"
                    for action in actions[:2]:
                        game.decide(sampled, seat, action, Rng(play.seed, f"search{n}"))


def test_a_dealer_deals_the_worlds_determinize_deals(game: Game, ai: GameAI, plays: list[Play]):
    """A search deals its worlds from one dealer per view (``GameAI.dealer``), which may share what the view
    fixes between them: each world must be the one ``determinize`` deals with the same ``Rng``, however many
    were dealt before it and whatever was played in them."""
    for play in plays:
        for n, state in enumerate(play.sampled(SAMPLED)):
            if game.is_over(state):
                continue
            for seat in play.seat_range:
                view = game.view(state, seat)
                deal, dealt = ai.dealer(view, seat), []
                for world in range(WORLDS):
                    label = f"world{n}-{world}"
                    sampled = deal(Rng(play.seed, label))
                    alone = game.dump_state(ai.determinize(view, seat, Rng(play.seed, label)))
                    assert game.dump_state(sampled) == alone, f"{play.name}: state {n}, seat {seat}, world {world}"
                    dealt.append((sampled, alone))
                    for mover in game.waiting_for(sampled):
                        for action in game.legal_actions(sampled, mover)[:2]:
                            game.after(sampled, mover, action, Rng(play.seed, f"search{n}"))
                for world, (sampled, alone) in enumerate(dealt):
                    assert game.dump_state(sampled) == alone, f"{play.name}: state {n}, world {world} changed"


def test_evaluations_are_finite_and_a_win_scores_above_everything(game: Game, ai: GameAI, plays: list[Play]):
    for play in plays:
        running = []
        for state in play.sampled(SAMPLED):
            for seat in play.seat_range:
                view = game.view(state, seat)
                score, standing = ai.evaluate(view, seat), ai.standing(view, seat)
                assert math.isfinite(score) and math.isfinite(standing), f"{play.name}: {score}, {standing}"
                assert isinstance(ai.free_choice(view, seat), bool)
                if not game.is_over(state):
                    running.append(score)
        last = play.steps[-1].after
        for winner in game.outcome(last).winners:
            won = ai.evaluate(game.view(last, winner), winner)
            assert all(won > score for score in running), f"{play.name}: seat {winner}'s win scores {won}"


def test_a_free_choice_read_from_the_state_is_the_views(game: Game, ai: GameAI, plays: list[Play]):
    """A search asks ``free_choice_at`` instead of building a view to ask ``free_choice``: they must agree."""
    for play in plays:
        for n, state in enumerate(play.states()):
            for seat in play.seat_range:
                free = ai.free_choice_at(state, seat)
                if free is not None:
                    assert free == ai.free_choice(game.view(state, seat), seat), f"{play.name}: state {n}, seat {seat}"


def test_the_choices_worth_weighing_are_legal_and_read_alike_from_the_state(game: Game, ai: GameAI, plays: list[Play]):
    """A search weighs only the choices ``candidates`` keeps, and a look-ahead reads them from the state
    (``candidates_at``): they must be the seat's legal actions, in their order, and the same either way."""
    for play in plays:
        for n, state in enumerate(play.states()):
            for seat in play.seat_range:
                actions = game.legal_actions(state, seat)
                if len(actions) < 2:
                    continue
                view = game.view(state, seat)
                for ahead in (False, True):
                    kept = ai.candidates(view, seat, actions, ahead)
                    where = f"{play.name}: state {n}, seat {seat}, ahead {ahead}"
                    assert kept == [a for a in actions if a in kept], f"{where}: {kept}"
                    assert ai.candidates_at(state, seat, actions, ahead) == kept, where


def test_positions_with_one_scoring_key_score_alike(game: Game, ai: GameAI, plays: list[Play]):
    """A searching bot scores a position once for its ``scoring_key``: the key must tell apart every two
    positions ``evaluate`` tells apart. Checked where a search meets them, side by side: each legal action of
    a waiting seat played from the same state, every seat's key and score of each."""
    seen: dict[Any, tuple[float, str, Any]] = {}
    for play in plays:
        for n, state in enumerate(play.sampled(SAMPLED)):
            if game.is_over(state):
                continue
            for mover in game.waiting_for(state):
                for i, action in enumerate(game.legal_actions(state, mover)[:SIDE_BY_SIDE]):
                    after = game.after(state, mover, action, Rng(play.seed, f"key{n}-{i}"))
                    for seat in play.seat_range:
                        key = ai.scoring_key(after, seat)
                        if key is None:
                            continue
                        score = ai.evaluate(game.view(after, seat), seat)
                        first, where, _ = seen.setdefault(key, (score, str(action), after))
                        assert score == first, f"{play.name}: at state {n} seat {seat} scores {action} unlike {where}"
            seen.clear()  # a key may name its state's parts by identity: each is kept with its state


def test_a_lapsed_turn_sends_a_legal_action_or_nothing(game: Game, plays: list[Play]):
    for play in plays:
        for state in play.sampled(SAMPLED):
            for seat in game.waiting_for(state):
                command = game.timeout_command(state, seat)
                assert command is None or command in game.legal_actions(state, seat), f"{play.name}: {command}"
