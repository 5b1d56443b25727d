"""Game index rows put straight into Redis (no games played), for the listing's scale test and the bench."""

from __future__ import annotations

import json

from service.usecases.index import listing_indexes


def index_row(n: int) -> dict:
    status = ("lobby", "running", "ended")[n % 3]
    kinds = ["human", "open"] if status == "lobby" and n % 2 else ["human", "human"]
    return {
        "game_id": f"{n:032x}", "game": "counter", "seats": 2, "options": {"target": f"s{n % 7}"},
        "seat_kinds": kinds, "names": ["Ann", None], "open_seats": kinds.count("open"), "status": status,
        "created_at": f"2026-01-01T00:00:00.{n:07d}Z", "updated_at": "2026-01-01T00:00:00Z",
        "version": 3,
    }  # fmt: skip


def write_index(redis_client, projection, count: int) -> list[dict]:
    """Index entries as the projection writes them, put straight in (no games played)."""
    projection.catch_up()
    rows = [index_row(n) for n in range(count)]
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
