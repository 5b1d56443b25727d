"""The components of Fallout as the engine reads them.

A content pack (YAML, see ``domain/fallout/pack.py``) loads into these frozen
data classes. The engine never reads YAML and the loader never applies rules:
this module is the contract between them. Names follow the Rules Reference.

Map geometry. Tiles are hexes laid out on axial coordinates ``(q, r)``. Every
tile is oriented with its arrow the same way (Map Tiles), so a tile's edges
never rotate. Edge ``d`` (0..5, clockwise, 0 = the edge the arrow points
through) faces the neighbouring place at ``q + DIRECTIONS[d][0], r +
DIRECTIONS[d][1]`` and meets that tile's edge ``(d + 3) % 6``. Each edge is
split into two halves, listed clockwise around the tile; the space touching
half ``i`` of edge ``d`` is adjacent to the space touching half ``1 - i`` of
the facing edge (walking clockwise round one tile is walking
counter-clockwise round the other).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

SPECIAL: Final = ("S", "P", "E", "C", "I", "A", "L")
ENEMY_TYPES: Final = ("critter", "human", "robot", "monster", "super_mutant")
AREAS = ("head", "body", "arms", "legs")
ABILITIES = ("aggressive", "armor", "loot", "radiation", "ranged", "retreat")
TERRAIN = ("difficult", "irradiated")
ENCOUNTER_KINDS = ("wasteland", "settlement", "vault84", "vault109")
TILE_BACKS = ("start", "dangerous", "deadly")
#: The back of neither kind (Map Tiles): a tile with a face on both sides, only ever
#: placed face up, with the side the scenario sheet names. Its faces are tiles of
#: their own (``Pack.tiles``) whose ``back`` is this.
DOUBLE_SIDED = "double_sided"
SIDES = ("a", "b")
FACTIONS: Final = ("star", "spade")
# Fight: "before a fight" abilities are used before the dice are rolled;
# "during a fight" ones at any step (in this engine: while the dice are on the table).
TIMINGS = ("before_fight", "during_fight")
CARD_KINDS = ("weapon", "apparel", "companion", "aid", "drug", "magazine", "ability", "event")
#: Where a card comes from and goes back to when discarded. ``None``: a
#: character card (never discarded to a deck).
CARD_DECKS = ("loot", "asset", "unique")
#: Kinds a survivor equips, one of each (Equipping).
EQUIPPABLE = ("weapon", "apparel", "companion")
#: Items used from the inventory, discarded once used (Items).
USABLE = ("aid", "drug", "magazine")

# Pointy-top axial neighbours, clockwise from the north-east edge.
DIRECTIONS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


@dataclass(frozen=True)
class EncounterIcon:
    kind: str  # one of ENCOUNTER_KINDS
    level: int | None = None  # None: the icon shows no level


@dataclass(frozen=True)
class Space:
    id: str  # unique across the pack: "<tile id>.<local name>"
    name: str | None = None  # consequential locations have a name
    terrain: frozenset[str] = frozenset()  # subset of TERRAIN
    encounter: EncounterIcon | None = None
    enemy_icons: tuple[str, ...] = ()  # ENEMY_TYPES, one enemy placed per icon
    start: bool = False  # a survivor may be placed here (starting tile only)


@dataclass(frozen=True)
class Tile:
    id: str
    name: str
    back: str  # one of TILE_BACKS, or DOUBLE_SIDED for a face of a double-sided tile
    spaces: tuple[Space, ...]
    links: tuple[tuple[str, str], ...]  # adjacency inside the tile, by space id
    edges: tuple[tuple[str, str], ...]  # six edges, each (first half, second half)


@dataclass(frozen=True)
class DoubleSidedTile:
    """A map tile with a face on both sides (Map Tiles): never shuffled face down; a
    scenario sheet places it face up, with the side it names."""

    id: str
    faces: tuple[Tile, Tile]  # side "a", side "b" (SIDES)

    def face(self, side: str) -> Tile:
        return self.faces[SIDES.index(side)]


@dataclass(frozen=True)
class Place:
    """One hex of a scenario's map layout."""

    id: str
    q: int
    r: int
    # The tile placed face up at setup, a key of ``Pack.tiles``. For a double-sided
    # tile the sheet names the tile and a side; the loader puts the face of that
    # side here, and the sheet's words in ``double_sided`` and ``side``.
    tile: str | None = None
    back: str | None = None  # "dangerous" / "deadly": a random face-down tile
    side: str | None = None  # one of SIDES: the side of a double-sided tile that is face up
    double_sided: str | None = None  # the double-sided tile whose face ``tile`` is


