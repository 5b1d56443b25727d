"""Two separate HTTP clients play a whole game against gunicorn, as a third party would.

Nothing of the project is imported here: the server is ``gunicorn
service.wsgi:app`` in its own process on the harness's Redis, the worker is
the harness's real rq worker, and the clients speak HTTP with the standard
library, using only what openapi.yaml documents. The game is the counter
test game (``HOLOTAPE_GAMES``), which hides a secret per seat.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import threading

from tests.service.gunicorn import Server, until


class Player:
    """One client: its own token, its own connections."""

    def __init__(self, server: Server, game_id: str, token: str):
        self.server, self.game_id, self.auth = server, game_id, {"Authorization": f"Bearer {token}"}

    def get(self, tail: str):
        return self.server.request("GET", f"/games/{self.game_id}{tail}", headers=self.auth)

    def post(self, tail: str, body=None, **headers):
        return self.server.request("POST", f"/games/{self.game_id}{tail}", body, {**self.auth, **headers})

    def state(self) -> dict:
        return self.get("/state")[2]

    def act(self, command: dict, version: int, **headers):
        return self.post("/actions", command, **{"If-Match": f'"{version}"', **headers})


class Listener(threading.Thread):
    """Reads a game's event stream; stops after ``stop_after`` events or when the server ends it.

    With ``stop_after``, a stream the server ends while idle is taken up again
    with Last-Event-ID, as a browser's EventSource does: the server closes a
    stream quiet for longer than its idle limit, and on a busy machine the
    worker's next tick may come later than that.
    """

    def __init__(self, player: Player, last_event_id: str | None = None, stop_after: int | None = None):
        super().__init__(daemon=True)
        self.player, self.last_event_id, self.stop_after = player, last_event_id, stop_after
        self.first: dict | None = None
        self.events: list[tuple[int, str]] = []
        self.keepalives = 0

    def run(self) -> None:
        while self._read() and self.stop_after is not None:
            pass

    def _read(self) -> bool:
        """One connection's messages; True if the server ended the stream before ``stop_after`` events."""
        headers = dict(self.player.auth)
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = self.last_event_id
        connection = http.client.HTTPConnection("127.0.0.1", self.player.server.port, timeout=30)
        connection.request("GET", f"/games/{self.player.game_id}/stream", headers=headers)
        response = connection.getresponse()
        assert response.status == 200
        message: dict[str, str] = {}
        try:
            while True:
                line = response.fp.readline().decode()
                if not line:
                    return True  # the server ended the stream
                line = line.rstrip("\n")
                if line.startswith(":"):
                    self.keepalives += "keep-alive" in line
                elif line:
                    name, _, value = line.partition(": ")
                    message[name] = value
                elif message:
                    if message.get("event") == "state":
                        state = json.loads(message["data"])
                        self.first = self.first or state
                        if self.last_event_id is None:
                            self.last_event_id = str(state["version"])
                    elif message.get("event") == "event":
                        self.events.append((int(message["id"]), json.loads(message["data"])["type"]))
                        self.last_event_id = message["id"]
                        if self.stop_after is not None and len(self.events) >= self.stop_after:
                            return False  # hang up mid-game, as a phone losing its signal would
                    message = {}
        finally:
            connection.close()


def test_two_clients_play_a_whole_game_over_http(server: Server):
    # Alice creates a game with one open seat; Bob finds it in the lobby and joins.
    status, _, created = server.request(
        "POST", "/games", {"game": "counter", "seats": 2, "players": ["Alice"]}
    )
    assert status == 201 and created["status"] == "lobby"
    game_id = created["game_id"]
    creator = Player(server, game_id, created["creator_token"])
    alice = Player(server, game_id, created["seats"][0]["token"])
    status, _, lobby = server.request("GET", "/games?status=lobby&open_seats=1&game=counter")
    assert game_id in [g["game_id"] for g in lobby["games"]]
    status, _, joined = server.request("POST", f"/games/{game_id}/seats", {"name": "Bob"})
    assert status == 201 and joined["seat"] == 1
    bob = Player(server, game_id, joined["token"])
    assert creator.post("/start")[0] == 200
    commitment = alice.state()["seed_commitment"]

    # Bob follows the game live, and hangs up after a few events.
    listening = Listener(bob, stop_after=4)
    listening.start()
    # Open once the stream has sent Bob's view: what is played from now on, he reads live.
    until(lambda: listening.first is not None, 10, "Bob's stream to open")

    # A conflicting double submission: both seats redraw at the same version.
    version = alice.state()["version"]
    answers: dict[str, tuple] = {}
    barrier = threading.Barrier(2)

    def redraw(name: str, player: Player):
        barrier.wait()
        answers[name] = player.act({"type": "redraw"}, version)

    racers = [threading.Thread(target=redraw, args=(n, p)) for n, p in (("alice", alice), ("bob", bob))]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(a[0] for a in answers.values()) == [200, 412]
    loser = next(a for a in answers.values() if a[0] == 412)
    assert loser[2]["code"] == "stale_version" and loser[2]["current_version"] == version + 2

    players = {0: alice, 1: bob}

    def whose_turn() -> tuple[Player, dict]:
        # The worker runs the ticks; wait until a seat must play.
        now = until(lambda: (s := alice.state())["waiting_for"] and s or (s["over"] and s), 20, "a seat's turn")
        return players[now["waiting_for"][0]] if not now["over"] else None, now

    # A retried submission with an Idempotency-Key acts once, answers twice alike.
    player, now = whose_turn()
    listed = player.get("/actions")[2]
    command = next(a for a in listed["actions"] if a.get("amount") == 3)
    first = player.act(command, listed["version"], **{"Idempotency-Key": "retry-1"})
    again = player.act(command, listed["version"], **{"Idempotency-Key": "retry-1"})
    assert first[0] == again[0] == 200 and first[2] == again[2]
    assert again[1].get("Idempotent-Replayed") == "true"
    assert alice.state()["view"]["total"] == now["view"]["total"] + 3

    listening.join(timeout=20)
    assert len(listening.events) == 4 and listening.first["seat"] == 1
    seen = list(listening.events)

    # A few moves while Bob is away; then a rewind that Bob accepts.
    for _ in range(3):
        player, now = whose_turn()
        assert player.act({"type": "add", "amount": 1}, now["version"])[0] == 200
    player, now = whose_turn()
    resting = now["version"]
    assert player.act({"type": "add", "amount": 2}, resting)[0] == 200
    status, _, proposal = alice.post("/proposals", {"kind": "rewind", "to_version": resting})
    assert status == 201 and proposal["outcome"] == "pending"
    status, _, accepted = bob.post(f"/proposals/{proposal['proposal']['id']}/accept")
    assert status == 200 and accepted["outcome"] == "rewound"
    assert alice.state()["view"]["total"] == now["view"]["total"]
    assert alice.get(f"/state?at={resting}")[2]["view"] == alice.state()["view"]

    # Bob comes back where he left off, and the game is played to its end.
    resumed = Listener(bob, last_event_id=str(seen[-1][0]))
    resumed.start()
    while True:
        player, now = whose_turn()
        if player is None:
            break
        assert player.act({"type": "add", "amount": 3}, now["version"])[0] == 200
    resumed.join(timeout=30)
    assert not resumed.is_alive()
    final = alice.state()
    assert final["over"] and final["status"] == "ended"
    ids = [v for v, _ in seen + resumed.events]
    assert ids == list(range(ids[0], final["version"] + 1)), "the stream lost or repeated an event"
    assert resumed.keepalives >= 1

    # The audit: the seed is revealed, matches the commitment, and every outcome checks out.
    status, _, verdict = bob.get("/audit")
    assert status == 200 and verdict["verdict"] == "fair", verdict
    assert verdict["seed_matches_commitment"] and verdict["version"] == final["version"]
    assert hashlib.sha256(final["seed"].encode()).hexdigest() == commitment
    status, headers, exported = bob.get("/export")
    lines = [json.loads(line) for line in exported.splitlines()]
    assert status == 200 and lines[-1]["hash"] == verdict["head_hash"]
    assert [e["type"] for e in lines].count("GameRewound") == 1


