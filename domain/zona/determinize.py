"""A whole game of Zona rebuilt from what one seat sees, the hidden parts sampled.

A bot searches only such worlds (``domain.game.GameAI.determinize``): the
seat's view of the world is the view it was built from, and its legal actions
are the same. Public bookkeeping comes from the view's ``table`` (the
options, the resolution stack, discard piles: all of it in the log for every
seat); what is sampled with the ``Rng`` is what ``domain.zona.view`` hides:

- the order and contents of every deck (items, events, news, emission cards),
  each from the pack's cards of that deck that are nowhere in sight, in the
  counts shown; the news cards left over are the ones set aside (``removed``);
- the dispenser queues, from each queue's tokens not on the board, in play or
  held as trophies;
- the find decks and the finds another stalker holds or is looking at (shown
  as ``find``), from the find cards the seat has not seen; the rest lie in the
  box with the starting equipment nobody holds;
- another player's two draft boards;
- the choices of another seat's private decision (its draft, its find deck),
  asked again from the sampled world, as the rules would ask them.

Wear and deactivation of another stalker's finds are not shown and come back
as fresh cards.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from domain.rng import Rng
from domain.zona.flow import STEPS
from domain.zona.model import ITEM_DECKS, QUEUES, Pack
from domain.zona.pack import pack_named
from domain.zona.resolution import ZonaResolution
from domain.zona.setup import _instances
from domain.zona.state import State, clone, initial_state
from domain.zona.view import HIDDEN, is_find, mask

FIND = "find"
CONTAINERS = ("backpack", "worn", "small", "sixth")


def _take(pool: list[str], count: int, rng: Rng) -> list[str]:
    """``count`` things drawn at random out of ``pool`` (removed from it)."""
    return [pool.pop(rng.below(len(pool))) for _ in range(min(count, len(pool)))]


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    return set()


def _unmask(value: Any, supply: list[str]) -> Any:
    """``value`` with every ``hidden`` find named by the next find of ``supply`` (cycled)."""
    if value == HIDDEN and supply:
        return supply[0]
    if isinstance(value, list):
        return [_unmask(v, supply) for v in value]
    if isinstance(value, dict):
        return {k: _unmask(v, supply) for k, v in value.items()}
    return value


def determinize(view: dict[str, Any], seat: int, rng: Rng) -> State:
    return dealer(view, seat)(rng)


def dealer(view: dict[str, Any], seat: int) -> Callable[[Rng], State]:
    """``determinize(view, seat, rng)`` for any ``rng``, what the view alone fixes worked out once
    (``GameAI.dealer``): a search deals two worlds or more from one view, and what lies in sight, the pools
    each deck is dealt from and the copies of the view's public parts are the same for each."""
    if view.get("phase", "new") == "new":
        return _initial
    return _Dealer(view, seat)


def _initial(rng: Rng) -> State:
    return initial_state()


