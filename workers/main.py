"""The worker entry point: ``python -m workers.main`` (``make worker``).

One rq worker on the holotape queue, with rq's scheduler, so delayed jobs
(play-by-post deadlines, webhook retries, the sweeper) run too.

Jobs run in the worker's own process (rq's ``SimpleWorker``), not in a
work horse forked per job: a forked horse would start every job with an
empty cache of game records and fold the game again from its last
snapshot, which costs more than most jobs' work (a bot's move, one step of
a round end). Our jobs are short and safe to run twice, so the isolation a
fork buys is not worth it; a job that hangs is still stopped by rq's
timeout, and a worker that dies is covered by the sweeper (``service.adapters.sweeper``),
which a thread of this process enqueues every ``HOLOTAPE_SWEEP_SECONDS``.
Another thread keeps the lobby's game index current (``GameIndex.keep``),
so a listing request never pays for a burst of new games itself.
The game modules and their default content are loaded before the first job.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from rq import Queue, SimpleWorker
from rq.job import Job

from domain import registry
from service import wiring
from service.adapters.config import QUEUE_NAME, queue_client
from service.adapters.sweeper import SWEEP_SECONDS
from service.usecases import genesis
from workers.jobs import services

log = logging.getLogger("workers.main")

#: ``HOLOTAPE_LOG_LEVEL`` (default INFO). Routine work (each job taken and
#: done, every sweep) is rq's INFO, which an operator sees only at DEBUG:
#: at INFO a worker says it started and what went wrong, nothing every ten seconds.
LOG_LEVEL = (os.environ.get("HOLOTAPE_LOG_LEVEL") or "INFO").upper()
#: How often each worker applies the feed's new entries to the game index (``HOLOTAPE_INDEX_SECONDS``).
INDEX_SECONDS = float(os.environ.get("HOLOTAPE_INDEX_SECONDS") or 0.5)


def preload() -> None:
    """Import every hosted game and set one up once, which loads its default content."""
    wiring.host_games()
    for name in registry.names():
        module = registry.game_module(name)
        seats = [{"seat": s, "kind": "human", "name": None, "bot": None} for s in range(module.seats.min)]
        try:
            genesis.setup_events({"game": name, "options": module.resolve_options({}), "seats": seats}, "preload")
        except Exception:  # a game that cannot set up so is still hosted (logged with its traceback)
            log.warning("could not preload %s", name, exc_info=True)


def sweep_every(seconds: float, stop: threading.Event) -> None:
    """Enqueue a sweep now and every ``seconds`` (``service.adapters.sweeper``), one job per period whatever the workers.

    A thread of its own rather than jobs scheduled with rq's scheduler: a
    worker killed outright holds the scheduler's lock for a minute, and the
    sweep is what must work after such a death.
    """
    queue = Queue(QUEUE_NAME, connection=queue_client())
    while not stop.is_set():
        job_id = f"sweep-{int(time.time() // seconds)}"
        try:
            if not Job.exists(job_id, connection=queue.connection):
                queue.enqueue("workers.jobs.sweep", job_id=job_id, result_ttl=0, failure_ttl=3600)
        except Exception as failed:  # noqa: BLE001 - Redis away for a moment: try next time
            log.warning("could not enqueue a sweep (trying again in %s s): %s", seconds, failed)
        stop.wait(seconds)


def keep_index_every(seconds: float, stop: threading.Event) -> None:
    """Apply the feed's new entries to the game index now and every ``seconds``: a listing request
    applies at most ``index.READ_CATCH_UP`` entries itself, so this is what keeps the lobby current
    through a burst. Every worker does it; the projection's checkpoint makes that safe."""
    while not stop.is_set():
        try:
            services().index.keep()
        except Exception as failed:  # noqa: BLE001 - Redis away for a moment: try next time
            log.warning("could not bring the game index up to date (trying again in %s s): %s", seconds, failed)
        stop.wait(seconds)


def main() -> None:
    logging.basicConfig(level=LOG_LEVEL, format="%(asctime)s worker %(message)s")
    preload()
    wiring.freeze_start_up()
    client = queue_client()
    stop = threading.Event()
    threading.Thread(target=sweep_every, args=(SWEEP_SECONDS, stop), daemon=True, name="sweeper").start()
    threading.Thread(target=keep_index_every, args=(INDEX_SECONDS, stop), daemon=True, name="index").start()
    worker = SimpleWorker([Queue(QUEUE_NAME, connection=client)], connection=client)
    log.info("worker %s on queue %s", worker.name, QUEUE_NAME)
    try:
        worker.work(with_scheduler=True, logging_level="DEBUG" if LOG_LEVEL == "DEBUG" else "WARNING")
    finally:
        stop.set()


if __name__ == "__main__":
    main()
