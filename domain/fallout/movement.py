"""The move action and terrain.

A move action gives two movement points; points from both actions of a turn
pool, and unspent points may wait while one other action happens (the only
action that can be interrupted). Difficult terrain costs one more point and
cannot be entered without it; entering irradiated terrain costs one rad.
Stepping into a space with active aggressive enemies fights each of them,
in the order the survivor picks.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import integer, string, strings
from domain.fallout import enemies, killed, loyalty, turns
from domain.fallout.board import board_of
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import MOVEMENT_POINTS, Attackers, GameState, clamp_rads, replace, replaced
from domain.game import RuleViolation, malformed

RULE_MOVE = "Move Action"
RULE_TERRAIN = "Terrain"


def cost(state: GameState, space: str) -> int:
    return 2 if "difficult" in board_of(state).spaces[space].terrain else 1


def steps(state: GameState, seat: int) -> list[str]:
    """Spaces the survivor can step to with the points left."""
    turn = state.turn
    survivor = state.survivor(seat)
    if turn is None or turn.movement <= 0 or survivor.space is None:
        return []
    near = board_of(state).adjacent_spaces(survivor.space, state.faceup_places())
    return [s for s in near if cost(state, s) <= turn.movement]


@RULES.command("move", {})
def move_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    turns.need_action(res.state, RULE_MOVE)
    res.emit("MoveActionTaken", seat=seat, points=MOVEMENT_POINTS)


@RULES.command("step", {"to": string()})
def step_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    state = res.state
    to = command.get("to")
    board = board_of(state)
    if not isinstance(to, str) or to not in board.spaces:
        raise malformed("unknown_space", f"There is no space {to!r} on the map.", rule="Spaces")
    turn = state.turn
    assert turn is not None
    if turn.movement <= 0:
        raise RuleViolation("no_movement_left", "Perform a move action first to gain movement points.", rule=RULE_MOVE)
    here = state.survivor(seat).space
    if here is None or to not in board.adjacent_spaces(here, state.faceup_places()):
        raise RuleViolation("not_adjacent", f"{to} is not a face-up space adjacent to {here}.", rule=RULE_MOVE)
    points = cost(state, to)
    if points > turn.movement:
        raise RuleViolation(
            "not_enough_movement", "Difficult terrain needs an additional movement point.", rule=RULE_TERRAIN
        )
    space = board.spaces[to]
    attackers = [
        e.id for e in sorted(state.enemies, key=lambda e: enemies.enemy_sort_key(e.id))
        if e.space == to and e.active and enemies.has(state, e, "aggressive") and not loyalty.ignores(state, seat, e)
    ]
    res.emit(
        "SurvivorMoved", seat=seat, **{"from": here}, to=to, cost=points,
        rads=1 if "irradiated" in space.terrain else 0, attackers=attackers,
    )
    killed.check(res, seat)


@RULES.fold("MoveActionTaken", {"points": integer(), "seat": integer()})
def _move_action(state: GameState, data: dict) -> GameState:
    turn = state.turn
    assert turn is not None
    return replace(state, turn=replace(turn, actions=turn.actions - 1, movement=turn.movement + data["points"]))


@RULES.fold(
    "SurvivorMoved",
    {
        "attackers": strings(),
        "cost": integer(),
        "from": string(),
        "rads": integer(),
        "seat": integer(),
        "to": string(),
    },
)
def _moved(state: GameState, data: dict) -> GameState:
    seat = data["seat"]
    survivor = state.survivor(seat)
    state = state.with_survivor(seat, space=data["to"], rads=clamp_rads(survivor.rads + data["rads"]))
    changes: dict[str, Any] = {}
    if state.turn is not None:
        changes["turn"] = replace(state.turn, movement=max(0, state.turn.movement - data["cost"]))
    if data["attackers"]:
        changes["attackers"] = Attackers(seat, tuple(data["attackers"]), "aggressive")
    return replaced(state, changes)
