"""The application layer: load a game, ask its rules to decide, append, follow up.

This is the one way in (DESIGN.md, "The flow"): the HTTP API, the workers and
the command line all call ``Games``; nothing else writes game state. It knows
no Flask and no rq: follow-up work goes through the ``FollowUps`` it is given.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import redis

from domain import registry
from domain.game import SYSTEM, Event, GameModule, RuleViolation
from domain.rng import Rng
from events.envelope import Envelope, NewEvent
from events.snapshots import Loaded, SnapshotStore, fold
from events.store import AppendResult, ConcurrencyError, EventStore

#: Save a snapshot once a load had to fold this many events past the last one.
SNAPSHOT_EVERY = 200
#: How often a system command retries after losing a race with a player.
SYSTEM_RETRIES = 5


class FollowUps(Protocol):
    def system_due(self, game_id: str, version: int) -> None:
        """Automatic work (the round end) is due at ``version``."""


class NoFollowUps:
    """For in-process play (self-play, tests of the rules): nothing to enqueue."""

    def system_due(self, game_id: str, version: int) -> None:
        return None


class GameNotFound(Exception):
    def __init__(self, game_id: str):
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class StaleSnapshot(Exception):
    pass


@dataclass(frozen=True)
class Record:
    """A game as the service folds it: its creation facts and its rules state."""

    game: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seats: tuple[dict[str, Any], ...] = ()
    seed_commitment: str | None = None
    state: Any = None

    @property
    def module(self) -> GameModule:
        if self.game is None:
            raise GameNotFound("(not created)")
        return registry.game_module(self.game)


class RecordFolder:
    format = "record/1"

    def initial(self) -> Record:
        return Record()

    def apply(self, record: Record, envelope: Envelope) -> Record:
        return apply(record, envelope.type, envelope.data)

    def dump(self, record: Record) -> dict[str, Any]:
        module = record.module
        return {
            "game": record.game,
            "options": record.options,
            "seats": list(record.seats),
            "seed_commitment": record.seed_commitment,
            "state_format": getattr(module, "state_format", "1"),
            "state": module.dump_state(record.state),
        }

    def load(self, data: dict[str, Any]) -> Record:
        module = registry.game_module(data["game"])
        if data["state_format"] != getattr(module, "state_format", "1"):
            raise StaleSnapshot(data["state_format"])
        return Record(
            game=data["game"],
            options=data["options"],
            seats=tuple(data["seats"]),
            seed_commitment=data["seed_commitment"],
            state=module.load_state(data["state"]),
        )


def apply(record: Record, event_type: str, data: dict[str, Any]) -> Record:
    if event_type == "GameCreated":
        module = registry.game_module(data["game"])
        return Record(
            game=data["game"],
            options=data["options"],
            seats=tuple(data["seats"]),
            seed_commitment=data["seed_commitment"],
            state=module.initial_state(),
        )
    return replace(record, state=record.module.evolve(record.state, Event(event_type, data)))


@dataclass(frozen=True)
class Created:
    game_id: str
    version: int
    seat_tokens: dict[int, str]
    creator_token: str


@dataclass(frozen=True)
class Acted:
    game_id: str
    version: int
    events: tuple[Event, ...]
    duplicate: bool = False


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def secrets_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:secrets"


class Games:
    def __init__(
        self,
        client: redis.Redis,
        store: EventStore | None = None,
        follow_ups: FollowUps | None = None,
        snapshots: SnapshotStore | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
    ):
        self.redis = client
        self.snapshot_every = snapshot_every
        self.store = store or EventStore(client)
        self.snapshots = snapshots if snapshots is not None else SnapshotStore(client)
        self.follow_ups = follow_ups or NoFollowUps()
        self.folder = RecordFolder()

    # -- creating ------------------------------------------------------------

    def create(self, game: str, options: dict[str, Any], seats: list[dict[str, Any]]) -> Created:
        """Set up a new game: its secret seed, seat tokens and first events."""
        module = registry.game_module(game)
        game_id = uuid.uuid4().hex
        # The seed stays secret until the game ends; the log carries only its
        # sha256 so anyone can later check every outcome was derived from it.
        seed = str(options.get("seed")) if options.get("seed") is not None else secrets.token_hex(32)
        commitment = hashlib.sha256(seed.encode()).hexdigest()
        setup_events = module.setup({**options, "players": len(seats)}, Rng.for_position(seed, 0))
        seat_tokens = {seat["seat"]: secrets.token_urlsafe(24) for seat in seats}
        creator_token = secrets.token_urlsafe(24)
        self.redis.hset(
            secrets_key(game_id),
            mapping={
                "seed": seed,
                "creator": _token_hash(creator_token),
                **{f"seat:{s}": _token_hash(t) for s, t in seat_tokens.items()},
            },
        )
        created = NewEvent(
            "GameCreated",
            {
                "game": game,
                "options": {k: v for k, v in options.items() if k != "seed"},
                "seats": seats,
                "seed_commitment": commitment,
            },
        )
        result = self.store.append(
            game_id,
            0,
            [created, *(NewEvent(e.type, e.data) for e in setup_events)],
            actor=SYSTEM,
        )
        self._follow_up(game_id, result.last_version, None)
        return Created(game_id, result.last_version, seat_tokens, creator_token)

    def seat_for_token(self, game_id: str, token: str) -> int | None:
        """The seat a bearer token holds, compared in constant time."""
        stored = self.redis.hgetall(secrets_key(game_id))
        offered = _token_hash(token)
        seat = None
        for name, value in stored.items():
            name = name.decode()
            if name.startswith("seat:") and hmac.compare_digest(value.decode(), offered):
                seat = int(name.split(":", 1)[1])
        return seat

    def seed(self, game_id: str) -> str:
        value = self.redis.hget(secrets_key(game_id), "seed")
        if value is None:
            raise GameNotFound(game_id)
        return value.decode()

    # -- reading -------------------------------------------------------------

    def load(self, game_id: str, at: int | None = None) -> Loaded[Record]:
        try:
            loaded = fold(self.store, self.snapshots, self.folder, game_id, at)
        except StaleSnapshot:
            loaded = fold(self.store, None, self.folder, game_id, at)
        if loaded.version == 0:
            raise GameNotFound(game_id)
        if at is None and loaded.version - loaded.from_snapshot >= self.snapshot_every:
            self.snapshots.save(game_id, loaded.version, self.folder.format, self.folder.dump(loaded.state))
        return loaded

    # -- acting ----------------------------------------------------------------

    def act(
        self,
        game_id: str,
        seat: int | str,
        command: dict[str, Any],
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        correlation_id: str | None = None,
        follow_up: bool = True,
    ) -> Acted:
        """Decide ``command`` for ``seat`` and append what it decided.

        Raises RuleViolation (nothing appended) or ConcurrencyError when the
        game is not at ``expected_version`` or moved on while deciding.
        """
        if idempotency_key:
            prior = self.store.recall(game_id, idempotency_key)
            if prior is not None:
                events = self.store.read(game_id, prior.first_version, prior.last_version)
                return Acted(
                    game_id,
                    prior.last_version,
                    tuple(Event(e.type, e.data) for e in events),
                    duplicate=True,
                )
        loaded = self.load(game_id)
        if expected_version is not None and expected_version != loaded.version:
            raise ConcurrencyError(game_id, expected_version, loaded.version)
        record = loaded.state
        rng = Rng.for_position(self.seed(game_id), loaded.version)
        decided = record.module.decide(record.state, seat, command, rng)
        if not decided:
            raise RuleViolation("nothing_to_do", "the command changed nothing", status=409)
        result = self.store.append(
            game_id,
            loaded.version,
            [NewEvent(e.type, e.data) for e in decided],
            actor=f"seat:{seat}" if seat != SYSTEM else SYSTEM,
            correlation_id=correlation_id,
            idempotency_key=idempotency_key,
        )
        if follow_up:
            after = record
            for event in decided:
                after = apply(after, event.type, event.data)
            self._follow_up(game_id, result.last_version, after)
        return Acted(game_id, result.last_version, tuple(decided), duplicate=result.duplicate)

    def run_system(self, game_id: str) -> list[Acted]:
        """Carry out automatic work (the round end) until a seat must decide.

        Safe to run twice or concurrently: each step appends with the version
        it was decided on, and a step that is no longer due decides nothing.
        """
        done: list[Acted] = []
        retries = 0
        while True:
            loaded = self.load(game_id)
            record = loaded.state
            command = record.module.system_command(record.state)
            if command is None:
                return done
            try:
                # No follow-up: this loop is the follow-up, and carries on itself.
                done.append(
                    self.act(
                        game_id, SYSTEM, command, expected_version=loaded.version, follow_up=False
                    )
                )
            except ConcurrencyError:
                retries += 1
                if retries > SYSTEM_RETRIES:
                    raise
            except RuleViolation:
                return done

    def _follow_up(self, game_id: str, version: int, record: Record | None) -> None:
        if record is None:
            record = self.load(game_id).state
        if record.module.system_command(record.state) is not None:
            self.follow_ups.system_due(game_id, version)
