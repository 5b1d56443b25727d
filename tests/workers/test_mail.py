"""Players' mail through a real SMTP server on loopback (aiosmtpd), sent by a real worker (docs/players.md).

Exactly one "your turn" mail per turn for each subscribed player across a
whole game, with the worker killed (SIGKILL) once in the middle of a send;
none to an address not confirmed, none after a one-click unsubscribe; a
relay that refuses and then accepts gets the mail once; nothing at all when
no relay is configured.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import signal
import socket
import ssl
import subprocess
import threading
import time
from email.message import Message

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from service import wiring
from service.adapters.mail import Refusal, relay_from_url, smtp_send
from service.api import create_app
from service.usecases.ports import Mail
from service.usecases.record import BATCH_OPENERS
from tests.conftest import wait_until
from tests.service.conftest import TEST_CONFIG
from tests.service.tables import bearer, new_table, state

FAST = {
    "HOLOTAPE_MAIL_LEASE_SECONDS": "2",
    "HOLOTAPE_MAIL_BACKOFF_SECONDS": "1",
    "HOLOTAPE_STALL_SECONDS": "2",
    "HOLOTAPE_SWEEP_SECONDS": "1",
    "HOLOTAPE_PUBLIC_URL": "http://holotape.test",
}


class Relay:
    """aiosmtpd's handler: keeps each message it accepts; can refuse the first ones, or stall once."""

    def __init__(self, refuse: int = 0, stall_once: bool = False):
        self.messages: list[Message] = []
        self.refuse = refuse
        self.refused = 0
        self.stall_once = stall_once
        self.stalling = threading.Event()

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        if self.stall_once and not self.stalling.is_set() and message["Subject"].startswith("Your turn"):
            # The worker is in the middle of the send: the test kills it now; its connection
            # drops before the end of DATA is answered, so the relay takes nothing.
            self.stalling.set()
            await asyncio.sleep(6)
            return "451 4.4.2 the connection was lost"
        if self.refused < self.refuse:
            self.refused += 1
            return "451 4.3.0 try again later"
        self.messages.append(message)
        return "250 OK"

    def ids(self, subject: str = "") -> list[str]:
        return [m["X-Holotape-Mail"] for m in self.messages if m["Subject"].startswith(subject)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def relay_at(monkeypatch):
    """Start a relay (``relay_at(Relay(...))``) and point HOLOTAPE_SMTP_URL at it."""
    started = []

    def start(relay: Relay) -> Relay:
        port = _free_port()
        controller = Controller(relay, hostname="127.0.0.1", port=port)
        controller.start()
        started.append(controller)
        monkeypatch.setenv("HOLOTAPE_SMTP_URL", f"smtp://127.0.0.1:{port}?starttls=off")
        for name, value in FAST.items():
            monkeypatch.setenv(name, value)
        return relay

    yield start
    for controller in started:
        controller.stop()


def _client(redis_client):
    """The API on services built now, so they read the relay's address from the environment."""
    return create_app(wiring.build(redis_client), TEST_CONFIG).test_client()


def _player(client, name: str, email_address: str | None = None):
    body = {"name": name, **({"email": email_address} if email_address else {})}
    return bearer(client.post("/players", json=body).get_json()["token"])


def _confirm(client, relay: Relay, address: str) -> None:
    mail = wait_until(lambda: next((m for m in relay.messages if m["To"] == address), None), timeout=20,
                      message=f"the confirmation mail to {address}")  # fmt: skip
    code = mail.get_body(("plain",)).get_content().split("POST /players/confirm: ")[1].split()[0]
    assert client.post("/players/confirm", json={"code": code}).status_code == 200


def _turn_ids(games, game_id: str, seats: set[int]) -> set[str]:
    """The id of each "your turn" mail the game's log calls for: one per wait of each of ``seats``."""
    events = games.store.read(game_id)
    # A wait begins at the end of a batch (one append): read the record where each batch ends.
    ends = [e.version - 1 for e in events[1:] if e.type in BATCH_OPENERS]
    waits = set()
    for version in ends:
        record = games.load(game_id, at=version).state
        waits |= {(seat, w["since"]) for seat, w in record.waits.items() if seat in seats and record.started}
    return {f"turn-{game_id}-s{seat}-v{since}-to{seat}" for seat, since in waits}


@pytest.mark.slow
def test_one_your_turn_mail_per_turn_for_each_subscribed_player_with_a_worker_killed_mid_send(
    relay_at, worker_env, redis_client, games
):
    relay = relay_at(Relay(stall_once=True))
    client = _client(redis_client)
    running = worker_env()
    players = {
        0: _player(client, "Ada", "ada@example.org"),
        1: _player(client, "Bo", "bo@example.org"),
        2: _player(client, "Cy", "cy@example.org"),  # never confirmed
        3: _player(client, "Di", "di@example.org"),  # unsubscribes
    }
    for address in ("ada@example.org", "bo@example.org", "di@example.org"):
        _confirm(client, relay, address)
    # Ada creates the game and the others join it with their player tokens: every seat is bound before the start.
    created = client.post("/games", json={"game": "counter", "seats": 4, "players": ["Ada"], "options": {"target": 20}},
                          headers=players[0]).get_json()  # fmt: skip
    game_id = created["game_id"]
    seats = {0: bearer(created["seats"][0]["token"])}
    for seat in (1, 2, 3):
        joined = client.post(f"/games/{game_id}/seats", json={"name": f"p{seat}", "seat": seat}, headers=players[seat])
        seats[seat] = bearer(joined.get_json()["token"])
    # Di turns every kind of mail off; Cy never confirmed the address.
    assert client.put("/players/me/notifications", json={"email": []}, headers=players[3]).status_code == 200
    assert client.post(f"/games/{game_id}/start", headers=players[0]).status_code == 200

    killed = False
    while True:
        if not killed and relay.stalling.is_set():
            running.stop(signal.SIGKILL)  # in the middle of a send: the relay holds its DATA unanswered
            killed = True
            running = worker_env()
        now = client.get(f"/games/{game_id}/state").get_json()
        if now["over"]:
            break
        if not now["waiting_for"]:
            time.sleep(0.05)  # the worker's tick
            continue
        seat = now["waiting_for"][0]
        answer = client.post(f"/games/{game_id}/actions", json={"type": "add", "amount": 1},
                             headers={**seats[seat], "If-Match": f'"{now["version"]}"'})  # fmt: skip
        assert answer.status_code in (200, 409, 412)
        time.sleep(0.05)  # a player's pace: the mails go out as the game goes on
    assert killed, "no mail was in flight to kill the worker on"

    wanted = _turn_ids(games, game_id, {0, 1})
    deadline = time.monotonic() + 40
    while not set(relay.ids("Your turn")) >= wanted and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(1.5)  # a duplicate, if any, would come now
    sent = relay.ids("Your turn")
    assert sorted(sent) == sorted(wanted), (sorted(sent), sorted(wanted))  # one per turn of Ada and Bo, none else
    assert all(m["To"] in ("ada@example.org", "bo@example.org") for m in relay.messages if m["Subject"].startswith("Your turn"))
    over = wait_until(lambda: relay.ids("The game is over"), timeout=20, message="the game-over mails")
    assert len(over) == 2
    mail = next(m for m in relay.messages if m["Subject"].startswith("Your turn"))
    assert mail["List-Unsubscribe"].startswith("<http://holotape.test/players/unsubscribe/")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    text, page = mail.get_body(("plain",)).get_content(), mail.get_body(("html",)).get_content()
    assert f"http://holotape.test/lobby#open={game_id}:" in text and "<a href=" in page and "Your turn:" in text
    assert "http://holotape.test/lobby#unsubscribe=" in text and "lobby#unsubscribe=" in page


def test_an_unsubscribed_player_gets_no_more_mail(relay_at, worker_env, redis_client, games):
    relay = relay_at(Relay())
    worker_env()  # after the relay: it reads the relay's address from the environment
    client = _client(redis_client)
    ada = _player(client, "Ada", "ada@example.org")
    _confirm(client, relay, "ada@example.org")
    table = new_table(client, seats=2, players=["Ada", "Bo"], options={"target": 12})
    token = table.seats[0]["Authorization"].split()[1]
    client.post("/players/me/seats", json={"game_id": table.game_id, "token": token}, headers=ada)

    def play_a_turn():
        now = state(client, table)
        while not now["waiting_for"]:  # the worker's tick
            time.sleep(0.05)
            now = state(client, table)
        seat = now["waiting_for"][0]
        client.post(table.url("/actions"), json={"type": "add", "amount": 1},
                    headers={**table.seats[seat], "If-Match": f'"{now["version"]}"'})  # fmt: skip

    for _ in range(2):  # Ada's turn comes, after her binding
        play_a_turn()
    first = wait_until(lambda: next((m for m in relay.messages if m["Subject"].startswith("Your turn")), None),
                       timeout=20, message="Ada's first your-turn mail")  # fmt: skip
    link = first["List-Unsubscribe"].strip("<>").replace("http://holotape.test", "")
    clicked = client.post(link, data="List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    assert clicked.status_code == 200 and clicked.get_json() == {"unsubscribed": True}
    assert client.get("/players/me/notifications", headers=ada).get_json()["email"] == []
    count = len(relay.messages)
    for _ in range(4):  # Ada's turn comes back, twice
        play_a_turn()
    time.sleep(2)
    assert len(relay.messages) == count
    assert client.post("/players/unsubscribe/nobody.nothing").get_json()["code"] == "bad_unsubscribe_link"


def test_a_relay_that_refuses_and_then_accepts_gets_the_mail_once(relay_at, worker_env, redis_client):
    relay = relay_at(Relay(refuse=2))
    worker_env()
    client = _client(redis_client)
    _player(client, "Ada", "ada@example.org")
    wait_until(lambda: relay.messages, timeout=30, message="the confirmation mail, after two refusals")
    time.sleep(1)  # a duplicate, if any, would come now
    assert relay.refused == 2 and len(relay.messages) == 1
    assert relay.messages[0]["Subject"] == "Confirm your address"


def test_nothing_is_sent_without_a_relay_and_an_address_is_never_told_apart(redis_client, monkeypatch):
    monkeypatch.delenv("HOLOTAPE_SMTP_URL", raising=False)
    services = wiring.build(redis_client)
    client = create_app(services, TEST_CONFIG).test_client()
    assert not services.mailer.enabled()
    first = client.post("/players", json={"name": "Ada", "email": "ada@example.org"})
    second = client.post("/players", json={"name": "Eve", "email": "ada@example.org"})
    # The same answer, field for field, whoever had the address first: nothing says it is taken.
    assert first.status_code == second.status_code == 201
    assert set(first.get_json()) == set(second.get_json()) and not second.get_json()["email_confirmed"]
    assert services.mailer.outbox.stalled(time.time() + 3600) == []


def test_a_digest_gathers_the_notices_of_a_period_in_one_mail(relay_at, worker_env, redis_client):
    relay = relay_at(Relay())
    worker_env(HOLOTAPE_DIGEST_SECONDS="2")
    client = _client(redis_client)
    ada = _player(client, "Ada", "ada@example.org")
    _confirm(client, relay, "ada@example.org")
    assert client.put("/players/me/notifications", json={"digest": True}, headers=ada).get_json()["digest"] is True
    created = client.post("/games", json={"game": "counter", "seats": 2, "players": ["Ada", "Bo"]}, headers=ada).get_json()
    game_id = created["game_id"]
    seats = {s["seat"]: bearer(s["token"]) for s in created["seats"]}
    for _ in range(4):
        now = wait_until(lambda: (s := client.get(f"/games/{game_id}/state").get_json())["waiting_for"] and s,
                         message="a seat to play")  # fmt: skip
        seat = now["waiting_for"][0]
        client.post(f"/games/{game_id}/actions", json={"type": "add", "amount": 1},
                    headers={**seats[seat], "If-Match": f'"{now["version"]}"'})  # fmt: skip
    digests = wait_until(lambda: [m for m in relay.messages if m["Subject"].startswith("Your games")], timeout=20,
                         message="the digest")  # fmt: skip
    time.sleep(2.5)  # the period after, if a notice fell into it
    digests = [m for m in relay.messages if m["Subject"].startswith("Your games")]
    assert not relay.ids("Your turn"), "a digest replaces the mail per notice"
    told = sum(m.get_body(("plain",)).get_content().count("Your turn:") for m in digests)
    assert told >= 2 and len(digests) <= 3


def _certificate(folder) -> tuple[str, str]:
    """A self-signed certificate for localhost and 127.0.0.1, made by openssl: the relay's, and the CA to trust."""
    cert, key = str(folder / "relay.pem"), str(folder / "relay.key")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def test_the_relay_is_reached_over_starttls_with_a_login_and_a_plain_one_is_refused(tmp_path):
    """HOLOTAPE_SMTP_URL with a user: STARTTLS first (the certificate checked), then AUTH, then the mail."""
    cert, key = _certificate(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    logins = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        logins.append((auth_data.login.decode(), auth_data.password.decode(), session.ssl is not None))
        return AuthResult(success=True)

    relay, port = Relay(), _free_port()
    controller = Controller(relay, hostname="127.0.0.1", port=port, tls_context=context, require_starttls=True,
                            auth_required=True, authenticator=authenticator)  # fmt: skip
    controller.start()
    mail = Mail("test-1", "ada@example.org", "Your turn", "words\n", "<p>words</p>")
    try:
        smtp_send(relay_from_url(f"smtp://ada:s3cret@localhost:{port}?cafile={cert}"), mail)
        assert [m["X-Holotape-Mail"] for m in relay.messages] == ["test-1"]
        assert logins == [("ada", "s3cret", True)]  # the password crossed inside TLS
        with pytest.raises(Refusal):  # a certificate nobody vouches for
            smtp_send(relay_from_url(f"smtp://ada:s3cret@localhost:{port}"), mail)
    finally:
        controller.stop()
    plain_port = _free_port()
    plain = Controller(Relay(), hostname="127.0.0.1", port=plain_port)
    plain.start()
    try:
        with pytest.raises(Refusal, match="STARTTLS"):  # never a password in clear
            smtp_send(relay_from_url(f"smtp://ada:s3cret@127.0.0.1:{plain_port}"), mail)
    finally:
        plain.stop()
