"""Creating a game and acting in it: the one write path.

This is the one way in (DESIGN.md, "The flow"): the HTTP API, the workers and
the command line all call ``Games``; nothing else writes game state. An
action goes one way: load the record (from this process's cache, folding
only what other processes appended since), ask the game to decide and fold
(``Game.decide_and_fold``), append on the version and chain tip it was
decided on, and keep the record the decision ended with. Nothing it wrote is
read back and nothing is folded twice.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bots import LEVELS
from domain import registry
from domain.engine.records import replace
from domain.game import SYSTEM, Event, Refusal
from domain.rng import Rng
from events.envelope import Envelope, NewEvent, now_utc
from events.log import Allowances, AppendResult, ConcurrencyError, EventLog, SnapshotWrite
from events.snapshots import Loaded, Snapshots, fold, fold_onto
from service.usecases import due, genesis
from service.usecases.errors import GameNotFound, Refused
from service.usecases.ports import CREATOR, SEAT, FollowUps, Holder, NoFollowUps, Seeds, Tokens
from service.usecases.record import (
    BOT,
    CREATOR_SEED,
    HUMAN,
    META_EVENTS,
    OPEN,
    SERVER_SEED,
    Record,
    RecordFolder,
    StaleSnapshot,
    apply,
    game_event,
    settle,
)
from service.usecases.replay import replay

#: Save a snapshot once a load had to fold this many events past the last one.
SNAPSHOT_EVERY = 200
#: How many games' latest records a process keeps in memory.
RECENT_GAMES = 1024
#: How often a service change (the lobby, a proposal) retries after losing a race.
RETRIES = 5

#: Decides the events to append on top of a record at a version.
Decision = Callable[[Record, int], Sequence[NewEvent]]


@dataclass(frozen=True)
class Created:
    game_id: str
    version: int
    seat_tokens: dict[int, str]
    creator_token: str
    status: str


@dataclass(frozen=True)
class Acted:
    game_id: str
    version: int  # the last version the command appended
    events: tuple[Event, ...]  # what the rules decided
    duplicate: bool = False
    first_version: int = 0  # the batch's first (its CommandAccepted)
    #: The batch as stored: what the command appended (or, for a duplicate, had appended).
    envelopes: tuple[Envelope, ...] = ()
    #: The game right after the batch (for a duplicate: as it is now).
    after: Loaded[Record] | None = None
    #: The game the batch was decided on (None for a duplicate), which its words start from.
    before: Loaded[Record] | None = None


class _Recent:
    """The latest record of each game this process loaded lately.

    A cache in front of the snapshots: a load starts from it and folds only
    the events appended since (one XRANGE, usually empty), so a game being
    played is not folded again from its last snapshot on every request.
    Events never change, so a record at version v stays right for version v
    whatever other processes append after it.
    """

    def __init__(self, size: int):
        self.size = size
        self._records: OrderedDict[str, Loaded[Record]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Loaded[Record] | None:
        with self._lock:
            found = self._records.get(game_id)
            if found is not None:
                self._records.move_to_end(game_id)
            return found

    def put(self, game_id: str, loaded: Loaded[Record]) -> None:
        if not self.size:
            return
        with self._lock:
            known = self._records.get(game_id)
            if known is None or known.version <= loaded.version:
                self._records[game_id] = loaded
                self._records.move_to_end(game_id)
            while len(self._records) > self.size:
                self._records.popitem(last=False)


class Games:
    def __init__(
        self,
        store: EventLog,
        snapshots: Snapshots | None,
        seeds: Seeds,
        tokens: Tokens,
        follow_ups: FollowUps | None = None,
        *,
        snapshot_every: int = SNAPSHOT_EVERY,
        recent_games: int = RECENT_GAMES,
    ):
        self.store = store
        self.snapshots = snapshots
        self.seeds = seeds
        self.tokens = tokens
        self.follow_ups: FollowUps = follow_ups or NoFollowUps()
        self.snapshot_every = snapshot_every
        self.recent = _Recent(recent_games)
        # A rewind folds to the state at an earlier version: load it the same way.
        self.folder = RecordFolder(lambda game_id, version: self.load(game_id, at=version).state)

    # -- creating ------------------------------------------------------------

    def create(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        *,
        settings: dict[str, Any] | None = None,
        seed: str | None = None,
        start: bool | None = None,
    ) -> Created:
        """Set up a new game: its secret seed, tokens and first events.

        ``options`` are the game's own (checked and completed by the game);
        ``settings`` the table's (turn clock, bots' budget). ``seats`` name
        each seat's ``kind`` (human, bot or open); every human seat gets a
        token now. The game starts at once when ``start`` is true, or by
        default when no seat is open; otherwise it waits in the lobby.
        """
        try:
            module = registry.game_module(game)
        except registry.UnknownGame:
            hosted = ", ".join(registry.names())
            raise Refused("unknown_game", f"no game {game!r}; this server hosts {hosted}", Refusal.MALFORMED) from None
        if len(seats) not in module.seats:
            raise Refused(
                "bad_seats",
                f"{module.name} is played by {module.seats.min} to {module.seats.max} seats, not {len(seats)}",
                Refusal.MALFORMED,
            )
        for s in seats:
            if s["kind"] == BOT and s.get("bot") not in LEVELS:
                raise Refused(
                    "unknown_bot", f"no bot level {s.get('bot')!r}; choose from {', '.join(LEVELS)}", Refusal.MALFORMED
                )
        open_seats = [s["seat"] for s in seats if s["kind"] == OPEN]
        if start and open_seats:
            raise Refused("seats_open", f"seats {open_seats} are still open", Refusal.MALFORMED)
        resolved = module.resolve_options(options)
        game_id = self.store.new_game_id()
        # The server's secret stays secret until the game ends; the log
        # carries only its commitment, published before any seat contributes,
        # so the server cannot fit its secret to the contributions.
        secret = seed if seed is not None else secrets.token_hex(32)
        created = {
            "game": game,
            # Which rules and (in the options, pinned by the game) which content it is played under, for good.
            "rules": module.rules,
            "options": {**resolved, **(settings or {})},
            "seats": seats,
            "seed_commitment": genesis.commitment(secret),
            "seed_source": SERVER_SEED if seed is None else CREATOR_SEED,
            # A chosen seed is the seed: tests and replays get the game they name.
            "seed_mix": genesis.WITH_CONTRIBUTIONS if seed is None else genesis.SECRET_ONLY,
        }
        batch = [NewEvent("GameCreated", created)]
        started = start or (start is None and not open_seats)
        if started:
            batch.extend(start_events(apply(Record(), "GameCreated", created), secret))
        seat_tokens = {s["seat"]: self.tokens.issue(game_id, Holder(SEAT, s["seat"])) for s in seats if s["kind"] == HUMAN}
        creator_token = self.tokens.issue(game_id, Holder(CREATOR))
        result = self.open(game_id, secret, batch)
        return Created(game_id, result.last_version, seat_tokens, creator_token, "running" if started else "lobby")

    def open(self, game_id: str, seed: str, batch: Sequence[NewEvent]) -> AppendResult:
        """Write a new game's secret seed and its first events (a creation or a fork)."""
        self.seeds.keep(game_id, seed)
        result = self.store.append(game_id, 0, batch, actor=SYSTEM)
        self.follow_up(game_id, result.last_version)
        return result

    def seat_for_token(self, game_id: str, token: str) -> int | None:
        """The seat a bearer token holds, compared in constant time."""
        holder = self.tokens.holder(game_id, token)
        return holder.seat if holder is not None and holder.kind == SEAT else None

    def seed(self, game_id: str) -> str:
        """The game's secret (for a chosen seed or an older game, the seed itself)."""
        value = self.seeds.seed(game_id)
        if value is None:
            raise GameNotFound(game_id)
        return value

    # -- reading -------------------------------------------------------------

    def load(self, game_id: str, at: int | None = None) -> Loaded[Record]:
        """The game after version ``at`` (default: the latest)."""
        cached = self.recent.get(game_id) if at is None else None
        if cached is not None:
            loaded = fold_onto(self.folder, cached, self.store.read(game_id, cached.version + 1))
        else:
            try:
                loaded = fold(self.store, self.snapshots, self.folder, game_id, at)
            except StaleSnapshot:
                loaded = fold(self.store, None, self.folder, game_id, at)
            if loaded.version == 0:
                raise GameNotFound(game_id)
        if at is None:
            loaded = self._keep(game_id, loaded)
        return loaded

    def _due(self, version: int, from_snapshot: int) -> bool:
        """Whether a game at ``version`` has come far enough past its last snapshot for a new one."""
        return self.snapshots is not None and version - from_snapshot >= self.snapshot_every

    def _snapshot_due(self, after: Record, version: int, from_snapshot: int) -> SnapshotWrite | None:
        """The snapshot an append to ``version`` keeps with it, when one is due."""
        if self.snapshots is None or not self._due(version, from_snapshot):
            return None
        return self.snapshots.with_append(self.folder.format, self.folder.dump(after))

    def _keep(self, game_id: str, loaded: Loaded[Record]) -> Loaded[Record]:
        """Remember ``loaded`` as the game's latest, snapshotting it when one is due."""
        if self.snapshots is not None and self._due(loaded.version, loaded.from_snapshot):
            tip = loaded.head_hash or self.store.head(game_id)[1]
            self.snapshots.save(game_id, loaded.version, self.folder.format, self.folder.dump(loaded.state), tip)
            loaded = Loaded(loaded.state, loaded.version, loaded.version, tip)
        self.recent.put(game_id, loaded)
        return loaded

    # -- acting ----------------------------------------------------------------

    def transact(self, game_id: str, decide: Decision, *, actor: str = SYSTEM) -> tuple[AppendResult, Record]:
        """Append what ``decide`` makes of the latest record, retrying lost races.

        For the service's own changes (the lobby, proposals), which hold no
        randomness and may simply be decided again on the newer version.
        Returns the append and the record it was decided on.
        """
        for attempt in range(RETRIES + 1):
            loaded = self.load(game_id)
            events = decide(loaded.state, loaded.version)
            try:
                result = self.store.append(game_id, loaded.version, events, actor=actor, prev_hash=loaded.head_hash)
                return result, loaded.state
            except ConcurrencyError:
                if attempt == RETRIES:
                    raise
        raise AssertionError("unreachable")

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
        actor: str | None = None,
        loaded: Loaded[Record] | None = None,
        allowances: Allowances | None = None,
    ) -> Acted:
        """Decide ``command`` for ``seat`` and append what it decided.

        The batch opens with a ``CommandAccepted`` naming the seat and the
        command, so anyone holding the seed can re-run the decision (the
        audit), and closes with ``SeedRevealed`` when it ends the game.
        Raises RuleViolation (nothing appended) or ConcurrencyError when the
        game is not at ``expected_version`` or moved on while deciding.
        ``loaded``: the game as the caller already has it (automatic work
        stepping on from its own last append), instead of loading it.
        ``allowances``: the caller's rate limits, judged by the append in its
        own round trip (``AllowanceSpent`` when one is spent: nothing appended).
        """
        # Keys are scoped to the seat: two seats may well pick the same key.
        scoped_key = f"{seat}:{idempotency_key}" if idempotency_key else None
        if scoped_key:
            prior = self.store.recall(game_id, scoped_key)
            if prior is not None:
                stored = self.store.read(game_id, prior.first_version, prior.last_version)
                return Acted(
                    game_id,
                    prior.last_version,
                    tuple(Event(e.type, e.data) for e in stored if e.type not in META_EVENTS),
                    duplicate=True,
                    first_version=prior.first_version,
                    envelopes=tuple(stored),
                    after=self.load(game_id),
                )
        if loaded is None and expected_version is not None:
            # The caller decided on the version this process last saw: decide
            # on that record without reading what may have come since. If the
            # game moved on, the client's version is stale too, and the append
            # (which checks the version atomically) refuses it all the same.
            cached = self.recent.get(game_id)
            if cached is not None and cached.version == expected_version:
                loaded = cached
        if loaded is None:
            loaded = self.load(game_id)
        if expected_version is not None and expected_version != loaded.version:
            raise ConcurrencyError(game_id, expected_version, loaded.version)
        record = loaded.state
        _check_may_act(record, seat)
        module = record.module
        if record.rules != module.rules and not record.over:
            loaded = self._upgrade(game_id, loaded)
            record = loaded.state
        command = module.check_command(command)
        secret = self.seed(game_id)
        seed = genesis.effective_seed(secret, record.seed_mix, record.contributions)
        decided, state = module.decide_and_fold(record.state, seat, command, Rng.for_position(seed, loaded.version))
        if not decided:
            raise Refused("nothing_to_do", "the command changed nothing")
        over = module.is_over(state)
        batch = [
            NewEvent("CommandAccepted", {"seat": seat, "command": command}),
            *(game_event(module.name, e) for e in decided),
        ]
        if over:
            batch.append(NewEvent("SeedRevealed", {"seed": secret}))
        # The record the batch leaves, as a fold of it would make it: the
        # game's state as decided, the secret if revealed, the waits settled
        # from the moment the events will carry. Made before the append, so
        # a snapshot it brings due goes in the append's round trip.
        stamped_at = now_utc()
        last_version = loaded.version + len(batch)
        # (replace without __init__, as the fold makes records: a plain frozen record copied field for field)
        after = settle(replace(record, state=state, seed=secret if over else record.seed), last_version, stamped_at)
        snapshot = self._snapshot_due(after, last_version, loaded.from_snapshot)
        # Whether the game notifies is read by the append itself when it can: one round trip, not three.
        marks = self.follow_ups.notice_marks(game_id) if follow_up else ()
        result = self.store.append(
            game_id,
            loaded.version,
            batch,
            actor=actor or (f"seat:{seat}" if seat != SYSTEM else SYSTEM),
            correlation_id=correlation_id,
            idempotency_key=scoped_key,
            prev_hash=loaded.head_hash,
            allowances=allowances,
            probe=marks,
            stamped_at=stamped_at,
            snapshot=snapshot,
        )
        if result.duplicate:  # the same key won a race with us: answer as its retry would
            stored = self.store.read(game_id, result.first_version, result.last_version)
            return Acted(
                game_id, result.last_version, tuple(decided), True, result.first_version, tuple(stored),
                self.load(game_id),
            )  # fmt: skip
        kept_from = result.last_version if snapshot is not None else loaded.from_snapshot
        now = self._keep(game_id, Loaded(after, result.last_version, kept_from, result.last_hash))
        if follow_up:
            notifying = any(result.probed) if marks else None
            due.follow_up(self.follow_ups, game_id, result.last_version, after, notifying)
        return Acted(
            game_id,
            result.last_version,
            tuple(decided),
            duplicate=False,
            first_version=result.first_version,
            envelopes=result.envelopes,
            after=now,
            before=loaded,
        )

    def _upgrade(self, game_id: str, loaded: Loaded[Record]) -> Loaded[Record]:
        """Carry a game recorded under other rules over to this release's (docs/versioning.md).

        Its recorded commands are decided again under the new rules from its
        own seed (``replay``). ``RulesUpgraded`` says how that went: every batch
        the same (``diverged_at`` None), or the first that was not. Either
        way the game keeps its recorded history and goes on from the state
        its log folds to, under the new rules, on the version after this one.
        """
        record = loaded.state
        envelopes = self.store.read(game_id, 1, loaded.version)
        replayed = replay(envelopes, self.seed(game_id))
        diverged = replayed.first_divergence()
        reason = diverged.reason if diverged else None
        if replayed.fold_error is not None and diverged is None:
            reason = f"this release cannot fold version {replayed.fold_error[0]}: {replayed.fold_error[1]}"
        data = {
            "from": record.rules,
            "to": record.module.rules,
            "replayed": len(replayed.batches),
            "diverged_at": diverged.version if diverged else replayed.fold_error[0] if replayed.fold_error else None,
            "reason": reason,
        }
        try:
            result = self.store.append(
                game_id, loaded.version, [NewEvent("RulesUpgraded", data)], actor=SYSTEM, prev_hash=loaded.head_hash
            )
        except ConcurrencyError:
            return self.load(game_id)  # another process got there first (or the game moved on): take it as it is
        upgraded = apply(record, "RulesUpgraded", data, result.last_version)
        return self._keep(game_id, Loaded(upgraded, result.last_version, loaded.from_snapshot, result.last_hash))

    def follow_up(self, game_id: str, version: int | None = None) -> None:
        """Enqueue whatever automatic work is due now (after a start, a rewind, a lobby change)."""
        loaded = self.load(game_id)
        due.follow_up(self.follow_ups, game_id, loaded.version, loaded.state)