class _Dealer:
    """A world dealt from one seat's view: the parts the view fixes, made once and shared by every world (no
    one writes a state's part in place: a fold copies what it writes), and the deal itself (``__call__``)."""

    def __init__(self, view: dict[str, Any], seat: int):
        self.view, self.seat = view, seat
        table = self.table = view["table"]
        pack = self.pack = pack_named(table["pack"])

        # -- what lies in sight ----------------------------------------------------
        seen: set[str] = set()
        for pile in table["discards"].values():
            seen.update(pile)
        for row in view["market"].values():
            seen.update(c for c in row if c)
        for s in view["stalkers"]:
            for kind in CONTAINERS:
                seen.update(s[kind])
        seen.update(view["hand"])
        self.seen = seen
        own_pending = view["pending"] if view["pending"] and view["pending"]["seat"] == seat else None
        own_find_choices = [c["card"] for c in own_pending["choices"] if c["type"] == "keep_find"] \
            if own_pending and own_pending["kind"] == "find" else []
        self.own_find_choices = own_find_choices
        # Finds the seat knows by name that are not in its keeping: the one it is gaining from the hand.
        own_strings = _strings([f for f in table["frames"] if f.get("seat") == seat]) | _strings(own_pending or {})
        known_finds = {c for c in own_strings if is_find(c)}
        self.finds_pool = [c for c in _every_find(pack.name) if c not in seen and c not in known_finds]
        self.in_hand = sorted(c for c in known_finds - seen - set(own_find_choices))
        #: Each stalker's fields but its kept cards (dealt), secrets and ability (from the table).
        self.stalkers = [{k: clone(s[k]) for k in ("seat", "character", "area", "damage", "fatigue", "reputation",
                                                   "roubles", "injuries", "dead", "must_leave", "trophies")}
                         for s in view["stalkers"]]
        self.own_find_facility = own_pending["context"].get("facility") if own_pending and own_find_choices else None
        # Everything of no deck nobody holds: the finds left over (dealt) and the starting cards of unused boards.
        self.starting = [c for c in _starting(pack.name) if c not in seen]

        # -- threat tokens -----------------------------------------------------------
        threats = {area: [t["token"] for t in tokens] for area, tokens in view["threats"].items()}
        in_play = [t["token"] for t in view["in_play"]]
        tokens_seen = {t for ts in threats.values() for t in ts} | set(in_play)
        tokens_seen.update(t for s in view["stalkers"] for t in s["trophies"])
        self.tokens = {queue: [t for t in _tokens(pack.name, queue) if t not in tokens_seen] for queue in QUEUES}

        self.public: dict[str, Any] = {
            "phase": view["phase"], "over": view["over"], "pack": pack.name, "side": view["side"],
            "players": view["players"], "options": clone(table["options"]), "round": view["round"],
            "voice": view["voice"], "turn": clone(view["turn"]), "turns_taken": list(table["turns_taken"]),
            "in_play": in_play, "reading": list(table["reading"]), "timed_slot": list(table["timed_slot"]),
            "threats": threats, "facility_of": dict(table["facility_of"]),
            "locks": {area: {"lock": f["lock"]["id"], "open": f["open"]} for area, f in view["facilities"].items()},
            "looted": [area for area, f in view["facilities"].items() if f["looted"]], "market": clone(view["market"]), "emission": view["emission"]["marker"],
            "timed": clone(view["timed"]), "wear": dict(view["wear"]), "deactivated": list(view["deactivated"]),
            "used_characters": list(table["used_characters"]), "winner": view["winner"], "lost": view["lost"],
        }

    def __call__(self, rng: Rng) -> State:
        view, table, pack = self.view, self.table, self.pack
        discards: dict[str, list[str]] = clone(table["discards"])
        finds_pool = list(self.finds_pool)
        in_hand = list(self.in_hand)

        # -- stalkers: another's finds are dealt from the unseen finds --------------------
        stalkers = []
        for s, shown, secrets, used in zip(self.stalkers, view["stalkers"], table["secrets"], table["ability_used"],
                                           strict=True):
            record = dict(s)
            for kind in CONTAINERS:
                record[kind] = [_take(finds_pool, 1, rng)[0] if c == FIND and finds_pool else c for c in shown[kind]]
            record.update(secrets=list(secrets), ability_used=used)
            stalkers.append(record)
        hand = [(in_hand.pop(0) if in_hand else (_take(finds_pool, 1, rng) or [FIND])[0]) if c == FIND else c
                for c in view["hand"]]

        # -- facilities: find decks -----------------------------------------------------
        finds: dict[str, list[str]] = {}
        for area, f in view["facilities"].items():
            if area == self.own_find_facility:
                finds[area] = list(self.own_find_choices)
            else:
                finds[area] = _take(finds_pool, f["finds"], rng)
        box = sorted(finds_pool) + self.starting

        decks, removed = _decks(view, table, pack, self.seen, discards, rng)
        dispenser = {queue: _take(list(pool), view["dispenser"][queue], rng) for queue, pool in self.tokens.items()}

        tree: dict[str, Any] = {
            **self.public, "stalkers": stalkers, "draft": _drafts(view, pack, self.seat, rng), "decks": decks,
            "discards": discards, "box": box, "hand": hand, "removed": removed, "dispenser": dispenser,
            "finds": finds, "frames": [], "pending": None,
        }
        _resolution(tree, view, table, self.seat, rng)
        return State(**tree)


def _decks(view: dict[str, Any], table: dict[str, Any], pack: Pack, seen: set[str],
           discards: dict[str, list[str]], rng: Rng) -> tuple[dict[str, list[str]], list[str]]:
    """Every deck dealt from its cards in no known place, in the counts the view shows; and the news
    cards left over, set aside (used, or unseen in solo)."""
    counts = view["decks"]
    decks: dict[str, list[str]] = {}
    for deck in ITEM_DECKS:
        pool = [c for c in _deck_items(pack.name, deck) if c not in seen]
        decks[deck] = _take(pool, counts[deck], rng)
        discards.setdefault(deck, []).extend(pool)  # none, unless the view was short of a card
    placed = set(table["reading"]) | {c for secrets in table["secrets"] for c in secrets}
    placed.update(c for pile in discards.values() for c in pile)
    by_area = {area: name for name, area in table["facility_of"].items()}
    for deck in counts:
        if deck in ITEM_DECKS or deck in ("news", "emission"):
            continue
        pool = [c for c in _deck_cards(pack.name, by_area.get(deck, deck)) if c not in placed]
        decks[deck] = _take(pool, counts[deck], rng)
    out = set(table["reading"]) | set(table["timed_slot"])
    news = [n for n in _sorted_names(pack.name, "news") if n not in out]
    decks["news"] = _take(news, counts["news"], rng)
    spent = set(discards.get("emission", []))
    emission = [e for e in _sorted_names(pack.name, "emissions") if e not in spent]
    decks["emission"] = _take(emission, counts["emission"], rng)
    return decks, news


