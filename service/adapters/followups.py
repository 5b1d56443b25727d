"""Follow-up work as rq jobs, named so that enqueueing twice is harmless.

Jobs are referred to by their import paths, so this module (and the HTTP
layer above it) never imports the workers.

Every game with work pending (the round end, a bot's move, a running
play-by-post clock) is also kept in ``holotape:attention``, a sorted set
scored with the time by which something should have happened. The sweeper
(``workers.jobs.sweep``) looks there for games that have stalled — a worker
killed in the middle of a job leaves it "started" and nobody runs it again —
and enqueues what is due again (``service.adapters.sweeper``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import redis
from rq import Queue
from rq.job import Job

from service.adapters.config import QUEUE_NAME
from service.adapters.players import RedisPlayers, bindings_key
from service.adapters.webhooks import Webhooks, webhooks_key
from service.usecases.clock import Clock

ATTENTION = "holotape:attention"
#: A finished job is deleted at once, result and all (rq's ``result_ttl=0``):
#: nobody reads a job's return value, and a game makes thousands of jobs
#: (each kept result cost about 5 KB for its TTL). What the job did is in the
#: game's log; a duplicate enqueued after it finished runs and finds nothing
#: due (every step appends with the version it was decided on), and webhook
#: deliveries keep their own "sent" mark.
RESULT_TTL = 0
#: A failed job is kept this long for an operator to look at (rq's failed
#: registry), then dropped: the one record rq keeps, and it is bounded.
FAILURE_TTL = 7 * 24 * 3600


def system_job_id(game_id: str, version: int) -> str:
    # One automatic step per game and version: a second enqueue of the same
    # step finds the job already there, and a second run finds nothing due.
    return f"system-{game_id}-v{version}"


def bots_job_id(game_id: str, version: int) -> str:
    # One bots run per game and version, like the system steps: a duplicate
    # finds the job there, and a stale run (the game moved on) does nothing.
    return f"bots-{game_id}-v{version}"


def deadline_job_id(game_id: str, clock: Clock) -> str:
    return f"deadline-{game_id}-{clock.job_suffix()}"


def reminder_job_id(game_id: str, clock: Clock) -> str:
    return f"reminder-{game_id}-{clock.job_suffix()}"


class RqFollowUps:
    def __init__(
        self,
        client: redis.Redis,
        queue_name: str = QUEUE_NAME,
        webhooks: Webhooks | None = None,
        players: RedisPlayers | None = None,
        *,
        marks_with_store: bool = False,
    ):
        self.queue = Queue(queue_name, connection=client)
        self.redis = client
        self.webhooks = webhooks or Webhooks(client)
        # Where seats are bound to players (the main server, like the webhooks): their notices too.
        self.players = players
        #: Whether the webhooks and bindings live on the event store's server, so an append can read them.
        self.marks_with_store = marks_with_store

    def _enqueue(self, function: str, job_id: str, *args: Any, force: bool = False, at: float | None = None) -> None:
        if not force and Job.exists(job_id, connection=self.redis):
            return
        options = {"job_id": job_id, "result_ttl": RESULT_TTL, "failure_ttl": FAILURE_TTL}
        if at is not None and at > time.time():
            self.queue.enqueue_at(datetime.fromtimestamp(at, tz=UTC), function, *args, **options)
        else:
            self.queue.enqueue(function, *args, **options)

    def attention(self, game_id: str, by: float | None = None) -> None:
        """Note that something should have happened in ``game_id`` by ``by`` (default: now)."""
        self.redis.zadd(ATTENTION, {game_id: by if by is not None else time.time()})

    def system_due(self, game_id: str, version: int, *, force: bool = False) -> None:
        self.attention(game_id)
        self._enqueue("workers.jobs.run_system", system_job_id(game_id, version), game_id, force=force)

    def bots_due(self, game_id: str, version: int, *, force: bool = False) -> None:
        self.attention(game_id)
        self._enqueue("workers.jobs.run_bots", bots_job_id(game_id, version), game_id, version, force=force)

    def clock_running(self, game_id: str, clock: Clock, *, force: bool = False) -> None:
        self.attention(game_id, clock.due)
        self._enqueue(
            "workers.jobs.deadline", deadline_job_id(game_id, clock), game_id, clock.seat, clock.since,
            at=clock.due, force=force,
        )
        if clock.remind is not None and clock.remind > time.time():
            self._enqueue(
                "workers.jobs.remind", reminder_job_id(game_id, clock), game_id, clock.seat, clock.since,
                at=clock.remind,
            )

    def notifying(self, game_id: str) -> bool:
        return self.webhooks.any(game_id) or (self.players is not None and self.players.any_bound(game_id))

    def notice_marks(self, game_id: str) -> Sequence[str]:
        if not self.marks_with_store:
            return ()
        return (webhooks_key(game_id), *([bindings_key(game_id)] if self.players is not None else []))

    def notify(self, game_id: str, kind: str, message_id: str, seats: list[int], data: dict[str, Any]) -> None:
        if seats:
            self._enqueue("workers.jobs.notify", f"notify-{message_id}", game_id, kind, message_id, seats, data)

    def deliver(self, game_id: str, webhook_id: str, message: dict[str, Any], attempt: int = 1, at: float | None = None) -> None:
        job_id = f"deliver-{message['id']}-{webhook_id}-a{attempt}"
        self._enqueue("workers.jobs.deliver", job_id, game_id, webhook_id, message, attempt, at=at)