@dataclass(frozen=True)
class EnemyToken:
    id: str
    type: str  # one of ENEMY_TYPES
    name: str
    level: int | str  # a number, or a faction letter ("X", "Y") read off the power track
    vulnerable: frozenset[str]  # subset of AREAS
    abilities: tuple[str, ...] = ()  # at most two of ABILITIES


@dataclass(frozen=True)
class DieFace:
    hits: int
    areas: frozenset[str]  # the filled areas


@dataclass(frozen=True)
class Die:
    id: str
    faces: tuple[DieFace, ...]  # six


@dataclass(frozen=True)
class SpecialToken:
    id: str
    letter: str  # one of SPECIAL
    survivor: str | None = None  # the survivor whose silhouette is on its back


@dataclass(frozen=True)
class TraitToken:
    """A double-sided trait token; a survivor holds at most one of each kind."""

    id: str
    sides: tuple[str, str]
    locked: frozenset[str] = frozenset()  # sides that show the lock icon


@dataclass(frozen=True)
class Card:
    """An item, companion or ability card: a character card, a loot, asset or unique asset card."""

    id: str
    name: str
    kind: str  # one of CARD_KINDS
    text: str = ""
    special: tuple[str, ...] = ()  # weapon: letters that generate rerolls
    ranged: bool = False  # weapon with the ranged icon
    armor: int = 0  # apparel
    cost: int | None = None
    value: int | None = None
    # What the card does when used, in the effects vocabulary (docs/fallout-effects.md),
    # as a list of results: aid, drugs and magazines used from the inventory
    # (then discarded); equipped cards exhausted for their ability; a one-time
    # loot event resolved when drawn (then discarded).
    effects: tuple[dict, ...] = ()
    deck: str | None = None  # one of CARD_DECKS; None: a character card
    recruit: dict | None = None  # companion: the condition to recruit it (a trait or letter); None: anyone
    keep_if: dict | None = None  # companion: the condition checked when it unexhausts; unmet: discarded
    unexhaust_cost: int = 0  # Caps paid when it would unexhaust; unpaid: it stays exhausted
    unexhaust_hp: int = 0  # damage suffered to unexhaust it (never paid if it would kill)
    unexhaust_rads: int = 0  # rads suffered to unexhaust it (likewise)
    exhaust: bool | None = None  # using the effects exhausts the card; None: yes for equippable kinds
    # Modifiers (docs/fallout-effects.md, "Modifiers") that hold while the card is held:
    # equipped, or beside the board as a character card.
    passive: tuple[dict, ...] = ()
    # "before_fight" / "during_fight": the card is used in its holder's fight,
    # and its effects are modifiers for that fight (not results).
    timing: str | None = None


@dataclass(frozen=True)
class Survivor:
    id: str
    name: str
    special: str  # the letter of the starting token
    character_card: str  # Card id


@dataclass(frozen=True)
class AgendaCard:
    id: str
    name: str
    players: int  # used only with at least this many players
    activation: tuple[str, ...]  # enemy types and faction icons ("star", "spade"), left to right
    faction: str | None = None  # "star", "spade" or None (neutral)
    text: str = ""
    # Extra influence beyond the card's own one, in the effects vocabulary
    # (docs/fallout-effects.md, "Influence"): evaluated against the live game.
    influence: tuple[dict, ...] = ()


@dataclass(frozen=True)
class Perk:
    id: str
    name: str
    special: str  # the highlighted letter
    text: str = ""
    effects: tuple[dict, ...] = ()  # results applied when the perk is used (docs/fallout-effects.md)
    timing: str | None = None  # "before_fight" / "during_fight": effects are modifiers for one fight


