"""An action's Redis work in one round trip: its rate limits and webhook lookup ride on the append.

The checks are the same as every other request's (service.api.app): the
address counted, failed authentications and the token judged, the token
counted after; only where they run differs. So each test here is about
behaviour a client sees, plus the round trip count itself.
"""

from __future__ import annotations

import pytest
import redis
from rq import Queue

from events.log import ConcurrencyError
from events.snapshots import fold
from service import wiring
from service.adapters.config import QUEUE_NAME
from service.api import create_app
from service.api.games import ActedSchema
from service.usecases.ports import ADDRESS_BUCKET, REFUSED_BUCKET, TOKEN_BUCKET
from tests.round_trips import CountingConnection, counted_client
from tests.service.tables import act, bearer, new_table, state

EVERY_LIMIT = {TOKEN_BUCKET: (1000, 60), ADDRESS_BUCKET: (1000, 60), REFUSED_BUCKET: (60, 60)}


def _app(client: redis.Redis, **limits):
    return create_app(wiring.build(client, rate_limits=limits)).test_client()


def _redraws_counted(services, actions: int) -> tuple[str, int, int]:
    """A one-seat game, its append script loaded, then ``actions`` redraws over HTTP: the game, its version
    after them, and the Redis round trips they cost."""
    client = create_app(services).test_client()
    table = new_table(client, seats=1)
    version = state(client, table)["version"]
    version = act(client, table, 0, {"type": "redraw"}, version).get_json()["version"]  # the script loaded
    before = CountingConnection.packets
    for _ in range(actions):
        answer = act(client, table, 0, {"type": "redraw"}, version)
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]
    return table.game_id, version, CountingConnection.packets - before


def test_an_action_costs_one_round_trip_with_every_rate_limit_on(redis_url):
    counted = counted_client(redis_url)
    assert _redraws_counted(wiring.build(counted, rate_limits=EVERY_LIMIT), 5)[2] == 5
    counted.close()


def test_the_action_that_brings_a_snapshot_due_writes_it_in_its_own_round_trip(redis_url):
    """Snapshots every 4 events and a redraw writes 2: every second action keeps one, in its append's script."""
    counted = counted_client(redis_url)
    services = wiring.build(counted, rate_limits=EVERY_LIMIT, snapshot_every=4)
    game_id, version, trips = _redraws_counted(services, 4)
    assert trips == 4
    games = services.games
    found = games.snapshots.newest_at_or_below(game_id, None, games.folder.format)
    assert found is not None and found[0] == version
    _, data, tip = found
    # What the append kept is what a fold of the log makes of it, down to the chain's tip.
    assert games.folder.load(data) == fold(games.store, None, games.folder, game_id).state
    assert tip == games.store.head(game_id)[1]
    counted.close()


def test_an_append_refused_for_a_stale_version_keeps_no_snapshot_of_what_it_decided(redis_client):
    """Every append here brings a snapshot due: the refused one must not replace the one its rival kept."""
    games = wiring.build(redis_client, snapshot_every=2).games
    game_id = games.create("counter", {}, [{"seat": 0, "kind": "human", "name": "p", "bot": None}], seed="s").game_id
    stale = games.load(game_id)
    games.act(game_id, 0, {"type": "redraw"})
    with pytest.raises(ConcurrencyError):
        games.act(game_id, 0, {"type": "redraw"}, loaded=stale)
    version, data, tip = games.snapshots.newest_at_or_below(game_id, None, games.folder.format)
    assert (version, tip) == games.store.head(game_id) and version == stale.version + 2
    assert games.folder.load(data) == fold(games.store, None, games.folder, game_id).state


def test_an_action_past_its_token_allowance_is_429_with_retry_after_and_appends_nothing(redis_client):
    client = _app(redis_client, **{TOKEN_BUCKET: (3, 60)})
    table = new_table(client, seats=1)
    version = state(client, table)["version"]
    for _ in range(3):
        answer = act(client, table, 0, {"type": "redraw"}, version)
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]
    for _ in range(2):  # refused by the append, then by what the process learned from it
        refused = act(client, table, 0, {"type": "redraw"}, version)
        assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert state(client, table)["version"] == version
    # Only the three actions were counted against the token, none of the refused ones.
    assert [int(redis_client.get(k)) for k in redis_client.scan_iter("holotape:rate:token*")] == [3]


def test_an_action_that_ends_before_its_append_is_still_counted_against_its_address(redis_client):
    client = _app(redis_client, **{ADDRESS_BUCKET: (4, 60)})
    table = new_table(client, seats=1)  # the address's first request
    stale = [act(client, table, 0, {"type": "redraw"}, 1_000).status_code for _ in range(4)]
    assert stale == [412, 412, 412, 429]


