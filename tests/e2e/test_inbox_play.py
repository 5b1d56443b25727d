"""Whole games played from the inbox only (docs/players.md), with a real worker.

Each player's client knows nothing but its player token: it asks its inbox
(GET /players/me/games, a long poll with If-None-Match) what waits for it, and
for each entry waiting lists that seat's actions and posts one chosen by one
of our bots from the seat's own view. The worker runs the game's automatic
steps and the bot seats. Zona's small test pack (an option the lobby offers)
keeps a game to a few dozen decisions: a solo game, and a game of two players
and a bot, each played to its end by the rules (Zona §"CEL GRY" or
§"PRZEGRANA"). Measured (the test's call; the worker and the generated client are
shared fixtures): 9 s for both games at a load average of 2 on two cores, 21 s at 6.
"""

from __future__ import annotations

import time

import pytest

from bots import make_bot
from domain.rng import Rng
from service.usecases.games import Games
from tests.service.client import Typed

#: A game's decisions, far above a test-pack game's (a runaway loop fails rather than hangs).
STEP_CAP = 800
OPTIONS = {"pack": "test"}


class InboxClient:
    """One player's client: its token, its last inbox ETag, and the bot that chooses its moves."""

    def __init__(self, typed: Typed, name: str, level: str):
        created = typed.call("createPlayer", None, body=typed.model("CreatePlayer")(name=name))
        self.typed, self.token, self.level = typed, created.token, level
        self.caller = typed.caller(created.token)
        self.etag: str | None = None
        self.last: list = []  # the entries the ETag stands for
        self.moves = 0

    def waiting(self, wait: int = 0) -> list:
        """The inbox's entries waiting for this player (a long poll of ``wait`` seconds when nothing changed)."""
        answer = self.typed.operation("listMyGames").sync_detailed(
            client=self.caller, status="waiting", wait=wait, if_none_match=self.etag or ""
        )
        if answer.status_code == 304:
            return self.last  # unchanged: what waited still waits
        assert answer.status_code == 200, answer.content
        self.etag = answer.headers["ETag"]
        self.last = list(answer.parsed.games)
        return self.last

    def play(self, entry, module, step: int) -> None:
        seat = self.typed.caller(self.token).with_headers({"Holotape-Seat": str(entry.seat)})
        listed = self.typed.call("listActions", seat, entry.game_id)
        actions = self.typed.raw["actions"]
        if not actions:
            return  # moved on since the inbox was read
        self.typed.call("getState", seat, entry.game_id)
        view = self.typed.raw["view"]
        command = make_bot(self.level).choose(module, view, actions, entry.seat, Rng(entry.game_id, f"policy/{step}"))
        answer = self.typed.operation("postAction").sync_detailed(
            entry.game_id, client=seat, body=listed.actions[actions.index(command)], if_match=f'"{listed.version}"'
        )
        assert answer.status_code in (200, 409, 412), answer.content  # 409/412: the game moved on meanwhile
        self.moves += answer.status_code == 200


def _play_from_inboxes(typed: Typed, games: Games, players: list[InboxClient], game_id: str) -> None:
    module = games.load(game_id).state.module
    idle = 0
    for step in range(STEP_CAP):
        if games.load(game_id).state.over:
            return
        entries = [(p, e) for p in players for e in p.waiting() if e.game_id == game_id]
        if not entries:
            # Nothing for anyone: the worker's turn (a bot, the round's end). Wait for a change.
            idle += 1
            assert idle < 30, f"the inboxes show nothing while the game waits for {games.load(game_id).state.module.waiting_for(games.load(game_id).state.state)}"
            players[step % len(players)].waiting(wait=2)
            continue
        idle = 0
        for player, entry in entries:
            player.play(entry, module, step)
    pytest.fail(f"no end in {STEP_CAP} rounds of the inboxes")


@pytest.mark.slow
def test_a_solo_game_and_a_two_player_game_are_played_from_the_inbox_only(typed: Typed, games: Games, worker):
    """Zona §"CEL GRY" / §"PRZEGRANA": each game ends by the rules, every human move made from an inbox."""
    started = time.monotonic()
    solo = InboxClient(typed, "Solo", "greedy")
    created = typed.call("createGame", solo.caller, body=typed.model("CreateZonaGame").from_dict(
        {"game": "zona", "seats": 1, "options": OPTIONS}))  # fmt: skip
    _play_from_inboxes(typed, games, [solo], created.game_id)

    ania, borys = InboxClient(typed, "Ania", "random"), InboxClient(typed, "Borys", "greedy")
    duo = typed.call("createGame", ania.caller, body=typed.model("CreateZonaGame").from_dict(
        {"game": "zona", "seats": 3, "players": ["Ania"], "options": OPTIONS, "bots": [{"seat": 2, "level": "random"}]}))  # fmt: skip
    typed.call("joinGame", borys.caller, duo.game_id, body=typed.model("Join")(name="Borys"))
    typed.call("startGame", ania.caller, duo.game_id)
    _play_from_inboxes(typed, games, [ania, borys], duo.game_id)

    for game_id, clients in ((created.game_id, [solo]), (duo.game_id, [ania, borys])):
        record = games.load(game_id).state
        assert record.over and record.module.outcome(record.state).over
        for client in clients:
            assert client.moves > 5
            ended = typed.call("listMyGames", client.caller, status="ended")
            assert game_id in [e.game_id for e in ended.games]
    actors = {e.actor for e in games.store.read(duo.game_id) if e.type == "CommandAccepted"}
    assert {"seat:0", "seat:1", "bot:random"} <= actors, actors
    assert time.monotonic() - started < 120
