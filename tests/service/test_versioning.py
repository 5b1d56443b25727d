"""A log means the same forever (docs/versioning.md): rules versions, games that cross an upgrade, audits of every age.

A release that changes the rules is played here by bumping the counter's
``rules_version`` (and, for a real change, making its die roll otherwise):
the data a game left in Redis is the same, the code that reads it is newer,
as in an upgrade in place.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.game import Event, Game
from service.usecases.automation import Automation
from tests.games.counter import COUNTER, Counter
from tests.service.tables import act, finish, new_table, play_on_turn, state


def _log(games, table) -> list:
    return games.store.read(table.game_id)


def _new_release(monkeypatch, *, rolls_otherwise: bool = False) -> None:
    """This process now runs counter/2; ``rolls_otherwise``: its die rolls one pip higher than counter/1's."""
    monkeypatch.setattr(Counter, "rules_version", 2)
    if rolls_otherwise:
        original = Counter.decide_and_fold

        def decide(self: Counter, state: Any, seat: Any, command: Any, rng: Any) -> list[Event]:
            events = original(self, state, seat, command, rng)[0]
            return [Event(e.type, {"roll": e.data["roll"] % 6 + 1}) if e.type == "Ticked" else e for e in events]

        monkeypatch.setattr(Counter, "decide", decide)
        monkeypatch.setattr(Counter, "decide_and_fold", Game.decide_and_fold)


def _decisions(games, table) -> int:
    """The batches that decide something so far: the setup and each command."""
    return 1 + sum(e.type == "CommandAccepted" for e in _log(games, table))


def _forget(games) -> None:
    """A new process: nothing of the old one's memory (the upgrade happens on a fresh load too)."""
    games.recent = type(games.recent)(games.recent.size)


def _tick(client, table, games) -> None:
    """Play on until the server has rolled the tick's die once."""
    while not any(e.type == "Ticked" for e in _log(games, table)):
        if state(client, table)["waiting_for"]:
            play_on_turn(client, table, 1)
        else:
            Automation(games).run_system(table.game_id)


def test_a_game_records_the_rules_it_is_played_under_and_pins_its_pack(games) -> None:
    counter = games.create("counter", {}, [{"seat": 0, "kind": "human"}])
    assert games.store.read(counter.game_id)[0].data["rules"] == "counter/1"
    fallout = games.create("fallout", {}, [{"seat": 0, "kind": "human"}])
    created = games.store.read(fallout.game_id)[0].data
    assert created["rules"] == "fallout/2"
    assert created["options"]["pack"].startswith("base@") and len(created["options"]["pack"]) == len("base@") + 64
    assert games.load(fallout.game_id).state.state.pack == created["options"]["pack"]


def test_a_game_in_progress_crosses_an_upgrade_that_decides_alike(client, games, monkeypatch) -> None:
    table = new_table(client)
    play_on_turn(client, table, 3)
    _tick(client, table, games)
    before = state(client, table)["version"]
    decided = _decisions(games, table)
    _new_release(monkeypatch)
    _forget(games)
    play_on_turn(client, table, 3)
    upgraded = [e for e in _log(games, table) if e.type == "RulesUpgraded"]
    assert len(upgraded) == 1 and upgraded[0].version == before + 1
    assert upgraded[0].data == {"from": "counter/1", "to": "counter/2", "replayed": decided, "diverged_at": None,
                                "reason": None}
    told = client.get(table.url(f"/events?after={before}&limit=1")).get_json()["events"][0]
    assert told["text"] == "The game moves from counter/1 to counter/2; every recorded move comes out the same under them."
    finish(client, table, games)
    assert [e.type for e in _log(games, table)].count("RulesUpgraded") == 1  # once, not on every command
    verdict = client.get(table.url("/audit")).get_json()
    assert verdict["verdict"] == "fair", verdict
    assert verdict["rules"] == "counter/1" and verdict["rules_here"] == "counter/2"
    assert verdict["upgrades"] == [{"version": before + 1, "from": "counter/1", "to": "counter/2", "diverged_at": None}]
    assert verdict["decisions_other_rules"] == decided and verdict["decisions_reproduced"] == decided
    assert "every one reproduced by counter/2" in verdict["decisions"]


