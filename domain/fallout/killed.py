"""HP track and being killed.

Remaining HP is HP minus rads; a survivor is killed as soon as HP <= rads.
The figure leaves the map, the inventory is discarded, HP returns to its
maximum (rads stay), and the survivor then picks a space on the starting tile
(a decision). Still killed at full HP means rads are at the maximum: the
survivor is eliminated. A survivor killed on their own turn ends it at once.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import boolean, integer, integers, string, strings
from domain.fallout import effects as fx
from domain.fallout import items, results
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import MAX_HP, Decision, GameState, replace, replaced

RULE = "Killed"


def check(res: Resolution, seat: int) -> bool:
    """Kill the survivor if HP <= rads; True if they were killed."""
    survivor = res.state.survivor(seat)
    if survivor.eliminated or survivor.space is None or survivor.hp > survivor.rads:
        return False
    state = res.state
    eliminated = MAX_HP <= survivor.rads
    ends_turn = state.turn is not None and state.turn.seat == seat
    res.emit(
        "SurvivorKilled",
        seat=seat,
        space=survivor.space,
        discarded=list(survivor.inventory),
        eliminated=eliminated,
        ends_turn=ends_turn,
    )
    if eliminated:
        living = res.state.clockwise(seat)
        if not living:
            res.emit("GameEnded", result="lost", reason="every survivor was eliminated")
        elif state.first_player == seat:
            # Killed: the agenda deck passes to the survivor on the right.
            res.emit("FirstPlayerPassed", seat=right_of(res.state, seat))
    return True


@results.about_survivor(fx.SufferDamage, fx.SufferRads)
def _suffer(res: Resolution, seat: int, level: int, r: fx.SufferDamage | fx.SufferRads) -> None:
    """Damage or rads from a result: none off the map; then HP <= rads is checked."""
    if res.state.survivor(seat).on_map:
        damage = r.amount.of(level) if isinstance(r, fx.SufferDamage) else 0
        rads = r.amount.of(level) if isinstance(r, fx.SufferRads) else 0
        res.emit("SurvivorHurt", seat=seat, damage=damage, rads=rads)
        check(res, seat)


def right_of(state: GameState, seat: int) -> int:
    """The next living seat counter-clockwise (to the right) of ``seat``."""
    n = state.players
    for i in range(1, n + 1):
        other = (seat - i) % n
        if not state.survivors[other].eliminated:
            return other
    return seat


def start_spaces(res: Resolution) -> tuple[str, ...]:
    start = res.scenario.start_place
    return res.board.tile_spaces.get(start, ())


def request_respawn(res: Resolution) -> None:
    seat = res.state.respawning[0]
    res.request(seat, "respawn", [{"type": "respawn", "space": s} for s in start_spaces(res)])


@RULES.answer("respawn", RULE, commands={"respawn": {"space": string()}})
def answer_respawn(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    seat = res.state.respawning[0]
    res.emit("SurvivorRespawned", seat=seat, space=command["space"])


@RULES.fold(
    "SurvivorKilled",
    {
        "discarded": strings(),
        "eliminated": boolean(),
        "ends_turn": boolean(),
        "seat": integer(),
        "space": string(),
    },
)
def _killed(state: GameState, data: dict) -> GameState:
    seat = data["seat"]
    survivor = state.survivor(seat)
    changes: dict[str, Any] = dict(
        space=None, inventory=(), hp=MAX_HP, exhausted=tuple(c for c in survivor.exhausted if c not in survivor.inventory)
    )
    board: dict[str, Any] = {}
    if data["eliminated"]:
        # Everything the eliminated survivor had goes back where it came from.
        changes.update(
            eliminated=True, special=(), agendas=(), perks=(), caps=0, equipped=(), abilities=(), exhausted=(),
            traits=(), xp=None, loyalty=None,
        )
        board.update(
            special_supply=state.special_supply + tuple(t for _, t in survivor.special),
            agenda_discard=state.agenda_discard + survivor.agendas,
            perk_deck=state.perk_deck + survivor.perks,
        )
    else:
        board["respawning"] = state.respawning + (seat,)
    state = state.with_survivor_changed(seat, changes)
    # The discarded cards go to their decks' discard piles (items.to_pile).
    for card in survivor.inventory + (survivor.equipped if data["eliminated"] else ()):
        state = items.to_pile(state, card)
    if data["eliminated"]:
        if state.trade is not None and seat in (state.trade.seat, state.trade.partner):
            state = replace(state, trade=None)
    if state.attackers is not None and state.attackers.seat == seat:
        board["attackers"] = None
    if data.get("ends_turn") and state.turn is not None:
        board["turn"] = replace(state.turn, ending=True)
    if data["eliminated"]:
        board["level_ups"] = tuple(s for s in state.level_ups if s != seat)
    return replaced(state, board)


@RULES.fold("SurvivorRespawned", {"seat": integer(), "space": string()})
def _respawned(state: GameState, data: dict) -> GameState:
    seat = data["seat"]
    state = state.with_survivor(seat, space=data["space"])
    respawning = list(state.respawning)
    if seat in respawning:
        respawning.remove(seat)
    return replace(state, respawning=tuple(respawning))


@RULES.fold("FirstPlayerPassed", {"seat": integer()})
def _first_player_passed(state: GameState, data: dict) -> GameState:
    return replace(state, first_player=data["seat"])


@RULES.fold(
    "GameEnded",
    {
        "factions": strings(optional=True),
        "reason": string(),
        "result": string(),
        "winners": integers(optional=True),
    },
)
def _game_ended(state: GameState, data: dict) -> GameState:
    return replace(state, phase="over", result=data["result"], pending=None, winners=tuple(data.get("winners") or ()))
