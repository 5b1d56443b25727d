"""The event phase: each stalker draws the card of the deck of their area and resolves it.

Zona §"WYDARZENIA", §"KARTY WYDARZEŃ", §"WYDARZENIA ZIEŁONEGO SEKTORA I ŻÓŁTEGO
SEKTORA" (three sections, "other area", reshuffled), §"WYDARZENIA TAJNEGO
OBIEKTU" (paragraphs: continue / mission failed / the secret),
§"WYDARZENIA SARKOFAGU" (the ending wins; the last card discarded loses all),
§"ZWYCIĘSTWO", §"TARGOWISKO" (a stalker who bought while reading ends their turn with a refill).
"""

from __future__ import annotations

from typing import Any

from domain.zona import effects, facilities, market
from domain.zona.model import EventCard
from domain.zona.pack import pack_named
from domain.zona.resolution import FRAMES, ZonaResolution
from domain.zona.state import State, turn_order


def deck_for(state: State, area: str) -> str | None:
    """Green and yellow areas, facilities and the sarcophagus have decks; red areas and bunkers none."""
    sector = pack_named(state.pack).areas[area].sector
    if sector in ("green", "yellow", "sarcophagus"):
        return sector
    if sector == "facility":
        return area
    return None


def start_phase(res: ZonaResolution) -> None:
    res.push("event_phase", order=turn_order(res.state), index=0)


@FRAMES.step("event_phase")
def step_phase(res: ZonaResolution, frame: dict[str, Any]) -> None:
    if frame.get("bought"):
        # Zona §"TARGOWISKO": the stalker who just read bought from the market: their turn is over.
        res.update(bought=False)
        market.slide_and_fill(res)
        return
    if frame["index"] >= len(frame["order"]):
        res.pop()
        return
    seat = frame["order"][frame["index"]]
    res.update(index=frame["index"] + 1)
    s = res.stalker(seat)
    deck = None if s["dead"] else deck_for(res.state, s["area"])
    if deck is None or not res.state.decks[deck]:
        return
    card = res.state.decks[deck][0]
    res.move("EventCardDrawn", card, f"deck:{deck}", "reading", seat)
    if deck in ("green", "yellow") and not res.state.decks[deck] and res.state.discards[deck]:
        res.emit("DeckShuffled", deck=deck, order=res.rng.shuffled(res.state.discards[deck]))
    res.push("card", seat=seat, card=card, deck=deck, paragraph=0, started=False, control=None)


def section(card: EventCard, state: State, seat: int) -> str:
    """The one section a stalker resolves: by reputation, else their named area, else "other"."""
    s = state.stalkers[seat]
    if card.by_reputation:
        return str(s["reputation"])
    return str(s["area"]) if s["area"] in card.sections else "other"


@FRAMES.step("card")
def step_card(res: ZonaResolution, frame: dict[str, Any]) -> None:
    seat = frame["seat"]
    card = res.pack.events[frame["card"]]
    if not card.paragraphs:
        if not frame["started"]:
            res.update(started=True)
            effects.run(res, seat, ["card", card.id, "sections", section(card, res.state, seat)])
            return
        _discard(res, frame)
        return
    control = frame["control"]
    if control is None and not frame["started"]:
        res.update(started=True)
        effects.run(res, seat, ["card", card.id, "paragraphs", frame["paragraph"]])
        return
    if control == "next" and frame["paragraph"] + 1 < len(card.paragraphs):
        res.update(paragraph=frame["paragraph"] + 1, started=False, control=None)
        return
    if control == "win":
        res.emit("GameWon", seat=seat)
        return
    if control == "secret":
        res.pop()
        res.move("SecretDiscovered", frame["card"], "reading", f"secrets:{seat}", seat)
        facility = res.state.facility_of[card.deck]
        facilities.check_looted(res, frame["deck"])
        facilities.offer_find(res, seat, facility)
        return
    # Mission failed (or a paragraph that ran out with nothing to continue to).
    _discard(res, frame)


def _discard(res: ZonaResolution, frame: dict[str, Any]) -> None:
    res.pop()
    res.move("EventCardDiscarded", frame["card"], "reading", f"discard:{frame['deck']}", frame["seat"])
    deck = frame["deck"]
    if deck == "sarcophagus" and not res.state.decks["sarcophagus"]:
        res.emit("GameLost", reason="sarcophagus")
    elif deck not in ("green", "yellow", "sarcophagus"):
        facilities.check_looted(res, deck)
