"""The sweeper on its own (no worker): what it leaves alone and what it enqueues again."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from rq import Queue
from rq.job import Job, JobStatus

from service.adapters.config import QUEUE_NAME
from service.adapters.followups import ATTENTION, bots_job_id, deadline_job_id
from service.adapters.sweeper import sweep
from service.usecases.automation import Automation
from service.usecases.clock import clock_of
from service.usecases.games import Games

BOT_FIRST = [{"seat": 0, "kind": "bot", "name": None, "bot": "random"},
             {"seat": 1, "kind": "human", "name": "p1", "bot": None}]  # fmt: skip


def _waiting_bot_game(games: Games) -> tuple[str, int]:
    """A counter game waiting on its bot seat (seed chosen so the bot starts)."""
    for n in range(20):
        created = games.create("counter", {}, BOT_FIRST, seed=f"sweep-{n}")
        record = games.load(created.game_id).state
        if record.module.waiting_for(record.state) == [0]:
            return created.game_id, created.version
    raise AssertionError("no seed lets the bot start")


def test_a_queued_job_is_left_alone_and_a_dead_workers_job_is_run_again(games: Games, redis_client):
    game_id, version = _waiting_bot_game(games)
    queue = Queue(QUEUE_NAME, connection=redis_client)
    job_id = bots_job_id(game_id, version)
    assert job_id in queue.job_ids
    later = time.time() + 120
    assert sweep(games, games.follow_ups, now=later).rescued == []  # waiting its turn in the queue

    # As a worker killed mid-job leaves it: started long ago, out of the queue.
    job = Job.fetch(job_id, connection=redis_client)
    queue.remove(job)
    job.set_status(JobStatus.STARTED)
    job.started_at = datetime.now(UTC) - timedelta(seconds=100)
    job.save()
    # (the first sweep looked at the game then: the next looks again a stall later)
    assert sweep(games, games.follow_ups, now=later + 60).rescued == [job_id]
    assert job_id in queue.job_ids
    Automation(games).run_bots(game_id, version)  # what the worker would do: the bot moves once
    assert sweep(games, games.follow_ups, now=later + 120).rescued == []
    assert redis_client.zscore(ATTENTION, game_id) is None  # a player's turn now, no clock: nothing to watch


def test_an_overdue_deadline_is_enqueued_when_no_scheduler_ran_it(games: Games, redis_client):
    humans = [{"seat": i, "kind": "human", "name": f"p{i}", "bot": None} for i in range(2)]
    game_id = games.create("counter", {}, humans, seed="late", settings={"turn_seconds": 5}).game_id
    record = games.load(game_id).state
    running = clock_of(record, record.module.waiting_for(record.state)[0])
    queue = Queue(QUEUE_NAME, connection=redis_client)
    assert deadline_job_id(game_id, running) not in queue.job_ids  # scheduled, for later
    swept = sweep(games, games.follow_ups, now=running.due + 60)
    assert deadline_job_id(game_id, running) in swept.rescued
    assert deadline_job_id(game_id, running) in queue.job_ids
