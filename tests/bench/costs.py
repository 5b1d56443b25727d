"""`make bench`, the flat-cost part: what a request costs as a game grows long and the lobby grows large.

In-process (the app's test client on a real embedded Redis, rate limits off),
so the figures are the service's own work and its Redis round trips, not
gunicorn's; each pair is measured in the same run and compared as a ratio:

- an action (POST /actions, the counter game's ``redraw``) and a seat's view
  (GET /state) at version 10 and at version 10,000 of the same game: p50 and
  p99, target: the ratio of the p50s at most 1.2;
- GET /games p99 with 1,000 and with 100,000 games in the index (rows put
  straight in, as the listing's scale test does): target at most 50 ms;
- the first GET /games after a burst of 5,000 creations that nobody has
  listed (the workers keep the index; a request applies at most
  ``READ_CATCH_UP`` entries itself);
- Redis bytes per event of the game's stream at both versions;
- Redis memory (``used_memory``) per ended game and per event with 1,000
  and with 100,000 ended games held, target: the per-game ratio at most
  1.2. The first 1,000 are counter games played to their end through the
  use cases (and the lobby's index caught up on them); the other 99,000
  are copies of those, key for key (``DUMP``/``RESTORE`` under new ids,
  their feed entries and index rows written alike), since playing 100,000
  would take the bench most of an hour.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
import uuid
from collections.abc import Callable

import redis

from domain import registry
from events.feed import STANDALONE_FEED_KEY
from events.store import stream_key
from service import wiring
from service.adapters.embedded_redis import EmbeddedRedis
from service.api import create_app
from service.usecases.automation import Automation
from service.usecases.games import Games
from service.usecases.index import listing_indexes
from service.usecases.ports import NoFollowUps
from service.wiring import game_rows
from tests.bench.report import Report, pct, run
from tests.games.counter import COUNTER
from tests.service.listing_rows import write_index

registry.register(COUNTER)

CONFIG = {"RATE_LIMIT": "0"}
SAMPLES = int(os.environ.get("BENCH_COST_SAMPLES", "200"))
LONG = 10_000
BURST = int(os.environ.get("BENCH_BURST", "5000"))
HUMANS = [{"seat": s, "kind": "human", "name": f"p{s}", "bot": None} for s in range(2)]
#: Ended games held at the two sizes: played, then played and copied.
PLAYED, HELD = 1_000, 100_000


def _timed(call: Callable[[], None], samples: int = SAMPLES) -> list[float]:
    took = []
    for _ in range(samples):
        started = time.perf_counter()
        call()
        took.append(time.perf_counter() - started)
    return took


def _grow(games: Games, game_id: str, to_version: int) -> None:
    while games.load(game_id).version < to_version:
        games.act(game_id, 0, {"type": "redraw"}, follow_up=False)


def long_game(report: Report, client: redis.Redis, games: Games) -> None:
    """Two games of the counter, one at version 10 and one at 10,000, measured turn about, so a load
    that comes and goes on the machine falls on both alike."""
    app = create_app(wiring.build(client), CONFIG).test_client()
    tables = {}
    for version in (10, LONG):
        created = games.create("counter", {}, HUMANS, seed=f"bench-long-{version}")
        _grow(games, created.game_id, version)
        tables[version] = (created.game_id, {"Authorization": f"Bearer {created.seat_tokens[0]}"})
    took: dict[tuple[str, int], list[float]] = {(name, v): [] for name in ("action", "view") for v in tables}
    for _ in range(SAMPLES):
        for version, (game_id, headers) in tables.items():
            now = games.store.version(game_id)
            started = time.perf_counter()
            answer = app.post(f"/games/{game_id}/actions", json={"type": "redraw"},
                              headers={**headers, "If-Match": f'"{now}"'})
            took[("action", version)].append(time.perf_counter() - started)
            assert answer.status_code == 200, answer.get_json()
            started = time.perf_counter()
            assert app.get(f"/games/{game_id}/state", headers=headers).status_code == 200
            took[("view", version)].append(time.perf_counter() - started)
    for name in ("action", "view"):
        short, long = pct(took[(name, 10)], 50), pct(took[(name, LONG)], 50)
        report.add(
            f"{name} at version {LONG:,} against version 10 (p50 ratio)", long / short, "x", target="value <= 1.2",
            p50_ms_v10=short, p50_ms_long=long, p99_ms_v10=pct(took[(name, 10)], 99),
            p99_ms_long=pct(took[(name, LONG)], 99),
        )  # fmt: skip
    per_event = {v: int(client.memory_usage(stream_key(g), samples=0) or 0) / games.store.version(g)
                 for v, (g, _) in tables.items()}
    report.add(
        f"Redis bytes per event of the game's stream, version {LONG:,}", per_event[LONG], "B/event",
        at_v10=per_event[10],
    )  # fmt: skip


def listing(report: Report, client: redis.Redis) -> None:
    services = wiring.build(client)
    app = create_app(services, CONFIG).test_client()
    p99 = {}
    for count in (1_000, 100_000):
        _emptied(client)
        write_index(client, game_rows(client, services.games.store), count)
        app.get("/games?limit=20")
        took = _timed(lambda: app.get("/games?status=lobby&limit=20"))
        p99[count] = pct(took, 99)
    report.add(
        "GET /games p99 with 100,000 games in the index", p99[100_000], "ms", target="value <= 50",
        p99_ms_at_1000=p99[1_000], ratio=p99[100_000] / p99[1_000],
    )  # fmt: skip


def burst(report: Report, client: redis.Redis, games: Games) -> None:
    _emptied(client)
    services = wiring.build(client)
    app = create_app(services, CONFIG).test_client()
    for n in range(BURST):
        games.create("counter", {}, HUMANS, seed=f"burst-{n}")
    started = time.perf_counter()
    assert app.get("/games?limit=20").status_code == 200
    first = time.perf_counter() - started
    then = pct(_timed(lambda: app.get("/games?limit=20"), 20), 50)
    report.add(
        f"first GET /games after {BURST:,} creations nobody listed", first * 1000, "ms", target="value <= 50",
        next_p50_ms=then,
    )  # fmt: skip


def _used(client: redis.Redis) -> int:
    return int(client.info("memory")["used_memory"])


def _emptied(client: redis.Redis) -> None:
    """Every key gone and its memory given back before the next reading: Valkey frees a flushed database in the
    background by default (``lazyfree-lazy-user-flush``), so the memory of the bench's earlier parts was still
    counted as the empty baseline and a later reading came out below it (a negative figure per game)."""
    client.execute_command("FLUSHDB", "SYNC")
    while int(client.info("memory").get("lazyfree_pending_objects", 0)):
        time.sleep(0.05)


def _play_to_end(games: Games, automation: Automation, n: int) -> str:
    """A counter game to 10 between two seats, each taking its first legal action, the system's ticks run."""
    game_id = games.create("counter", {"target": 10}, HUMANS, seed=f"bench-ended-{n}").game_id
    while True:
        automation.run_system(game_id)
        record = games.load(game_id).state
        if record.module.is_over(record.state):
            return game_id
        seat = record.module.waiting_for(record.state)[0]
        games.act(game_id, seat, record.module.legal_actions(record.state, seat)[0], follow_up=False)


