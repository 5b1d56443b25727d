"""The worker entry point: ``python -m workers.main`` (``make worker``).

One rq worker on the holotape queue, with rq's scheduler, so delayed jobs
(play-by-post deadlines, webhook retries, the sweeper) run too.

Jobs run in the worker's own process (rq's ``SimpleWorker``), not in a
work horse forked per job: a forked horse would start every job with an
empty cache of game records and fold the game again from its last
snapshot, which costs more than most jobs' work (a bot's move, one step of
a round end). Our jobs are short and safe to run twice, so the isolation a
fork buys is not worth it; a job that hangs is still stopped by rq's
timeout, and a worker that dies is covered by the sweeper (``workers.jobs``).
The game modules and their default content are loaded before the first job.
"""

from __future__ import annotations

import logging

from rq import Queue, SimpleWorker

from domain import registry
from domain.rng import Rng
from service.config import QUEUE_NAME, redis_client

log = logging.getLogger("workers.main")


def preload() -> None:
    """Import every hosted game and set one up once, which loads its default content."""
    for name in registry.names():
        module = registry.game_module(name)
        try:
            module.setup({"players": 2}, Rng("preload"))
        except Exception:  # noqa: BLE001 - a game that cannot set up so is still hosted
            log.warning("could not preload %s", name, exc_info=True)


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s worker %(message)s")
    preload()
    client = redis_client()
    worker = SimpleWorker([Queue(QUEUE_NAME, connection=client)], connection=client)
    worker.work(with_scheduler=True)


if __name__ == "__main__":
    main()
