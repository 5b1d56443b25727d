"""The application layer: load a game, ask its rules to decide, append, follow up.

This is the one way in (DESIGN.md, "The flow"): the HTTP API, the workers and
the command line all call ``Games``; nothing else writes game state. It knows
no Flask and no rq: follow-up work goes through the ``FollowUps`` it is given.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import redis

from domain import registry
from domain.game import SYSTEM, Event, RuleViolation
from domain.rng import Rng
from events.envelope import NewEvent
from events.snapshots import Loaded, SnapshotStore, fold
from events.store import AppendResult, ConcurrencyError, EventStore
from service import clock
from service.bots import LEVELS, make_bot
from service.bots.contract import timeout_command
from service.clock import Clock
from service.record import BOT, HUMAN, META_EVENTS, OPEN, GameNotFound, Record, RecordFolder, StaleSnapshot, apply
from service.tokens import CREATOR, SEAT, Holder, Tokens, secrets_key

__all__ = ["Acted", "Created", "GameNotFound", "Games", "Record", "RecordFolder", "apply", "secrets_key"]

#: Save a snapshot once a load had to fold this many events past the last one.
SNAPSHOT_EVERY = 200
#: How many games' latest records a process keeps in memory.
RECENT_GAMES = 1024
#: How often a system command (or a lobby change) retries after losing a race.
SYSTEM_RETRIES = 5
#: A bots job hands on to a new job (the same work, a later version) after this
#: long, so one game of bots never holds a worker for long.
BOT_SLICE_SECONDS = 2.0

#: Decides the events to append on top of a record at a version.
Decision = Callable[[Record, int], Sequence[NewEvent]]


class FollowUps(Protocol):
    def system_due(self, game_id: str, version: int) -> None:
        """Automatic work (the round end) is due at ``version``."""

    def bots_due(self, game_id: str, version: int) -> None:
        """The game waits on a seat a bot plays (``service.bots``) at ``version``."""

    def clock_running(self, game_id: str, clock: Clock) -> None:
        """A seat's play-by-post clock runs: its deadline (and reminder) must fire."""

    def notifying(self, game_id: str) -> bool:
        """Whether any seat of the game wants to be told things (webhooks)."""

    def notify(self, game_id: str, kind: str, message_id: str, seats: list[int], data: dict[str, Any]) -> None:
        """Tell ``seats`` (their webhooks) about ``kind``; ``message_id`` names it, once."""


class NoFollowUps:
    """For in-process play (self-play, tests of the rules): nothing to enqueue."""

    def system_due(self, game_id: str, version: int) -> None:
        return None

    def bots_due(self, game_id: str, version: int) -> None:
        return None

    def clock_running(self, game_id: str, clock: Clock) -> None:
        return None

    def notifying(self, game_id: str) -> bool:
        return False

    def notify(self, game_id: str, kind: str, message_id: str, seats: list[int], data: dict[str, Any]) -> None:
        return None


@dataclass(frozen=True)
class Created:
    game_id: str
    version: int
    seat_tokens: dict[int, str]
    creator_token: str


