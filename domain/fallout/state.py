"""The state of one game of Fallout, as the events fold it.

Everything here is a frozen data class: ``evolve`` builds a new state with
``replace`` (``domain.engine.records``) and shares the untouched parts, so a state handed out
is never changed behind anyone's back. Ids, not objects, point at the content
pack (``GameState.pack`` names it; ``domain.fallout.content`` finds it).

A resolution in progress (a fight, the survivors an aggressive enemy still has
to fight, tokens drawn for leveling up, ...) is part of the state, each in a
slot of its own, so a game waiting on a seat's decision is an ordinary state
that can be snapshotted, viewed and resumed by whoever answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from domain.engine.decisions import Decision
from domain.engine.records import replace, replaced
from domain.fallout.model import SPECIAL

MAX_HP = 16
MAX_RADS = 16
ACTIONS_PER_TURN = 2
MOVEMENT_POINTS = 2
CAMP_RECOVERY = 3
STARTING_CAPS = 3
SHOP_SIZE = 4
#: Cards a survivor may hold beyond what is equipped (Inventory), and agenda cards in hand (Agenda Cards).
INVENTORY_SIZE = 3
MAX_AGENDAS = 4
WELL_RESTED: Final = "well_rested"

#: The node an enemy occupies while it stands on a face-down tile.
FACE_DOWN = "place:"


def clamp_hp(value: int) -> int:
    """The red peg stays on the HP track."""
    return max(0, min(MAX_HP, value))


def clamp_rads(value: int) -> int:
    """The green peg stays on the HP track."""
    return max(0, min(MAX_RADS, value))


def face_down_node(place_id: str) -> str:
    return FACE_DOWN + place_id


def trait_key(side: str) -> str:
    """Trait sides compared by name, whatever spelling a pack uses."""
    return side.strip().lower().replace(" ", "_").replace("-", "_")


@dataclass(frozen=True)
class SurvivorState:
    seat: int
    survivor: str | None = None  # None until chosen (setup step 7)
    space: str | None = None  # None while killed and not yet placed again
    hp: int = MAX_HP  # the red peg
    rads: int = 0  # the green peg
    xp: str | None = None  # the letter the XP peg sits under; None: the leftmost hole
    special: tuple[tuple[str, str], ...] = ()  # (letter, token id), in S.P.E.C.I.A.L. order
    traits: tuple[tuple[str, str], ...] = ()  # (trait token id, side face up)
    agendas: tuple[str, ...] = ()
    caps: int = 0
    equipped: tuple[str, ...] = ()  # at most one weapon, one apparel, one companion
    inventory: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()  # character cards that are not items
    exhausted: tuple[str, ...] = ()
    perks: tuple[str, ...] = ()
    eliminated: bool = False
    loyalty: str | None = None  # the agenda card revealed to declare loyalty (Loyalty)
    # What the survivor has done so far (``tallies``), for cards that count it.
    xp_gained: int = 0
    kills: int = 0
    quests_done: int = 0  # quest objectives completed
    tiles_explored: int = 0

    @property
    def remaining_hp(self) -> int:
        return self.hp - self.rads

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple(letter for letter, _ in self.special)

    @property
    def on_map(self) -> bool:
        return self.space is not None and not self.eliminated

    def has_trait(self, side: str) -> bool:
        key = trait_key(side)
        return any(trait_key(s) == key for _, s in self.traits)

    def copied(self) -> SurvivorState:
        """This record, copied field by field in the compiled build (``domain.engine.records.COPY``). Each
        write is to a frozen field, which mypy refuses and plain Python too: only the compiled build calls
        it. tests/domain/test_copied.py holds it to every field."""
        made = SurvivorState.__new__(SurvivorState)
        made.seat = self.seat  # type: ignore[misc]
        made.survivor = self.survivor  # type: ignore[misc]
        made.space = self.space  # type: ignore[misc]
        made.hp = self.hp  # type: ignore[misc]
        made.rads = self.rads  # type: ignore[misc]
        made.xp = self.xp  # type: ignore[misc]
        made.special = self.special  # type: ignore[misc]
        made.traits = self.traits  # type: ignore[misc]
        made.agendas = self.agendas  # type: ignore[misc]
        made.caps = self.caps  # type: ignore[misc]
        made.equipped = self.equipped  # type: ignore[misc]
        made.inventory = self.inventory  # type: ignore[misc]
        made.abilities = self.abilities  # type: ignore[misc]
        made.exhausted = self.exhausted  # type: ignore[misc]
        made.perks = self.perks  # type: ignore[misc]
        made.eliminated = self.eliminated  # type: ignore[misc]
        made.loyalty = self.loyalty  # type: ignore[misc]
        made.xp_gained = self.xp_gained  # type: ignore[misc]
        made.kills = self.kills  # type: ignore[misc]
        made.quests_done = self.quests_done  # type: ignore[misc]
        made.tiles_explored = self.tiles_explored  # type: ignore[misc]
        return made


def with_letter(special: tuple[tuple[str, str], ...], letter: str, token: str) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(special + ((letter, token),), key=lambda lt: SPECIAL.index(lt[0])))


@dataclass(frozen=True)
class EnemyState:
    id: str  # the instance on the map ("e7"); the token id stays hidden while inactive
    type: str
    token: str
    space: str  # a space id, or face_down_node(place) on a face-down tile
    active: bool
    faction: str | None = None  # a faction token standing for an enemy
    drawn: bool = False  # drawn to "draw and fight": discarded after the fight, never replaced


@dataclass(frozen=True)
class PlaceState:
    id: str
    tile: str | None  # known to the game even while face down; views hide it
    back: str | None
    faceup: bool


@dataclass(frozen=True)
class Turn:
    seat: int
    actions: int = ACTIONS_PER_TURN
    movement: int = 0  # unspent points; the points of two move actions pool
    ending: bool = False  # the active survivor was killed: the turn ends once resolved
    encountered: tuple[str, ...] = ()  # where the one encounter action of the turn was taken
    camping: bool = False  # a camp action was just performed: trading is open until the next action

    @property
    def at_start(self) -> bool:
        """No action taken yet: the start of the turn (Equipping, Loyalty)."""
        return self.actions == ACTIONS_PER_TURN and self.movement == 0 and not self.encountered


@dataclass(frozen=True)
class Test:
    letters: tuple[str, ...]
    difficulty: int
    then: dict[str, Any] = field(default_factory=dict)  # what resolves on the result (an attempt, a card's results)


@dataclass(frozen=True)
class Roll:
    """Three V.A.T.S. dice on the table, in a fight or a test."""

    seat: int
    faces: tuple[int, ...]  # face index per die
    rerolls: int
    well_rested: bool  # Well Rested may still be given up for one reroll
    kept: bool
    test: Test | None = None  # None: the roll of the fight in progress
    abilities: bool = False  # "during a fight" abilities may still be used on it


@dataclass(frozen=True)
class Fight:
    seat: int
    enemy: str
    cause: str  # "action", "aggressive", "activation", "task", "result"
    at_range: bool
    # What abilities used in this fight give it (Fight: "before a fight", "during a fight").
    rerolls: int = 0  # gained before the roll, added to it
    hits: int = 0
    armor: int = 0
    rolling: bool = False  # "before a fight" is over: the survivor chose to roll


@dataclass(frozen=True)
class Attackers:
    """Enemies a survivor must still fight, in the order the survivor picks."""

    seat: int
    enemies: tuple[str, ...]
    cause: str


@dataclass(frozen=True)
class Leveling:
    seat: int
    drawn: tuple[str, ...]  # S.P.E.C.I.A.L. token ids
    letter: str | None = None  # set once a duplicate letter turned into a perk choice


@dataclass(frozen=True)
class Placing:
    """Enemies that stood on a tile when it was explored, still to be placed."""

    seat: int
    place: str
    enemies: tuple[str, ...]


@dataclass(frozen=True)
class Attempt:
    """Tasks (tests, draw and fight) attempted left to right for an encounter
    option or a quest objective; the first failure ends the attempt."""

    seat: int
    tasks: tuple[dict[str, Any], ...]
    level: int
    index: int = 0
    outcome: bool | None = None  # None while running
    enemy: str | None = None  # the drawn enemy being fought


@dataclass(frozen=True)
class Encounter:
    """An encounter card being resolved (Encounter Action)."""

    seat: int
    card: str
    kind: str  # the deck it came from and returns to
    space: str
    level: int
    option: int | None = None  # None until the acting seat chooses
    outcome: str | None = None  # "results", "succeed", "fail" once known
    trashed: bool = False


@dataclass(frozen=True)
class Questing:
    """A quest action in progress on one objective (Quest Action)."""

    seat: int
    quest: str
    objective: int
    level: int
    outcome: bool | None = None


@dataclass(frozen=True)
class Resolving:
    """A results bar being resolved left to right; the stack's last entry is resolved first."""

    seat: int | None
    source: str  # the card the results are on
    origin: str  # "encounter", "quest", "loot", "item", "perk", "setup"
    level: int
    results: tuple[Any, ...]


