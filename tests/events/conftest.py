"""The store's contract, run once per backend: a standalone server and a real Redis Cluster.

Every test here takes ``store`` (and ``raw``, the client under it) and runs
twice, as the ``eventsourcing`` library runs one recorder suite per
database: what the store promises must hold wherever it runs.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from redis.cluster import RedisCluster

from events.store import EventStore
from service.adapters.config import events_client
from service.adapters.embedded_cluster import EmbeddedCluster
from service.wiring import event_store


# The cluster is started once per session and worker: its tests go to one xdist worker.
@pytest.fixture(params=["standalone", pytest.param("cluster", marks=pytest.mark.xdist_group("cluster"))])
def raw(request: pytest.FixtureRequest, redis_client: redis.Redis) -> Iterator[redis.Redis | RedisCluster]:
    if request.param == "standalone":
        yield redis_client
        return
    cluster: EmbeddedCluster = request.getfixturevalue("redis_cluster")
    client = events_client(cluster.url)
    client.flushall(target_nodes=RedisCluster.PRIMARIES)
    yield client
    client.close()


@pytest.fixture
def store(raw: redis.Redis | RedisCluster) -> EventStore:
    # As the service runs it: its own event types declared, and on the
    # cluster each append waiting for its replica.
    return event_store(raw)