#: Copies of one ended game made inside Redis (building millions of commands in Python took minutes): ARGV is
#: the game's id, the index's hash, its row, its keys with their DUMPs, its feed entries (v, n), its index
#: memberships (sorted set, member), the feed's key, then each copy's id in hex and in the feed's 16 bytes.
COPY_GAME = """
local src, rows, row = ARGV[1], ARGV[2], ARGV[3]
local i, keys, feed, memberships = 4, {}, {}, {}
for k = 1, tonumber(ARGV[i]) do keys[k] = {ARGV[i + 2 * k - 1], ARGV[i + 2 * k]} end
i = i + 1 + 2 * #keys
for k = 1, tonumber(ARGV[i]) do feed[k] = {ARGV[i + 2 * k - 1], ARGV[i + 2 * k]} end
i = i + 1 + 2 * #feed
for k = 1, tonumber(ARGV[i]) do memberships[k] = {ARGV[i + 2 * k - 1], ARGV[i + 2 * k]} end
i = i + 1 + 2 * #memberships
local feed_key = ARGV[i]
i = i + 1
while i < #ARGV do
  local copy, raw = ARGV[i], ARGV[i + 1]
  i = i + 2
  for _, kd in ipairs(keys) do redis.call('RESTORE', (string.gsub(kd[1], src, copy)), 0, kd[2]) end
  for _, vn in ipairs(feed) do redis.call('XADD', feed_key, '*', 'G', raw, 'v', vn[1], 'n', vn[2]) end
  redis.call('HSET', rows, copy, (string.gsub(row, src, copy)))
  for _, zm in ipairs(memberships) do redis.call('ZADD', zm[1], 0, (string.gsub(zm[2], src, copy))) end
end
"""