def test_a_game_whose_rules_now_decide_otherwise_keeps_its_history_and_plays_on(client, games, monkeypatch) -> None:
    table = new_table(client)
    play_on_turn(client, table, 3)
    _tick(client, table, games)
    recorded = _log(games, table)
    decided = _decisions(games, table)
    tick = next(e for e in recorded if e.type == "CommandAccepted" and e.data["seat"] == "system")
    _new_release(monkeypatch, rolls_otherwise=True)
    _forget(games)
    play_on_turn(client, table, 3)
    after = _log(games, table)
    assert after[: len(recorded)] == recorded  # history kept as it was
    upgrade = next(e for e in after if e.type == "RulesUpgraded")
    assert upgrade.data["diverged_at"] == tick.version and "decide otherwise" in upgrade.data["reason"]
    told = client.get(table.url(f"/events?after={upgrade.version - 1}&limit=1")).get_json()["events"][0]
    assert told["text"] == (f"The game moves from counter/1 to counter/2, which decide version {tick.version} "
                            "otherwise; the game keeps its history and goes on from where it stands.")
    finish(client, table, games)
    verdict = client.get(table.url("/audit")).get_json()
    assert verdict["verdict"] == "partial", verdict
    assert verdict["first_mismatch"] is None  # everything decided under counter/2 is counter/2's
    assert verdict["decisions_checked"] >= 1
    assert verdict["decisions_other_rules"] == decided and verdict["decisions_reproduced"] < decided
    assert "recorded under counter/1, not re-decided by counter/2" in verdict["decisions"]


def test_an_ended_game_of_older_rules_audits_with_what_was_and_was_not_decided_again(client, games, monkeypatch) -> None:
    table = new_table(client)
    finish(client, table, games)
    assert client.get(table.url("/audit")).get_json()["verdict"] == "fair"
    _new_release(monkeypatch, rolls_otherwise=True)
    _forget(games)
    response = client.get(table.url("/audit"))
    assert response.status_code == 200
    verdict = response.get_json()
    assert verdict["verdict"] == "partial" and verdict["seed_matches_commitment"] and verdict["refolded"]
    assert verdict["decisions_checked"] == 0 and verdict["decisions_other_rules"] > verdict["decisions_reproduced"]
    assert verdict["decisions"].startswith(f"{verdict['decisions_other_rules']} recorded under counter/1")
    assert not [e for e in _log(games, table) if e.type == "RulesUpgraded"]  # an ended game is not upgraded


def test_a_game_created_in_the_lobby_before_an_upgrade_starts_under_the_new_rules(client, games, monkeypatch) -> None:
    table = new_table(client, seed=None, start=False)
    _new_release(monkeypatch)
    _forget(games)
    assert client.post(table.url("/start"), headers=table.creator).status_code == 200
    types = [e.type for e in _log(games, table)]
    assert types[types.index("GameStarted") - 1] == "RulesUpgraded"
    finish(client, table, games)
    verdict = client.get(table.url("/audit")).get_json()
    assert verdict["verdict"] == "fair" and verdict["decisions_other_rules"] == 0


@pytest.mark.parametrize("rolls_otherwise", [False, True])
def test_a_stale_version_is_still_refused_across_an_upgrade(client, games, monkeypatch, rolls_otherwise) -> None:
    """The upgrade is the server's own doing: a client's If-Match still names the version it saw."""
    table = new_table(client)
    seen = state(client, table)["version"]
    play_on_turn(client, table, 1)
    _new_release(monkeypatch, rolls_otherwise=rolls_otherwise)
    _forget(games)
    turn = state(client, table)["waiting_for"][0]
    stale = act(client, table, turn, {"type": "add", "amount": 1}, version=seen)
    assert stale.status_code == 412
    assert not [e for e in _log(games, table) if e.type == "RulesUpgraded"]


def test_snapshots_keep_the_rules_version(games) -> None:
    created = games.create("counter", {}, [{"seat": 0, "kind": "human"}])
    record = games.load(created.game_id).state
    folder = games.folder
    again = folder.load(folder.dump(replace(record, rules="counter/1", upgrades=({"version": 3},))))
    assert again.rules == "counter/1" and again.upgrades == ({"version": 3},)
    assert COUNTER.rules == "counter/1"
