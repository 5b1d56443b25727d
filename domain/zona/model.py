"""Zona's content as data: what a pack holds once it has loaded.

The engine reads only these records; the YAML shapes they come from are the
pack loader's business (``pack.py``). Effects stay plain lists of one-key
dicts (the vocabulary ``effects.py`` interprets), checked at load.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

ATTRIBUTES = ("alertness", "agility", "intellect", "willpower")
DAMAGE_TYPES = ("radiation", "disturbance", "wound")
REPUTATIONS = ("bad", "neutral", "good")
#: Where an area lies; only green, yellow and red areas are open ground.
SECTORS = ("green", "yellow", "red", "bunker", "facility", "sarcophagus")
OPEN_GROUND: Final = ("green", "yellow", "red")
THREAT_KINDS = ("mutant", "anomaly")
COLOURS = ("green", "yellow")
#: The four dispenser slots, each a queue.
QUEUES = tuple(f"{colour}_{kind}" for kind in THREAT_KINDS for colour in COLOURS)
ITEM_KINDS = ("junk", "equipment", "find", "artifact", "starting")
ITEM_DECKS = ("junk", "equipment", "green_artifact", "yellow_artifact")
USES = ("single", "consumable", "durable")
FACES = ("plus", "minus", "blank", "triangle")

Effects = list[dict[str, Any]]


def queue_of(kind: str, colour: str) -> str:
    return f"{colour}_{kind}"


@dataclass(frozen=True)
class Area:
    id: str
    name: str
    sector: str
    action: Effects = field(default_factory=list)
    #: Reputations allowed to take the area action (empty: any).
    requires: tuple[str, ...] = ()
    power_plant: bool = False

    @property
    def open_ground(self) -> bool:
        return self.sector in OPEN_GROUND


@dataclass(frozen=True)
class Border:
    a: str
    b: str
    kind: str = "border"  # border, shortcut, entrance, power_plant
    shortcut: str | None = None
    blockade_on: tuple[str, ...] = ()


@dataclass(frozen=True)
class Side:
    id: str
    players: tuple[int, ...]
    facility_spaces: int


@dataclass(frozen=True)
class StartThreat:
    area: str
    kind: str
    colour: str


@dataclass(frozen=True)
class Stalker:
    id: str
    name: str
    attributes: dict[str, int]
    stamina: int
    ability: dict[str, Any]
    area: str
    damage: int
    roubles: int
    reputation: str
    threats: tuple[StartThreat, ...]
    equipment: tuple[str, ...]


@dataclass(frozen=True)
class ItemType:
    id: str
    name: str
    kind: str
    price: int
    use: str
    colour: str | None = None
    durability: int = 1
    copies: int = 1
    small: bool = False
    outfit: tuple[str, ...] = ()
    extra_slot: bool = False
    category: str | None = None
    unrepairable: bool = False
    modifier: dict[str, Any] | None = None
    reroll: dict[str, Any] | None = None
    protect: dict[str, int] | None = None
    heal: int = 0
    rest: int = 0
    shortcut: bool = False
    ignore_emanation: bool = False
    #: The emission dash into a bunker costs 1 fatigue instead of 2 with it.
    dash: bool = False
    #: Used in the action phase where it names (``area``: an area, ``bunker`` or ``any``), not as an
    #: action, for its ``effects``.
    use_at: dict[str, Any] | None = None
    #: Used when a failed test against a threat of this kind would hurt: no damage (not ability damage).
    immune: str | None = None
    #: Used against a damage: one point of it changes type (then another item may stop it).
    convert: bool = False
    #: Used while forcing: up to 2 dice rerolled with 1 injury, up to 3 with more.
    force_dice: bool = False
    #: Used with a deactivated durable artifact in a test: that artifact is used again.
    reuse: bool = False
    #: Used when a threat of this kind is drawn: the encounter is not resolved (not defeated either).
    skip_encounter: str | None = None
    emanation: dict[str, Any] | None = None

    @property
    def deck(self) -> str | None:
        """The deck (and discard pile) cards of this type come from, if any."""
        if self.kind == "artifact":
            return f"{self.colour}_artifact"
        return self.kind if self.kind in ("junk", "equipment") else None

    @property
    def artifact(self) -> bool:
        return self.kind == "artifact" or (self.kind == "find" and self.colour is not None)


@dataclass(frozen=True)
class Threat:
    id: str
    name: str
    kind: str
    colour: str
    detect: int
    attribute: str
    difficulty: int
    damage: dict[str, int]
    fatigue: int
    loot: dict[str, Any]
    ability: dict[str, Any]
    copies: int = 1

    @property
    def queue(self) -> str:
        return queue_of(self.kind, self.colour)


@dataclass(frozen=True)
class EventCard:
    """A sector card (``sections`` by area, or by reputation) or a paragraph card."""

    id: str
    name: str
    deck: str
    sections: dict[str, Effects] = field(default_factory=dict)
    by_reputation: bool = False
    paragraphs: tuple[Effects, ...] = ()


@dataclass(frozen=True)
class NewsCard:
    id: str
    name: str
    arrows: int
    effects: Effects = field(default_factory=list)
    timed: dict[str, Any] | None = None


@dataclass(frozen=True)
class EmissionCard:
    id: str
    name: str
    type: str
    damage: dict[str, int]
    place: tuple[StartThreat, ...]


@dataclass(frozen=True)
class Lock:
    id: str
    name: str
    fatigue: int = 0
    damage: dict[str, int] = field(default_factory=dict)
    roubles: int = 0
    trophy: int = 0


@dataclass(frozen=True)
class Pack:
    name: str
    areas: dict[str, Area]
    borders: tuple[Border, ...]
    sides: dict[str, Side]
    facilities: dict[str, str]
    faces: tuple[str, ...]
    stalkers: dict[str, Stalker]
    items: dict[str, ItemType]
    threats: dict[str, Threat]
    events: dict[str, EventCard]
    news: dict[str, NewsCard]
    emissions: dict[str, EmissionCard]
    locks: dict[str, Lock]
    track: int
    #: News cards set aside unseen at a player count (news.yaml ``set_aside``), on top of the solo
    #: rule's: the pack's clock for that count. A count it does not name plays the whole deck.
    set_aside: dict[int, int] = field(default_factory=dict)
    #: Each card's and token's type as ``item_type`` and ``threat`` found it: the rules and the bots' searches
    #: ask hundreds of thousands of times a game, and a pack never changes.
    known_items: dict[str, ItemType] = field(default_factory=dict, compare=False, repr=False)
    known_threats: dict[str, Threat] = field(default_factory=dict, compare=False, repr=False)

    def item_type(self, card: str) -> ItemType:
        """The type of an item card (``type#n`` from a deck, ``type@stalker`` to start with)."""
        found = self.known_items.get(card)
        if found is None:
            found = self.known_items[card] = self.items[card.split("#")[0].split("@")[0]]
        return found

    def threat(self, token: str) -> Threat:
        found = self.known_threats.get(token)
        if found is None:
            found = self.known_threats[token] = self.threats[token.split("#")[0]]
        return found

    def deck_cards(self, deck: str) -> list[str]:
        return [c.id for c in self.events.values() if c.deck == deck]
