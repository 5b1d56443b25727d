"""The news phase and the emission; the end of the round.

Zona §"WIEŚCI" (emission arrows, timed cards, the Voice passes left, the
refresh), §"EMISJA" (reveal, dash to a bunker, damage by sector, board reset,
market reset), §"PRZEGRANA" (the news deck runs out), §"ŚMIERĆ" (a new
stalker at the end of the news phase).
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from domain.zona import effects, encounter, harm, items, market
from domain.zona.effects import Address, effect
from domain.zona.model import OPEN_GROUND
from domain.zona.resolution import FRAMES, RULES, ZonaResolution
from domain.zona.state import MAX_FATIGUE, owned_items, turn_order

RULE_NEWS = 'Zona §"WIEŚCI"'
RULE_EMISSION = 'Zona §"EMISJA"'
DASH = 2


def start_phase(res: ZonaResolution) -> None:
    res.push("news", step="draw", emitted=False, card=None)


@FRAMES.step("news")
def step_news(res: ZonaResolution, frame: dict[str, Any]) -> None:
    step = frame["step"]
    state = res.state
    if step == "draw":
        if not state.decks["news"]:
            res.emit("GameLost", reason="news")
            return
        card = state.decks["news"][0]
        res.move("NewsDrawn", card, "deck:news", "reading")
        res.update(step="arrows", card=card)
    elif step == "arrows":
        card = res.pack.news[frame["card"]]
        marker = state.emission + (0 if frame["emitted"] else card.arrows)
        if marker >= res.pack.track and not frame["emitted"]:
            # The card waits on top of the deck while the emission strikes, then is resolved.
            res.emit("EmissionAdvanced", marker=res.pack.track)
            res.move("NewsReturned", frame["card"], "reading", "deck:news")
            res.update(step="draw", emitted=True)
            res.push("emission", step="reveal", card=None, dashing=turn_order(state))
            return
        if marker != state.emission:
            res.emit("EmissionAdvanced", marker=marker)
        res.update(step="effect")
    elif step == "effect":
        card = res.pack.news[frame["card"]]
        res.update(step="voice")
        if card.timed is not None:
            _place_timed(res, frame["card"])
        else:
            res.move("NewsRemoved", frame["card"], "reading", "removed")
            effects.run(res, state.voice, ["news", frame["card"], "effects"])
    elif step == "voice":
        res.update(step="rebirth")
        res.emit("VoicePassed", seat=(state.voice + 1) % state.players)
        deactivated = list(state.deactivated)
        if deactivated:
            res.emit("ItemsRefreshed", cards=deactivated)
        for s in state.stalkers:
            if s.get("ability_used"):
                res.set("AbilityUsed", s["seat"], ability_used=False)
    elif step == "rebirth":
        res.update(step="end")
        for seat in reversed(turn_order(state)):
            if state.stalkers[seat]["dead"]:
                res.push("rebirth", seat=seat)
    else:
        res.pop()
        if not state.decks["news"] and state.options["news_loss"] == "after_last":
            res.emit("GameLost", reason="news")


def _place_timed(res: ZonaResolution, card: str) -> None:
    """A timed card replaces the one in force and applies where the Voice marks it."""
    for old in list(res.state.timed_slot):
        res.move("NewsRemoved", old, "timed_slot", "removed")
    res.move("NewsDrawn", card, "reading", "timed_slot")
    if "blocked" in (res.pack.news[card].timed or {}):
        # A border, not an area: the Voice's choice even in solo is the player's (no area to prefer).
        chooser = 0 if res.state.players == 1 else res.state.voice
        res.push("voice_area", chooser=chooser, purpose="timed", data={"card": card}, areas=borders(res))
        return
    voice_chooses_area(res, "timed", {"card": card})


def borders(res: ZonaResolution) -> list[str]:
    """Borders a move crosses on this side, written ``a|b``."""
    out = set()
    for area, links in res.board.links.items():
        for other, border in links.items():
            if border.kind in ("border", "shortcut"):
                out.add("|".join(sorted((area, other))))
    return sorted(out)


def open_areas(res: ZonaResolution) -> list[str]:
    return [a.id for a in res.pack.areas.values() if a.sector in OPEN_GROUND]


def voice_chooses_area(res: ZonaResolution, purpose: str, data: dict[str, Any]) -> None:
    """The Voice of the Zone picks an area. Solo: the stalker's own area, when it can be chosen."""
    areas = open_areas(res)
    if res.state.players == 1:
        here = res.stalker(0)["area"]
        if here in areas:
            _apply_area(res, purpose, data, here)
            return
        res.push("voice_area", chooser=0, purpose=purpose, data=data, areas=areas)
        return
    res.push("voice_area", chooser=res.state.voice, purpose=purpose, data=data, areas=areas)


def voice_places(res: ZonaResolution, kind: str, colour: str, spread: bool = False) -> None:
    voice_chooses_area(res, "threat", {"kind": kind, "colour": colour, "spread": spread})


