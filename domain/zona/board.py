"""The main board of one side: which areas a move reaches and what crossing costs.

Zona §"OBSZAR": areas sharing a border are adjacent; §"BLOKADA": a solid line
is never crossed (on the small side some borders are); §"GRANICA OBSZARU
ELEKTROWNI": the power plant is reached only by an area action;
§"SKRÓTY": a shortcut deals 1 damage of its type; §"TAJNE OBIEKTY": a facility
is entered only through its entrance areas once it is open.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from domain.zona.model import Border, Pack
from domain.zona.pack import pack_named


@dataclass(frozen=True)
class Board:
    side: str
    facility_spaces: int
    #: area -> {neighbour: border} for borders a move may cross on this side.
    links: dict[str, dict[str, Border]]
    #: facility -> its entrance areas.
    entrances: dict[str, tuple[str, ...]]
    bunkers: tuple[str, ...]
    power_plant: str
    sarcophagus: str

    def neighbours(self, area: str) -> dict[str, Border]:
        return self.links.get(area, {})

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.links.get(a, {})


@functools.cache
def _board(pack_name: str, side: str) -> Board:
    pack: Pack = pack_named(pack_name)
    links: dict[str, dict[str, Border]] = {a: {} for a in pack.areas}
    entrances: dict[str, list[str]] = {}
    for b in pack.borders:
        if side in b.blockade_on or b.kind == "power_plant":
            continue
        links[b.a][b.b] = b
        links[b.b][b.a] = b
        if b.kind == "entrance":
            facility, outside = (b.a, b.b) if pack.areas[b.a].sector == "facility" else (b.b, b.a)
            entrances.setdefault(facility, []).append(outside)
    return Board(
        side=side,
        facility_spaces=pack.sides[side].facility_spaces,
        links=links,
        entrances={f: tuple(v) for f, v in entrances.items()},
        bunkers=tuple(a.id for a in pack.areas.values() if a.sector == "bunker"),
        power_plant=next(a.id for a in pack.areas.values() if a.power_plant),
        sarcophagus=next(a.id for a in pack.areas.values() if a.sector == "sarcophagus"),
    )


def board_for(pack_name: str, side: str) -> Board:
    return _board(pack_name, side)


def side_for(pack: Pack, players: int) -> str:
    """Zona §"PRZYGOTOWANIE DO GRY" step 1: the side printed for this many players."""
    return next(s.id for s in pack.sides.values() if players in s.players)
