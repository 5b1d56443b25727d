"""A game as the service folds it: creation facts, seats, proposals, and the rules state.

The log holds two kinds of events. The game module's own (``Added``,
``Moved``…) go to its ``evolve``; the service's own (``META_EVENTS``: the
lobby, the start, the command that caused each batch, the seed, rewinds and
forks) are folded here and never reach the module, which knows nothing of
them.

The record is folded a batch at a time (the events one append wrote; a
batch opens with one of ``BATCH_OPENERS``): the seats' waits (play by post)
are settled once per batch, at its last version, because that is what a
reader of the game sees and what the writer knows without folding twice.

The service's own event schemas are declared here too, next to their fold
(``declare_events``), so the two cannot drift apart; the store checks and
upcasts them. A game's events are checked and upcast by the game's own
schemas (``game_event``, ``upcast``): two games may both have a
``GameEnded`` of different shapes, and only the record knows whose stream it
reads.

``GameRewound`` is the one event that does not build on the state before it:
it makes the rules state the state after an earlier version, so folding it
needs a way to get that state (``state_at``). The result is an ordinary fold
at that version, so a snapshot taken after a rewind is as correct as any.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from domain import registry
from domain.engine.records import replace as fast_replace
from domain.game import Event, Game
from events.envelope import Envelope, NewEvent
from events.schemas import SchemaRegistry
from service.usecases import genesis
from service.usecases.errors import GameNotFound

META_EVENTS = frozenset(
    {
        "GameCreated",
        "SeatJoined",
        "ContributionGiven",
        "SeatLeft",
        "SeatHandedToBot",
        "GameStarted",
        "CommandAccepted",
        "SeedRevealed",
        "ProposalMade",
        "ProposalAccepted",
        "ProposalDeclined",
        "GameRewound",
        "MoveUndone",
        "GameForked",
        "ForkedFrom",
        "TurnTimedOut",
        "VacationTaken",
        "RulesUpgraded",
    }
)

#: The events that begin a batch of their own; the others follow one in the same append.
BATCH_OPENERS = META_EVENTS - {"SeedRevealed", "ForkedFrom", "GameRewound", "GameForked"}

#: The kinds of seat: taken by a person, held by a bot, or waiting for a player.
HUMAN, BOT, OPEN = "human", "bot", "open"


class StaleSnapshot(Exception):
    pass


#: Where a game's seed came from (``GameCreated.seed_source``).
SERVER_SEED = "server"
CREATOR_SEED = "creator"


@dataclass(frozen=True)
class Record:
    game: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seats: tuple[dict[str, Any], ...] = ()
    seed_commitment: str | None = None
    #: Who chose the seed: "server" (secret, random) or "creator" (given at
    #: creation, for tests and replays: its creator knows every hidden card).
    seed_source: str = SERVER_SEED
    state: Any = None
    started_at: int | None = None  # the version of GameStarted
    proposal: dict[str, Any] | None = None  # a pending rewind or fork
    seed: str | None = None  # the server's secret, revealed when the game ends
    #: How the seed comes from the secret (``genesis``); None: a game from
    #: before seats contributed, whose secret is its seed.
    seed_mix: str | None = None
    #: Each seat's contribution to the seed (docs/audit.md): changed by the
    #: lobby until the start, fixed from then on.
    contributions: dict[int, str] = field(default_factory=dict)
    forked_from: dict[str, Any] | None = None
    # Play-by-post (docs/play-by-post.md). The seats the game waits on, each
    # with the version and time its wait began: a seat's clock runs from there
    # while the game keeps waiting on it, through several commands of a turn.
    waits: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> {"since": v, "at": iso}
    # Seats whose deadline lapsed during their current wait, and what plays them.
    timeouts: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> {"since", "action", "bot"}
    vacations: dict[int, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # seat -> (from, until)...
    # The claim (sha256 of the joiner's Idempotency-Key) each seated person
    # joined with: a retry of that join gets the seat's token again (service.usecases.lobby).
    claims: dict[int, str] = field(default_factory=dict)
    #: The rules the game is played under now (``Game.rules``, "fallout/1"): as
    #: created, then as each ``RulesUpgraded`` says. None: a game from before
    #: rules versions (docs/versioning.md).
    rules: str | None = None
    #: Each ``RulesUpgraded``: {"version", "from", "to", "diverged_at"}.
    upgrades: tuple[dict[str, Any], ...] = ()

    @property
    def module(self) -> Game:
        if self.game is None:
            raise GameNotFound("(not created)")
        return registry.game_module(self.game)

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def over(self) -> bool:
        return self.started and self.module.is_over(self.state)

    @property
    def status(self) -> str:
        return "ended" if self.over else "running" if self.started else "lobby"

    def seats_of(self, kind: str) -> list[int]:
        return [s["seat"] for s in self.seats if s["kind"] == kind]

    def kind_of(self, seat: int) -> str | None:
        return self.seats[seat]["kind"] if 0 <= seat < len(self.seats) else None


StateAt = Callable[[int], Record]


@functools.cache
def _schemas_of(game: str) -> SchemaRegistry:
    schemas = SchemaRegistry()
    for declared in registry.game_module(game).event_schemas:
        schemas.declare(declared)
    return schemas


def game_event(game: str, event: Event) -> NewEvent:
    """``event`` of ``game`` checked against its schema, ready to append in its current version."""
    schemas = _schemas_of(game)
    return NewEvent(event.type, schemas.validate(event.type, event.data), schemas.current_version(event.type))


def upcast(record: Record, envelope: Envelope) -> dict[str, Any]:
    """A stored event of ``record``'s game, brought up to its type's current version."""
    if record.game is None:
        return envelope.data
    return _schemas_of(record.game).upcast(envelope.type, envelope.schema_version, envelope.data)[1]


def _seat(record: Record, seat: int, **changes: Any) -> Record:
    seats = list(record.seats)
    seats[seat] = {**seats[seat], **changes}
    return replace(record, seats=tuple(seats))


def apply(
    record: Record, event_type: str, data: dict[str, Any], version: int = 0, state_at: StateAt | None = None
) -> Record:
    """The record after one event (``version``: where it stands in the log)."""
    return _apply(record, event_type, data, version, state_at)


def settle(record: Record, version: int, timestamp: str) -> Record:
    """The record at the end of a batch: begin the wait of each seat the game
    now waits on (since this version), end the waits of the others."""
    return _settled(record, record.module, version, timestamp) if record.started else record


def _settled(record: Record, module: Game, version: int, timestamp: str) -> Record:
    """``settle`` of a started game whose module the caller holds (a fold settles every batch)."""
    waiting = () if module.is_over(record.state) else module.waiting_for(record.state)
    if list(waiting) == list(record.waits):
        return record
    waits = {seat: record.waits.get(seat) or {"since": version, "at": timestamp} for seat in waiting}
    timeouts = {
        seat: t for seat, t in record.timeouts.items() if seat in waits and waits[seat]["since"] == t["since"]
    }
    return replace(record, waits=waits, timeouts=timeouts)


def _apply(
    record: Record, event_type: str, data: dict[str, Any], version: int, state_at: StateAt | None
) -> Record:
    if event_type not in META_EVENTS:
        # Once per game event in a fold: dataclasses.replace's __init__ over
        # every field was a fifth of a fold's time.
        return fast_replace(record, state=record.module.evolve(record.state, Event(event_type, data)))
    if event_type == "CommandAccepted":  # a fact for the auditor, no change of state; every action opens with one
        return record
    if event_type == "GameCreated":
        return Record(
            game=data["game"],
            options=data["options"],
            seats=tuple(data["seats"]),
            seed_commitment=data["seed_commitment"],
            seed_source=data.get("seed_source", SERVER_SEED),  # older events and snapshots: the server's
            seed_mix=data.get("seed_mix"),
            rules=data.get("rules"),  # None: a game from before rules versions
            state=registry.game_module(data["game"]).initial_state(),
        )
    # A change of players drops a pending proposal: who must agree has changed.
    if event_type == "SeatJoined":
        claims = {k: v for k, v in record.claims.items() if k != data["seat"]}
        if data.get("claim"):
            claims[data["seat"]] = data["claim"]
        seated = _seat(record, data["seat"], kind=HUMAN, name=data["name"], bot=None)
        return replace(seated, proposal=None, claims=claims)
    if event_type == "ContributionGiven":
        if record.started:  # the seed is fixed at the start; the lobby gives none after it
            return record
        return replace(record, contributions={**record.contributions, data["seat"]: data["contribution"]})
    if event_type in ("SeatLeft", "SeatHandedToBot"):
        claims = {k: v for k, v in record.claims.items() if k != data["seat"]}
        if not record.started:  # the player's contribution leaves with them, until the seed is fixed
            record = replace(record, contributions={k: v for k, v in record.contributions.items() if k != data["seat"]})
        if event_type == "SeatLeft":
            freed = _seat(record, data["seat"], kind=OPEN, name=None, bot=None)
        else:
            freed = _seat(record, data["seat"], kind=BOT, name=None, bot=data["bot"])
        return replace(freed, proposal=None, claims=claims)
    if event_type == "GameStarted":
        return replace(record, started_at=version)
    if event_type == "SeedRevealed":
        return replace(record, seed=data["seed"])
    if event_type == "ProposalMade":
        proposal = {"id": version, "kind": data["kind"], "to_version": data["to_version"], "by": data["by"]}
        return replace(record, proposal={**proposal, "accepted": [data["by"]]})
    if event_type == "ProposalAccepted":
        accepted = [*record.proposal["accepted"], data["by"]] if record.proposal else []
        return replace(record, proposal={**record.proposal, "accepted": accepted} if record.proposal else None)
    if event_type in ("ProposalDeclined", "GameForked"):
        return replace(record, proposal=None)
    if event_type in ("GameRewound", "MoveUndone"):
        if state_at is None:
            raise ValueError("folding a GameRewound needs the state at its version")
        return replace(record, state=state_at(data["to_version"]).state, proposal=None)
    if event_type == "TurnTimedOut":
        timeout = {"since": data["since"], "action": data["action"], "bot": data.get("bot")}
        return replace(record, timeouts={**record.timeouts, data["seat"]: timeout})
    if event_type == "VacationTaken":
        taken = record.vacations.get(data["seat"], ()) + ((data["from"], data["until"]),)
        return replace(record, vacations={**record.vacations, data["seat"]: taken})
    if event_type == "RulesUpgraded":
        upgrade = {"version": version, "from": data["from"], "to": data["to"], "diverged_at": data["diverged_at"]}
        return replace(record, rules=data["to"], upgrades=(*record.upgrades, upgrade))
    if event_type == "ForkedFrom":
        return replace(
            record,
            state=record.module.load_state(data["state"]),
            forked_from={k: data[k] for k in ("game_id", "version", "hash")},
        )
    return record


def _evolved(record: Record, events: Sequence[Event], module: Game | None = None) -> Record:
    """``record`` after its game's own ``events`` (as ``apply`` folds each); ``module``: its game's, if held."""
    if not events:
        return record
    evolve, state = (module or record.module).evolve, record.state
    for event in events:
        state = evolve(state, event)
    return fast_replace(record, state=state)


def _current_versions(record: Record) -> dict[str, int]:
    """The current version of each event type of ``record``'s game (none before it is created)."""
    return _schemas_of(record.game).versions if record.game is not None else {}


