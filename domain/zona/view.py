"""What a seat may see of a game of Zona, and the events as that seat may read them.

Hidden until the game is over: the order of every deck and dispenser queue,
the contents of the find decks and the finds a stalker holds (others see
"find"), the two boards another player drafts from, the cards a stalker is
looking through, the choices of someone else's pending decision, and the
text of the event card being read beyond what has been chosen: the stalker
hears the options, the Voice of the Zone who reads the card (the player on the left when the
stalker holds the Voice) sees it whole (the read-aloud split; option
``read_whole_card`` lets the stalker read it).

Everything else the log shows every seat is in the view too, the public
bookkeeping under ``table`` (options, the resolution stack, discard piles),
so that a bot can rebuild a whole game from its view (``domain.zona.determinize``).
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any, Final

from domain.game import Event
from domain.zona import faces
from domain.zona.board import board_for
from domain.zona.layout import layout
from domain.zona.model import Pack
from domain.zona.pack import pack_named
from domain.zona.state import HIDDEN, State, clone, is_find, mask, owned_items
from domain.zona.words import card_text
from domain.zona.words import effects as effects_in_words


def _mask_finds(state: State, cards: list[str], visible: bool) -> list[str]:
    return cards if visible else ["find" if is_find(c) else c for c in cards]


def reader_of(state: State, stalker: int) -> int | None:
    """Who reads a stalker's card aloud: the Voice of the Zone, or the player on the left of a
    stalker who holds the Voice; nobody else in solo."""
    if state.players == 1:
        return None
    voice: int = state.voice
    return voice if voice != stalker else (stalker + 1) % state.players


def view(state: State, seat: int | None) -> dict[str, Any]:
    if state.phase == "new":
        return {"phase": "new"}
    pack = pack_named(state.pack)
    shown = _play(state, seat, pack)
    # The board names no item card: left out of the walk, it keeps a view quick enough for bots' searches.
    # The cards and the faces search the same text (the view so far): written once.
    text = json.dumps(shown)
    every = faces.strings(text)
    # With no escape in the text (json writes one for each character past ASCII) the strings holding a # or @
    # are exactly what _NAMED finds, in order; with one, the regular expression decides, as it always did.
    named = [v for v in every if "#" in v or "@" in v] if "\\" not in text else _NAMED.findall(text)
    shown["cards"] = _catalog(pack, named)
    shown["board"] = clone(board_description(pack.name, state.side))
    shown["faces"] = faces.shown(shown, state.pack, every)
    return shown


def _play(state: State, seat: int | None, pack: Pack) -> dict[str, Any]:
    """The view but for the cards it names, the board's description and the faces: the game as it stands."""
    over = state.over
    shown = _body(state, seat, pack, over, _stalkers(state, seat, pack, over), state.pending)
    shown["table"] = _table(state, seat, over)
    return shown


def search_view(state: State, seat: int) -> dict[str, Any]:
    """``view(state, seat)`` less what only people read: the cards it names, the faces, and of the board's
    description the spaces inside a facility only (a bot's scoring reads them). A searching bot is handed it
    (``domain.zona.ai``): writing the whole view's text for its names and faces was a thirteenth of a greedy
    decision, and neither dealing worlds nor scoring reads them."""
    if state.phase == "new":
        return {"phase": "new"}
    pack = pack_named(state.pack)
    shown = _play(state, seat, pack)
    shown["board"] = {"facility_spaces": board_for(pack.name, state.side).facility_spaces}
    return shown


def scoring_view(state: State, seat: int) -> dict[str, Any]:
    """The parts of ``view(state, seat)`` a bot's scoring reads (``domain.zona.ai``: ``standing``, ``evaluate``,
    ``free_choice``), each as the view has it, at a fraction of its cost: no market, cards or board
    description, of the table only the pack, of the pending decision whose it is and its kind. A bot scores
    thousands of positions a decision."""
    if state.phase == "new":
        return {"phase": "new"}
    pack = pack_named(state.pack)
    over = state.over
    name = pack.name
    return {
        "phase": state.phase, "side": state.side, "over": over, "winner": state.winner, "turn": state.turn,
        "stalkers": [_scored_stalker(state, s, seat, pack, over) for s in state.stalkers],
        "facilities": _scored_facilities(state, name),
        "decks": _scored_decks(state.decks),
        "threats": _scored_threats(state.threats, name),
        "pending": _scored_pending(state.pending),
        "table": {"pack": state.pack},
        "board": {"facility_spaces": board_for(pack.name, state.side).facility_spaces},
    }