def test_two_clients_play_fallout_over_http(server: Server):
    """The same flow on Fallout, for a few turns and a round end (the game is far from over)."""
    status, _, created = server.request(
        "POST", "/games", {"game": "fallout", "seats": 2, "players": ["Alice"], "seed": "two-clients"}
    )
    assert status == 201
    game_id = created["game_id"]
    alice = Player(server, game_id, created["seats"][0]["token"])
    status, _, joined = server.request("POST", f"/games/{game_id}/seats", {"name": "Bob"})
    bob = Player(server, game_id, joined["token"])
    assert Player(server, game_id, created["creator_token"]).post("/start")[0] == 200
    players = {0: alice, 1: bob}
    listening = Listener(bob, stop_after=3)
    listening.start()

    def turn() -> tuple[Player, list[dict], int]:
        now = until(lambda: (s := alice.state())["waiting_for"] and s, 30, "a seat's decision")
        player = players[now["waiting_for"][0]]
        listed = player.get("/actions")[2]
        return player, listed["actions"], listed["version"]

    raced = retried = False
    rounds_seen = set()
    steps = 0
    while len(rounds_seen - {None}) < 2:  # until the worker has run a round end
        steps += 1
        assert steps < 300, "no round end after 300 moves"
        player, actions, version = turn()
        rounds_seen.add(alice.state()["view"].get("round"))
        if not raced and len(actions) >= 2:
            # One player, two devices, two different moves at the same version.
            answers = []
            racers = [threading.Thread(target=lambda c=c, answers=answers, player=player, version=version:
                                       answers.append(player.act(c, version)[0]))
                      for c in actions[:2]]  # fmt: skip
            for racer in racers:
                racer.start()
            for racer in racers:
                racer.join()
            assert sorted(answers) == [200, 412]
            raced = True
            continue
        command = next((a for a in actions if a["type"] == "end_turn"), actions[0])
        if not retried:
            first = player.act(command, version, **{"Idempotency-Key": "fallout-retry"})
            again = player.act(command, version, **{"Idempotency-Key": "fallout-retry"})
            assert first[0] == again[0] == 200 and first[2] == again[2]
            retried = True
            continue
        assert player.act(command, version)[0] == 200
    assert raced and retried

    # A rewind to just before the last move, accepted by the other seat.
    player, actions, version = turn()
    assert player.act(actions[0], version)[0] == 200
    proposer, accepter = (alice, bob) if player is alice else (bob, alice)
    status, _, proposal = proposer.post("/proposals", {"kind": "rewind", "to_version": version})
    assert status == 201, proposal
    status, _, done = accepter.post(f"/proposals/{proposal['proposal']['id']}/accept")
    assert done["outcome"] == "rewound"
    assert alice.state()["view"] == alice.get(f"/state?at={version}")[2]["view"]

    listening.join(timeout=20)
    resumed = Listener(bob, last_event_id=str(listening.events[-1][0]))
    resumed.run()  # reads until the server ends the idle stream
    ids = [v for v, _ in listening.events + resumed.events]
    assert ids == list(range(ids[0], alice.state()["version"] + 1))

    status, _, verdict = bob.get("/audit")
    assert status == 200 and verdict["verdict"] == "pending" and verdict["chain_ok"]
