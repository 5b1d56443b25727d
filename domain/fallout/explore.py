"""The explore action: flip an adjacent face-down tile.

Adjacent means the survivor's space touches the edge that faces the place.
A random enemy of the matching type goes face up on each enemy icon of the
flipped tile; enemies that stood on the face-down tile are then placed, one
at a time, on spaces of the explorer's choice on that tile.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import integer, string, strings
from domain.fallout import enemies, turns
from domain.fallout.board import board_of
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import Decision, GameState, Placing, face_down_node, replace
from domain.game import RuleViolation, malformed

RULE = "Explore Action"


def explorable(state: GameState, seat: int) -> tuple[str, ...]:
    space = state.survivor(seat).space
    if space is None:
        return ()
    return board_of(state).explorable_places(space, state.faceup_places())


@RULES.command("explore", {"place": string()})
def explore_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    state = res.state
    place_id = command.get("place")
    place = state.place(place_id) if isinstance(place_id, str) else None
    if place is None or place.tile is None:
        raise malformed("unknown_place", f"There is no tile at {place_id!r}.", rule="Map Tiles")
    turns.need_action(state, RULE)
    if place.faceup:
        raise RuleViolation("not_face_down", f"The tile at {place_id} is already face up.", rule=RULE)
    if place_id not in explorable(state, seat):
        raise RuleViolation("not_adjacent", f"Your space does not touch the tile at {place_id}.", rule=RULE)
    node = face_down_node(place_id)
    waiting = [e.id for e in sorted(state.enemies, key=lambda e: enemies.enemy_sort_key(e.id)) if e.space == node]
    res.emit("TileExplored", seat=seat, place=place_id, tile=place.tile, waiting=waiting)
    tile = res.catalog.pack.tiles[place.tile]
    for space in tile.spaces:
        for enemy_type in space.enemy_icons:
            enemies.place_drawn(res, enemy_type, space.id, active=True, reason="explore")


def request_placement(res: Resolution) -> None:
    placing = res.state.placing
    assert placing is not None
    spaces = board_of(res.state).tile_spaces[placing.place]
    res.request(
        placing.seat,
        "place_enemy",
        [{"type": "place_enemy", "enemy": e, "space": s} for e in placing.enemies for s in spaces],
        place=placing.place,
    )


@RULES.answer("place_enemy", RULE, commands={"place_enemy": {"enemy": string(), "space": string()}})
def answer_placement(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    placing = res.state.placing
    assert placing is not None
    res.emit("EnemyRelocated", seat=placing.seat, enemy=command["enemy"], space=command["space"])


@RULES.fold("TileExplored", {"place": string(), "seat": integer(), "tile": string(), "waiting": strings()})
def _explored(state: GameState, data: dict) -> GameState:
    places = tuple(replace(p, faceup=True) if p.id == data["place"] else p for p in state.places)
    turn = state.turn
    return replace(
        state,
        places=places,
        turn=replace(turn, actions=turn.actions - 1) if turn else None,
        placing=Placing(data["seat"], data["place"], tuple(data["waiting"])) if data["waiting"] else None,
    )


@RULES.fold("EnemyRelocated", {"enemy": string(), "seat": integer(), "space": string()})
def _relocated(state: GameState, data: dict) -> GameState:
    state = state.with_enemy(data["enemy"], space=data["space"])
    placing = state.placing
    if placing is None:
        return state
    rest = tuple(e for e in placing.enemies if e != data["enemy"])
    return replace(state, placing=replace(placing, enemies=rest) if rest else None)
