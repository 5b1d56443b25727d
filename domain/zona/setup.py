"""Setting a game up, choosing and preparing stalkers, and a new stalker after a death.

Zona §"PRZYGOTOWANIE DO GRY" (board side, decks, lock tokens, find decks,
market, dispenser, emission track), §"UŻYWANIE PODAJNIKA",
§"WYBÓR I PRZYGOTOWANIE SZPERACZY" (two boards each, one kept; or free choice),
§"ŚMIERĆ" (a board not yet used; one of two secrets kept),
§"WARIANT GRY SOLO" (two finds a deck, a second board's threats, five news
cards fewer).
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from domain.rng import Rng
from domain.zona import encounter
from domain.zona.board import side_for
from domain.zona.model import QUEUES, Pack, Stalker
from domain.zona.pack import pack_named
from domain.zona.resolution import FRAMES, RULES, ZonaResolution
from domain.zona.state import MARKET_COLUMNS, MARKET_ROWS, State

RULE_DRAFT = 'Zona §"WYBÓR I PRZYGOTOWANIE SZPERACZY"'
FACILITY_LOCKS = 4


def _instances(pack: Pack, kind: str, colour: str | None = None) -> list[str]:
    mark = "f" if kind == "find" else ""
    return [f"{t.id}#{mark}{n}" for t in pack.items.values() if t.kind == kind and (colour is None or t.colour == colour)
            for n in range(1, t.copies + 1)]


def initial(options: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """The table before anyone chooses a stalker: every deck shuffled, every card in one place (the
    fields of ``State``, as ``GameSetUp`` carries them)."""
    pack = pack_named(options["pack"])
    players = options["players"]
    # A creator may choose the other side than the one printed for the player count (docs/zona-engine.md).
    side = options.get("side") or side_for(pack, players)
    decks: dict[str, list[str]] = {
        "green": rng.shuffled(pack.deck_cards("green")),
        "yellow": rng.shuffled(pack.deck_cards("yellow")),
        "sarcophagus": rng.shuffled(pack.deck_cards("sarcophagus")),
        "junk": rng.shuffled(_instances(pack, "junk")),
        "equipment": rng.shuffled(_instances(pack, "equipment")),
        "green_artifact": rng.shuffled(_instances(pack, "artifact", "green")),
        "yellow_artifact": rng.shuffled(_instances(pack, "artifact", "yellow")),
        "news": rng.shuffled(list(pack.news)),
        "emission": rng.shuffled(list(pack.emissions)),
    }
    # First game: each facility deck at its own place; later games may deal them out at random.
    names = sorted(pack.facilities)
    places = [pack.facilities[n] for n in names]
    if options["random_facilities"]:
        places = rng.shuffled(places)
    facility_of = dict(zip(names, places, strict=True))
    for name, area in facility_of.items():
        decks[area] = rng.shuffled(pack.deck_cards(name))
    locks = rng.shuffled(sorted(pack.locks))
    finds = rng.shuffled(_instances(pack, "find"))
    per_deck = 2 if players == 1 else players
    find_decks = {area: finds[i * per_deck:(i + 1) * per_deck] for i, area in enumerate(places)}
    box = finds[len(places) * per_deck:] + [f"{e}@{s.id}" for s in pack.stalkers.values() for e in s.equipment]
    # Solo: a shorter clock, the top news cards set aside unseen; the pack may set more aside at any
    # count (its clock for that count: content, as the news cards are).
    cut = (options["solo_news_discard"] if players == 1 else 0) + pack.set_aside.get(players, 0)
    removed, decks["news"] = decks["news"][:cut], decks["news"][cut:]
    market: dict[str, list[str | None]] = {row: [None] * MARKET_COLUMNS for row in MARKET_ROWS}
    for row in MARKET_ROWS:
        for slot in range(MARKET_COLUMNS):
            if decks[row]:
                market[row][slot] = decks[row].pop(0)
    characters = rng.shuffled(sorted(pack.stalkers))
    voice = options["first_voice"] if options["first_voice"] is not None else rng.below(players)
    return {
        "phase": "setup", "over": False, "pack": pack.name, "side": side, "players": players, "options": dict(options),
        "round": 0, "voice": voice % players, "turn": None, "turns_taken": [],
        "stalkers": [_empty_stalker(seat) for seat in range(players)],
        "draft": {str(seat): characters[2 * seat:2 * seat + 2] for seat in range(players)},
        "decks": decks, "discards": {k: [] for k in ("green", "yellow", "sarcophagus", "junk", "equipment",
                                                    "green_artifact", "yellow_artifact", "emission", *places)},
        "box": box, "hand": [], "in_play": [], "reading": [], "removed": removed, "timed_slot": [],
        "dispenser": {q: rng.shuffled([f"{t.id}#{n}" for t in pack.threats.values() if t.queue == q
                                       for n in range(1, t.copies + 1)]) for q in QUEUES},
        "threats": {}, "facility_of": facility_of,
        "locks": {area: {"lock": locks[i], "open": False} for i, area in enumerate(places)},
        "finds": find_decks, "looted": [], "market": market, "emission": 0, "timed": None,
        "wear": {}, "deactivated": [], "frames": [], "pending": None, "used_characters": [],
        "winner": None, "lost": None,
    }


def _empty_stalker(seat: int) -> dict[str, Any]:
    return {"seat": seat, "character": None, "area": None, "damage": 0, "fatigue": 1, "reputation": "neutral",
            "roubles": 0, "injuries": [], "backpack": [], "worn": [], "small": [], "sixth": [], "trophies": [],
            "secrets": [], "ability_used": False, "dead": False, "must_leave": False}


def draft_choices(state: State, seat: int) -> list[str]:
    if state.options["draft"] == "free":
        taken = {s["character"] for s in state.stalkers if s["character"]}
        return [c for c in sorted(pack_named(state.pack).stalkers) if c not in taken]
    return list(state.draft[str(seat)])


@FRAMES.step("draft")
def step_draft(res: ZonaResolution, frame: dict[str, Any]) -> None:
    order = frame["order"]
    if frame["index"] < len(order):
        seat = order[frame["index"]]
        res.ask(seat, "choose_stalker", [{"type": "choose_stalker", "character": c}
                                         for c in draft_choices(res.state, seat)])
        return
    res.pop()
    # Every stalker chosen: the threats their boards name go out, then the first round begins.
    for seat in order:
        for spec in res.pack.stalkers[res.stalker(seat)["character"]].threats:
            encounter.place(res, spec.kind, spec.colour, spec.area)
    if res.state.players == 1:
        taken = set(res.state.used_characters)
        others = [c for c in sorted(res.pack.stalkers) if c not in taken]
        extra = res.pack.stalkers[res.rng.choice(others)]
        for spec in extra.threats:
            encounter.place(res, spec.kind, spec.colour, spec.area)
    res.emit("PhaseStarted", phase="action", round=1)


@RULES.answer("choose_stalker", rule=RULE_DRAFT)
def answer_draft(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    res.update(index=frame["index"] + 1)
    prepare(res, decision.seat, choice["character"], [])


RULES.answer_command("choose_stalker", {"character": fields.String(required=True)})


def prepare(res: ZonaResolution, seat: int, character: str, secrets: list[str]) -> None:
    """Damage, roubles, reputation, the starting area, fatigue 1 and the four own cards laid out."""
    pack = res.pack
    c: Stalker = pack.stalkers[character]
    record = {**_empty_stalker(seat), "character": character, "area": c.area, "damage": c.damage,
              "roubles": c.roubles, "reputation": c.reputation, "secrets": list(secrets)}
    res.emit("CharacterChosen", seat=seat, stalker=record)
    for kind in c.equipment:
        card = f"{kind}@{character}"
        t = pack.items[kind]
        s = res.stalker(seat)
        covered = {p for w in s["worn"] for p in pack.item_type(w).outfit}
        if t.small:
            target = "small"
        elif t.outfit and not covered & set(t.outfit):
            target = "worn"
        else:
            target = "backpack"
        res.move("ItemKept", card, "box", f"{target}:{seat}", seat)


@FRAMES.step("rebirth")
def step_rebirth(res: ZonaResolution, frame: dict[str, Any]) -> None:
    seat = frame["seat"]
    used = set(res.state.used_characters)
    characters = [c for c in sorted(res.pack.stalkers) if c not in used]
    if not characters:
        # Our ruling: with every board used, a board no living stalker holds comes back.
        living = {s["character"] for s in res.state.stalkers if not s["dead"]}
        characters = [c for c in sorted(res.pack.stalkers) if c not in living]
    secrets = res.stalker(seat)["secrets"]
    # Zona §"ŚMIERĆ": with two secrets the player *may* keep one (either, or neither: last, so a lapsed
    # turn keeps the first); with one, nothing carries over.
    keeps: list[str | None] = [*secrets, None] if len(secrets) >= 2 else [None]
    res.ask(seat, "new_stalker", [{"type": "new_stalker", "character": c, "keep": k}
                                  for c in characters for k in keeps])


@RULES.answer("new_stalker", rule='Zona §"ŚMIERĆ"')
def answer_rebirth(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    seat = decision.seat
    res.pop()
    for card in res.stalker(seat)["secrets"]:
        if card != choice["keep"]:
            res.move("EventCardDiscarded", card, f"secrets:{seat}", f"discard:{_deck_of(res, card)}", seat)
    # No starting threats for a stalker who comes back (step a is skipped).
    prepare(res, seat, choice["character"], [choice["keep"]] if choice["keep"] else [])


def _deck_of(res: ZonaResolution, card: str) -> str:
    return str(res.state.facility_of[res.pack.events[card].deck])


RULES.answer_command("new_stalker", {"character": fields.String(required=True),
                                     "keep": fields.String(allow_none=True, required=True)})