class RecordFolder:
    """Folds a game's stream into a ``Record``; ``state_at`` serves rewinds."""

    format = "record/6"  # 5: waits settled once per batch; 6: the rules version and its upgrades

    def __init__(self, state_at: Callable[[str, int], Record] | None = None):
        self.state_at = state_at

    def initial(self) -> Record:
        return Record()

    def opens_batch(self, envelope: Envelope) -> bool:
        return envelope.type in BATCH_OPENERS

    def apply_batch(self, record: Record, batch: Sequence[Envelope]) -> Record:
        # The game's own events between two of the service's fold into the rules state alone, and the
        # record takes the state once: a fold's time went on copying the record per event.
        run: list[Event] = []
        current = _current_versions(record)
        for envelope in batch:
            kind = envelope.type
            if kind not in META_EVENTS:
                # Upcast only what is behind its type's current version (in a fold, next to nothing).
                data = envelope.data if envelope.schema_version >= current.get(kind, 1) else upcast(record, envelope)
                run.append(Event(kind, data))
            elif kind != "CommandAccepted":  # (which changes nothing: a fact for the auditor, opening every action)
                state_at = functools.partial(self._state_at, envelope.game_id)
                record = apply(_evolved(record, run), kind, envelope.data, envelope.version, state_at)
                run = []
                current = _current_versions(record)
        if not record.started:  # the lobby: no waits to settle
            return _evolved(record, run)
        module = record.module  # looked up once for the batch's last events and its settling
        return _settled(_evolved(record, run, module), module, batch[-1].version, batch[-1].timestamp)

    def _state_at(self, game_id: str, version: int) -> Record:
        if self.state_at is None:
            raise ValueError("folding a GameRewound needs the state at its version")
        return self.state_at(game_id, version)

    def dump(self, record: Record) -> dict[str, Any]:
        module = record.module
        return {
            "game": record.game,
            "options": record.options,
            "seats": list(record.seats),
            "seed_commitment": record.seed_commitment,
            "seed_source": record.seed_source,
            "started_at": record.started_at,
            "proposal": record.proposal,
            "seed": record.seed,
            "seed_mix": record.seed_mix,
            "contributions": {str(k): v for k, v in record.contributions.items()},
            "forked_from": record.forked_from,
            "waits": {str(k): v for k, v in record.waits.items()},
            "timeouts": {str(k): v for k, v in record.timeouts.items()},
            "vacations": {str(k): [list(p) for p in v] for k, v in record.vacations.items()},
            "claims": {str(k): v for k, v in record.claims.items()},
            "rules": record.rules,
            "upgrades": list(record.upgrades),
            "state_format": module.state_format,
            "state": module.dump_state(record.state),
        }

    def load(self, data: dict[str, Any]) -> Record:
        module = registry.game_module(data["game"])
        if data["state_format"] != module.state_format:
            raise StaleSnapshot(data["state_format"])
        return Record(
            game=data["game"],
            options=data["options"],
            seats=tuple(data["seats"]),
            seed_commitment=data["seed_commitment"],
            seed_source=data.get("seed_source", SERVER_SEED),  # older events and snapshots: the server's
            started_at=data["started_at"],
            proposal=data["proposal"],
            seed=data["seed"],
            seed_mix=data.get("seed_mix"),  # older snapshots: older games, whose secret is the seed
            contributions={int(k): v for k, v in data.get("contributions", {}).items()},
            forked_from=data["forked_from"],
            waits={int(k): v for k, v in data["waits"].items()},
            timeouts={int(k): v for k, v in data["timeouts"].items()},
            vacations={int(k): tuple(tuple(p) for p in v) for k, v in data["vacations"].items()},
            claims={int(k): v for k, v in data.get("claims", {}).items()},  # none in older snapshots
            rules=data["rules"],
            upgrades=tuple(data["upgrades"]),
            state=module.load_state(data["state"]),
        )


