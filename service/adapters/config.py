"""Where the service finds its Redis servers, read from the environment, and how
long it waits for them.

Three roles, each its own setting, each defaulting to ``REDIS_URL``:

- ``HOLOTAPE_EVENTS_URL``: the event store (streams, heads, snapshots, the
  feed). One URL is a standalone server; several, comma-separated
  (``redis://h1:7000,redis://h2:7001,...``), name nodes of a Redis Cluster,
  and the store spreads games over its shards (``events.feed``).
- ``HOLOTAPE_QUEUE_URL``: rq's queues, its scheduler and the sweeper's
  attention set. rq's keys are not cluster-safe (a job and its registries sit
  under different keys that one command touches together), so this is always
  a standalone server.
- ``REDIS_URL``: everything else (tokens and seeds, idempotent requests, rate
  limits, webhooks, the game index).
"""

from __future__ import annotations

import os
import select
from urllib.parse import urlsplit

import redis
from gevent import monkey
from redis._parsers import _HiredisParser
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def extra_games() -> list[str]:
    """``HOLOTAPE_GAMES``: more game modules to host, ``package.module:ATTR``, comma-separated
    (the API and every worker alike: they are separate processes)."""
    return [spec.strip() for spec in os.environ.get("HOLOTAPE_GAMES", "").split(",") if spec.strip()]
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


#: The operating system's ``poll``, even where gevent has replaced ``select.poll`` (the API's workers).
_os_poll = monkey.get_original("select", "poll")


class PooledParser(_HiredisParser):
    """redis-py's hiredis parser, answering the pool's every-checkout question without gevent's hub.

    Each time the pool hands out a connection it asks whether the socket
    holds unread data or was closed (``can_read(0)``). Under gevent that
    ``poll`` is gevent's, which arms a watcher and runs a turn of the hub:
    a tenth of an API worker's CPU per action (py-spy). A zero-timeout poll
    never blocks, so the operating system's answers the common case (nothing
    to read) at once; anything else is left to redis-py's own check.
    """

    def can_read(self, timeout: float = 0) -> bool:
        reader, sock = self._reader, self._sock
        if timeout == 0 and reader is not None and sock is not None and not reader.has_data():
            poller = _os_poll()
            poller.register(sock, select.POLLIN)
            if not poller.poll(0):
                return False
        return bool(super().can_read(timeout))


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
        parser_class=PooledParser,
    )


def events_url() -> str:
    return os.environ.get("HOLOTAPE_EVENTS_URL") or redis_url()


def queue_url() -> str:
    return os.environ.get("HOLOTAPE_QUEUE_URL") or redis_url()


def queue_client(url: str | None = None) -> redis.Redis:
    return redis_client(url or queue_url())


def events_client(url: str | None = None) -> redis.Redis | RedisCluster:
    """A client for the event store: a cluster's when the URL names several nodes."""
    url = url or events_url()
    nodes = [part.strip() for part in url.split(",") if part.strip()]
    if len(nodes) == 1:
        return redis_client(nodes[0])
    startup = []
    for node in nodes:
        parts = urlsplit(node if "://" in node else f"redis://{node}")
        startup.append(ClusterNode(parts.hostname or "127.0.0.1", parts.port or 6379))
    # The cluster client keeps its own retries: through a failover it follows
    # the slots to the promoted replica; only a socket that hangs is cut short.
    return RedisCluster(
        startup_nodes=startup,
        socket_timeout=SOCKET_TIMEOUT,
        socket_connect_timeout=CONNECT_TIMEOUT,
        max_connections=MAX_CONNECTIONS,
    )


def has_replicas(client: redis.Redis | RedisCluster) -> bool:
    """Whether the event store's servers have replicas to wait for (a cluster's only).

    Asked of the cluster itself (CLUSTER NODES), not of the client's map of
    it, which leaves out a replica that has not copied anything yet.
    """
    if not isinstance(client, RedisCluster):
        return False
    nodes: dict[str, dict[str, object]] = client.execute_command("CLUSTER NODES", target_nodes=RedisCluster.RANDOM)
    return any("slave" in str(node["flags"]).split(",") for node in nodes.values())


def smtp_url() -> str | None:
    """``HOLOTAPE_SMTP_URL``: the operator's SMTP relay for players' mail (service.adapters.mail); unset: no mail."""
    return os.environ.get("HOLOTAPE_SMTP_URL") or None