def _copy(client: redis.Redis, rows, game_ids: list[str], copies: int) -> None:
    """``copies`` copies of each game: its keys restored under a new id, its feed entries and index row alike."""
    feed: dict[bytes, list[tuple[bytes, bytes]]] = {}
    for _, fields in client.xrange(STANDALONE_FEED_KEY):
        feed.setdefault(fields[b"G"], []).append((fields[b"v"], fields[b"n"]))
    copy_game = client.register_script(COPY_GAME)
    keys_of: dict[str, list[str]] = {}
    for key in client.scan_iter("game:{*", count=10_000):  # one pass: a game's keys carry its id as their hash tag
        keys_of.setdefault(key.decode().split("{")[1].split("}")[0], []).append(key.decode())
    for game_id in game_ids:
        keys = keys_of[game_id]
        row = client.hget(rows.key, game_id).decode()
        memberships = [(rows.index_key(index), member) for index, member in listing_indexes(json.loads(row)).items()]
        entries = feed[bytes.fromhex(game_id)]
        args: list = [game_id, rows.key, row, len(keys)]
        for key in keys:
            args += [key, client.dump(key)]
        args.append(len(entries))
        for entry in entries:
            args += entry
        args.append(len(memberships))
        for membership in memberships:
            args += membership
        args.append(STANDALONE_FEED_KEY)
        for _ in range(copies):
            copy = uuid.uuid4()
            args += [copy.hex, copy.bytes]
        copy_game(args=args)


def ended_games(report: Report, client: redis.Redis) -> None:
    _emptied(client)
    services = wiring.build(client, follow_ups=NoFollowUps())
    games, rows = services.games, game_rows(client, services.games.store)
    empty = _used(client)
    played = [_play_to_end(games, services.automation, n) for n in range(PLAYED)]
    rows.catch_up()
    events = sum(games.store.version(g) for g in played)
    per_game = {PLAYED: (_used(client) - empty) / PLAYED}
    _copy(client, rows, played, HELD // PLAYED - 1)
    assert client.hlen(rows.key) == HELD
    per_game[HELD] = (_used(client) - empty) / HELD
    per_event = {count: used / (events / PLAYED) for count, used in per_game.items()}
    report.add(
        f"Redis memory per ended game, {HELD:,} held against {PLAYED:,}", per_game[HELD] / per_game[PLAYED], "x",
        target="value <= 1.2", bytes_per_game_at_1000=per_game[PLAYED], bytes_per_game_at_100000=per_game[HELD],
        bytes_per_event_at_1000=per_event[PLAYED], bytes_per_event_at_100000=per_event[HELD],
        events_per_game=events / PLAYED,
    )  # fmt: skip


def main(report: Report) -> None:
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, durable=False) as server:
        client = redis.Redis.from_url(server.url)
        try:
            games = wiring.build(client).games
            long_game(report, client, games)
            listing(report, client)
            burst(report, client, wiring.build(client).games)
            ended_games(report, client)
        finally:
            client.close()


if __name__ == "__main__":
    run([main])
