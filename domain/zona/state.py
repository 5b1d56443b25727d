"""The state of a game of Zona, a frozen record of plain lists and dicts, and where things lie in it.

The state is a frozen record, as every game's on the engine kit is (``State``;
docs/writing-a-game.md, "State"), but its fields hold plain JSON data rather
than nested records: every card and token has exactly one place (a deck, a
market slot, a backpack, an area, a discard pile, the box), written as a
*location* string, and moving one is a single event whose fold takes it out
of one list and puts it in another. That keeps the counts the property test
checks conserved by construction, and a snapshot is the record's fields.

``evolve`` never mutates the state it gets: a ``Draft`` (``domain.zona.drafts``)
copies only the parts a fold writes and makes a new record of them.

Locations (``kind:key``):
- ``deck:<name>`` draws from the front (the top); ``deck_bottom:<name>`` puts at the back;
- ``discard:<deck>``, ``box``, ``hand`` (cards being looked at);
- ``market:<row>:<slot>``;
- ``backpack:<seat>``, ``worn:<seat>``, ``small:<seat>``, ``sixth:<seat>``;
- ``finds:<facility>``;
- tokens: ``dispenser:<queue>`` (draw from the bottom = index 0) and
  ``dispenser_top:<queue>`` (discard onto the top = the end), ``area:<id>``,
  ``in_play``, ``trophies:<seat>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Final

from domain.engine.records import clone as clone
from domain.engine.records import replace as replace
from domain.zona.drafts import Draft as Draft
from domain.zona.drafts import fresh as fresh
from domain.zona.drafts import move as move

Frame = dict[str, Any]

MAX_FATIGUE: Final = 5
MIN_FATIGUE: Final = 0
MAX_INJURIES = 3
BACKPACK_SLOTS = 5
MARKET_COLUMNS = 4
MARKET_ROWS = ("junk", "equipment")


@dataclass(frozen=True)
class State:
    """A game of Zona: a frozen record whose fields hold the locations (plain lists and dicts).

    A fold never changes a state: it writes through a ``Draft`` (``domain.zona.drafts``), which copies
    only the parts it touches and makes a new record of them. The defaults are the state before the
    setup; ``GameSetUp`` carries every field.
    """

    phase: str = "new"
    over: bool = False
    pack: str = ""
    side: str = ""
    players: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    round: int = 0
    voice: int = 0
    turn: Any = None
    turns_taken: list[Any] = field(default_factory=list)
    stalkers: list[Any] = field(default_factory=list)
    draft: dict[str, Any] = field(default_factory=dict)
    decks: dict[str, Any] = field(default_factory=dict)
    discards: dict[str, Any] = field(default_factory=dict)
    box: list[Any] = field(default_factory=list)
    hand: list[Any] = field(default_factory=list)
    in_play: list[Any] = field(default_factory=list)
    reading: list[Any] = field(default_factory=list)
    removed: list[Any] = field(default_factory=list)
    timed_slot: list[Any] = field(default_factory=list)
    dispenser: dict[str, Any] = field(default_factory=dict)
    threats: dict[str, Any] = field(default_factory=dict)
    facility_of: dict[str, Any] = field(default_factory=dict)
    locks: dict[str, Any] = field(default_factory=dict)
    finds: dict[str, Any] = field(default_factory=dict)
    looted: list[Any] = field(default_factory=list)
    market: dict[str, Any] = field(default_factory=dict)
    emission: int = 0
    timed: Any = None
    wear: dict[str, Any] = field(default_factory=dict)
    deactivated: list[Any] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    pending: Any = None
    used_characters: list[Any] = field(default_factory=list)
    winner: Any = None
    lost: Any = None

    def copied(self) -> State:
        """This record, copied field by field in the compiled build (``domain.engine.records.COPY``): each field
        written by name is a store in the struct. Plain Python refuses these writes (the record is frozen) and
        never calls it; ``tests/domain/test_copied.py`` holds it to every field."""
        made = State.__new__(State)
        made.phase = self.phase  # type: ignore[misc]
        made.over = self.over  # type: ignore[misc]
        made.pack = self.pack  # type: ignore[misc]
        made.side = self.side  # type: ignore[misc]
        made.players = self.players  # type: ignore[misc]
        made.options = self.options  # type: ignore[misc]
        made.round = self.round  # type: ignore[misc]
        made.voice = self.voice  # type: ignore[misc]
        made.turn = self.turn  # type: ignore[misc]
        made.turns_taken = self.turns_taken  # type: ignore[misc]
        made.stalkers = self.stalkers  # type: ignore[misc]
        made.draft = self.draft  # type: ignore[misc]
        made.decks = self.decks  # type: ignore[misc]
        made.discards = self.discards  # type: ignore[misc]
        made.box = self.box  # type: ignore[misc]
        made.hand = self.hand  # type: ignore[misc]
        made.in_play = self.in_play  # type: ignore[misc]
        made.reading = self.reading  # type: ignore[misc]
        made.removed = self.removed  # type: ignore[misc]
        made.timed_slot = self.timed_slot  # type: ignore[misc]
        made.dispenser = self.dispenser  # type: ignore[misc]
        made.threats = self.threats  # type: ignore[misc]
        made.facility_of = self.facility_of  # type: ignore[misc]
        made.locks = self.locks  # type: ignore[misc]
        made.finds = self.finds  # type: ignore[misc]
        made.looted = self.looted  # type: ignore[misc]
        made.market = self.market  # type: ignore[misc]
        made.emission = self.emission  # type: ignore[misc]
        made.timed = self.timed  # type: ignore[misc]
        made.wear = self.wear  # type: ignore[misc]
        made.deactivated = self.deactivated  # type: ignore[misc]
        made.frames = self.frames  # type: ignore[misc]
        made.pending = self.pending  # type: ignore[misc]
        made.used_characters = self.used_characters  # type: ignore[misc]
        made.winner = self.winner  # type: ignore[misc]
        made.lost = self.lost  # type: ignore[misc]
        return made




#: The record's fields, in order: what a snapshot and ``GameSetUp`` hold.
FIELDS = tuple(f.name for f in fields(State))


def dump(state: State) -> dict[str, Any]:
    """The state as one JSON-ready tree (a snapshot; ``GameSetUp``'s data)."""
    return {name: clone(getattr(state, name)) for name in FIELDS}


def load(tree: dict[str, Any]) -> State:
    """The state a tree (``dump``'s, or ``GameSetUp``'s) holds; a field it lacks keeps its default."""
    return State(**clone(tree))


def stalker(state: State, seat: int) -> dict[str, Any]:
    return state.stalkers[seat]


def where_is(state: State, thing: str) -> str | None:
    """The location of a card or token (for checks and views; the engine carries locations in events)."""
    named = (("deck", "decks"), ("discard", "discards"), ("finds", "finds"), ("dispenser", "dispenser"),
             ("area", "threats"))
    for prefix, key in named:
        for name, things in getattr(state, key).items():
            if thing in things:
                return f"{prefix}:{name}"
    for row, slots in state.market.items():
        if thing in slots:
            return f"market:{row}:{slots.index(thing)}"
    for s in state.stalkers:
        for kind in ("backpack", "worn", "small", "sixth", "trophies", "secrets"):
            if thing in s[kind]:
                return f"{kind}:{s['seat']}"
    for key in ("box", "hand", "in_play", "reading", "removed", "timed_slot"):
        if thing in getattr(state, key):
            return key
    return None


HIDDEN = "hidden"


def is_find(card: object) -> bool:
    """Find cards are numbered ``type#f<n>`` so that a redaction knows one without the pack."""
    return isinstance(card, str) and "#f" in card


def mask(value: Any, visible: bool) -> Any:
    """``value`` with every find card named ``hidden`` unless ``visible``."""
    if visible:
        return value
    if isinstance(value, str):
        return HIDDEN if is_find(value) else value
    if isinstance(value, list):
        return [mask(v, False) for v in value]
    if isinstance(value, dict):
        return {k: mask(v, False) for k, v in value.items()}
    return value


def owned_items(s: dict[str, Any]) -> list[str]:
    """Every item card a stalker has (trophies are tokens, not items)."""
    return [*s["backpack"], *s["worn"], *s["small"], *s["sixth"]]


def turn_order(state: State) -> list[int]:
    """Zona §"PRZEBIEG ROZGRYWKI": every phase starts with the Voice and goes to the left."""
    n = state.players
    return [(state.voice + i) % n for i in range(n)]


def initial_state() -> State:
    return State()
