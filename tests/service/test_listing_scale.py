"""The lobby listing reads an index made for it: a page costs the same at 100 or 100,000 games."""

from __future__ import annotations

import json
import time

from service.api import create_app
from service.usecases.index import listing_indexes
from service.wiring import game_rows
from tests.service.conftest import TEST_CONFIG

GAMES = 100_000
BUDGET_SECONDS = 0.050


def _row(n: int) -> dict:
    status = ("lobby", "running", "ended")[n % 3]
    kinds = ["human", "open"] if status == "lobby" and n % 2 else ["human", "human"]
    return {
        "game_id": f"{n:032x}", "game": "counter", "seats": 2, "options": {"target": f"s{n % 7}"},
        "seat_kinds": kinds, "names": ["Ann", None], "open_seats": kinds.count("open"), "status": status,
        "created_at": f"2026-01-01T00:00:00.{n:07d}Z", "updated_at": "2026-01-01T00:00:00Z",
        "version": 3,
    }  # fmt: skip


def _write_index(redis_client, projection, count: int) -> list[dict]:
    """Index entries as the projection writes them, put straight in (no games played)."""
    projection.catch_up()
    rows = [_row(n) for n in range(count)]
    members: dict[str, dict[str, int]] = {}
    for row in rows:
        for index, member in listing_indexes(row).items():
            members.setdefault(index, {})[member] = 0
    pipe = redis_client.pipeline(transaction=False)
    for start in range(0, count, 10_000):
        chunk = rows[start : start + 10_000]
        pipe.hset(projection.key, mapping={r["game_id"]: json.dumps(r, sort_keys=True) for r in chunk})
    for index, entries in members.items():
        pipe.sadd(projection.indexes_key, index)
        names = list(entries)
        for start in range(0, len(names), 10_000):
            pipe.zadd(projection.index_key(index), dict.fromkeys(names[start : start + 10_000], 0))
    pipe.execute()
    return rows


def test_a_page_takes_under_50_ms_with_100_000_games(services, redis_client):
    _write_index(redis_client, game_rows(redis_client, services.games.store), GAMES)
    client = create_app(services, TEST_CONFIG).test_client()
    for query in ("limit=20", "status=lobby&open_seats=1&limit=20", "game=counter&status=ended&limit=100",
                  "status=running&option=target:s3&limit=20"):  # fmt: skip
        client.get(f"/games?{query}")  # warm: the first request of an app pays for its imports
        took = []
        for _ in range(5):
            began = time.perf_counter()
            response = client.get(f"/games?{query}")
            took.append(time.perf_counter() - began)
            assert response.status_code == 200
        assert min(took) < BUDGET_SECONDS, (query, took)
        body = response.get_json()
        assert body["games"] and body["next_cursor"]
        created = [g["created_at"] for g in body["games"]]
        assert created == sorted(created, reverse=True)


def test_pages_follow_each_other_without_a_gap_or_a_repeat(services, redis_client):
    rows = _write_index(redis_client, game_rows(redis_client, services.games.store), 500)
    client = create_app(services, TEST_CONFIG).test_client()
    seen, cursor = [], None
    while True:
        query = "status=lobby&open_seats=1&option=target:s1&limit=7" + (f"&cursor={cursor}" if cursor else "")
        body = client.get(f"/games?{query}").get_json()
        seen += [g["game_id"] for g in body["games"]]
        cursor = body["next_cursor"]
        if cursor is None:
            break
    wanted = [r for r in rows if r["status"] == "lobby" and r["open_seats"] and r["options"]["target"] == "s1"]
    assert seen == [r["game_id"] for r in sorted(wanted, key=lambda r: r["created_at"], reverse=True)]
