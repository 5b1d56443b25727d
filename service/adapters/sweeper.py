"""The sweeper: games whose automatic work stalled get it enqueued again.

rq moves a dead worker's started job to the failed registry only after its
heartbeat expires, and never runs it again; a worker killed in the middle of
a bot's turn or of a round end therefore leaves its game waiting for good.
And rq's scheduler, which enqueues delayed jobs (deadlines, webhook
retries), is held by a lock the dead worker keeps for a minute.

Every game with work pending sits in ``holotape:attention`` scored with the
time by which something should have happened (``service.adapters.followups``). Each
sweep takes the games past that time by ``STALL_SECONDS`` and, from the game
as it stands now:

- the round end, or a bot's move, is due at version v: the job for v
  (``system-…-v``, ``bots-…-v``) is enqueued again unless it is waiting in
  the queue, or running and started less than ``STALL_SECONDS`` ago. A
  started job older than that belongs to a dead worker: it is dropped from
  rq's started registry first. Re-running is always safe: every step appends
  with the version it was decided on, and a stale job does nothing;
- a player's deadline is overdue: its job is enqueued now;
- nothing is due and no clock runs: the game leaves the set.

It also enqueues scheduled jobs (a deadline, a reminder, a webhook retry)
overdue by more than ``STALL_SECONDS``, for when no scheduler runs.

A stalled game moves on within ``STALL_SECONDS + SWEEP_SECONDS`` of a worker
running (defaults 30 + 10 s), plus the time to start it.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import cast

from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry, StartedJobRegistry

from service.adapters.followups import ATTENTION, RqFollowUps, bots_job_id, deadline_job_id, system_job_id
from service.usecases import clock, due
from service.usecases.errors import GameNotFound
from service.usecases.games import Games

STALL_SECONDS = float(os.environ.get("HOLOTAPE_STALL_SECONDS") or 30)
SWEEP_SECONDS = float(os.environ.get("HOLOTAPE_SWEEP_SECONDS") or 10)
BATCH = 500


@dataclass
class Swept:
    rescued: list[str] = field(default_factory=list)  # job ids enqueued again
    dropped: int = 0  # games that need nothing any more


def _stalled(job: Job | None, now: float, stall: float) -> bool:
    """Whether the job for work that is due needs enqueueing again."""
    if job is None:
        return True
    status = job.get_status(refresh=True)
    if status in (JobStatus.QUEUED, JobStatus.DEFERRED):
        return False
    if status == JobStatus.SCHEDULED:
        return False  # the overdue scheduled jobs are handled on their own
    if status == JobStatus.STARTED:
        started = job.started_at.timestamp() if job.started_at else 0.0
        return now - started > stall
    return True  # finished, failed, stopped: it ran, yet the game still waits at its version


def _fetch(job_id: str, follow_ups: RqFollowUps) -> Job | None:
    try:
        return Job.fetch(job_id, connection=follow_ups.redis)
    except Exception:  # noqa: BLE001 - gone, or unreadable: enqueue afresh
        return None


def _forget(job: Job | None, follow_ups: RqFollowUps) -> None:
    """Drop a dead worker's job from rq's started registry before it runs again under the same id."""
    if job is not None:
        StartedJobRegistry(queue=follow_ups.queue).remove_executions(job)


def sweep(games: Games, follow_ups: RqFollowUps, now: float | None = None, stall: float | None = None) -> Swept:
    now = time.time() if now is None else now
    stall = STALL_SECONDS if stall is None else stall
    swept = Swept()
    client = follow_ups.redis
    # Members alone (no WITHSCORES), as bytes (the client does not decode): redis-py types
    # every range reply alike, scores or not, so the list is cast to what this call returns.
    stalled = cast(list[bytes], client.zrangebyscore(ATTENTION, 0, now - stall, start=0, num=BATCH))
    for raw in stalled:
        game_id = raw.decode()
        try:
            loaded = games.load(game_id)
        except GameNotFound:
            client.zrem(ATTENTION, game_id)
            continue
        record, version = loaded.state, loaded.version
        if not record.started or record.over:
            client.zrem(ATTENTION, game_id)
            swept.dropped += 1
            continue
        if record.module.system_command(record.state) is not None:
            job_id, enqueue = system_job_id(game_id, version), follow_ups.system_due
        elif due.autoplayed(record) is not None:
            job_id, enqueue = bots_job_id(game_id, version), follow_ups.bots_due
        else:
            running = clock.clocks(record)
            if not running:
                client.zrem(ATTENTION, game_id)
                swept.dropped += 1
                continue
            for c in running:
                if c.due <= now - stall:
                    job = _fetch(deadline_job_id(game_id, c), follow_ups)
                    if job is None or job.get_status(refresh=True) != JobStatus.QUEUED:
                        _forget(job, follow_ups)
                        ScheduledJobRegistry(queue=follow_ups.queue).remove(deadline_job_id(game_id, c))
                        follow_ups.clock_running(game_id, c, force=True)
                        swept.rescued.append(deadline_job_id(game_id, c))
            client.zadd(ATTENTION, {game_id: max(now, min(c.due for c in running))})
            continue
        job = _fetch(job_id, follow_ups)
        if _stalled(job, now, stall):
            _forget(job, follow_ups)
            enqueue(game_id, version, force=True)
            swept.rescued.append(job_id)
        else:
            client.zadd(ATTENTION, {game_id: now})
    swept.rescued += _overdue_scheduled(follow_ups, now - stall)
    return swept


def _overdue_scheduled(follow_ups: RqFollowUps, before: float) -> list[str]:
    """Enqueue scheduled jobs whose time passed long ago: no scheduler has run them."""
    registry = ScheduledJobRegistry(queue=follow_ups.queue)
    moved = []
    # Members alone, as the registry's connection gives them (see sweep).
    overdue = cast(list[bytes | str], registry.connection.zrangebyscore(registry.key, 0, before))
    for member in overdue:
        job_id = member.decode() if isinstance(member, bytes) else member
        job = _fetch(job_id, follow_ups)
        registry.remove(job_id)
        if job is not None:
            follow_ups.queue.enqueue_job(job)
            moved.append(job_id)
    return moved
