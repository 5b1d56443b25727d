"""The worker entry point: ``python -m workers.main`` (``make worker``).

One rq worker on the holotape queue, with rq's scheduler, so delayed jobs
(play-by-post deadlines) run too.
"""

from __future__ import annotations

import logging

from rq import Queue, Worker

from service.config import QUEUE_NAME, redis_client


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s worker %(message)s")
    client = redis_client()
    worker = Worker([Queue(QUEUE_NAME, connection=client)], connection=client)
    worker.work(with_scheduler=True)


if __name__ == "__main__":
    main()
