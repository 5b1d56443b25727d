"""Words are a function of the log: every channel words every event alike, for every seat and a spectator.

DESIGN.md, invariant 8: an event's sentence depends on the log up to the
event and on the reader's seat only (and, through the redaction, on whether
the game has ended when it is read). So a random game of each hosted game is
played through the service on a real Redis, and every event's ``text`` is
read for every seat and a spectator through every channel: the answer to the
command that caused it (over HTTP for the acting seat; for the others, their
reading of that same answer), the live stream (the use case, and over HTTP),
the log's pages (several page sizes and starting points), a webhook's
``events`` and the export. Readings taken while the game runs must agree with
each other, and readings taken after its end with each other; and an event a
reader saw unredacted while the game ran reads the same after its end, since
nothing it depends on has changed.

The first ``CHECKED`` decisions are read through every channel as they are
made; the rest of the game only through the answers (every reader's reading of
each), so every event is still read while the game runs; after the end every
channel reads the whole log again.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from domain.game import SYSTEM, Game
from service.api import create_app
from service.usecases import notifications
from service.usecases.services import Services
from tests.service.conftest import TEST_CONFIG
from tests.service.tables import Table, bearer

#: Decisions read through every channel as they are made; the game then plays on to its end.
CHECKED = 120
#: At most this many decisions in all (a random game of every hosted game ends well before).
MOST = 4000
#: Page sizes the log is read in, each from a starting point of its own.
PAGE_SIZES = (1, 7, 100, 1000)

Reader = int | None


@dataclass
class Readings:
    """What each reader read for each version, and through which channel first."""

    when: str
    texts: dict[Reader, dict[int, tuple[str, str]]] = field(default_factory=dict)
    redacted: dict[Reader, dict[int, bool]] = field(default_factory=dict)

    def see(self, channel: str, reader: Reader, events: list[dict[str, Any]]) -> None:
        texts, redacted = self.texts.setdefault(reader, {}), self.redacted.setdefault(reader, {})
        for event in events:
            version, text = event["version"], event["text"]
            assert isinstance(text, str) and text.strip(), f"{channel}: version {version} has no words for {reader}"
            known = texts.setdefault(version, (text, channel))
            assert known[0] == text, (
                f"read {self.when}, version {version} ({event['type']}) for reader {reader}: "
                f"{channel} says {text!r}, {known[1]} said {known[0]!r}"
            )
            if "redacted" in event:
                redacted[version] = event["redacted"]


@dataclass
class Played:
    """A game played through the service, read by every seat and a spectator."""

    game: Game
    services: Services
    client: Any
    table: Table
    players: int
    pick: random.Random
    running: Readings = field(default_factory=lambda: Readings("while the game runs"))
    ended: Readings = field(default_factory=lambda: Readings("after the end"))
    streamed: dict[Reader, int] = field(default_factory=dict)

    @property
    def readers(self) -> list[Reader]:
        return [None, *range(self.players)]

    def headers(self, reader: Reader) -> dict[str, str]:
        return self.table.seats[reader] if reader is not None else {}

    def over(self) -> bool:
        return self.services.games.load(self.table.game_id).state.over

    def readings(self) -> Readings:
        return self.ended if self.over() else self.running

    # -- acting, and the answers ---------------------------------------------------

    def decide(self, over_http: bool = False) -> bool:
        """One decision (the system's when due, else a seat's), its answer read by the seat that sent it
        over HTTP, or by every reader through the use case; False once the game is over."""
        games, queries, game_id = self.services.games, self.services.queries, self.table.game_id
        loaded = games.load(game_id)
        record = loaded.state
        if record.over:
            return False
        module = record.module
        command = module.system_command(record.state)
        seat: int | str = SYSTEM
        if command is None:
            waited = module.waiting_for(record.state)
            able = [s for s in range(self.players) if module.legal_actions(record.state, s)]
            assert waited or able, "the game waits on nobody and nobody may act"
            seat = self.pick.choice(waited if waited and self.pick.random() < 0.9 else able)
            command = self.pick.choice(module.legal_actions(record.state, seat))
        if over_http and seat != SYSTEM:
            answer = self.client.post(
                self.table.url("/actions"), json=command, headers={**self.headers(seat), "If-Match": f'"{loaded.version}"'}
            )
            assert answer.status_code == 200, answer.get_json()
            self.readings().see("the answer to its POST", seat, answer.get_json()["events"])
            return True
        acted = games.act(game_id, seat, command, expected_version=loaded.version)
        readings = self.readings()
        for reader in self.readers:
            readings.see("the answer to the command, as it reads", reader, queries.acted(acted, reader)["events"])
        return True

    # -- the other channels --------------------------------------------------------

    def follow(self) -> None:
        """Each reader's stream (the use case), from where it got to."""
        readings, version = self.readings(), self.services.games.load(self.table.game_id).version
        for reader in self.readers:
            while self.streamed.get(reader, 0) < version:  # a wait with nothing to read lasts Redis's tick
                got = self.services.queries.follow(self.table.game_id, reader, self.streamed.get(reader, 0), 1)
                readings.see("the stream", reader, got)
                self.streamed[reader] = got[-1]["version"]

    def webhook(self, version: int) -> None:
        """The ``events`` a webhook about the batch holding ``version`` would carry to each seat."""
        readings = self.readings()
        told = self.services.queries.batch(self.table.game_id, version, list(range(self.players)))
        for seat in range(self.players):
            message = notifications.message(self.table.game_id, "your_turn", "m", seat, {"since": version}, told[seat])
            readings.see("a webhook", seat, message["payload"]["events"])

    def pages(self, reader: Reader, size: int, after: int, most: int | None = None) -> None:
        readings, url = self.readings(), self.table.url
        read = 0
        while after is not None and (most is None or read < most):
            page = self.client.get(url(f"/events?after={after}&limit={size}"), headers=self.headers(reader)).get_json()
            readings.see(f"a page of {size} after {after}", reader, page["events"])
            after, read = page["next_after"], read + 1

    def export(self, reader: Reader) -> None:
        lines = self.client.get(self.table.url("/export"), headers=self.headers(reader)).get_data(as_text=True)
        self.readings().see("the export", reader, [json.loads(line) for line in lines.splitlines()])

    def sse(self, reader: Reader, after: int) -> None:
        """The stream over HTTP from ``after`` to the version now, reconnecting with Last-Event-ID as a client does."""
        version = self.services.games.load(self.table.game_id).version
        while after < version:
            response = self.client.get(self.table.url("/stream"), headers={**self.headers(reader), "Last-Event-ID": str(after)})
            events = [json.loads(line[6:]) for line in response.get_data(as_text=True).splitlines() if line.startswith("data: ")][1:]
            self.readings().see("the stream over HTTP", reader, events)
            after = events[-1]["version"] if events else after

    def every_channel(self) -> None:
        """Every channel but the answers, for every reader, over the whole log."""
        version = self.services.games.load(self.table.game_id).version
        for n, reader in enumerate(self.readers):
            for size in PAGE_SIZES:  # a stretch of the log from anywhere
                self.pages(reader, size, self.pick.randrange(0, version), most=max(2, 200 // size))
            self.pages(reader, (100, 1000)[n % 2], 0)  # the whole log
            self.export(reader)
            self.sse(reader, self.pick.randrange(0, version))
        self.follow()
        for batch_end in sorted(self.pick.sample(range(1, version + 1), min(12, version))):
            self.webhook(batch_end)


@pytest.fixture
def played(game: Game, services: Services) -> Played:
    # Streams end soon after their last event: a test reads each to its end.
    client = create_app(services, {**TEST_CONFIG, "STREAM_IDLE_SECONDS": 0.05, "STREAM_KEEPALIVE_SECONDS": 0.05}).test_client()
    players = min(3, game.seats.max)
    created = client.post("/games", json={"game": game.name, "seats": players, "seed": f"channels-{game.name}"})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    table = Table(body["game_id"], bearer(body["creator_token"]), {s["seat"]: bearer(s["token"]) for s in body["seats"]})
    return Played(game, services, client, table, players, random.Random(f"channels-{game.name}"))


def test_every_channel_words_every_event_alike_for_every_seat_and_a_spectator(played: Played):
    decisions = 0
    while decisions < MOST:
        checked = decisions < CHECKED
        if not played.decide(over_http=checked and decisions % 2 == 0):
            break
        decisions += 1
        if checked:
            played.follow()
            played.webhook(played.services.games.load(played.table.game_id).version)
        if decisions in (10, CHECKED // 2, CHECKED):
            played.every_channel()
    assert played.over(), f"{played.game.name} did not end in {MOST} decisions"
    played.every_channel()

    # Whatever a reader saw unredacted while the game ran reads the same after its end.
    for reader in played.readers:
        ended = played.ended.texts[reader]
        for version, (text, channel) in played.running.texts[reader].items():
            if not played.running.redacted[reader].get(version, True):
                assert ended[version][0] == text, (
                    f"version {version} for {reader}: {channel} read {text!r} while the game ran, "
                    f"{ended[version][1]} reads {ended[version][0]!r} after its end"
                )
    assert len(played.ended.texts[None]) == played.services.games.load(played.table.game_id).version


def test_an_event_reads_as_it_did_when_made_once_the_board_and_the_table_moved_on(game: Game, played: Played):
    """Issue 21, item 6, its two examples: a fight naming an enemy that later leaves the map (its id may
    then be reused), and a seat asked to decide before it chose its survivor, read on the pages later
    as they did in the answers, and name the enemy and the seat as they were then."""
    if game.name != "fallout":
        pytest.skip("the two examples are Fallout's")
    store, game_id = played.services.games.store, played.table.game_id
    fights: list[int] = []
    for decisions in range(MOST):
        if not played.decide():
            break
        if decisions % 20 == 0:
            events = store.read(game_id)
            gone = {e.data.get("enemy"): e.version for e in events if e.type in ("EnemyKilled", "EnemyDiscarded")}
            # Fights on enemies that left the map after the fight, 100 versions ago or more.
            now = events[-1].version
            fights = [e.version for e in events if e.type == "FightStarted"
                      and e.version < gone.get(e.data["enemy"], now) < now - 100]  # fmt: skip
            if len(fights) >= 3:
                break
    assert fights, "no fight's enemy left the map"
    answers = played.readings()
    for reader in played.readers:
        played.pages(reader, 100, 0)  # each page checked against the answers (Readings.see)
    texts = {v: t for v, (t, _) in answers.texts[0].items()}
    for version in fights:
        assert not re.search(r"\benemy e\d+", texts[version]), texts[version]
    # Seat 1 was asked before it chose a survivor: its pages still say so, though it plays one now;
    # from its choice on, it is called by its survivor's name.
    events = store.read(game_id)
    asked = next(e for e in events if e.type == "DecisionRequested" and e.data["seat"] == 1)
    assert texts[asked.version] == "Seat 1 must decide: which survivor to play and where to start."
    chosen = next(e for e in events if e.type == "SurvivorChosen" and e.data["seat"] == 1)
    turn = next(e for e in events if e.type == "TurnStarted" and e.data["seat"] == 1 and e.version > chosen.version)
    assert not texts[turn.version].startswith("Seat "), texts[turn.version]