#: The scoring view's stalkers by the id of the state's stalker they show: (that stalker, the state's
#: ``facility_of``, whether its finds are shown, the view). A fold copies a stalker it writes (``drafts``), so
#: a stalker no event touched is the same object in the next state, and a search's thousands of positions
#: mostly differ in one stalker: the others' views are looked up. Only read (the scoring view is the AI's).
_SCORED: Final[dict[int, tuple[dict[str, Any], dict[str, Any], bool, dict[str, Any]]]] = {}
#: How many stalkers' views ``_SCORED`` keeps before it starts again.
SCORED: Final = 512


def _scored_stalker(state: State, s: dict[str, Any], seat: int, pack: Pack, over: bool) -> dict[str, Any]:
    """``_stalker(state, s, seat, pack, over)``, looked up when the same stalker was shown the same way."""
    mine = over or s["seat"] == seat
    if state.phase == "setup":  # the draft boards are shown from the state beside the stalker
        return _stalker(state, s, mine, pack)
    found = _SCORED.get(id(s))
    if found is not None and found[0] is s and found[1] is state.facility_of and found[2] == mine:
        return found[3]
    shown = _stalker(state, s, mine, pack)
    if len(_SCORED) >= SCORED:
        _SCORED.clear()
    _SCORED[id(s)] = (s, state.facility_of, mine, shown)  # the stalker held too: its id is not reused
    return shown


#: The scoring view's facilities, deck sizes and threats, each by the parts of the state it shows (held, so
#: their ids are not reused; a fold copies a part it writes, so an unchanged part is the same object): most of a
#: search's positions differ from the last one looked at by dice, a trade or a stalker's step, not by these.
#: Shared between views, so only read (the scoring view is the AI's, which reads).
_FACILITIES: Final[dict[tuple[int, ...], tuple[Any, ...]]] = {}
_DECKS: Final[dict[int, tuple[Any, dict[str, int]]]] = {}
_THREATS: Final[dict[tuple[int, str], tuple[Any, dict[str, Any]]]] = {}
#: How many of each the caches keep before they start again.
KEPT: Final = 64


def _scored_facilities(state: State, name: str) -> dict[str, Any]:
    locks, looted, finds, decks = state.locks, state.looted, state.finds, state.decks
    sizes = tuple([len(decks[area]) for area in locks])
    key = (id(locks), id(looted), id(finds), *sizes)
    found = _FACILITIES.get(key)
    if found is not None and found[0] is locks and found[1] is looted and found[2] is finds and found[3] == name:
        shown: dict[str, Any] = found[4]
        return shown
    shown = {area: {"lock": _known_lock(name, lock["lock"]), "open": lock["open"], "looted": area in looted,
                    "finds": len(finds[area]), "deck": size}
             for (area, lock), size in zip(locks.items(), sizes, strict=True)}
    if len(_FACILITIES) >= KEPT:
        _FACILITIES.clear()
    _FACILITIES[key] = (locks, looted, finds, name, shown)
    return shown


def _scored_decks(decks: dict[str, list[str]]) -> dict[str, int]:
    found = _DECKS.get(id(decks))
    if found is not None and found[0] is decks:
        return found[1]
    shown = {name: len(cards) for name, cards in decks.items()}
    if len(_DECKS) >= KEPT:
        _DECKS.clear()
    _DECKS[id(decks)] = (decks, shown)
    return shown


def _scored_threats(threats: dict[str, list[str]], name: str) -> dict[str, Any]:
    found = _THREATS.get((id(threats), name))
    if found is not None and found[0] is threats:
        return found[1]
    shown = {a: [_known_token(name, t) for t in tokens] for a, tokens in threats.items() if tokens}
    if len(_THREATS) >= KEPT:
        _THREATS.clear()
    _THREATS[(id(threats), name)] = (threats, shown)
    return shown


@functools.cache
def _known_lock(pack_name: str, lock: str) -> dict[str, Any]:
    """``_lock``, once per pack and lock, for the scoring view (which is only read)."""
    return _lock(pack_named(pack_name), lock)


@functools.cache
def _known_token(pack_name: str, token: str) -> dict[str, Any]:
    """``_token``, once per pack and token, for the scoring view (which is only read)."""
    return _token(pack_named(pack_name), token)


def _stalkers(state: State, seat: int | None, pack: Pack, over: bool) -> list[dict[str, Any]]:
    return [_stalker(state, s, over or s["seat"] == seat, pack) for s in state.stalkers]


