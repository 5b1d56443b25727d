"""Where the service finds Redis, read once from the environment, and how long it waits for it."""

from __future__ import annotations

import os

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
QUEUE_NAME = "holotape"

#: Seconds to wait for an answer from Redis. Every command the service sends
#: takes well under a millisecond, so a Redis that is paused or swapping is
#: told apart from a slow one quickly, and the API answers 503 instead of
#: holding its caller (and a worker) for the socket's default of forever.
#: Blocking reads stay below it (``service.api.stream`` polls in steps).
SOCKET_TIMEOUT = float(os.environ.get("HOLOTAPE_REDIS_TIMEOUT_SECONDS") or 2.0)
CONNECT_TIMEOUT = 1.0
#: Connections one process may open to Redis. Each open event stream waits on
#: one of its own (a blocking read), so this is above the streams a process
#: serves (``STREAM_MAX_OPEN``); past it a request gets 503, never a hang.
#: redis-py's own default (100) would refuse the 101st stream.
MAX_CONNECTIONS = int(os.environ.get("HOLOTAPE_REDIS_MAX_CONNECTIONS") or 2000)

#: The errors that mean Redis is away (down, paused, loading, out of memory,
#: failing over), not that a request or the code is wrong: the API answers
#: them with 503 and Retry-After, and a client tries again.
UNAVAILABLE: tuple[type[Exception], ...] = (
    redis.ConnectionError,  # refused, reset, loading (BusyLoadingError)
    redis.TimeoutError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.OutOfMemoryError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.TryAgainError,
    redis.exceptions.MasterDownError,
)


def redis_url() -> str:
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def redis_client(url: str | None = None) -> redis.Redis:
    # One retry on a broken connection (a pooled socket Redis closed when it
    # restarted), none on a timeout: a paused Redis costs one timeout, not four
    # with backoff (redis-py's default).
    return redis.Redis.from_url(
        url or redis_url(),
        health_check_interval=30,
        socket_timeout=SOCKET_TIMEOUT,
        socket_connect_timeout=CONNECT_TIMEOUT,
        max_connections=MAX_CONNECTIONS,
        retry=Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)),
    )
