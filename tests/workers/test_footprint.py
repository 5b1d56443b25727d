"""What rq leaves in Redis after the worker's jobs: nothing per finished job, a bounded record per failed one."""

from __future__ import annotations

from rq import Queue, Worker

from service.adapters.config import QUEUE_NAME
from service.adapters.followups import FAILURE_TTL, RqFollowUps, system_job_id
from service.usecases.games import Games
from tests.conftest import wait_until

BOTS = [{"seat": s, "kind": "bot", "name": None, "bot": "random"} for s in range(2)]


def _jobs_run(redis_client) -> int:
    return sum(w.successful_job_count for w in Worker.all(connection=redis_client))


def test_a_finished_job_leaves_nothing_behind_and_a_failed_one_a_record_that_expires(games: Games, worker, redis_client):
    """Issue 13, footprint: a game of bots runs many jobs (bots' moves, ticks); once
    they are done no job hash, result stream or finished-registry entry is left."""
    created = games.create("counter", {}, BOTS, seed="footprint")
    wait_until(lambda: games.load(created.game_id).state.over, 30, message="the bots to finish")
    queue = Queue(QUEUE_NAME, connection=redis_client)
    wait_until(lambda: queue.count == 0 and queue.started_job_registry.count == 0, message="the queue drained")
    assert _jobs_run(redis_client) >= 2  # bots' moves and the ticks between them
    assert list(redis_client.scan_iter(match="rq:job:*")) == []
    assert list(redis_client.scan_iter(match="rq:results:*")) == []
    assert queue.finished_job_registry.count == 0

    # A job that fails (its game never existed) stays, for an operator, until FAILURE_TTL.
    RqFollowUps(redis_client).system_due("no-such-game", 1)
    failed = system_job_id("no-such-game", 1)
    wait_until(lambda: failed in queue.failed_job_registry.get_job_ids(), message="the job to fail")
    assert 0 < redis_client.ttl(f"rq:job:{failed}") <= FAILURE_TTL
    assert [k.decode() for k in redis_client.scan_iter(match="rq:job:*")] == [f"rq:job:{failed}"]