@effect("place_threats")
def _place_threats(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    for spec in reversed(e["place_threats"]):
        voice_places(res, spec["kind"], spec["colour"], bool(spec.get("spread")))


@FRAMES.step("voice_area")
def step_voice_area(res: ZonaResolution, frame: dict[str, Any]) -> None:
    key = "border" if "|" in frame["areas"][0] else "area"
    res.ask(frame["chooser"], "voice_area", [{"type": "mark", key: a} for a in frame["areas"]],
            purpose=frame["purpose"])


@RULES.answer("voice_area", rule=RULE_NEWS)
def answer_area(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    res.pop()
    _apply_area(res, frame["purpose"], frame["data"], choice.get("area") or choice["border"])


RULES.answer_command("mark", {"area": fields.String(), "border": fields.String()})


def _apply_area(res: ZonaResolution, purpose: str, data: dict[str, Any], area: str) -> None:
    if purpose == "timed":
        res.emit("TimedNewsPlaced", card=data["card"], target=area)
        return
    encounter.place(res, data["kind"], data["colour"], area)
    if data.get("spread") and res.state.players > 1:
        # Zona §"WARIANT GRY SOLO": an effect on an area and one next to it; in solo only the first.
        nearby = [a for a in res.board.neighbours(area) if a in open_areas(res)]
        if nearby:
            res.push("voice_area", chooser=res.state.voice, purpose="threat",
                     data={**data, "spread": False}, areas=nearby)


# -- the emission ------------------------------------------------------------------------


@FRAMES.step("emission")
def step_emission(res: ZonaResolution, frame: dict[str, Any]) -> None:
    step = frame["step"]
    state = res.state
    if step == "reveal":
        if not state.decks["emission"]:
            res.emit("DeckShuffled", deck="emission", order=res.rng.shuffled(state.discards["emission"]))
        card = res.state.decks["emission"][0]
        res.move("EmissionRevealed", card, "deck:emission", "discard:emission")
        res.update(step="dash", card=card)
    elif step == "dash":
        waiting = [s for s in frame["dashing"] if _may_dash(res, s)]
        if not waiting:
            res.update(step="damage")
            return
        seat = waiting[0]
        res.update(dashing=waiting[1:])
        res.ask(seat, "dash", [*dash_choices(res, seat), {"type": "stay"}])
    elif step == "damage":
        res.update(step="reset")
        card = res.pack.emissions[frame["card"]]
        for seat in reversed(turn_order(state)):
            s = res.stalker(seat)
            if s["dead"]:
                continue
            sector = res.pack.areas[s["area"]].sector
            if sector not in OPEN_GROUND:
                continue
            bands = OPEN_GROUND[: OPEN_GROUND.index(sector) + 1]
            harm.suffer(res, seat, {card.type: sum(card.damage[b] for b in bands)}, by="emission")
    else:
        res.pop()
        card = res.pack.emissions[frame["card"]]
        for old in list(state.timed_slot):
            res.move("NewsRemoved", old, "timed_slot", "removed")
        if state.timed is not None:
            res.emit("TimedNewsPlaced", card=None, target=None)
        # By area, as a state read back from a snapshot (sorted JSON) would walk them: never by insertion order.
        for area, tokens in sorted(res.state.threats.items()):
            for token in list(tokens):
                encounter.discard(res, token, f"area:{area}")
        for spec in card.place:
            encounter.place(res, spec.kind, spec.colour, spec.area)
        market.reset(res)
        res.emit("EmissionAdvanced", marker=0)


def dash_choices(res: ZonaResolution, seat: int) -> list[dict[str, Any]]:
    """Next to a bunker on open ground, and the fatigue fits under the maximum (the dash is voluntary):
    +2, or +1 with a dash item (the book's nest-like artifact)."""
    s = res.stalker(seat)
    if s["dead"] or res.pack.areas[s["area"]].sector not in OPEN_GROUND:
        return []
    bunkers = [b for b in res.board.neighbours(s["area"]) if b in res.board.bunkers]
    helpers = [c for c in owned_items(s) if res.pack.item_type(c).dash and items.works(res.pack, res.state, s, c)]
    out: list[dict[str, Any]] = []
    for bunker in bunkers:
        if s["fatigue"] + DASH <= MAX_FATIGUE:
            out.append({"type": "dash", "bunker": bunker})
        if s["fatigue"] + DASH - 1 <= MAX_FATIGUE:
            out += [{"type": "dash", "bunker": bunker, "card": c} for c in helpers]
    return out


def _may_dash(res: ZonaResolution, seat: int) -> bool:
    return bool(dash_choices(res, seat))


@RULES.answer("dash", rule=RULE_EMISSION)
def answer_dash(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    if choice["type"] != "dash":
        return
    res.set("StalkerRelocated", decision.seat, area=choice["bunker"], by="dash")
    if "card" in choice:
        items.use(res, decision.seat, choice["card"], "dash")
    harm.change_fatigue(res, decision.seat, DASH - (1 if "card" in choice else 0), by="dash")


RULES.answer_command("dash", {"bunker": fields.String(required=True), "card": fields.String()})
RULES.answer_command("stay", {})