# -- the service's own events: their schemas ------------------------------------

class SeatSchema(Schema):
    class Meta:
        unknown = RAISE

    seat = fields.Integer(required=True)
    kind = fields.String(required=True)  # "human" or "bot"
    name = fields.String(load_default=None, allow_none=True)
    bot = fields.String(load_default=None, allow_none=True)


class GameCreatedV2(Schema):
    """v2 (current): seats as objects, so a seat can be held by a bot.
    v1 stored only ``players`` (a count) and made every seat human."""

    class Meta:
        unknown = RAISE

    game = fields.String(required=True)
    options = fields.Dict(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    seed_commitment = fields.String(required=True)
    # Absent in games created before it was recorded (then: the server's).
    seed_source = fields.String(validate=validate.OneOf([SERVER_SEED, CREATOR_SEED]))
    # Absent in games created before seats contributed (then: the secret is the
    # seed, and the setup was dealt at creation); see service.usecases.genesis.
    seed_mix = fields.String(validate=validate.OneOf([genesis.SECRET_ONLY, genesis.WITH_CONTRIBUTIONS]))
    # The rules the game was created under (``Game.rules``: "fallout/1").
    # Absent in games created before rules versions (docs/versioning.md).
    rules = fields.String(validate=validate.Regexp(r"^[a-z][a-z0-9_]*/[0-9]+$"))


def _game_created_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    players = data.pop("players")
    data["seats"] = [{"seat": i, "kind": "human", "name": None, "bot": None} for i in range(players)]
    return data


class _Strict(Schema):
    class Meta:
        unknown = RAISE


class _SeatOrSystem(fields.Field):
    """A seat number, or ``"system"`` for the commands nobody at the table sends."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if value == "system" or (type(value) is int and value >= 0):
            return value
        raise ValidationError("a seat number or 'system'")


# The lobby: who sits where. The seat's token lives in the game's secrets,
# never in the log, which every seat reads (a join's claim is a hash).
class SeatJoinedV1(_Strict):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    # sha256 of the game id and the joiner's Idempotency-Key: public, and
    # proof of nothing without the key (docs/api.md, "Lobby").
    claim = fields.String(validate=validate.Length(equal=64))


# A seat's part of the seed, public from the moment it is given: it counts
# only if given before the start (docs/audit.md, "The seed").
class ContributionGivenV1(_Strict):
    seat = fields.Integer(required=True)
    contribution = fields.String(required=True, validate=validate.Regexp(genesis.CONTRIBUTION))


class SeatLeftV1(_Strict):
    seat = fields.Integer(required=True)
    removed = fields.Boolean(required=True)  # True: the creator removed the player


class SeatHandedToBotV1(_Strict):
    seat = fields.Integer(required=True)
    bot = fields.String(required=True)


class GameStartedV1(_Strict):
    pass


# Provable fairness: each batch a command caused opens with the command and its
# seat, so an auditor can re-run the decision (docs/audit.md); the seed is
# revealed in the batch that ends the game.
class CommandAcceptedV1(_Strict):
    seat = _SeatOrSystem(required=True)
    command = fields.Dict(required=True)


class SeedRevealedV1(_Strict):
    seed = fields.String(required=True)


# Rewind and fork by agreement of every human seat.
class ProposalMadeV1(_Strict):
    kind = fields.String(required=True)  # "rewind" or "fork"
    to_version = fields.Integer(required=True)
    by = fields.Integer(required=True)


class ProposalAnsweredV1(_Strict):
    proposal = fields.Integer(required=True)  # the version of its ProposalMade
    by = fields.Integer(required=True)


class GameRewoundV1(_Strict):
    to_version = fields.Integer(required=True)
    proposal = fields.Integer(load_default=None, allow_none=True)


class MoveUndoneV1(_Strict):
    """A seat took back its own last move, needing nobody's agreement (service.usecases.undo): it folds as a
    GameRewound does, the rules state becoming the state after ``to_version``."""

    seat = fields.Integer(required=True)
    to_version = fields.Integer(required=True)


class GameForkedV1(_Strict):
    fork_game_id = fields.String(required=True)
    at_version = fields.Integer(required=True)
    proposal = fields.Integer(load_default=None, allow_none=True)


class ForkedFromV1(_Strict):
    """The first rules state of a fork: the origin's state at ``version``."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    hash = fields.String(required=True)  # the origin's event at ``version``, to check against its log
    state_format = fields.String(required=True)
    state = fields.Dict(required=True)


class TurnTimedOutV1(_Strict):
    """A seat's play-by-post deadline lapsed during its wait since ``since``."""

    seat = fields.Integer(required=True)
    since = fields.Integer(required=True)
    action = fields.String(required=True)  # "pass" or "bot"
    bot = fields.String(load_default=None, allow_none=True)


# A game in progress met rules newer than its own (docs/versioning.md): its
# recorded commands were decided again under ``to`` up to this event; None in
# ``diverged_at`` means every batch came out the same, otherwise it names the
# first batch that did not, and the game goes on from its recorded state.
# "from" is a Python keyword, so the schema is built from a dict of its fields.
RulesUpgradedV1 = _Strict.from_dict(
    {
        "from": fields.String(required=True, allow_none=True),  # None: a game from before rules versions
        "to": fields.String(required=True),
        "replayed": fields.Integer(required=True),  # batches decided again, up to the divergence
        "diverged_at": fields.Integer(required=True, allow_none=True),
        "reason": fields.String(load_default=None, allow_none=True),
    },
    name="RulesUpgradedV1",
)

# "from" is a Python keyword, so the schema is built from a dict of its fields.
VacationTakenV1 = _Strict.from_dict(
    {
        "seat": fields.Integer(required=True),
        "days": fields.Integer(required=True),
        "from": fields.String(required=True),
        "until": fields.String(required=True),
    },
    name="VacationTakenV1",
)


def declare_events(registry: SchemaRegistry) -> SchemaRegistry:
    """Register the service's own event types in ``registry``."""
    registry.register("GameCreated", 2, GameCreatedV2())
    registry.upcaster("GameCreated", 1)(_game_created_v1_to_v2)
    schemas: dict[str, type[Schema]] = {
        "SeatJoined": SeatJoinedV1,
        "ContributionGiven": ContributionGivenV1,
        "SeatLeft": SeatLeftV1,
        "SeatHandedToBot": SeatHandedToBotV1,
        "GameStarted": GameStartedV1,
        "CommandAccepted": CommandAcceptedV1,
        "SeedRevealed": SeedRevealedV1,
        "ProposalMade": ProposalMadeV1,
        "ProposalAccepted": ProposalAnsweredV1,
        "ProposalDeclined": ProposalAnsweredV1,
        "GameRewound": GameRewoundV1,
        "MoveUndone": MoveUndoneV1,
        "GameForked": GameForkedV1,
        "ForkedFrom": ForkedFromV1,
        "TurnTimedOut": TurnTimedOutV1,
        "VacationTaken": VacationTakenV1,
        "RulesUpgraded": RulesUpgradedV1,
    }
    for name, schema in schemas.items():
        registry.register(name, 1, schema())
    missing = META_EVENTS - set(registry.names())
    if missing:  # a new service event must be declared with its fold
        raise RuntimeError(f"service events without a schema: {sorted(missing)}")
    return registry