def test_an_action_with_a_token_that_holds_nothing_counts_as_a_failed_authentication(redis_client):
    client = _app(redis_client, **{REFUSED_BUCKET: (2, 60)})
    table = new_table(client, seats=1)
    table.seats[1] = bearer("not-a-token-of-this-game-at-all-x")
    statuses = [act(client, table, 1, {"type": "redraw"}, 1).status_code for _ in range(3)]
    assert statuses == [403, 403, 429]


def _notify_jobs(redis_client) -> list[str]:
    return [j for j in Queue(QUEUE_NAME, connection=redis_client).job_ids if j.startswith("notify-turn-")]


def test_your_turn_is_enqueued_whether_the_append_or_a_lookup_of_its_own_reads_the_webhooks(redis_client, redis_url):
    """The append reads the game's webhooks when the store shares the server; a store elsewhere reads them apart."""
    for events in (None, redis.Redis.from_url(redis_url)):
        client = create_app(wiring.build(redis_client, events=events, allow_private_webhooks=True)).test_client()
        for hooked in (False, True):
            redis_client.delete(f"rq:queue:{QUEUE_NAME}")
            table = new_table(client, seats=2)
            first = state(client, table)["waiting_for"][0]
            if hooked:
                url = "http://127.0.0.1:9/hook"
                assert client.post(table.url("/webhooks"), json={"url": url}, headers=table.seats[1 - first]).status_code == 201
            assert act(client, table, first, {"type": "add", "amount": 1}).status_code == 200
            assert bool(_notify_jobs(redis_client)) is hooked, (events, hooked)


def test_the_answer_to_an_action_is_what_its_schema_would_dump(redis_client):
    """The answer is serialised without ActedSchema (service.api.answers): the schema's dump must change nothing."""
    client = create_app(wiring.build(redis_client)).test_client()
    table = new_table(client, seats=2)
    first = state(client, table)["waiting_for"][0]
    body = act(client, table, first, {"type": "add", "amount": 2}).get_json()
    assert body["events"] and ActedSchema().dump(body) == body


def test_a_body_that_is_not_a_command_is_answered_by_the_decorated_path_as_before(redis_client):
    """Only a well-formed command skips webargs (GameActions.dispatch_request): the rest get webargs' 422."""
    client = create_app(wiring.build(redis_client)).test_client()
    table = new_table(client, seats=1)
    version = state(client, table)["version"]
    for body in ({"amount": 1}, {"type": 5}, {"type": ""}, [{"type": "redraw"}]):
        refused = act(client, table, 0, body, version)
        assert refused.status_code == 422, (body, refused.get_json())
        problem = refused.get_json()
        assert problem["code"] == "invalid_request" and "json" in problem["errors"], problem
    # A well-formed command still meets every check the decorated path made: no token, no seat.
    assert client.post(table.url("/actions"), json={"type": "redraw"}, headers={"If-Match": f'"{version}"'}).status_code == 401
    assert state(client, table)["version"] == version


class CommandLog(redis.Connection):
    """Records the name of each command it sends."""

    names: list[str] = []

    def send_command(self, *args, **kwargs) -> None:
        CommandLog.names.append(str(args[0]).upper())
        super().send_command(*args, **kwargs)


def test_a_process_new_to_a_game_reads_its_seed_with_the_token_not_apart(redis_client, redis_url):
    """The seed sits in the secrets hash the token's lookup reads whole: a cold action makes no read of its own for it."""
    table = new_table(_app(redis_client), seats=1)
    version = state(_app(redis_client), table)["version"]
    logged = redis.Redis(connection_pool=redis.ConnectionPool.from_url(redis_url, connection_class=CommandLog))
    fresh = _app(logged)  # its own caches: neither the token nor the seed known
    CommandLog.names.clear()
    answer = act(fresh, table, 0, {"type": "redraw"}, version)
    assert answer.status_code == 200, answer.get_json()
    assert "HGETALL" in CommandLog.names  # the token's lookup, which brought the seed
    assert "HGET" not in CommandLog.names, CommandLog.names
    logged.close()


def test_the_process_that_issued_a_token_takes_it_at_once_without_reading_it_back(redis_client, redis_url):
    """A token just handed out is known to the process that made it: a table's first action there reads no token."""
    logged = redis.Redis(connection_pool=redis.ConnectionPool.from_url(redis_url, connection_class=CommandLog))
    client = _app(logged)
    table = new_table(client, seats=1)
    version = state(client, table)["version"]
    CommandLog.names.clear()
    assert act(client, table, 0, {"type": "redraw"}, version).status_code == 200
    assert "HGETALL" not in CommandLog.names and "HGET" not in CommandLog.names, CommandLog.names
    logged.close()
