"""Tasks: the tests and "draw and fight" of an encounter option or a quest
objective, attempted left to right (Encounter Action, Quest Cards, Fight).

An attempt succeeds when every task does; the first failure ends it. A test
is an ordinary V.A.T.S. test whose ``TestResolved`` reports back here. For
"draw and fight" the enemy drawn stands in the survivor's space for the fight
only (face up, marked ``drawn``), is never replaced, and is discarded
whatever happens: the task succeeds only if it was killed. A test "by
partner" is rolled by another survivor in the space; in Solo Play that
survivor is assumed to score 3 hits.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import boolean, integer, records, string
from domain.fallout import conditions, enemies, fight, vats
from domain.fallout import effects as fx
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import Attempt, GameState, replace

SOLO_PARTNER_HITS = 3


def start(res: Resolution, seat: int, tasks: tuple[dict[str, Any], ...], level: int) -> None:
    res.emit("AttemptStarted", seat=seat, tasks=list(tasks), level=level)


def step(res: Resolution) -> None:
    """Carry the attempt on: finish a fight that ended, or start the next task."""
    a = res.state.attempt
    assert a is not None and a.outcome is None
    if a.enemy is not None:
        drawn = res.state.enemy(a.enemy)
        if drawn is not None:
            res.emit("EnemyDiscarded", enemy=a.enemy, reason="draw_and_fight")
        res.emit("TaskDone", seat=a.seat, success=drawn is None and res.state.survivor(a.seat).on_map)
        return
    if a.index >= len(a.tasks):
        res.emit("AttemptEnded", seat=a.seat, success=True)
        return
    task = fx.parse_task(a.tasks[a.index])
    if isinstance(task, fx.TestTask):
        difficulty = task.difficulty.of(a.level)
        tester = a.seat
        if task.by == "partner":
            if res.state.players == 1:
                res.emit("TaskDone", seat=a.seat, success=SOLO_PARTNER_HITS >= difficulty, assumed=SOLO_PARTNER_HITS)
                return
            others = conditions.partners(res.state, a.seat)
            if not others:
                res.emit("TaskDone", seat=a.seat, success=False)
                return
            tester = others[0]
        vats.start_test(res, tester, list(task.letters), difficulty, then={"attempt": a.seat})
        return
    space = res.state.survivor(a.seat).space
    token = enemies.top_token(res, task.type)
    if token is None or space is None:
        res.emit("TaskDone", seat=a.seat, success=False)
        return
    enemy_id = f"e{res.state.next_enemy}"
    res.emit(
        "EnemyPlaced", enemy=enemy_id, type=task.type, token=token, space=space, active=True,
        reason="draw_and_fight", drawn=True,
    )
    res.emit("TaskFightStarted", seat=a.seat, enemy=enemy_id)
    fight.start(res, a.seat, enemy_id, "task", at_range=False)


# -- folds -------------------------------------------------------------------


@RULES.fold("AttemptStarted", {"level": integer(), "seat": integer(), "tasks": records()})
def _started(state: GameState, data: dict) -> GameState:
    return replace(state, attempt=Attempt(data["seat"], tuple(data["tasks"]), data["level"]))


@RULES.fold("TaskFightStarted", {"enemy": string(), "seat": integer()})
def _fight_started(state: GameState, data: dict) -> GameState:
    a = state.attempt
    return state if a is None else replace(state, attempt=replace(a, enemy=data["enemy"]))


@RULES.fold("TaskDone", {"assumed": integer(optional=True), "seat": integer(), "success": boolean()})
def _task_done(state: GameState, data: dict) -> GameState:
    a = state.attempt
    if a is None:
        return state
    if data["success"]:
        return replace(state, attempt=replace(a, index=a.index + 1, enemy=None))
    return replace(state, attempt=replace(a, outcome=False, enemy=None))


@RULES.fold("AttemptEnded", {"seat": integer(), "success": boolean()})
def _ended(state: GameState, data: dict) -> GameState:
    a = state.attempt
    return state if a is None else replace(state, attempt=replace(a, outcome=data["success"]))


@RULES.watch("TestResolved")
def _test_resolved(state: GameState, data: dict) -> GameState:
    """A test started for an attempt reports its result to it."""
    a = state.attempt
    if a is None or "attempt" not in (data.get("then") or {}):
        return state
    return _task_done(state, data)