@dataclass(frozen=True)
class Acted:
    game_id: str
    version: int  # the last version the command appended
    events: tuple[Event, ...]  # what the rules decided
    duplicate: bool = False
    first_version: int = 0  # the batch's first (its CommandAccepted)


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
        client: redis.Redis,
        store: EventStore | None = None,
        follow_ups: FollowUps | None = None,
        snapshots: SnapshotStore | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        recent_games: int = RECENT_GAMES,
    ):
        self.redis = client
        self.recent = _Recent(recent_games)
        self.snapshot_every = snapshot_every
        self.store = store or EventStore(client)
        self.snapshots = snapshots if snapshots is not None else SnapshotStore(client)
        self.follow_ups = follow_ups or NoFollowUps()
        self.tokens = Tokens(client)
        # A rewind folds to the state at an earlier version: load it the same way.
        self.folder = RecordFolder(lambda game_id, version: self.load(game_id, at=version).state)

    # -- creating ------------------------------------------------------------

    def create(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        *,
        start: bool | None = None,
    ) -> Created:
        """Set up a new game: its secret seed, tokens and first events.

        ``seats`` name each seat's ``kind`` (human, bot or open); every human
        seat gets a token now. The game starts at once when ``start`` is true,
        or by default when no seat is open; otherwise it waits in the lobby.
        """
        module = registry.game_module(game)
        for s in seats:
            if s["kind"] == BOT and s.get("bot") not in LEVELS:
                raise RuleViolation(
                    "unknown_bot", f"no bot level {s.get('bot')!r}; choose from {', '.join(LEVELS)}", status=422
                )
        open_seats = [s["seat"] for s in seats if s["kind"] == OPEN]
        if start and open_seats:
            raise RuleViolation("seats_open", f"seats {open_seats} are still open", status=422)
        game_id = uuid.uuid4().hex
        # The seed stays secret until the game ends; the log carries only its
        # sha256 so anyone can later check every outcome was derived from it.
        seed = str(options["seed"]) if options.get("seed") is not None else secrets.token_hex(32)
        commitment = hashlib.sha256(seed.encode()).hexdigest()
        # Setup sees exactly what the log records (not the seed option), so an
        # auditor can run it again from GameCreated alone.
        public = {k: v for k, v in options.items() if k != "seed"}
        setup_events = module.setup({**public, "players": len(seats)}, Rng.for_position(seed, 0))
        seat_tokens = {
            s["seat"]: self.tokens.issue(game_id, Holder(SEAT, s["seat"])) for s in seats if s["kind"] == HUMAN
        }
        creator_token = self.tokens.issue(game_id, Holder(CREATOR))
        created = NewEvent(
            "GameCreated",
            {
                "game": game,
                "options": public,
                "seats": seats,
                "seed_commitment": commitment,
            },
        )
        batch = [created, *(NewEvent(e.type, e.data) for e in setup_events)]
        if start is None and not open_seats or start:
            batch.append(NewEvent("GameStarted", {}))
        result = self.open(game_id, seed, batch)
        return Created(game_id, result.last_version, seat_tokens, creator_token)

    def open(self, game_id: str, seed: str, batch: Sequence[NewEvent]) -> AppendResult:
        """Write a new game's secret seed and its first events (a creation or a fork)."""
        self.redis.hset(secrets_key(game_id), "seed", seed)
        result = self.store.append(game_id, 0, batch, actor=SYSTEM)
        self._follow_up(game_id, result.last_version, None)
        return result

    def seat_for_token(self, game_id: str, token: str) -> int | None:
        """The seat a bearer token holds, compared in constant time."""
        holder = self.tokens.holder(game_id, token)
        return holder.seat if holder is not None and holder.kind == SEAT else None

    def seed(self, game_id: str) -> str:
        value = self.redis.hget(secrets_key(game_id), "seed")
        if value is None:
            raise GameNotFound(game_id)
        return value.decode()

    # -- reading -------------------------------------------------------------

    def load(self, game_id: str, at: int | None = None) -> Loaded[Record]:
        """The game after version ``at`` (default: the latest)."""
        cached = self.recent.get(game_id) if at is None else None
        if cached is not None:
            record, version = cached.state, cached.version
            for envelope in self.store.read(game_id, version + 1):
                record, version = self.folder.apply(record, envelope), envelope.version
            loaded = Loaded(record, version, cached.from_snapshot)
        else:
            try:
                loaded = fold(self.store, self.snapshots, self.folder, game_id, at)
            except StaleSnapshot:
                loaded = fold(self.store, None, self.folder, game_id, at)
            if loaded.version == 0:
                raise GameNotFound(game_id)
        if at is None:
            if loaded.version - loaded.from_snapshot >= self.snapshot_every:
                self.snapshots.save(game_id, loaded.version, self.folder.format, self.folder.dump(loaded.state))
                loaded = Loaded(loaded.state, loaded.version, loaded.version)
            self.recent.put(game_id, loaded)
        return loaded

    # -- acting ----------------------------------------------------------------

    def transact(self, game_id: str, decide: Decision, *, actor: str = SYSTEM) -> tuple[AppendResult, Record]:
        """Append what ``decide`` makes of the latest record, retrying lost races.

        For the service's own changes (the lobby, proposals), which hold no
        randomness and may simply be decided again on the newer version.
        Returns the append and the record it was decided on.
        """
        for attempt in range(SYSTEM_RETRIES + 1):
            loaded = self.load(game_id)
            events = decide(loaded.state, loaded.version)
            try:
                return self.store.append(game_id, loaded.version, events, actor=actor), loaded.state
            except ConcurrencyError:
                if attempt == SYSTEM_RETRIES:
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
    ) -> Acted:
        """Decide ``command`` for ``seat`` and append what it decided.

        The batch opens with a ``CommandAccepted`` naming the seat and the
        command, so anyone holding the seed can re-run the decision (the
        audit), and closes with ``SeedRevealed`` when it ends the game.
        Raises RuleViolation (nothing appended) or ConcurrencyError when the
        game is not at ``expected_version`` or moved on while deciding.
        """
        # Keys are scoped to the seat: two seats may well pick the same key.
        scoped_key = f"{seat}:{idempotency_key}" if idempotency_key else None
        if scoped_key:
            prior = self.store.recall(game_id, scoped_key)
            if prior is not None:
                events = self.store.read(game_id, prior.first_version, prior.last_version)
                return Acted(
                    game_id,
                    prior.last_version,
                    tuple(Event(e.type, e.data) for e in events if e.type not in META_EVENTS),
                    duplicate=True,
                    first_version=prior.first_version,
                )
        loaded = self.load(game_id)
        if expected_version is not None and expected_version != loaded.version:
            raise ConcurrencyError(game_id, expected_version, loaded.version)
        record = loaded.state
        _check_may_act(record, seat)
        seed = self.seed(game_id)
        rng = Rng.for_position(seed, loaded.version)
        decided = record.module.decide(record.state, seat, command, rng)
        if not decided:
            raise RuleViolation("nothing_to_do", "the command changed nothing", status=409)
        after = record
        for event in decided:
            after = apply(after, event.type, event.data)
        batch = [
            NewEvent("CommandAccepted", {"seat": seat, "command": command}),
            *(NewEvent(e.type, e.data) for e in decided),
        ]
        if after.over:
            batch.append(NewEvent("SeedRevealed", {"seed": seed}))
        result = self.store.append(
            game_id,
            loaded.version,
            batch,
            actor=actor or (f"seat:{seat}" if seat != SYSTEM else SYSTEM),
            correlation_id=correlation_id,
            idempotency_key=scoped_key,
        )
        if follow_up:
            self._follow_up(game_id, result.last_version, after)
        return Acted(
            game_id,
            result.last_version,
            tuple(decided),
            duplicate=result.duplicate,
            first_version=result.first_version,
        )

    def run_system(self, game_id: str, *, pause: float = 0.0) -> list[Acted]:
        """Carry out automatic work (the round end) until a seat must decide.

        Safe to run twice or concurrently: each step appends with the version
        it was decided on, and a step that is no longer due decides nothing.
        """
        done: list[Acted] = []
        retries = 0
        while True:
            loaded = self.load(game_id)
            record = loaded.state
            if not record.started:
                return done
            command = record.module.system_command(record.state)
            if command is None:
                if done:
                    # The round end is over or waits on a seat: whatever is due next.
                    self._follow_up(game_id, loaded.version, record)
                return done
            try:
                # No follow-up: this loop is the follow-up, and carries on itself.
                done.append(
                    self.act(
                        game_id, SYSTEM, command, expected_version=loaded.version, follow_up=False
                    )
                )
                if pause:
                    time.sleep(pause)
            except ConcurrencyError:
                retries += 1
                if retries > SYSTEM_RETRIES:
                    raise
            except RuleViolation:
                return done

    def run_bots(
        self, game_id: str, version: int | None = None, *, slice_seconds: float = BOT_SLICE_SECONDS, pause: float = 0.0
    ) -> list[Acted]:
        """Let bots play while the game waits on seats they hold.

        Each bot gets its seat's view and legal actions only, and its command
        goes through ``act`` with the version it was decided on, like a
        player's. ``version``: the version the job was enqueued for; if the
        game has moved on since, the job is stale and does nothing (the move
        that moved it enqueued what is due now). A lost race also ends the
        run: whoever won it follows up. After ``slice_seconds`` the run hands
        on to a new job at the version reached.
        """
        loaded = self.load(game_id)
        if version is not None and loaded.version != version:
            return []
        done: list[Acted] = []
        started = time.monotonic()
        while True:
            record = loaded.state
            if not record.started or record.over or record.module.system_command(record.state) is not None:
                break
            playing = self.autoplayed(record)
            if playing is None or (done and time.monotonic() - started >= slice_seconds):
                break
            seat, level = playing
            module = record.module
            if level == clock.PASS:
                # A lapsed deadline under "pass": the turn's rest skipped, decisions at their defaults.
                command = timeout_command(module, record.state, seat)
                actor = "deadline"
            else:
                command = make_bot(level, record.options).choose(
                    module,
                    module.view(record.state, seat),
                    module.legal_actions(record.state, seat),
                    seat,
                    bot_rng(game_id, seat, loaded.version),
                )
                actor = f"bot:{level}"
            if command is None:
                break
            try:
                done.append(
                    self.act(
                        game_id, seat, command, expected_version=loaded.version, follow_up=False, actor=actor
                    )
                )
            except ConcurrencyError:
                return done  # a duplicate run (or a player) got there first and follows up itself
            if pause:
                time.sleep(pause)
            loaded = self.load(game_id)
        if done:
            self._follow_up(game_id, loaded.version, loaded.state)
        return done

    @staticmethod
    def autoplayed(record: Record) -> tuple[int, str] | None:
        """The first seat the game waits on that a bot plays now, and the bot's level.

        A player's seat whose deadline lapsed in its current wait is played
        too, to the end of that wait: by a bot, or (``pass``) by the game's
        ``timeout_command``.
        """
        for seat in record.module.waiting_for(record.state):
            if record.kind_of(seat) == BOT:
                return seat, bot_level(record.seats[seat].get("bot"))
            timeout = record.timeouts.get(seat)
            if timeout is not None:
                return seat, clock.PASS if timeout["action"] == clock.PASS else bot_level(timeout.get("bot"))
        return None

    # -- play-by-post -----------------------------------------------------------

    def deadline(self, game_id: str, seat: int, since: int, now: float | None = None) -> list[Acted]:
        """The deadline of ``seat``'s wait that began at ``since`` fires.

        Does nothing if the seat has acted meanwhile (its wait ended), if this
        wait already timed out (a second firing), or if a vacation moved the
        deadline later (a new job fires then). Otherwise appends
        ``TurnTimedOut`` (with the expected version, so two firings append it
        once) and plays the seat to the end of its wait.
        """
        for _ in range(SYSTEM_RETRIES + 1):
            loaded = self.load(game_id)
            record = loaded.state
            running = clock.clock_of(record, seat)
            if running is None or running.since != since:
                return []
            if (now if now is not None else time.time()) < running.due - clock.EARLY:
                return []
            timeout = {"seat": seat, "since": since, "action": record.options.get("on_timeout", clock.PASS)}
            if timeout["action"] == clock.BOT:
                timeout["bot"] = record.options.get("timeout_bot", "greedy")
            try:
                self.store.append(game_id, loaded.version, [NewEvent("TurnTimedOut", timeout)], actor=SYSTEM)
            except ConcurrencyError:
                continue
            return self.run_bots(game_id, loaded.version + 1)
        return []

    def remind(self, game_id: str, seat: int, since: int, now: float | None = None) -> bool:
        """The 80% reminder of ``seat``'s wait since ``since``: sent once, if the seat is still to act."""
        record = self.load(game_id).state
        running = clock.clock_of(record, seat)
        if running is None or running.since != since or running.remind is None:
            return False
        if (now if now is not None else time.time()) < running.remind - clock.EARLY:
            return False
        self.follow_ups.notify(
            game_id, "reminder", f"reminder-{game_id}-s{seat}-v{since}", [seat],
            {"seat": seat, "since": since, "deadline": clock.iso(running.due)},
        )
        return True

    def take_vacation(self, game_id: str, seat: int, days: int, now: float | None = None) -> tuple[int, dict]:
        """``seat`` pauses its clock for ``days`` days (from now, or from the end of its last vacation)."""
        taken: dict[str, Any] = {}

        def decide(record: Record, version: int) -> list[NewEvent]:
            if not clock.timed(record):
                raise RuleViolation("no_turn_timer", "this game has no time per turn", status=409)
            if record.over:
                raise RuleViolation("game_over", "the game is over", status=409)
            if record.kind_of(seat) != HUMAN:
                raise RuleViolation("not_a_player", "only a player's seat takes a vacation", status=403)
            left = clock.vacation_left(record, seat)
            if days > left:
                raise RuleViolation("no_vacation_left", f"{left} vacation days left", status=409)
            start, until = clock.vacation_period(record, seat, days, now if now is not None else time.time())
            taken.update(seat=seat, days=days, **{"from": start, "until": until})
            return [NewEvent("VacationTaken", dict(taken))]

        result, _ = self.transact(game_id, decide, actor=f"seat:{seat}")
        self._follow_up(game_id, result.last_version, None)  # the clock's new deadline
        return result.last_version, taken

    def follow_up(self, game_id: str, version: int) -> None:
        """Enqueue whatever automatic work is due now (after a start or a rewind)."""
        self._follow_up(game_id, version, None)

    def _follow_up(self, game_id: str, version: int, record: Record | None) -> None:
        if record is None:
            record = self.load(game_id).state
        if not record.started:
            return
        notifying = self.follow_ups.notifying(game_id)
        if notifying or clock.timed(record):
            # The seats' waits are followed only by a fold of the stored events.
            loaded = self.load(game_id)
            record, version = loaded.state, loaded.version
        if record.over:
            if notifying:
                self.follow_ups.notify(
                    game_id, "game_over", f"over-{game_id}", record.seats_of(HUMAN), {"version": version}
                )
            return
        if record.module.system_command(record.state) is not None:
            self.follow_ups.system_due(game_id, version)
        elif self.autoplayed(record) is not None:
            self.follow_ups.bots_due(game_id, version)
        running = {c.seat: c for c in clock.clocks(record)}
        for c in running.values():
            self.follow_ups.clock_running(game_id, c)
        if notifying:
            for seat, wait in record.waits.items():
                if record.kind_of(seat) != HUMAN or seat in record.timeouts:
                    continue
                data: dict[str, Any] = {"seat": seat, "since": wait["since"], "version": version}
                if seat in running:
                    data["deadline"] = clock.iso(running[seat].due)
                self.follow_ups.notify(game_id, "your_turn", f"turn-{game_id}-s{seat}-v{wait['since']}", [seat], data)


def bot_rng(game_id: str, seat: int, version: int) -> Rng:
    """A bot's randomness for the decision on top of ``version``: replaying the job picks the same move.

    Not the game's seed: a bot must not share its dice.
    """
    return Rng(f"bot:{game_id}", f"s{seat}-v{version}")


def bot_level(level: str | None) -> str:
    """A seat's bot level; ``standard`` (what the lobby said before levels existed) is ``greedy``."""
    return "greedy" if level in (None, "standard") else level


def _check_may_act(record: Record, seat: int | str) -> None:
    if not record.started:
        raise RuleViolation("not_started", "the game has not started yet", status=409)
    if seat == SYSTEM:
        return
    kind = record.kind_of(seat) if isinstance(seat, int) else None
    if kind is None:
        raise RuleViolation("no_such_seat", f"the game has no seat {seat!r}", status=422)
    if kind == OPEN:
        raise RuleViolation("seat_open", f"seat {seat} is open: nobody plays it", status=409)
