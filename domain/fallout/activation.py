"""Activating enemies, one icon of the agenda card at a time, at the end of a round.

An icon is an enemy type (the type's enemies that are not faction tokens) or
a faction (that faction's tokens: Faction Tokens). Each active enemy of the
icon either fights (a survivor in its space, or adjacent when it is ranged:
the one with the least remaining HP, then the one earliest in turn order from
the first player) or moves one space toward the nearest survivor, ignoring
terrain and crossing face-down tiles as single spaces. While two or more are
still to act, the first player picks which acts next (Rounds); when the one
picked would fight a survivor that others would fight too, that survivor
orders those attacks (Activating Enemies). The first player also picks among
equally short moves. Afterwards the icon's inactive enemies flip face up
without acting, except those that went face down during this very activation
(placed, or fled by Retreat).
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import records, string, strings
from domain.fallout import enemies, fight, loyalty
from domain.fallout.board import board_of
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import Decision, EnemyState, GameState, SurvivorState, replace

RULE = "Activating Enemies"


def _priority(state: GameState, survivor: SurvivorState) -> tuple[int, int]:
    """Ties go to the least remaining HP, then to the earliest in turn order."""
    order = state.turn_order()
    return survivor.remaining_hp, order.index(survivor.seat) if survivor.seat in order else len(order)


def fight_target(state: GameState, enemy: EnemyState) -> tuple[int, bool] | None:
    """The survivor this enemy fights instead of moving, and whether across a space."""
    # Loyalty: a faction's tokens leave the survivors loyal to it alone.
    on_map = [s for s in state.survivors if s.on_map and not loyalty.ignores(state, s.seat, enemy)]
    candidates = [(s, False) for s in on_map if s.space == enemy.space]
    if enemies.has(state, enemy, "ranged"):
        near = set(board_of(state).enemy_neighbours(enemy.space, state.faceup_places()))
        candidates += [(s, True) for s in on_map if s.space in near]
    if not candidates:
        return None
    survivor, at_range = min(candidates, key=lambda c: _priority(state, c[0]))
    return survivor.seat, at_range


def move_plan(state: GameState, enemy: EnemyState) -> tuple[int, list[str]] | None:
    """The survivor this enemy heads for, and the spaces one step closer to it."""
    board = board_of(state)
    faceup = state.faceup_places()
    dist = board.distances(enemy.space, faceup)
    reachable = [
        (s, s.space) for s in state.survivors
        if s.on_map and s.space is not None and s.space in dist and not loyalty.ignores(state, s.seat, enemy)
    ]
    if not reachable:
        return None
    target, space = min(reachable, key=lambda found: (dist[found[1]], *_priority(state, found[0])))
    d = dist[space]
    if d == 0:
        return None
    back = board.distances(space, faceup)
    steps = [n for n in board.enemy_neighbours(enemy.space, faceup) if back.get(n) == d - 1]
    return target.seat, sorted(steps)


def step(res: Resolution) -> None:
    state = res.state
    re = state.round_end
    assert re is not None and re.types
    icon = re.types[0]
    if re.acting is None:
        acting = sorted(
            (e.id for e in state.enemies if enemies.shown_by(icon, e.type, e.faction) and e.active),
            key=enemies.enemy_sort_key,
        )
        res.emit("EnemyTypeActivated", type=icon, enemies=acting)
        return
    ready = [found for e in re.acting if (found := state.enemy(e)) is not None and found.active]
    if not ready:
        flips = [
            {"enemy": e.id, "token": e.token}
            for e in sorted(state.enemies, key=lambda e: enemies.enemy_sort_key(e.id))
            if enemies.shown_by(icon, e.type, e.faction) and not e.active and e.id not in re.placed
        ]
        res.emit("EnemiesFlipped", type=icon, enemies=flips)
        return
    if len(ready) > 1:
        res.request(
            state.first_player, "activation_order", [{"type": "activate_enemy", "enemy": e.id} for e in ready]
        )
        return
    act(res, ready[0].id)


def act(res: Resolution, enemy_id: str) -> None:
    """The enemy fights or moves; the survivor it would fight orders the attacks of all its ready attackers."""
    state = res.state
    re = state.round_end
    actor = state.enemy(enemy_id)
    assert re is not None and re.acting is not None and actor is not None
    target = fight_target(state, actor)
    if target is not None:
        seat = target[0]
        group = [
            e for e in re.acting
            if (found := state.enemy(e)) is not None and found.active
            and (aim := fight_target(state, found)) is not None and aim[0] == seat
        ]
        if len(group) > 1:
            res.request(
                seat, "order_attacks", [{"type": "order_attacks", "enemy": e} for e in group], cause="activation"
            )
        else:
            fight.activated(res, enemy_id, seat)
        return
    mover = actor
    plan = move_plan(state, mover)
    if plan is None or not plan[1]:
        res.emit("EnemyIdle", enemy=mover.id)
        return
    toward, spaces = plan
    if len(spaces) > 1:
        res.request(
            state.first_player,
            "enemy_move",
            [{"type": "choose_space", "space": s} for s in spaces],
            enemy=mover.id,
            toward=toward,
        )
        return
    move_enemy(res, mover.id, spaces[0])


def move_enemy(res: Resolution, enemy_id: str, to: str) -> None:
    state = res.state
    enemy = state.enemy(enemy_id)
    assert enemy is not None
    res.emit("EnemyMoved", enemy=enemy_id, **{"from": enemy.space}, to=to)
    if enemies.has(res.state, enemy, "aggressive"):
        here = [
            s for s in res.state.survivors
            if s.on_map and s.space == to and not loyalty.ignores(res.state, s.seat, enemy)
        ]
        if here:
            target = min(here, key=lambda s: _priority(res.state, s))
            fight.start(res, target.seat, enemy_id, "aggressive", at_range=False)


@RULES.answer("activation_order", "Rounds", commands={"activate_enemy": {"enemy": string()}})
def answer_activation_order(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    act(res, command["enemy"])


@RULES.answer("enemy_move", RULE, commands={"choose_space": {"space": string()}})
def answer_move(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    move_enemy(res, decision.context["enemy"], command["space"])


# -- folds -------------------------------------------------------------------


@RULES.fold("EnemyTypeActivated", {"enemies": strings(), "type": string()})
def _type_activated(state: GameState, data: dict) -> GameState:
    re = state.round_end
    assert re is not None
    return replace(state, round_end=replace(re, acting=tuple(data["enemies"]), placed=()))


def _acted(state: GameState, enemy_id: str) -> GameState:
    re = state.round_end
    if re is None or re.acting is None:
        return state
    return replace(state, round_end=replace(re, acting=tuple(e for e in re.acting if e != enemy_id)))


@RULES.fold("EnemyMoved", {"enemy": string(), "from": string(), "to": string()})
def _moved(state: GameState, data: dict) -> GameState:
    return _acted(state.with_enemy(data["enemy"], space=data["to"]), data["enemy"])


@RULES.fold("EnemyIdle", {"enemy": string()})
def _idle(state: GameState, data: dict) -> GameState:
    return _acted(state, data["enemy"])


@RULES.fold("EnemiesFlipped", {"enemies": records(), "type": string()})
def _flipped(state: GameState, data: dict) -> GameState:
    flipping = {f["enemy"] for f in data["enemies"]}
    state = replace(state, enemies=tuple(replace(e, active=True) if e.id in flipping else e for e in state.enemies))
    re = state.round_end
    if re is None:
        return state
    return replace(state, round_end=replace(re, types=re.types[1:], acting=None, placed=()))
