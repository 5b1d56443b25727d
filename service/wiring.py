"""The composition root: Redis and rq adapters plugged into the use cases.

The only module that knows both sides. The API process (``service.wsgi``),
the workers (``workers.jobs``), the command line and the tests call
``build``; everything above receives ``Services`` and never sees Redis.
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Mapping

import redis
from redis.cluster import RedisCluster

from domain import registry
from events.log import NotDurable
from events.projections import RowProjection
from events.schemas import SchemaRegistry
from events.snapshot_store import SnapshotStore
from events.store import EventStore
from service.adapters.config import (
    UNAVAILABLE,
    events_client,
    events_url,
    extra_games,
    has_replicas,
    queue_client,
    redis_client,
    redis_url,
    smtp_url,
)
from service.adapters.followups import RqFollowUps
from service.adapters.idempotency import IdempotentRequests
from service.adapters.invitations import RedisInvitations
from service.adapters.mail import RqMailer, relay_from_url
from service.adapters.players import RedisPlayers
from service.adapters.ratelimit import RateLimiter
from service.adapters.tokens import Seeds, Tokens
from service.adapters.webhooks import Webhooks
from service.usecases.automation import Automation
from service.usecases.games import Games
from service.usecases.index import GameIndex, apply_row, listing_indexes, turns
from service.usecases.invitations import InvitationDesk
from service.usecases.lobby import Lobby
from service.usecases.notifications import Notifications
from service.usecases.play_by_post import PlayByPost
from service.usecases.player_notices import PlayerNotices
from service.usecases.players import Players
from service.usecases.ports import FollowUps
from service.usecases.proposals import Proposals
from service.usecases.queries import Queries
from service.usecases.record import declare_events
from service.usecases.services import Services
from service.usecases.undo import Undo

#: The projection that holds the game index's rows.
GAME_INDEX = "games"


def event_store(client: redis.Redis | RedisCluster) -> EventStore:
    """The store, checking and upcasting the service's own events (each game's go
    through its own schemas in the record: ``service.usecases.record``).

    On a cluster with replicas an append is acknowledged once a replica holds it.
    """
    return EventStore(client, declare_events(SchemaRegistry()), replicas=1 if has_replicas(client) else 0)


def rq_follow_ups(queue: redis.Redis | None = None, client: redis.Redis | None = None) -> RqFollowUps:
    """Follow-up work as rq jobs on the queue server; webhooks registered on the main one."""
    client = client if client is not None else redis_client()
    return RqFollowUps(queue if queue is not None else queue_client(), webhooks=Webhooks(client), players=RedisPlayers(client))


def game_rows(client: redis.Redis, store: EventStore, games: Games | None = None) -> RowProjection:
    """The game index's rows; with ``games``, each running game's row says whose turn it is."""
    enrich = turns(lambda game_id: [int(s) for s in games.load(game_id).state.waits]) if games is not None else None
    return RowProjection(client, store, GAME_INDEX, apply_row, listing_indexes, enrich)


class RedisHealth:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def alive(self) -> bool:
        try:
            return bool(self.redis.ping())
        except redis.RedisError:
            return False


def host_games() -> None:
    """Register the game modules the configuration names beside the ones this server ships (``HOLOTAPE_GAMES``)."""
    for spec in extra_games():
        module_path, _, attribute = spec.partition(":")
        registry.register(getattr(importlib.import_module(module_path), attribute))


def build(
    client: redis.Redis | None = None,
    *,
    events: redis.Redis | RedisCluster | None = None,
    follow_ups: FollowUps | None = None,
    rate_limits: Mapping[str, tuple[int, float]] | None = None,
    allow_private_webhooks: bool | None = None,
    snapshot_every: int | None = None,
    recent_games: int | None = None,
) -> Services:
    """Every use case, on the servers the environment names (``service.adapters.config``).

    Given a ``client``, everything runs on it (the tests' one server) unless
    ``events`` names the event store's own (a cluster, say). Follow-ups are rq
    jobs on the queue server unless given.
    """
    host_games()
    if client is None:
        client = redis_client()
        if events is None and events_url() != redis_url():
            events = events_client()
        queue = queue_client()
    else:
        queue = client
    # The store on the main server: an action's append also reads its
    # webhooks and judges its rate limits, in the one round trip.
    shared = events is None
    store = event_store(events if events is not None else client)
    webhooks = Webhooks(client, allow_private=allow_private_webhooks)
    if follow_ups is None:
        follow_ups = RqFollowUps(queue, webhooks=webhooks, players=RedisPlayers(client), marks_with_store=shared)
    tuning = {
        k: v for k, v in (("snapshot_every", snapshot_every), ("recent_games", recent_games)) if v is not None
    }
    seeds = Seeds(client)
    games = Games(store, SnapshotStore(store.redis), seeds, Tokens(client, seeds=seeds), follow_ups, **tuning)
    automation = Automation(games)
    index = GameIndex(game_rows(client, store, games))
    queries = Queries(games)
    lobby = Lobby(games)
    player_store = RedisPlayers(client)
    mailer = RqMailer(queue, relay_from_url(smtp_url()), allow_private=allow_private_webhooks)
    notices = PlayerNotices(player_store, mailer)
    players = Players(games, player_store, index, queries)
    return Services(
        games=games,
        automation=automation,
        play_by_post=PlayByPost(games, automation),
        lobby=lobby,
        proposals=Proposals(games),
        undo=Undo(games),
        queries=queries,
        index=index,
        notifications=Notifications(webhooks),
        requests=IdempotentRequests(client),
        health=RedisHealth(client),
        players=players,
        player_notices=notices,
        mailer=mailer,
        invitations=InvitationDesk(games, lobby, players, RedisInvitations(client)),
        rate_limits=RateLimiter(client, rate_limits, with_store=shared) if rate_limits else None,
        unavailable=(*UNAVAILABLE, NotDurable),
    )


#: New objects (net of those freed) between two young garbage collections in a server process (Python: 700).
YOUNG_COLLECTION = 3000


def freeze_start_up() -> None:
    """Leave what a process built to serve (modules, schemas, the app, content loaded so far) out of
    every later garbage collection: call once, at the end of its start.

    A full collection walks every object the collector tracks, some 110,000 in a
    server process, most of them made at the start and alive for good: 70-80 ms
    here, in which every request the gevent worker holds waits. Under 64 clients
    that came about once per worker every few seconds, a tail of the action's
    latency; frozen, the same collection takes 2-3 ms. Garbage first, so none
    is frozen with the rest.

    Then young collections come after ``YOUNG_COLLECTION`` new objects, not
    Python's 700: a request leaves no cycle behind it (``service.api.routing``),
    so what a young collection meets is mostly the objects of the requests in
    flight, which it cannot free. Under 64 clients a gunicorn worker ran some
    50 of them in a 3 s run at 700 (0.5-1.3 ms each, every greenlet waiting),
    10 at 3,000: GC time per run 30-80 ms -> 19-25 ms, and the longest pause
    no longer, within the machine's noise (7-13 ms either way, loaded). Under
    one client: one every ~1,000 actions instead of every ~170, out of the p99.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])
