"""Webhooks against a local receiver: Standard Webhooks signatures, a retry after a 500, the 80% reminder."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from service import wiring
from service.api import create_app
from service.usecases.games import Games
from service.usecases.services import Services
from tests.conftest import wait_until
from tests.service.conftest import TEST_CONFIG
from tests.service.tables import Table, bearer, finish


class Receiver:
    """A small HTTP server on 127.0.0.1 that answers 500 to the first delivery of each message, then 200."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes, int]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.lock:
                    seen = sum(1 for h, _, _ in receiver.received if h.get("webhook-id") == self.headers["webhook-id"])
                    status = 500 if seen == 0 else 200
                    receiver.received.append((dict(self.headers), body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook?seat=1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def of_kind(self, kind: str) -> list[tuple[dict[str, str], bytes, int]]:
        with self.lock:
            return [r for r in self.received if json.loads(r[1])["type"] == kind]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    yield server
    server.close()


def test_signed_deliveries_a_retry_after_a_500_and_the_reminder(redis_client, games: Games, worker_env, receiver: Receiver):
    worker_env(HOLOTAPE_WEBHOOKS_ALLOW_PRIVATE="1", HOLOTAPE_WEBHOOK_BACKOFF_SECONDS="0.5")
    client = create_app(wiring.build(redis_client, allow_private_webhooks=True), TEST_CONFIG).test_client()
    created = client.post("/games", json={"game": "counter", "seats": 2, "seed": "hooks", "turn_seconds": 6}).get_json()
    game_id = created["game_id"]
    auth = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}
    first = client.get(f"/games/{game_id}/state").get_json()["waiting_for"][0]
    other = 1 - first
    registered = client.post(f"/games/{game_id}/webhooks", json={"url": receiver.url}, headers=auth[other])
    assert registered.status_code == 201, registered.get_json()
    hook = registered.get_json()
    assert hook["secret"].startswith("whsec_") and hook["seat"] == other
    assert "secret" not in client.get(f"/games/{game_id}/webhooks", headers=auth[other]).get_json()["webhooks"][0]

    version = client.get(f"/games/{game_id}/state").get_json()["version"]
    acted = client.post(f"/games/{game_id}/actions", json={"type": "add", "amount": 1},
                        headers={**auth[first], "If-Match": f'"{version}"'})  # fmt: skip
    assert acted.status_code == 200

    # "Your turn": refused once with a 500, delivered on the retry, both signed alike.
    turns = wait_until(lambda: len(receiver.of_kind("your_turn")) >= 2 and receiver.of_kind("your_turn"), 20,
                       message="the your-turn delivery and its retry")  # fmt: skip
    verifier = Webhook(hook["secret"])
    for headers, body, _ in turns:
        payload = verifier.verify(body, headers)
        assert payload["type"] == "your_turn" and payload["seat"] == other and payload["game_id"] == game_id
        assert "deadline" in payload
        # In words, for the seat: the pending decision as its prompt says it.
        assert payload["text"] == "Your turn: you must add 1, 2 or 3 to the total of 1 (50 wins)."
        # And the batch that made it the seat's turn, in the words its log reads.
        page = client.get(f"/games/{game_id}/events?limit=1000", headers=auth[other]).get_json()["events"]
        assert payload["events"] == [
            {"version": e["version"], "type": e["type"], "text": e["text"]}
            for e in page if version < e["version"] <= payload["since"]
        ] and payload["events"][0]["text"] == f"Seat {first} acts."
    assert [status for _, _, status in turns] == [500, 200]
    assert turns[0][0]["webhook-id"] == turns[1][0]["webhook-id"]  # the same message, retried
    with pytest.raises(WebhookVerificationError):
        Webhook("whsec_" + "A" * 32).verify(turns[0][1], turns[0][0])

    # The reminder, at 80% of the six seconds.
    reminders = wait_until(lambda: [r for r in receiver.of_kind("reminder") if r[2] == 200], 20,
                           message="the reminder")  # fmt: skip
    reminded = verifier.verify(reminders[0][1], reminders[0][0])
    assert reminded["seat"] == other
    assert reminded["text"].startswith(f"Reminder: your time runs out at {reminded['deadline']}. You must add")

    log = client.get(f"/games/{game_id}/webhooks/deliveries", headers=auth[other]).get_json()["deliveries"]
    turn_log = [d for d in log if d["kind"] == "your_turn"]
    assert [(d["attempt"], d["status"], d["ok"]) for d in reversed(turn_log)] == [(1, 500, False), (2, 200, True)]
    assert turn_log[-1]["next_attempt_in"] == 0.5
    assert client.get(f"/games/{game_id}/webhooks/deliveries", headers=auth[first]).get_json()["deliveries"] == []


def test_only_public_http_urls_are_taken(services: Services, games: Games):
    client = create_app(services, TEST_CONFIG).test_client()
    created = client.post("/games", json={"game": "counter", "seats": 1}).get_json()
    auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    url = f"/games/{created['game_id']}/webhooks"
    for bad in ("ftp://example.org/x", "http://127.0.0.1:9/x", "http://10.1.2.3/x", "http://[::1]/x",
                "http://169.254.169.254/latest", "http://user:pw@example.org/x"):  # fmt: skip
        refused = client.post(url, json={"url": bad}, headers=auth)
        assert refused.status_code == 422 and refused.get_json()["code"] == "webhook_url_refused", bad
    assert client.post(url, json={"url": "http://127.0.0.1/x"}).status_code == 401
    assert client.delete(f"{url}/wh_nope", headers=auth).get_json()["code"] == "no_such_webhook"


def test_rewind_proposals_and_the_game_over_are_told_too(redis_client, games: Games, worker_env, receiver: Receiver):

    worker_env(HOLOTAPE_WEBHOOKS_ALLOW_PRIVATE="1", HOLOTAPE_WEBHOOK_BACKOFF_SECONDS="0.5")
    client = create_app(wiring.build(redis_client, allow_private_webhooks=True), TEST_CONFIG).test_client()
    created = client.post("/games", json={"game": "counter", "seats": 2, "seed": "told"}).get_json()
    table = Table(created["game_id"], bearer(created["creator_token"]),
                  {s["seat"]: bearer(s["token"]) for s in created["seats"]})  # fmt: skip
    for seat in (0, 1):
        body = {"url": receiver.url, "kinds": ["rewind_proposed", "game_over"]}
        assert client.post(table.url("/webhooks"), json=body, headers=table.seats[seat]).status_code == 201
    first = client.get(table.url("/state")).get_json()["waiting_for"][0]
    version = client.get(table.url("/state")).get_json()["version"]
    client.post(table.url("/actions"), json={"type": "add", "amount": 1},
                headers={**table.seats[first], "If-Match": f'"{version}"'})  # fmt: skip
    proposed = client.post(table.url("/proposals"), json={"kind": "rewind", "to_version": version},
                           headers=table.seats[first])  # fmt: skip
    assert proposed.status_code == 201
    told = wait_until(lambda: [r for r in receiver.of_kind("rewind_proposed") if r[2] == 200], 20,
                      message="the rewind proposal")  # fmt: skip
    assert {json.loads(r[1])["seat"] for r in receiver.of_kind("rewind_proposed")} == {1 - first}
    assert json.loads(told[0][1])["proposal"]["to_version"] == version
    assert json.loads(told[0][1])["text"] == (
        f"Seat {first} proposes to rewind the game to version {version}; accept or decline."
    )
    assert json.loads(told[0][1])["events"] == [{"version": proposed.get_json()["proposal"]["id"], "type": "ProposalMade",
                                                 "text": f"Seat {first} proposes to rewind the game to version {version}."}]
    client.post(table.url(f"/proposals/{proposed.get_json()['proposal']['id']}/decline"), headers=table.seats[first])
    finish(client, table, games)
    wait_until(lambda: {json.loads(r[1])["seat"] for r in receiver.of_kind("game_over") if r[2] == 200} == {0, 1},
               20, message="both seats told the game is over")  # fmt: skip
    winner = games.load(table.game_id).state.module.outcome(games.load(table.game_id).state.state).winners[0]
    over = {json.loads(r[1])["text"] for r in receiver.of_kind("game_over")}
    assert over == {f"The game is over: seat {winner} won."}
    # The batch that ended the game, as each seat's log reads it after the end (unredacted, the seed revealed;
    # its own seat's doings addressed to it as "you").
    for _, body, _ in receiver.of_kind("game_over"):
        seat = json.loads(body)["seat"]
        ended = client.get(table.url("/events?limit=1000"), headers=table.seats[seat]).get_json()["events"]
        events = json.loads(body)["events"]
        assert events[-1]["type"] == "SeedRevealed" and events[0]["type"] == "CommandAccepted"
        assert events == [{"version": e["version"], "type": e["type"], "text": e["text"]}
                          for e in ended if events[0]["version"] <= e["version"]]
    assert all(json.loads(r[1])["type"] != "your_turn" for r in receiver.received)  # not asked for


def test_a_players_webhook_is_signed_with_its_own_secret_and_retried(redis_client, games: Games, worker_env,
                                                                     receiver: Receiver):  # fmt: skip
    """docs/players.md: a player-level webhook gets the notices of every seat bound to the player."""
    worker_env(HOLOTAPE_WEBHOOKS_ALLOW_PRIVATE="1", HOLOTAPE_WEBHOOK_BACKOFF_SECONDS="0.5")
    client = create_app(wiring.build(redis_client, allow_private_webhooks=True), TEST_CONFIG).test_client()
    ada = bearer(client.post("/players", json={"name": "Ada"}).get_json()["token"])
    settings = client.put("/players/me/notifications", json={"webhook": {"url": receiver.url, "kinds": ["your_turn"]}},
                          headers=ada).get_json()  # fmt: skip
    secret = settings["webhook_secret"]
    assert secret.startswith("whsec_") and "secret" not in client.get("/players/me/notifications", headers=ada).get_json()["webhook"]
    created = client.post("/games", json={"game": "counter", "seats": 2, "players": ["Ada"]}, headers=ada).get_json()
    game_id = created["game_id"]
    bo = client.post(f"/games/{game_id}/seats", json={"name": "Bo"}).get_json()
    client.post(f"/games/{game_id}/start", headers=ada)
    for _ in range(2):  # a turn of each: Ada's turn begins after the start at least once
        now = client.get(f"/games/{game_id}/state").get_json()
        seat = now["waiting_for"][0]
        headers = ada if seat == 0 else bearer(bo["token"])
        client.post(f"/games/{game_id}/actions", json={"type": "add", "amount": 1},
                    headers={**headers, "If-Match": f'"{now["version"]}"'})  # fmt: skip

    def retried():
        turns = receiver.of_kind("your_turn")
        first = turns[0][0]["webhook-id"] if turns else None
        same = [t for t in turns if t[0]["webhook-id"] == first]
        return len(same) >= 2 and same

    turns = wait_until(retried, 20, message="the player's your-turn delivery and its retry")
    payload = Webhook(secret).verify(turns[0][1], turns[0][0])
    assert payload["seat"] == 0 and payload["game_id"] == game_id and payload["text"].startswith("Your turn:")
    assert [status for _, _, status in turns] == [500, 200]
