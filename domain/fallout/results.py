"""Results: a results bar resolved left to right (Results).

Completing an encounter option, a quest objective, a one-time loot event, or
using an item, a companion or a perk hands its results to a stack
(``GameState.resolving``). ``advance`` resolves the top entry one result at a
time, so a result that needs a decision (shopping, discarding down, choosing
a perk after leveling up) waits for it and the next result follows; results
that bring their own results (a loot event drawn, a quest staged) go on top
and finish first. Amounts read ``L`` as the entry's level.

What each kind of result does is registered by the rule module that owns it,
where it defines it (``about_game``, ``about_survivor``): drawing loot in
``items``, XP in ``xp``, a fight in ``fight``. This module only keeps the
stack and hands each result to its handler through the engine's effect
interpreter (``domain.engine.effects``, as Zona's effects run), so every
module may push a bar and none needs to import the modules the bar's results
reach.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, get_args

from domain.engine.effects import Effects
from domain.engine.records import built
from domain.engine.shapes import anything, integer, mixed, string
from domain.fallout import effects as fx
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import MAX_HP, GameState, Resolving, clamp_hp, clamp_rads, replace, replaced

RULE = "Results"

#: A result about the game: ``(resolution, the stack entry resolving it, the parsed result)``.
GameResult = Callable[[Resolution, Resolving, Any], None]
#: A result about the survivor resolving it: ``(resolution, seat, the entry's level, the parsed result)``.
SurvivorResult = Callable[[Resolution, int, int, Any], None]
G = TypeVar("G", bound=GameResult)
V = TypeVar("V", bound=SurvivorResult)


class Results(Effects[Resolution]):
    """The engine's effect interpreter over the results stack: a result's kind is its parsed type;
    taking one emits ``ResultResolving``, a spent bar ``ResultsResolved``."""

    def kind(self, effect: Any) -> type:
        return type(effect)

    def take(self, res: Resolution) -> tuple[Any, tuple[Any, ...]] | None:
        top = res.state.resolving[-1]
        if not top.results:
            res.emit("ResultsResolved", source=top.source, origin=top.origin)
            return None
        raw = top.results[0]
        res.emit("ResultResolving", result=raw)
        result = _parsed_result(raw)
        return result, (top, result)


#: Each result parsed once (a card's results are the pack's, read again at every use; parsed, they are frozen).
_parsed_result: Final = fx.Memo(fx.parse_result)


#: What every kind of result does, registered by the module that owns it (``about_game``, ``about_survivor``).
RESULTS: Final = Results("fallout")


def about_game(*kinds: type) -> Callable[[G], G]:
    """Register who applies these results, whoever resolves them (even no seat, at setup)."""
    return RESULTS.handles(*kinds)


def about_survivor(*kinds: type) -> Callable[[V], V]:
    """Register who applies these results to the survivor resolving them; nobody's (setup, the
    scenario sheet) or an eliminated survivor's do nothing."""

    def register(handler: V) -> V:
        def on_resolver(res: Resolution, entry: Resolving, r: Any) -> None:
            seat = resolver(res, entry)
            if seat is not None:
                handler(res, seat, entry.level, r)

        RESULTS.handles(*kinds)(on_resolver)
        return handler

    return register


def check() -> None:
    """Every kind of result of the vocabulary (``fx.Result``) has its handler."""
    RESULTS.check(get_args(fx.Result))


def push(res: Resolution, seat: int | None, source: str, origin: str, level: int, bar: Any) -> None:
    if not bar:
        return
    res.emit("ResultsQueued", seat=seat, source=source, origin=origin, level=level, results=list(bar))


def step(res: Resolution) -> None:
    RESULTS.step(res)


def settle(res: Resolution) -> None:
    """Resolve the whole stack at once: only for results no seat decides on (setup)."""
    while res.state.resolving and res.state.pending is None:
        step(res)


def resolver(res: Resolution, entry: Resolving) -> int | None:
    """The survivor a result is about: the entry's seat, unless there is none or they were eliminated."""
    seat = entry.seat
    if seat is None or res.state.survivor(seat).eliminated:
        return None
    return seat


# -- the results that only change what this module folds ------------------------


@about_game(fx.Trash)
def _trash(res: Resolution, entry: Resolving, r: fx.Trash) -> None:
    res.emit("CardTrashed", card=entry.source, origin=entry.origin)


@about_game(fx.PlaceMarker)
def _place_marker(res: Resolution, entry: Resolving, r: fx.PlaceMarker) -> None:
    # A quest's markers pair with its card; the setup's and the scenario rules' with the scenario sheet.
    if entry.origin in ("quest", "setup", "scenario"):
        res.emit("MarkerPlaced", quest=entry.source, space=r.space)


@about_game(fx.RemoveMarker)
def _remove_marker(res: Resolution, entry: Resolving, r: fx.RemoveMarker) -> None:
    res.emit("MarkersRemoved", quest=entry.source)


@about_survivor(fx.GainCaps)
def _gain_caps(res: Resolution, seat: int, level: int, r: fx.GainCaps) -> None:
    if r.amount.of(level):
        res.emit("CapsGained", seat=seat, amount=r.amount.of(level))


