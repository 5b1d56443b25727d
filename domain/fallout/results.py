"""Results: a results bar resolved left to right (Results).

Completing an encounter option, a quest objective, a one-time loot event, or
using an item, a companion or a perk hands its results to a stack
(``GameState.resolving``). ``advance`` resolves the top entry one result at a
time, so a result that needs a decision (shopping, discarding down, choosing
a perk after leveling up) waits for it and the next result follows; results
that bring their own results (a loot event drawn, a quest staged) go on top
and finish first. Amounts read ``L`` as the entry's level.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import anything, integer, mixed, string
from domain.fallout import agendas, enemies, factions, fight, items, killed, library, loyalty, shop, traits, xp
from domain.fallout import effects as fx
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import MAX_HP, Decision, GameState, Resolving, replace

RULE = "Results"


def push(res: Resolution, seat: int | None, source: str, origin: str, level: int, bar: Any) -> None:
    if not bar:
        return
    res.emit("ResultsQueued", seat=seat, source=source, origin=origin, level=level, results=list(bar))


def step(res: Resolution) -> None:
    top = res.state.resolving[-1]
    if not top.results:
        res.emit("ResultsResolved", source=top.source, origin=top.origin)
        return
    raw = top.results[0]
    res.emit("ResultResolving", result=raw)
    apply(res, top, fx.parse_result(raw))


def target(res: Resolution, seat: int, enemy_id: str, doing: str) -> None:
    """A result's enemy, outside the fight action: killed at once (Killed), or fought without an action."""
    if doing == "kill":
        fight.kill(res, seat, enemy_id)
    else:
        fight.start(res, seat, enemy_id, "result", at_range=False)