def start_events(record: Record, secret: str) -> list[NewEvent]:
    """The batch that starts the game: ``GameStarted``, then the setup.

    The setup is dealt only now, from the seed the secret and the seats'
    contributions make at this moment, so no contribution comes after the
    first card is dealt (docs/audit.md). A game created before seats
    contributed was dealt at its creation.
    """
    started = [NewEvent("GameStarted", {})]
    if record.rules != record.module.rules:
        # Created in the lobby under other rules: nothing was decided yet, so nothing differs.
        upgrade = {"from": record.rules, "to": record.module.rules, "replayed": 0, "diverged_at": None}
        started.insert(0, NewEvent("RulesUpgraded", upgrade))
    if record.seed_mix is None:
        return started
    created = {"game": record.game, "options": record.options, "seats": record.seats}
    seed = genesis.effective_seed(secret, record.seed_mix, record.contributions)
    return [*started, *(game_event(record.module.name, e) for e in genesis.setup_events(created, seed))]


def _check_may_act(record: Record, seat: int | str) -> None:
    if not record.started:
        raise Refused("not_started", "the game has not started yet")
    if seat == SYSTEM:
        return
    kind = record.kind_of(seat) if isinstance(seat, int) else None
    if kind is None:
        raise Refused("no_such_seat", f"the game has no seat {seat!r}", Refusal.MALFORMED)
    if kind == OPEN:
        raise Refused("seat_open", f"seat {seat} is open: nobody plays it")


__all__ = ["Acted", "Created", "GameNotFound", "Games", "Record", "RecordFolder"]
