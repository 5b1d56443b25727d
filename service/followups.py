"""Follow-up work as rq jobs, named so that enqueueing twice is harmless.

The job is referred to by its import path, so this module (and the HTTP
layer above it) never imports the workers.
"""

from __future__ import annotations

import redis
from rq import Queue
from rq.job import Job

from service.config import QUEUE_NAME


def system_job_id(game_id: str, version: int) -> str:
    # One automatic step per game and version: a second enqueue of the same
    # step finds the job already there, and a second run finds nothing due.
    return f"system-{game_id}-v{version}"


def bots_job_id(game_id: str, version: int) -> str:
    # One bots run per game and version, like the system steps: a duplicate
    # finds the job there, and a stale run (the game moved on) does nothing.
    return f"bots-{game_id}-v{version}"


class RqFollowUps:
    def __init__(self, client: redis.Redis, queue_name: str = QUEUE_NAME):
        self.queue = Queue(queue_name, connection=client)

    def _enqueue(self, function: str, job_id: str, *args, force: bool = False) -> None:
        if not force and Job.exists(job_id, connection=self.queue.connection):
            return
        self.queue.enqueue(
            function,
            *args,
            job_id=job_id,
            result_ttl=3600,
            failure_ttl=7 * 24 * 3600,
        )

    def system_due(self, game_id: str, version: int, *, force: bool = False) -> None:
        self._enqueue("workers.jobs.run_system", system_job_id(game_id, version), game_id, force=force)

    def bots_due(self, game_id: str, version: int, *, force: bool = False) -> None:
        self._enqueue("workers.jobs.run_bots", bots_job_id(game_id, version), game_id, version, force=force)