@dataclass(frozen=True)
class Shopping:
    seat: int
    left: int  # buys, sells and recruits still allowed


@dataclass(frozen=True)
class Trade:
    """A trade being put together by the camping survivor, then answered by the partner."""

    seat: int
    partner: int
    give: tuple[str, ...] = ()  # the proposer's cards (items, companions, agendas)
    take: tuple[str, ...] = ()  # the partner's items and companions
    give_caps: int = 0
    take_caps: int = 0
    take_agendas: int = 0  # how many agenda cards the partner hands over (the partner picks which)
    proposed: bool = False


@dataclass(frozen=True)
class RoundEnd:
    card: str
    types: tuple[str, ...]  # enemy types still to activate; the first is activating
    acting: tuple[str, ...] | None = None  # enemies of that type yet to act; None: not begun
    placed: tuple[str, ...] = ()  # went face down during this activation (placed, or fled): not flipped


#: The face-up places of the last tuple of places asked about (``GameState.faceup_places``).
_FACEUP: list[tuple[tuple, frozenset[str]]] = []


@dataclass(frozen=True)
class GameState:
    pack: str = ""
    scenario: str = ""
    players: int = 0
    phase: str = "new"  # "new", "choosing", "playing", "over"
    result: str | None = None
    survivors: tuple[SurvivorState, ...] = ()
    first_player: int = 0
    round: int = 0
    turn: Turn | None = None
    next_seat: int | None = None
    round_end_due: bool = False
    round_end: RoundEnd | None = None
    places: tuple[PlaceState, ...] = ()
    enemies: tuple[EnemyState, ...] = ()
    next_enemy: int = 1
    enemy_stacks: dict[str, tuple[str, ...]] = field(default_factory=dict)
    enemy_discards: dict[str, tuple[str, ...]] = field(default_factory=dict)
    special_supply: tuple[str, ...] = ()
    agenda_deck: tuple[str, ...] = ()
    agenda_discard: tuple[str, ...] = ()
    perk_deck: tuple[str, ...] = ()
    loot_deck: tuple[str, ...] = ()
    loot_discard: tuple[str, ...] = ()
    asset_deck: tuple[str, ...] = ()
    asset_discard: tuple[str, ...] = ()
    shop: tuple[str, ...] = ()
    power: tuple[int, ...] = ()  # each scenario faction's position; 0 is the top space
    pending: Decision | None = None
    roll: Roll | None = None
    fight: Fight | None = None
    attackers: Attackers | None = None
    respawning: tuple[int, ...] = ()
    replacing: tuple[tuple[str, str], ...] = ()  # (enemy type, space it was killed in)
    level_ups: tuple[int, ...] = ()  # one seat per level still to resolve
    leveling: Leveling | None = None
    placing: Placing | None = None
    # encounters, quests, the card library, items, the shop, trading, the end
    encounter_decks: dict[str, tuple[str, ...]] = field(default_factory=dict)  # top first; a kind with no deck is absent
    library_out: tuple[str, ...] = ()  # library cards retrieved (never retrieved again)
    trashed: tuple[str, ...] = ()  # back in the box
    quests: tuple[str, ...] = ()  # staged quest cards, in the play area
    markers: tuple[tuple[str, str], ...] = ()  # (quest card, space) quest markers on the map
    unique_deck: tuple[str, ...] = ()
    unique_discard: tuple[str, ...] = ()
    encounter: Encounter | None = None
    questing: Questing | None = None
    attempt: Attempt | None = None
    resolving: tuple[Resolving, ...] = ()
    gaining: tuple[tuple[int, str], ...] = ()  # (seat, card) gained, still to equip or stow
    shopping: Shopping | None = None
    trade: Trade | None = None
    triggered: tuple[tuple[int, str, int], ...] = ()  # (seat, quest, objective) triggered, to complete
    winners: tuple[int, ...] = ()

    # -- lookups -----------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def survivor(self, seat: int) -> SurvivorState:
        return self.survivors[seat]

    def enemy(self, enemy_id: str) -> EnemyState | None:
        for enemy in self.enemies:
            if enemy.id == enemy_id:
                return enemy
        return None

    def place(self, place_id: str) -> PlaceState | None:
        for place in self.places:
            if place.id == place_id:
                return place
        return None

    def faceup_places(self) -> frozenset[str]:
        # Asked many times a step; the places change only when a tile is explored.
        last = _FACEUP[0] if _FACEUP else None
        if last is not None and last[0] is self.places:
            return last[1]
        found = frozenset(p.id for p in self.places if p.faceup)
        _FACEUP[:] = [(self.places, found)]
        return found

    def clockwise(self, seat: int) -> list[int]:
        """Living seats in turn order starting with ``seat`` (itself included if alive)."""
        n = self.players
        return [
            (seat + i) % n for i in range(n) if not self.survivors[(seat + i) % n].eliminated
        ]

    def turn_order(self) -> list[int]:
        """Living seats from the first player clockwise: who comes first in a tie."""
        return self.clockwise(self.first_player)

    # -- updates (used by the folds only) ----------------------------------

    def copied(self) -> GameState:
        """This record, copied as ``SurvivorState.copied`` copies a survivor (compiled build only)."""
        made = GameState.__new__(GameState)
        made.pack = self.pack  # type: ignore[misc]
        made.scenario = self.scenario  # type: ignore[misc]
        made.players = self.players  # type: ignore[misc]
        made.phase = self.phase  # type: ignore[misc]
        made.result = self.result  # type: ignore[misc]
        made.survivors = self.survivors  # type: ignore[misc]
        made.first_player = self.first_player  # type: ignore[misc]
        made.round = self.round  # type: ignore[misc]
        made.turn = self.turn  # type: ignore[misc]
        made.next_seat = self.next_seat  # type: ignore[misc]
        made.round_end_due = self.round_end_due  # type: ignore[misc]
        made.round_end = self.round_end  # type: ignore[misc]
        made.places = self.places  # type: ignore[misc]
        made.enemies = self.enemies  # type: ignore[misc]
        made.next_enemy = self.next_enemy  # type: ignore[misc]
        made.enemy_stacks = self.enemy_stacks  # type: ignore[misc]
        made.enemy_discards = self.enemy_discards  # type: ignore[misc]
        made.special_supply = self.special_supply  # type: ignore[misc]
        made.agenda_deck = self.agenda_deck  # type: ignore[misc]
        made.agenda_discard = self.agenda_discard  # type: ignore[misc]
        made.perk_deck = self.perk_deck  # type: ignore[misc]
        made.loot_deck = self.loot_deck  # type: ignore[misc]
        made.loot_discard = self.loot_discard  # type: ignore[misc]
        made.asset_deck = self.asset_deck  # type: ignore[misc]
        made.asset_discard = self.asset_discard  # type: ignore[misc]
        made.shop = self.shop  # type: ignore[misc]
        made.power = self.power  # type: ignore[misc]
        made.pending = self.pending  # type: ignore[misc]
        made.roll = self.roll  # type: ignore[misc]
        made.fight = self.fight  # type: ignore[misc]
        made.attackers = self.attackers  # type: ignore[misc]
        made.respawning = self.respawning  # type: ignore[misc]
        made.replacing = self.replacing  # type: ignore[misc]
        made.level_ups = self.level_ups  # type: ignore[misc]
        made.leveling = self.leveling  # type: ignore[misc]
        made.placing = self.placing  # type: ignore[misc]
        made.encounter_decks = self.encounter_decks  # type: ignore[misc]
        made.library_out = self.library_out  # type: ignore[misc]
        made.trashed = self.trashed  # type: ignore[misc]
        made.quests = self.quests  # type: ignore[misc]
        made.markers = self.markers  # type: ignore[misc]
        made.unique_deck = self.unique_deck  # type: ignore[misc]
        made.unique_discard = self.unique_discard  # type: ignore[misc]
        made.encounter = self.encounter  # type: ignore[misc]
        made.questing = self.questing  # type: ignore[misc]
        made.attempt = self.attempt  # type: ignore[misc]
        made.resolving = self.resolving  # type: ignore[misc]
        made.gaining = self.gaining  # type: ignore[misc]
        made.shopping = self.shopping  # type: ignore[misc]
        made.trade = self.trade  # type: ignore[misc]
        made.triggered = self.triggered  # type: ignore[misc]
        made.winners = self.winners  # type: ignore[misc]
        return made


    def with_survivor(self, seat: int, **changes: Any) -> GameState:
        return self.with_survivor_changed(seat, changes)

    def with_survivor_changed(self, seat: int, changes: dict[str, Any]) -> GameState:
        """``with_survivor`` for changes already in a dict (which it only reads): the compiled build calls it
        directly, where ``with_survivor(seat, **changes)`` goes through Python's calling convention."""
        survivors = list(self.survivors)
        survivors[seat] = replaced(survivors[seat], changes)
        return replace(self, survivors=tuple(survivors))

    def with_enemy(self, enemy_id: str, **changes: Any) -> GameState:
        return replace(
            self,
            enemies=tuple(replaced(e, changes) if e.id == enemy_id else e for e in self.enemies),
        )

    def without_enemy(self, enemy_id: str) -> GameState:
        return replace(self, enemies=tuple(e for e in self.enemies if e.id != enemy_id))