@RULES.answer("target_enemy", "Results", commands={"choose_enemy": {"enemy": string()}})
def answer_target(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    target(res, decision.seat, command["enemy"], decision.context["doing"])


def settle(res: Resolution) -> None:
    """Resolve the whole stack at once: only for results no seat decides on (setup)."""
    while res.state.resolving and res.state.pending is None:
        step(res)


def _seat(res: Resolution, entry: Resolving) -> int | None:
    seat = entry.seat
    if seat is None or res.state.survivor(seat).eliminated:
        return None
    return seat


def apply(res: Resolution, entry: Resolving, r: fx.Result) -> None:
    level = entry.level
    # Results about the game, whoever resolves them.
    if isinstance(r, fx.Add):
        library.add(res, r.number)
        return
    if isinstance(r, fx.Stage):
        library.stage(res, r.number, _seat(res, entry))
        return
    if isinstance(r, fx.Power):
        factions.advance(res, r.faction, r.steps)
        return
    if isinstance(r, fx.Trash):
        res.emit("CardTrashed", card=entry.source, origin=entry.origin)
        return
    if isinstance(r, fx.PlaceMarker):
        # A quest's markers pair with its card; the setup's and the scenario rules' with the scenario sheet.
        if entry.origin in ("quest", "setup", "scenario"):
            res.emit("MarkerPlaced", quest=entry.source, space=r.space)
        return
    if isinstance(r, fx.RemoveMarker):
        res.emit("MarkersRemoved", quest=entry.source)
        return
    if isinstance(r, fx.PlaceFactionToken):
        factions.place_token(res, r.faction, r.space)
        return
    if isinstance(r, fx.PlaceEnemy) and r.space is not None:
        enemies.place_drawn(res, r.type, r.space, r.active, reason="result")
        return
    # Results about the survivor resolving them.
    seat = _seat(res, entry)
    if seat is None:
        return
    survivor = res.state.survivor(seat)
    if isinstance(r, fx.Become):
        traits.gain(res, seat, r.trait)
    elif isinstance(r, fx.LoseTrait):
        traits.lose(res, seat, r.trait)
    elif isinstance(r, fx.GainXP):
        xp.gain(res, seat, r.amount.of(level))
    elif isinstance(r, fx.GainCaps):
        if r.amount.of(level):
            res.emit("CapsGained", seat=seat, amount=r.amount.of(level))
    elif isinstance(r, fx.LoseCaps):
        paid = min(survivor.caps, r.amount.of(level))
        if paid:
            res.emit("CapsPaid", seat=seat, amount=paid, reason="result")
    elif isinstance(r, fx.Draw):
        if r.deck == "agenda":
            agendas.draw(res, seat, r.amount.of(level))
        else:
            items.draw(res, seat, r.deck, r.amount.of(level))
    elif isinstance(r, fx.Shop):
        shop.open_shop(res, seat, r.amount.of(level))
    elif isinstance(r, fx.GainUnique):
        items.gain_unique(res, seat, r.card)
    elif isinstance(r, (fx.SufferDamage, fx.SufferRads)):
        if survivor.on_map:
            damage = r.amount.of(level) if isinstance(r, fx.SufferDamage) else 0
            rads = r.amount.of(level) if isinstance(r, fx.SufferRads) else 0
            res.emit("SurvivorHurt", seat=seat, damage=damage, rads=rads)
            killed.check(res, seat)
    elif isinstance(r, fx.RecoverHP):
        amount = min(r.amount.of(level), MAX_HP - survivor.hp)
        if amount:
            res.emit("SurvivorRecovered", seat=seat, hp=amount, rads=0)
    elif isinstance(r, fx.RemoveRads):
        amount = min(r.amount.of(level), survivor.rads)
        if amount:
            res.emit("SurvivorRecovered", seat=seat, hp=0, rads=amount)
    elif isinstance(r, fx.MoveSurvivor):
        if survivor.on_map:
            # Placed by a result: no movement point, no terrain, no aggressive enemy set off.
            res.emit("SurvivorMoved", seat=seat, **{"from": survivor.space}, to=r.space, cost=0, rads=0,
                     attackers=[])
    elif isinstance(r, fx.PlaceEnemy):
        if survivor.space is not None:
            enemies.place_drawn(res, r.type, survivor.space, r.active, reason="result")
    elif isinstance(r, (fx.KillEnemy, fx.FightEnemy)):
        doing = "kill" if isinstance(r, fx.KillEnemy) else "fight"
        targets = [
            e.id for e in sorted(res.state.enemies, key=lambda e: enemies.enemy_sort_key(e.id))
            if e.active and not e.drawn and e.space == survivor.space and survivor.space is not None
            and r.type in ("any", e.type) and not loyalty.ignores(res.state, seat, e)
        ]
        if len(targets) == 1:
            target(res, seat, targets[0], doing)
        elif targets:
            res.request(seat, "target_enemy", [{"type": "choose_enemy", "enemy": e} for e in targets], doing=doing)
    elif isinstance(r, fx.LoseItem):
        if r.card in survivor.equipped + survivor.inventory:
            items.discard(res, seat, r.card, "lost")
    elif isinstance(r, fx.GainMovement):
        turn = res.state.turn
        if turn is not None and turn.seat == seat:
            res.emit("MovementGained", seat=seat, points=r.points)
    elif isinstance(r, fx.Unexhaust):
        items.unexhaust_all(res, seat)


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
    entry = Resolving(data["seat"], data["source"], data["origin"], data["level"], tuple(data["results"]))
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
        data["seat"], hp=killed.clamp_hp(s.hp - data["damage"]), rads=killed.clamp_rads(s.rads + data["rads"])
    )


@RULES.fold("SurvivorRecovered", {"hp": integer(), "rads": integer(), "seat": integer()})
def _recovered(state: GameState, data: dict) -> GameState:
    s = state.survivor(data["seat"])
    return state.with_survivor(
        data["seat"], hp=killed.clamp_hp(s.hp + data["hp"]), rads=killed.clamp_rads(s.rads - data["rads"])
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
    return replace(state, **changes)


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