def _stalker(state: State, s: dict[str, Any], mine: bool, pack: Pack) -> dict[str, Any]:
    """One stalker as a seat sees it (``mine``: its finds shown, and in the setup its draft boards)."""
    stalker = pack.stalkers.get(s["character"]) if s["character"] else None
    return {
        "seat": s["seat"], "character": s["character"], "name": stalker.name if stalker else None,
        "stamina": stalker.stamina if stalker else None,
        "attributes": dict(stalker.attributes) if stalker else {},
        "ability": dict(stalker.ability) if stalker else {},
        "area": s["area"], "damage": s["damage"], "fatigue": s["fatigue"], "reputation": s["reputation"],
        "roubles": s["roubles"], "injuries": list(s["injuries"]), "dead": s["dead"], "must_leave": s["must_leave"],
        **{k: _mask_finds(state, s[k], mine) for k in ("backpack", "worn", "small", "sixth")},
        "trophies": list(s["trophies"]),
        "secrets": [state.facility_of[pack.events[c].deck] for c in s["secrets"]],
        "draft": list(state.draft.get(str(s["seat"]), [])) if mine and state.phase == "setup" else [],
    }


def _body(state: State, seat: int | None, pack: Pack, over: bool, stalkers: list[dict[str, Any]],
          pending: dict[str, Any] | None) -> dict[str, Any]:
    own_cards = set(owned_items(state.stalkers[seat])) if seat is not None else set()
    reading = None
    for frame in reversed(state.frames):
        if frame["kind"] == "card":
            card = pack.events[frame["card"]]
            reader = seat is not None and (seat == reader_of(state, frame["seat"]) or over or (
                seat == frame["seat"] and state.options["read_whole_card"]))
            reading = {"card": card.id, "name": card.name, "stalker": frame["seat"], "paragraph": frame["paragraph"],
                       "text": card_text(card) if reader else None}
            break
    return {
        "phase": state.phase, "round": state.round, "voice": state.voice, "players": state.players,
        "side": state.side, "over": over, "winner": state.winner, "lost": state.lost,
        "emission": {"marker": state.emission, "track": pack.track},
        "timed": state.timed,
        "turn": state.turn,
        "stalkers": stalkers,
        "threats": {a: [_token(pack, t) for t in tokens] for a, tokens in state.threats.items() if tokens},
        "in_play": [_token(pack, t) for t in state.in_play],
        "facilities": _facilities(state, pack),
        "market": {row: list(slots) for row, slots in state.market.items()},
        "decks": {name: len(cards) for name, cards in state.decks.items()},
        "dispenser": {q: len(t) for q, t in state.dispenser.items()},
        "wear": {c: n for c, n in state.wear.items() if over or not is_find(c) or c in own_cards},
        "deactivated": [c for c in state.deactivated if over or not is_find(c) or c in own_cards],
        "reading": reading,
        "hand": _mask_finds(state, list(state.hand), over),
        "pending": _pending(pending, seat, over),
    }


def _facilities(state: State, pack: Pack) -> dict[str, Any]:
    return {area: {"lock": _lock(pack, lock["lock"]), "open": lock["open"], "looted": area in state.looted,
                   "finds": len(state.finds[area]), "deck": len(state.decks[area])}
            for area, lock in state.locks.items()}


def _scored_pending(pending: dict[str, Any] | None) -> dict[str, Any] | None:
    """The pending decision as the scoring view shows it: whose it is and its kind, as the view shows them. The
    AI reads no more (``free_choice``, ``chance_decision``), and masking its choices and context was a
    ninetieth of a greedy decision: every command a search tries asks a decision of its own."""
    return None if pending is None else {"seat": pending["seat"], "kind": pending["kind"]}


def _pending(pending: dict[str, Any] | None, seat: int | None, over: bool) -> dict[str, Any] | None:
    if pending is None:
        return None
    # Most decisions are made in the open; the draft and the find deck are looked at alone.
    looking = pending["seat"] == seat or over or pending["kind"] not in PRIVATE
    own = pending["seat"] == seat or over
    return {
        "seat": pending["seat"], "kind": pending["kind"],
        "choices": mask(pending["choices"], own) if looking else [],
        "context": mask(pending["context"], own) if looking else {},
    }


def _table(state: State, seat: int | None, over: bool) -> dict[str, Any]:
    """The public bookkeeping the log shows everyone and the rest of the view does not: the options,
    the resolution stack, the face-up discard piles, who has played this phase. A bot rebuilds a
    whole game from its view (``domain.zona.determinize``); with this it samples only what is hidden."""
    return {
        "pack": state.pack, "options": clone(state.options), "facility_of": dict(state.facility_of),
        "turns_taken": list(state.turns_taken), "used_characters": list(state.used_characters),
        "frames": [mask(f, over or (seat is not None and f.get("seat") == seat)) for f in state.frames],
        "discards": mask(state.discards, over), "reading": list(state.reading),
        "timed_slot": list(state.timed_slot),
        "secrets": [list(s["secrets"]) for s in state.stalkers],
        "ability_used": [bool(s.get("ability_used")) for s in state.stalkers],
    }