# What depends on the pack alone, in the order the pools are dealt from (sorted: a pool filtered keeps it), read
# once per pack: a bot deals two worlds a decision, and walking the pack's cards for each was a tenth of them.


@functools.cache
def _every_find(pack_name: str) -> tuple[str, ...]:
    return tuple(sorted(_instances(pack_named(pack_name), "find")))


@functools.cache
def _starting(pack_name: str) -> tuple[str, ...]:
    """Every stalker board's starting equipment, board by board."""
    return tuple(f"{e}@{st.id}" for st in pack_named(pack_name).stalkers.values() for e in st.equipment)


@functools.cache
def _tokens(pack_name: str, queue: str) -> tuple[str, ...]:
    return tuple(sorted(f"{t.id}#{n}" for t in pack_named(pack_name).threats.values() if t.queue == queue
                        for n in range(1, t.copies + 1)))


@functools.cache
def _deck_items(pack_name: str, deck: str) -> tuple[str, ...]:
    return tuple(sorted(f"{t.id}#{n}" for t in pack_named(pack_name).items.values() if t.deck == deck
                        for n in range(1, t.copies + 1)))


@functools.cache
def _deck_cards(pack_name: str, deck: str) -> tuple[str, ...]:
    return tuple(sorted(pack_named(pack_name).deck_cards(deck)))


@functools.cache
def _sorted_names(pack_name: str, part: str) -> tuple[str, ...]:
    """The news cards' or the emission cards' names (``part``), sorted."""
    pack = pack_named(pack_name)
    return tuple(sorted(pack.news if part == "news" else pack.emissions))


def _drafts(view: dict[str, Any], pack: Pack, seat: int, rng: Rng) -> dict[str, list[str]]:
    """Two boards each: the seat's own as shown, another's its chosen board and one it did not see."""
    own = list(view["stalkers"][seat]["draft"])
    chosen = {s["character"] for s in view["stalkers"] if s["character"]}
    pool = sorted(c for c in pack.stalkers if c not in own and c not in chosen)
    drafts = {}
    for s in view["stalkers"]:
        if s["seat"] == seat:
            drafts[str(seat)] = own
        else:
            mine = [s["character"]] if s["character"] and s["character"] not in own else []
            drafts[str(s["seat"])] = mine + _take(pool, 2 - len(mine), rng)
    return drafts


def _resolution(state: dict[str, Any], view: dict[str, Any], table: dict[str, Any], seat: int, rng: Rng) -> None:
    """The resolution stack and the pending decision, another seat's hidden cards named from the sampled world
    (``state``: the sampled world's fields, before they are a ``State``)."""
    pending = view["pending"]
    for frame in table["frames"]:
        owner = frame.get("seat")
        supply = _owned_finds(state, owner) if isinstance(owner, int) else []
        state["frames"].append(_unmask(frame, supply))
    if pending is None:
        return
    if pending["seat"] == seat:
        state["pending"] = clone(pending)
        return
    supply = _owned_finds(state, pending["seat"])
    state["pending"] = {"seat": pending["seat"], "kind": pending["kind"],
                        "choices": _unmask(pending["choices"], supply), "context": _unmask(pending["context"], supply)}
    masked = HIDDEN in _strings(pending) or (not pending["choices"] and state["frames"])
    if masked and state["frames"]:
        _ask_again(state, pending, rng)


def _owned_finds(state: dict[str, Any], seat: int) -> list[str]:
    s = state["stalkers"][seat] if 0 <= seat < len(state["stalkers"]) else None
    held = [c for kind in CONTAINERS for c in s[kind]] if s else []
    return [c for c in [*state["hand"], *held] if is_find(c)]


def _ask_again(state: dict[str, Any], shown: dict[str, Any], rng: Rng) -> None:
    """The top frame's step run again on the sampled world, so that it asks the decision with that world's
    choices; kept when the seat would see them as it does (a sampled find of another kind than the one
    offered would change them: then the hidden names stay as dealt)."""
    probe = State(**{**state, "pending": None})
    res = ZonaResolution(probe, rng)
    STEPS[probe.frames[-1]["kind"]](res, probe.frames[-1])
    asked = res.state.pending
    if [e.type for e in res.events] != ["DecisionRequested"] or asked is None or asked["kind"] != shown["kind"]:
        return
    private = not shown["choices"] and not shown["context"]
    if private or (mask(asked["choices"], False) == shown["choices"] and mask(asked["context"], False) == shown["context"]):
        state["pending"] = asked
