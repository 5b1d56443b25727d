"""Setting a table over HTTP: create a counter game and act at its seats."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from events.encoding import decode_rows, flattened
from events.envelope import Envelope
from events.store import stream_key
from service.usecases.automation import Automation


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Table:
    game_id: str
    creator: dict[str, str]
    seats: dict[int, dict[str, str]] = field(default_factory=dict)

    def url(self, tail: str = "") -> str:
        return f"/games/{self.game_id}{tail}"


def new_table(client, seats: int = 2, seed: str | None = "http", **body) -> Table:
    """A counter game; ``seed=None``: the server's secret, mixed with the seats' contributions."""
    chosen = {"seed": seed} if seed is not None else {}
    response = client.post("/games", json={"game": "counter", "seats": seats, **chosen, **body})
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    return Table(
        created["game_id"],
        bearer(created["creator_token"]),
        {s["seat"]: bearer(s["token"]) for s in created["seats"]},
    )


def state(client, table: Table, seat: int | None = None) -> dict:
    headers = table.seats[seat] if seat is not None else {}
    return client.get(table.url("/state"), headers=headers).get_json()


def act(client, table: Table, seat: int, command: dict, version: int | None = None, **headers):
    """Post ``command`` for ``seat`` at ``version`` (default: the version now)."""
    if version is None:
        version = state(client, table)["version"]
    return client.post(
        table.url("/actions"),
        json=command,
        headers={**table.seats[seat], "If-Match": f'"{version}"', **headers},
    )


def play_on_turn(client, table: Table, amount: int = 1):
    """The seat whose turn it is adds ``amount``."""
    turn = state(client, table)["waiting_for"][0]
    response = act(client, table, turn, {"type": "add", "amount": amount})
    assert response.status_code == 200, response.get_json()
    return response


def finish(client, table: Table, games) -> dict:
    """Play the counter game to its end, running its ticks in-process."""
    while True:
        now = state(client, table)
        if now["over"]:
            return now
        if not now["waiting_for"]:
            Automation(games).run_system(table.game_id)
            continue
        play_on_turn(client, table, 3)


def rewrite_log(redis_client, game_id, change, rehash):
    """Edit the stored log behind the store's back, as someone with Redis access could."""
    key = stream_key(game_id)
    envelopes = decode_rows(game_id, flattened(redis_client.xrange(key)), lead=False)
    redis_client.delete(key)
    prev = None
    for envelope in envelopes:
        entry_id = f"0-{envelope.version}"
        body = change(envelope.as_dict())
        if rehash:
            if prev is not None:
                body["prev_hash"] = prev
            body["hash"] = Envelope(**body).computed_hash()
            prev = body["hash"]
        redis_client.xadd(key, {"e": json.dumps(body)}, id=entry_id)
    if rehash:
        redis_client.hset(f"game:{{{game_id}}}:head", "hash", prev)
