"""Influence and winning (Influence, Agenda Cards, Faction Power Track).

Each agenda card in hand gives 1 influence, plus what its conditions give,
evaluated on the live game whenever influence is counted. The influence a
player count needs: 11, 10, 9, 8 for one to four players.

A survivor who reaches it wins at once: the engine declares victory for
them the moment the game settles after a step (nobody would decline), and
every other survivor at or above the mark shares the victory. When a faction
reaches or passes the final space of the power track, survivors with enough
influence (the excess advance counted) win; otherwise everyone loses.
"""

from __future__ import annotations

from typing import Final

from domain.fallout import conditions
from domain.fallout import effects as fx
from domain.fallout.content import catalog
from domain.fallout.rulebook import Resolution
from domain.fallout.state import GameState

RULE = "Influence"
#: Influence is counted after every step: each card's entries are parsed once.
_parsed_influence: Final = fx.Memo(fx.parse_influence)
NEEDED = {1: 11, 2: 10, 3: 9, 4: 8}


def needed(players: int) -> int:
    return NEEDED.get(players, 8)


def count(state: GameState, seat: int, counter: fx.Counter) -> int:
    s = state.survivor(seat)
    cards = catalog(state.pack).cards
    if counter.what == "caps":
        return s.caps
    if counter.what == "lead":
        return max(0, conditions.lead(state, counter.arg or ""))
    if counter.what == "special":
        return len(s.special)
    if counter.what == "perks":
        return len(s.perks)
    if counter.what == "items":
        return len(s.equipped) + len(s.inventory)
    if counter.what == "kind":
        return sum(1 for c in s.equipped + s.inventory if cards[c].kind == counter.arg)
    if counter.what == "traits":
        return len(s.traits)
    if counter.what == "agendas":
        return len(s.agendas)
    if counter.what in fx.MEASURES:
        return conditions.measure(state, seat, counter.what)
    return 0


def _parts(state: GameState) -> tuple:
    """The parts of the state influence reads: the survivors, the power track, the markers, the map."""
    return (state.survivors, state.power, state.markers, state.places, state.pack, state.scenario)


def _same_parts(seen: tuple, state: GameState) -> bool:
    """``seen`` is ``_parts(state)``, the very objects (written out: asked after every step, and a generator
    over the pairs cost more than the answer it guarded)."""
    return (
        seen[0] is state.survivors and seen[1] is state.power and seen[2] is state.markers
        and seen[3] is state.places and seen[4] is state.pack and seen[5] is state.scenario
    )  # fmt: skip


#: Each seat's influence, by the very parts of the state it was counted on (``_parts``): ``winners`` counts
#: every seat after each step, and a bot's scoring asks again of the position the step settled on.
_LAST_OF: Final[list[tuple[tuple, dict[int, int]]]] = []


def of(state: GameState, seat: int) -> int:
    if _LAST_OF and _same_parts(_LAST_OF[0][0], state):
        counted = _LAST_OF[0][1]
    else:
        counted = {}
        _LAST_OF[:] = [(_parts(state), counted)]
    found = counted.get(seat)
    if found is None:
        found = counted[seat] = _seat_count(state, seat)
    return found


#: Each seat's influence by the parts of the state its count reads (its own survivor, the power track, the
#: markers, the map; the pack and scenario by name): a step that changes one survivor changes the others'
#: counts only through where it stands, which an agenda asks only with a ``WithSurvivor`` condition, and a
#: seat holding one is never kept here. Values: (those parts, pack, scenario, the count).
_BY_SEAT: Final[dict[int, tuple[tuple, str, str, int]]] = {}
#: Whether an agenda card's influence asks where the other survivors stand, by (pack, card).
_READS_OTHERS: dict[tuple[str, str], bool] = {}


def _seat_count(state: GameState, seat: int) -> int:
    s = state.survivor(seat)
    parts = (s, state.power, state.markers, state.places)
    kept = _BY_SEAT.get(seat)
    if (
        kept is not None and kept[1] == state.pack and kept[2] == state.scenario
        and kept[0][0] is s and kept[0][1] is state.power and kept[0][2] is state.markers
        and kept[0][3] is state.places
    ):  # fmt: skip
        return kept[3]
    found = _count_of(state, seat)
    if not any(_reads_others(state.pack, a) for a in s.agendas):
        _BY_SEAT[seat] = (parts, state.pack, state.scenario, found)
    return found


def _reads_others(pack: str, agenda: str) -> bool:
    found = _READS_OTHERS.get((pack, agenda))
    if found is None:
        found = _READS_OTHERS[(pack, agenda)] = any(
            isinstance(c, fx.WithSurvivor)
            for raw in catalog(pack).agendas[agenda].influence
            for c in fx.conditions_in(_parsed_influence(raw).condition)
        )
    return found


def _count_of(state: GameState, seat: int) -> int:
    s = state.survivor(seat)
    if s.eliminated:
        return 0
    agendas = catalog(state.pack).agendas
    total = 0
    for a in s.agendas:
        total += 1
        for raw in agendas[a].influence:
            entry: fx.Influence = _parsed_influence(raw)  # typed: its fields are read from the struct, compiled
            if entry.per is not None:
                gain = entry.gain * (count(state, seat, entry.per) // entry.every)
            else:
                gain = entry.gain if conditions.holds(state, seat, entry.condition) else 0
            total += gain if entry.most is None else min(gain, entry.most)
    return total


#: The last ``winners`` answer, by the very parts of the state influence reads (the survivors, the
#: power track, the markers, the map): the engine asks after every step, and most steps (an enemy
#: moving, a die kept) change none of them, so the same tuples come back.
_LAST_WINNERS: Final[list[tuple[tuple, list[int]]]] = []


def winners(state: GameState) -> list[int]:
    if _LAST_WINNERS:
        seen, found = _LAST_WINNERS[0]
        if _same_parts(seen, state):
            return list(found)
    parts = _parts(state)
    mark = needed(state.players)
    found = [
        s.seat for s in state.survivors if not s.eliminated and s.survivor is not None and of(state, s.seat) >= mark
    ]
    _LAST_WINNERS[:] = [(parts, found)]
    return list(found)


def check_victory(res: Resolution) -> bool:
    seats = winners(res.state)
    if not seats:
        return False
    res.emit("GameEnded", result="won", reason="victory declared", winners=seats)
    return True


def faction_took_over(res: Resolution, factions: list[str]) -> None:
    seats = winners(res.state)
    if seats:
        res.emit("GameEnded", result="won", reason="victory declared as a faction took over", winners=seats,
                 factions=factions)
    else:
        res.emit("GameEnded", result="lost", reason="a faction took over the wasteland", factions=factions)


