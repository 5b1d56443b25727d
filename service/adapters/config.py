"""Where the service finds its Redis servers, read from the environment.

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
from urllib.parse import urlsplit

import redis
from redis.cluster import ClusterNode, RedisCluster

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
QUEUE_NAME = "holotape"


def redis_url() -> str:
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def redis_client(url: str | None = None) -> redis.Redis:
    return redis.Redis.from_url(url or redis_url(), health_check_interval=30)


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
    return RedisCluster(startup_nodes=startup)


def has_replicas(client: redis.Redis | RedisCluster) -> bool:
    """Whether the event store's servers have replicas to wait for (a cluster's only).

    Asked of the cluster itself (CLUSTER NODES), not of the client's map of
    it, which leaves out a replica that has not copied anything yet.
    """
    if not isinstance(client, RedisCluster):
        return False
    nodes: dict[str, dict[str, object]] = client.execute_command("CLUSTER NODES", target_nodes=RedisCluster.RANDOM)
    return any("slave" in str(node["flags"]).split(",") for node in nodes.values())
