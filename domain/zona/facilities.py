"""Secret facilities: lock tokens, opening, capacity, secrets, finds and looting.

Zona §"TAJNE OBIEKTY", §"OTWARCIE TAJNEGO OBIEKTU", §"ZNALEZISKA",
§"WYDARZENIA TAJNEGO OBIEKTU", §"CEL GRY".
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from domain.game import RuleViolation
from domain.zona import harm, items
from domain.zona.board import board_for
from domain.zona.effects import Address, effect
from domain.zona.pack import pack_named
from domain.zona.resolution import FRAMES, RULES, ZonaResolution
from domain.zona.state import MAX_FATIGUE, Draft, State

RULE_OPEN = 'Zona §"OTWARCIE TAJNEGO OBIEKTU"'
RULE_FINDS = 'Zona §"ZNALEZISKA"'


def secret_facilities(state: State, seat: int) -> set[str]:
    """The facilities (areas) whose secrets the stalker holds."""
    pack = pack_named(state.pack)
    return {state.facility_of[pack.events[c].deck] for c in state.stalkers[seat]["secrets"]}


def ready_for_sarcophagus(state: State, seat: int) -> bool:
    """Zona §"CEL GRY": two secrets, from two different facilities."""
    return len(secret_facilities(state, seat)) >= 2


def occupants(state: State, facility: str) -> int:
    return sum(1 for s in state.stalkers if s["area"] == facility and not s["dead"])


def entry_refusal(state: State, seat: int, facility: str, opening: bool = False) -> str | None:
    """Why the stalker cannot get into ``facility`` now (None: they can)."""
    board = board_for(state.pack, state.side)
    if facility in state.looted:
        return "looted"
    if not opening and not state.locks[facility]["open"]:
        return "closed"
    if occupants(state, facility) >= board.facility_spaces:
        return "full"
    if facility in secret_facilities(state, seat):
        return "secret_known"
    return None


def lock_met(state: State, seat: int, facility: str) -> bool:
    """A lock's price must be payable: no fatigue past the maximum, no injury, the roubles, the trophies."""
    pack = pack_named(state.pack)
    lock = pack.locks[state.locks[facility]["lock"]]
    s = state.stalkers[seat]
    if s["fatigue"] + lock.fatigue > MAX_FATIGUE:
        return False
    if s["damage"] + sum(lock.damage.values()) > items.stamina_of(pack, s):
        return False
    return s["roubles"] >= lock.roubles and len(s["trophies"]) >= lock.trophy


def openable(state: State, seat: int) -> list[str]:
    board = board_for(state.pack, state.side)
    here = state.stalkers[seat]["area"]
    return [f for f, gates in board.entrances.items() if here in gates and not state.locks[f]["open"]
            and entry_refusal(state, seat, f, opening=True) is None and lock_met(state, seat, f)]


@RULES.command("open_facility", {"facility": fields.String(required=True)})
def open_command(res: ZonaResolution, seat: int, command: dict[str, Any]) -> None:
    facility = command["facility"]
    if facility not in openable(res.state, seat):
        raise RuleViolation("cannot_open", "You cannot open that facility now.", rule=RULE_OPEN)
    lock = res.pack.locks[res.state.locks[facility]["lock"]]
    res.emit("ActionTaken", seat=seat, action="open_facility")
    res.emit("FacilityOpened", seat=seat, facility=facility)
    # The opener is moved in at once (no encounter: nothing is left inside).
    res.set("StalkerRelocated", seat, area=facility, by="opening")
    offer_find(res, seat, facility)
    if lock.roubles:
        harm.pay(res, seat, -lock.roubles)
    for token in res.stalker(seat)["trophies"][:lock.trophy]:
        res.move("ThreatDiscarded", token, f"trophies:{seat}", f"dispenser_top:{res.pack.threat(token).queue}", seat)
    harm.suffer(res, seat, dict(lock.damage), by="lock", fatigue=lock.fatigue)


def offer_find(res: ZonaResolution, seat: int, facility: str) -> None:
    """Look through the facility's find deck and keep one (nothing if it is empty)."""
    if res.state.finds[facility]:
        res.push("find", seat=seat, facility=facility)


@FRAMES.step("find")
def step_find(res: ZonaResolution, frame: dict[str, Any]) -> None:
    """The stalker *may* keep one (Zona §"ZNALEZISKA"): each card, or ``refuse`` last (a lapsed turn keeps
    the first card)."""
    choices = [{"type": "keep_find", "card": c} for c in res.state.finds[frame["facility"]]]
    res.ask(frame["seat"], "find", [*choices, {"type": "refuse"}], facility=frame["facility"])


@RULES.answer("find", rule=RULE_FINDS)
def answer_find(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    res.pop()
    if choice["type"] == "refuse":
        return  # looked through and left: the deck stays as it was
    res.move("FindKept", choice["card"], f"finds:{frame['facility']}", "hand", frame["seat"])
    items.gain(res, frame["seat"], choice["card"], "hand")


RULES.answer_command("keep_find", {"card": fields.String(required=True)})


def check_looted(res: ZonaResolution, facility: str) -> None:
    """The last card of a facility's deck gone: looted, and whoever is inside must leave."""
    if not res.state.decks[facility] and facility not in res.state.looted:
        res.emit("FacilityLooted", facility=facility)


@RULES.watch("FacilityLooted")
def _must_leave(state: State, data: dict[str, Any]) -> State:
    d = Draft(state)
    for s in d["stalkers"]:
        if s["area"] == data["facility"]:
            s["must_leave"] = True
    return d.new


# -- the way to the end, in the effects vocabulary ------------------------------------------


@effect("to_power_plant")
def _to_power_plant(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """Zona §"GRANICA OBSZARU ELEKTROWNI": only with two secrets of two facilities."""
    if ready_for_sarcophagus(res.state, seat) and not res.stalker(seat)["dead"]:
        res.set("StalkerRelocated", seat, area=res.board.power_plant, by="area_action")


@effect("to_sarcophagus")
def _to_sarcophagus(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """Zona §"SARKOFAG": the power plant's action leads in, one way."""
    if not res.stalker(seat)["dead"]:
        res.set("StalkerRelocated", seat, area=res.board.sarcophagus, by="area_action")
