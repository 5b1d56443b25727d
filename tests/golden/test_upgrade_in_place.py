"""An upgrade in place, as an operator does it: 197f728's Redis, served by this release (docs/versioning.md).

``legacy/197f728.rdb`` is the data 197f728's server left: one game played to
its end and one still running, with the plaintext tokens its players hold
(``legacy/197f728.json``). This release starts on that very data, with
nothing migrated: the ended game audits with 200 and the verdict documented
for a log from before rules versions, and the running game plays on, its
first command under this release preceded by ``RulesUpgraded``.

Both ways across an upgrade are also played on golden logs put back in a
store before their last command: rules that decide alike, and rules that
decide otherwise.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from domain import registry
from events.envelope import Envelope
from service import wiring
from service.adapters.embedded_redis import EmbeddedRedis
from service.api import create_app
from tests.golden.goldens import golden, restore
from tests.service.conftest import TEST_CONFIG

LEGACY = Path(__file__).resolve().parent / "legacy"
DESCRIBED = json.loads((LEGACY / "197f728.json").read_text())


def _game(ended: bool) -> dict[str, Any]:
    return next(g for g in DESCRIBED["games"] if g["ended"] is ended)


@pytest.fixture
def upgraded(tmp_path: Path) -> Iterator[Any]:
    """This release's API on a Valkey that loaded 197f728's RDB (a copy: the file stays as recorded)."""
    shutil.copyfile(LEGACY / "197f728.rdb", tmp_path / "dump.rdb")
    with EmbeddedRedis(tmp_path, durable=False) as server:
        client = redis.Redis.from_url(server.url)
        yield create_app(wiring.build(client), TEST_CONFIG).test_client()
        client.close()


def test_an_ended_game_of_197f728_audits_with_the_verdict_for_its_age(upgraded) -> None:
    game = _game(ended=True)
    response = upgraded.get(f"/games/{game['game_id']}/audit")
    assert response.status_code == 200, response.get_json()
    verdict = response.get_json()
    assert verdict["chain_ok"] and verdict["seed_matches_commitment"] and verdict["refolded"]
    assert verdict["verdict"] == "partial" and verdict["first_mismatch"] is None
    assert verdict["rules"] is None and verdict["rules_here"] == registry.game_module(game["game"]).rules
    assert verdict["decisions"].startswith(f"{verdict['decisions_other_rules']} recorded under fallout before rules versions")
    assert upgraded.get(f"/games/{game['game_id']}/state").get_json()["over"] is True


def test_a_running_game_of_197f728_plays_on_under_this_releases_rules(upgraded) -> None:
    game = _game(ended=False)
    url = f"/games/{game['game_id']}"
    pick = random.Random("upgrade-in-place")
    seen = upgraded.get(f"{url}/state").get_json()["version"]
    assert seen == game["version"]
    for _ in range(12):
        state = upgraded.get(f"{url}/state").get_json()
        if not state["waiting_for"]:
            break  # the round end is a worker's: not run here
        seat = state["waiting_for"][0]
        auth = {"Authorization": f"Bearer {game['tokens']['seats'][str(seat)]}"}
        actions = upgraded.get(f"{url}/actions", headers=auth).get_json()["actions"]
        answer = upgraded.post(f"{url}/actions", json=pick.choice(actions),
                               headers={**auth, "If-Match": f'"{state["version"]}"'})  # fmt: skip
        assert answer.status_code == 200, answer.get_json()
    log = upgraded.get(f"{url}/events?after=0&limit=1000").get_json()["events"]
    upgrades = [e for e in log if e["type"] == "RulesUpgraded"]
    assert len(upgrades) == 1 and upgrades[0]["version"] == seen + 1
    data = upgrades[0]["data"]
    assert data["from"] is None and data["to"] == registry.game_module(game["game"]).rules
    # 197f728 created this game without a scenario, which today's setup cannot deal: it diverges at its first batch.
    assert data["diverged_at"] == 1 and "There is no scenario None" in data["reason"]
    assert log[-1]["version"] > seen + 2  # and it went on
    audit = upgraded.get(f"{url}/audit").get_json()
    assert audit["verdict"] == "pending" and audit["upgrades"][0]["diverged_at"] == 1


def _running(name: str, redis_client, games) -> tuple[str, Envelope, list[Envelope]]:
    """A golden game put back in a store as it stood before its last command (its seed kept as the server keeps it).

    Returns its id, that last command's ``CommandAccepted`` and the events the recording appended after it.
    """
    log = golden(name)
    envelopes = log.envelopes
    last = max(i for i, e in enumerate(envelopes) if e.type == "CommandAccepted")
    restore(redis_client, envelopes[:last])
    games.seeds.keep(envelopes[0].game_id, log.secret)
    return envelopes[0].game_id, envelopes[last], envelopes[last + 1 :]


def test_a_golden_game_crosses_an_upgrade_whose_rules_decide_alike(redis_client, games, monkeypatch) -> None:
    """The same rules under a new number: RulesUpgraded finds every batch alike, and the game ends as recorded."""
    name = "fallout-2p-saltmarsh-reach"
    game_id, command, recorded = _running(name, redis_client, games)
    module = registry.game_module(golden(name).meta["game"])
    monkeypatch.setattr(type(module), "rules_version", module.rules_version + 1)
    acted = games.act(game_id, command.data["seat"], command.data["command"])
    upgrade = games.store.read(game_id, command.version, command.version)[0]
    assert upgrade.type == "RulesUpgraded"
    assert upgrade.data["diverged_at"] is None and upgrade.data["from"] == golden(name).rules
    assert [(e.type, e.data) for e in acted.envelopes[1:]] == [(e.type, e.data) for e in recorded]


def test_a_legacy_golden_game_crosses_an_upgrade_whose_rules_decide_otherwise(redis_client, games) -> None:
    """197f728's rules dealt this game otherwise than today's can: the game keeps its history and plays on."""
    name = "legacy-197f728-fallout-3p-bot"
    game_id, command, _ = _running(name, redis_client, games)
    kept = games.store.read(game_id)
    acted = games.act(game_id, command.data["seat"], command.data["command"])
    assert games.store.read(game_id, 1, len(kept)) == kept
    upgrade = games.store.read(game_id, command.version, command.version)[0]
    assert upgrade.type == "RulesUpgraded" and upgrade.data["from"] is None and upgrade.data["diverged_at"] == 1
    assert acted.version > command.version
