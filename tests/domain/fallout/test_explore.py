"""Explore Action and Map Tiles (the board's adjacency)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.fallout.board import board_of
from domain.fallout.game import FALLOUT
from domain.game import RuleViolation
from domain.rng import Rng
from tests.domain.fallout.fixtures import add_enemy, play, quiet_game, survivor, types


def fixed_tiles(state):
    places = tuple(
        replace(p, tile="bog") if p.id == "ne" else replace(p, tile="marsh") if p.id == "se" else p
        for p in state.places
    )
    return replace(state, places=places)


def test_map_tiles_adjacency_across_tiles_follows_the_edges() -> None:
    """Map Tiles, Spaces: spaces on two tiles are adjacent where their edges meet."""
    state = fixed_tiles(quiet_game(1))
    board = board_of(state)
    faceup = state.faceup_places()
    assert set(board.adjacent_spaces("camp.a", faceup)) == {"camp.b", "camp.c", "ruins.c"}
    everything = frozenset(p.id for p in state.places)
    assert "bog.b" in board.adjacent_spaces("camp.a", everything)
    assert board.enemy_neighbours("place:ne", faceup) == ("camp.a", "ruins.c")
    assert board.distances("camp.b", faceup)["ruins.b"] == 2  # through the face-down tile at se


def test_explore_action_flips_an_adjacent_tile_and_places_enemies_on_icons() -> None:
    """Explore Action: flip a face-down tile the survivor's space touches; a face-up enemy per icon."""
    state = survivor(fixed_tiles(quiet_game(1)), 0, space="camp.a")
    assert [c for c in FALLOUT.legal_actions(state, 0) if c["type"] == "explore"] == [
        {"type": "explore", "place": "ne"}
    ]
    state, events = play(state, 0, {"type": "explore", "place": "ne"})
    assert types(events)[:2] == ["TileExplored", "EnemyPlaced"]
    assert state.place("ne").faceup and state.turn.actions == 1
    humans = [e for e in state.enemies if e.space == "bog.b"]
    assert len(humans) == 1 and humans[0].active and humans[0].type == "human"


def test_explore_action_enemies_on_the_tile_are_placed_by_the_explorer() -> None:
    """Explore Action, Activating Enemies: enemies on a face-down tile are placed by the explorer."""
    state = survivor(fixed_tiles(quiet_game(1)), 0, space="camp.a")
    state, rat = add_enemy(state, "rat", "place:ne")
    state, _ = play(state, 0, {"type": "explore", "place": "ne"})
    assert state.pending.kind == "place_enemy" and state.pending.seat == 0
    assert {c["space"] for c in state.pending.choices} == {"bog.a", "bog.b", "bog.c"}
    state, _ = play(state, 0, {"type": "place_enemy", "enemy": rat, "space": "bog.c"})
    assert state.enemy(rat).space == "bog.c" and state.enemy(rat).active and state.placing is None


def test_explore_action_needs_an_adjacent_face_down_tile() -> None:
    """Explore Action: only a face-down tile adjacent to the survivor's space."""
    state = survivor(fixed_tiles(quiet_game(1)), 0, space="camp.b")
    for place, code in (("ne", "not_adjacent"), ("east", "not_face_down"), ("moon", "unknown_place")):
        with pytest.raises(RuleViolation) as err:
            FALLOUT.decide(state, 0, {"type": "explore", "place": place}, Rng("refused"))
        assert err.value.code == code