@functools.cache
def board_description(pack_name: str, side: str) -> dict[str, Any]:
    """The board of this side for a client to draw: areas with their actions in words, and borders."""
    pack = pack_named(pack_name)
    board = board_for(pack_name, side)
    borders = []
    for b in pack.borders:
        if b.kind == "power_plant":
            kind = "power_plant"
        elif side in b.blockade_on:
            kind = "blockade"
        else:
            kind = b.kind
        borders.append({"between": [b.a, b.b], "kind": kind, "shortcut": b.shortcut})
    areas = {a.id: {"name": a.name, "sector": a.sector, "action": effects_in_words(a.action) if a.action else None,
                    "requires": list(a.requires)} for a in pack.areas.values()}
    described = {"areas": areas, "borders": borders, "facility_spaces": board.facility_spaces}
    drawn = layout(pack_name)
    if drawn is not None:
        # Where the printed map has each area (the pack's layout.yaml): drawing only, no rule reads it.
        described["map"] = {"size": drawn["size"], "box": drawn["box"]}
        for area_id, at in drawn["areas"].items():
            if area_id in areas:
                areas[area_id]["at"] = at
    return described


#: A JSON string with a ``#`` or ``@`` and no escapes (no card id has one). Between two strings of a JSON
#: text there is never a ``#`` or ``@``, so a match cannot start at a closing quote and swallow an id.
_NAMED = re.compile(r'"([^"\\#@]*[#@][^"\\]*)"')


def _catalog(pack: Pack, named: list[str]) -> dict[str, Any]:
    """What each item card named in the view is (finds another seat holds show only as ``find``).

    ``named``: every string of the view with a ``#`` or ``@``, keys included, read off its JSON text (a walk
    in Python made views the bulk of a bot's search)."""
    out: dict[str, Any] = {}
    for value in dict.fromkeys(named):
        kind = faces.kind_of(value)
        t = pack.items.get(kind)
        if t is not None and kind not in out:
            out[kind] = {"name": t.name, "kind": t.kind, "colour": t.colour, "price": t.price, "use": t.use,
                         "durability": t.durability, "small": t.small, "outfit": list(t.outfit)}
    return out


def _lock(pack: Pack, lock: str) -> dict[str, Any]:
    """A lock token's price, readable by all (our ruling: it lies requirement side up)."""
    t = pack.locks[lock]
    return {"id": t.id, "name": t.name, "fatigue": t.fatigue, "damage": dict(t.damage), "roubles": t.roubles,
            "trophies": t.trophy}


def _token(pack: Pack, token: str) -> dict[str, Any]:
    """A threat token with its reverse: anyone may look at it before acting (Zona §"ŻETONY ZAGROŻEŃ NA PLANSZY")."""
    t = pack.threat(token)
    return {"token": token, "name": t.name, "kind": t.kind, "colour": t.colour, "detect": t.detect,
            "attribute": t.attribute, "difficulty": t.difficulty, "damage": dict(t.damage), "fatigue": t.fatigue,
            "loot": dict(t.loot), "ability": dict(t.ability)}


def _redact_state(data: dict[str, Any], seat: int | None) -> dict[str, Any]:
    out = dict(data)
    out["decks"] = {k: len(v) for k, v in data["decks"].items()}
    out["dispenser"] = {k: len(v) for k, v in data["dispenser"].items()}
    out["finds"] = {k: len(v) for k, v in data["finds"].items()}
    out["box"] = len(data["box"])
    out["removed"] = len(data["removed"])
    out["draft"] = {k: v if seat is not None and k == str(seat) else [] for k, v in data["draft"].items()}
    return out


#: Decisions whose choices only the deciding seat may see.
PRIVATE: Final = frozenset({"choose_stalker", "find"})


def _owner(data: dict[str, Any]) -> Any:
    if "seat" in data:
        return data["seat"]
    frame = data.get("frame")
    return frame.get("seat") if isinstance(frame, dict) else None


def redact(event: Event, seat: int | None) -> Event:
    data = event.data
    if event.type == "GameSetUp":
        return Event(event.type, {"state": _redact_state(data["state"], seat)})
    if event.type == "DeckShuffled":
        return Event(event.type, {"deck": data["deck"], "order": [HIDDEN] * len(data["order"])})
    mine = seat is not None and _owner(data) == seat
    if event.type == "DecisionRequested" and data["kind"] in PRIVATE and not mine:
        return Event(event.type, {**data, "choices": [], "context": {}})
    if event.type == "DecisionMade" and data["kind"] in PRIVATE and not mine:
        return Event(event.type, {**data, "command": {"type": data["command"].get("type", "")}})
    masked = mask(data, mine)
    return event if masked == data else Event(event.type, masked)