@dataclass(frozen=True)
class Faction:
    key: str  # "star" or "spade"
    name: str
    letter: str  # the level letter its enemies show: "X" or "Y"
    token_enemy: EnemyToken | None = None  # what its faction tokens are on the map


@dataclass(frozen=True)
class PowerStep:
    X: int
    Y: int


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    places: tuple[Place, ...]
    start_place: str  # the place holding the starting tile
    factions: tuple[Faction, Faction]
    power_track: tuple[PowerStep, ...]  # top (index 0) to the final space
    # Quest cards staged at setup, by library number ("14") or card id.
    staged_quests: tuple[str, ...] = ()
    # Other starting effects (Complete Setup, step 9): results in the effects
    # vocabulary, resolved in order after the quests are staged.
    setup: tuple[dict, ...] = ()
    # A special rule of the scenario sheet: results about the game resolved each
    # time the agenda deck runs out, after the factions advance.
    on_deplete: tuple[dict, ...] = ()
    # The sheet's other special rules (docs/fallout-effects.md, "The scenario sheet"):
    # modifiers that hold for every survivor, and results at the start of each
    # survivor's turn / at each round's end, when their condition holds.
    passive: tuple[dict, ...] = ()
    on_turn_start: tuple[dict, ...] = ()
    on_round_end: tuple[dict, ...] = ()


@dataclass(frozen=True)
class EncounterOption:
    """One numbered arrow of an encounter card.

    What is read aloud before the choice: ``label`` (the bold text), and the
    condition and tasks it shows. Everything else is the outcome, read only
    once this option is chosen. Effects are in the vocabulary of
    docs/fallout-effects.md, kept here in their plain (YAML) form.
    """

    label: str
    condition: dict | None = None  # must hold to choose it (FORCED: forces it)
    forced: bool = False  # FORCED: resolved instead of the others when the condition holds
    tasks: tuple[dict, ...] = ()  # tests / draw and fight, left to right; all must succeed
    text: str = ""  # outcome without tasks
    results: tuple[dict, ...] = ()  # results without tasks
    succeed_text: str = ""
    succeed: tuple[dict, ...] = ()
    fail_text: str = ""
    fail: tuple[dict, ...] = ()


@dataclass(frozen=True)
class EncounterCard:
    id: str
    deck: str  # one of ENCOUNTER_KINDS: the card back
    intro: str
    options: tuple[EncounterOption, ...]
    number: int | None = None  # None: a starting card (the star); otherwise in the card library
    title: str = ""


@dataclass(frozen=True)
class QuestObjective:
    """One objective of a quest card with its results bar.

    Triggered when ``trigger`` is set (it completes by itself when the event
    happens); otherwise a quest-action objective: ``requirement`` (a condition,
    most often a space) must hold to perform the quest action, then the
    ``instructions`` (tasks) are resolved left to right.
    """

    text: str = ""
    trigger: dict | None = None
    requirement: dict | None = None
    instructions: tuple[dict, ...] = ()
    results: tuple[dict, ...] = ()


@dataclass(frozen=True)
class QuestCard:
    id: str
    number: int  # its card-library number
    title: str
    objectives: tuple[QuestObjective, ...]
    text: str = ""
    on_stage: tuple[dict, ...] = ()  # the top section: results executed when it is staged


@dataclass(frozen=True)
class Pack:
    id: str
    tiles: dict[str, Tile]  # every tile by id, the faces of double-sided tiles included
    scenarios: dict[str, Scenario]
    enemies: tuple[EnemyToken, ...]
    dice: tuple[Die, Die, Die]
    survivors: dict[str, Survivor]
    special_tokens: tuple[SpecialToken, ...]
    trait_tokens: tuple[TraitToken, ...]
    agendas: tuple[AgendaCard, ...]
    perks: tuple[Perk, ...]
    cards: dict[str, Card]  # character, loot, asset and unique asset cards (Card.deck tells them apart)
    spaces: dict[str, Space] = field(default_factory=dict)  # every space of every tile, by id
    encounters: dict[str, EncounterCard] = field(default_factory=dict)
    quests: dict[str, QuestCard] = field(default_factory=dict)
    double_sided: dict[str, DoubleSidedTile] = field(default_factory=dict)
