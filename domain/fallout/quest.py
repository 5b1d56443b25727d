"""Quests: staged quest cards, their objectives and the quest action
(Quest Action, Quest Cards).

Staged quests lie face up in the play area (public). A triggered objective
completes by itself, for the survivor who caused it, when its event happens
(an enemy of a type killed, a tile explored, a space entered): the folds of
those events note it here (``WATCHES``) and ``advance`` completes it once the
step that caused it is over. A quest-action objective needs its requirement
(a condition, most often a space) and no face-up enemy in the space; the
quest action then resolves its instructions left to right, and succeeding at
all of them completes it. A completed objective's results resolve left to
right; a quest not trashed stays staged and can be completed again.
"""

from __future__ import annotations

from typing import Any, Final

from domain.engine.shapes import boolean, integer, string
from domain.fallout import conditions, loyalty, results, tasks
from domain.fallout import effects as fx
from domain.fallout.content import catalog
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import GameState, Questing, replace
from domain.game import RuleViolation

RULE = "Quest Action"
RULE_CARDS = "Quest Cards"


def objectives(state: GameState, seat: int) -> list[tuple[str, int]]:
    """Quest-action objectives the survivor may attempt now: (quest, objective index)."""
    turn = state.turn
    s = state.survivor(seat)
    if turn is None or turn.actions <= 0 or s.space is None or loyalty.blocked(state, seat):
        return []
    out = []
    quests = catalog(state.pack).quests
    for q in state.quests:
        for i, o in enumerate(quests[q].objectives):
            if o.trigger is None and conditions.holds(state, seat, o.requirement, quest=q):
                out.append((q, i))
    return out


@RULES.command("quest", {"quest": string(), "objective": integer()})
def quest_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    state = res.state
    quest, objective = command.get("quest"), command.get("objective")
    if quest not in state.quests:
        raise RuleViolation("no_such_quest", f"Quest {quest!r} is not staged.", rule=RULE_CARDS)
    if (quest, objective) not in objectives(state, seat):
        if state.turn is not None and state.turn.actions <= 0:
            raise RuleViolation("no_actions_left", "Both actions of this turn are spent.", rule="Actions")
        if loyalty.blocked(state, seat):
            raise RuleViolation("enemy_in_space", "You cannot quest in a space with a face-up enemy.", rule=RULE)
        raise RuleViolation(
            "requirement_not_met", "You do not meet that objective's requirement (or it is not a quest action).",
            rule=RULE,
        )
    level = conditions.level_at(state, state.survivor(seat).space)
    res.emit("QuestActionTaken", seat=seat, quest=quest, objective=objective, level=level)


def step(res: Resolution) -> None:
    q = res.state.questing
    assert q is not None
    objective = res.catalog.quests[q.quest].objectives[q.objective]
    a = res.state.attempt
    if a is None:
        if objective.instructions:
            tasks.start(res, q.seat, objective.instructions, q.level)
        else:
            _resolve(res, True)
    elif a.outcome is not None:
        _resolve(res, a.outcome)


def _resolve(res: Resolution, success: bool) -> None:
    q = res.state.questing
    assert q is not None
    res.emit("QuestActionResolved", seat=q.seat, quest=q.quest, objective=q.objective, success=success)
    if success:
        complete(res, q.seat, q.quest, q.objective)


def complete(res: Resolution, seat: int, quest: str, index: int) -> None:
    objective = res.catalog.quests[quest].objectives[index]
    res.emit("ObjectiveCompleted", seat=seat, quest=quest, objective=index)
    level = conditions.level_at(res.state, res.state.survivor(seat).space)
    results.push(res, seat, quest, "quest", level, objective.results)


def next_triggered(res: Resolution) -> None:
    seat, quest, index = res.state.triggered[0]
    if quest not in res.state.quests or res.state.survivor(seat).eliminated:
        res.emit("TriggerLapsed", seat=seat, quest=quest, objective=index)
        return
    complete(res, seat, quest, index)


# -- folds -------------------------------------------------------------------


@RULES.fold("QuestActionTaken", {"level": integer(), "objective": integer(), "quest": string(), "seat": integer()})
def _taken(state: GameState, data: dict) -> GameState:
    turn = state.turn
    return replace(
        state,
        turn=replace(turn, actions=turn.actions - 1) if turn else None,
        questing=Questing(data["seat"], data["quest"], data["objective"], data["level"]),
    )


@RULES.fold("QuestActionResolved", {"objective": integer(), "quest": string(), "seat": integer(), "success": boolean()})
def _action_resolved(state: GameState, data: dict) -> GameState:
    return replace(state, questing=None, attempt=None)


@RULES.fold("ObjectiveCompleted", {"objective": integer(), "quest": string(), "seat": integer()})
def _completed(state: GameState, data: dict) -> GameState:
    key = (data["seat"], data["quest"], data["objective"])
    if key in state.triggered:
        i = state.triggered.index(key)
        return replace(state, triggered=state.triggered[:i] + state.triggered[i + 1:])
    return state


#: Each objective's trigger parsed once (the pack's, read at every enemy killed, space entered, card drawn).
_parsed_trigger: Final = fx.Memo(fx.parse_trigger)


def _trigger(state: GameState, seat: int | None, matches: Any) -> GameState:
    if seat is None or not state.quests:
        return state
    quests = catalog(state.pack).quests
    found = []
    for q in state.quests:
        for i, o in enumerate(quests[q].objectives):
            if o.trigger is not None and matches(_parsed_trigger(o.trigger)):
                found.append((seat, q, i))
    return replace(state, triggered=state.triggered + tuple(found)) if found else state


@RULES.watch("EnemyKilled")
def _on_kill(state: GameState, data: dict) -> GameState:
    def matches(t: Any) -> bool:
        if not isinstance(t, fx.KillTrigger):
            return False
        if t.faction is not None:
            return data.get("faction") == t.faction
        return t.type is None or t.type == data.get("type")

    return _trigger(state, data.get("seat"), matches)


@RULES.watch("TileExplored")
def _on_explore(state: GameState, data: dict) -> GameState:
    place = state.place(data["place"])
    back = place.back if place else None

    def matches(t: Any) -> bool:
        if not isinstance(t, fx.ExploreTrigger):
            return False
        if t.tile is not None:
            return t.tile == data["tile"]
        return t.back is None or t.back == back

    return _trigger(state, data["seat"], matches)


@RULES.watch("SurvivorMoved")
def _on_move(state: GameState, data: dict) -> GameState:
    return _trigger(state, data["seat"], lambda t: isinstance(t, fx.EnterTrigger) and t.space == data["to"])


@RULES.fold("TriggerLapsed", {"seat": integer(), "quest": string(), "objective": integer()})
def _lapsed(state: GameState, data: dict) -> GameState:
    return _completed(state, data)