@about_survivor(fx.LoseCaps)
def _lose_caps(res: Resolution, seat: int, level: int, r: fx.LoseCaps) -> None:
    paid = min(res.state.survivor(seat).caps, r.amount.of(level))
    if paid:
        res.emit("CapsPaid", seat=seat, amount=paid, reason="result")


@about_survivor(fx.RecoverHP)
def _recover(res: Resolution, seat: int, level: int, r: fx.RecoverHP) -> None:
    amount = min(r.amount.of(level), MAX_HP - res.state.survivor(seat).hp)
    if amount:
        res.emit("SurvivorRecovered", seat=seat, hp=amount, rads=0)


@about_survivor(fx.RemoveRads)
def _remove_rads(res: Resolution, seat: int, level: int, r: fx.RemoveRads) -> None:
    amount = min(r.amount.of(level), res.state.survivor(seat).rads)
    if amount:
        res.emit("SurvivorRecovered", seat=seat, hp=0, rads=amount)


@about_survivor(fx.MoveSurvivor)
def _move(res: Resolution, seat: int, level: int, r: fx.MoveSurvivor) -> None:
    survivor = res.state.survivor(seat)
    if survivor.on_map:
        # Placed by a result: no movement point, no terrain, no aggressive enemy set off.
        res.emit("SurvivorMoved", seat=seat, **{"from": survivor.space}, to=r.space, cost=0, rads=0, attackers=[])


@about_survivor(fx.GainMovement)
def _gain_movement(res: Resolution, seat: int, level: int, r: fx.GainMovement) -> None:
    turn = res.state.turn
    if turn is not None and turn.seat == seat:
        res.emit("MovementGained", seat=seat, points=r.points)


# -- folds -------------------------------------------------------------------


@RULES.fold(
    "ResultsQueued",
    {
        "level": integer(),
        "origin": string(),
        "results": mixed(),
        "seat": integer(nullable=True),
        "source": string(nullable=True),
    },
)
def _queued(state: GameState, data: dict) -> GameState:
    entry = built(Resolving, {"seat": data["seat"], "source": data["source"], "origin": data["origin"],
                              "level": data["level"], "results": tuple(data["results"])})
    return replace(state, resolving=state.resolving + (entry,))


@RULES.fold("ResultResolving", {"result": anything()})
def _resolving(state: GameState, data: dict) -> GameState:
    if not state.resolving:
        return state
    top = state.resolving[-1]
    return replace(state, resolving=state.resolving[:-1] + (replace(top, results=top.results[1:]),))


@RULES.fold("ResultsResolved", {"origin": string(), "source": string(nullable=True)})
def _resolved(state: GameState, data: dict) -> GameState:
    return replace(state, resolving=state.resolving[:-1])


@RULES.fold("CapsGained", {"amount": integer(), "seat": integer()})
def _caps_gained(state: GameState, data: dict) -> GameState:
    s = state.survivor(data["seat"])
    return state.with_survivor(data["seat"], caps=s.caps + data["amount"])


@RULES.fold("CapsPaid", {"amount": integer(), "reason": string(), "seat": integer()})
def _caps_paid(state: GameState, data: dict) -> GameState:
    s = state.survivor(data["seat"])
    return state.with_survivor(data["seat"], caps=max(0, s.caps - data["amount"]))


@RULES.fold("SurvivorHurt", {"damage": integer(), "rads": integer(), "seat": integer()})
def _hurt(state: GameState, data: dict) -> GameState:
    s = state.survivor(data["seat"])
    return state.with_survivor(
        data["seat"], hp=clamp_hp(s.hp - data["damage"]), rads=clamp_rads(s.rads + data["rads"])
    )


@RULES.fold("SurvivorRecovered", {"hp": integer(), "rads": integer(), "seat": integer()})
def _recovered(state: GameState, data: dict) -> GameState:
    s = state.survivor(data["seat"])
    return state.with_survivor(
        data["seat"], hp=clamp_hp(s.hp + data["hp"]), rads=clamp_rads(s.rads - data["rads"])
    )


@RULES.fold("CardTrashed", {"card": string(nullable=True), "origin": string()})
def _trashed(state: GameState, data: dict) -> GameState:
    card = data["card"]
    changes: dict[str, Any] = dict(
        trashed=state.trashed + (card,),
        quests=tuple(q for q in state.quests if q != card),
        markers=tuple(m for m in state.markers if m[0] != card),
    )
    if state.encounter is not None and state.encounter.card == card:
        changes["encounter"] = replace(state.encounter, trashed=True)
    return replaced(state, changes)


@RULES.fold("MarkerPlaced", {"quest": string(), "space": string()})
def _marker_placed(state: GameState, data: dict) -> GameState:
    return replace(state, markers=state.markers + ((data["quest"], data["space"]),))


@RULES.fold("MarkersRemoved", {"quest": string()})
def _markers_removed(state: GameState, data: dict) -> GameState:
    return replace(state, markers=tuple(m for m in state.markers if m[0] != data["quest"]))


@RULES.fold("MovementGained", {"points": integer(), "seat": integer()})
def _movement_gained(state: GameState, data: dict) -> GameState:
    turn = state.turn
    if turn is None:
        return state
    return replace(state, turn=replace(turn, movement=turn.movement + data["points"]))
