"""The audit: the chain, the seed against its commitment, and every outcome re-derived."""

from __future__ import annotations

import hashlib
import json

from domain.game import Event
from domain.rng import Rng
from tests.games.counter import COUNTER
from tests.service.tables import finish, new_table, play_on_turn, rewrite_log


def test_while_the_game_runs_the_audit_checks_the_chain_and_waits_for_the_seed(client):
    table = new_table(client)
    play_on_turn(client, table)
    verdict = client.get(table.url("/audit"), headers=table.seats[0]).get_json()
    assert verdict["verdict"] == "pending" and verdict["chain_ok"] and not verdict["seed_revealed"]
    assert verdict["version"] == 5


def test_a_finished_game_is_fair_every_batch_re_derived_from_the_revealed_seed(client, games):
    table = new_table(client)
    finish(client, table, games)
    verdict = client.get(table.url("/audit")).get_json()
    commands = [e for e in games.store.read(table.game_id) if e.type == "CommandAccepted"]
    assert verdict["verdict"] == "fair" and verdict["seed_matches_commitment"]
    assert verdict["decisions_checked"] == len(commands) + 1  # and the setup
    assert any(e.data["seat"] == "system" for e in commands)  # the ticks were checked too


def test_a_changed_outcome_is_caught_even_with_a_rebuilt_chain(client, games, redis_client):
    table = new_table(client)
    finish(client, table, games)
    ticked = next(e for e in games.store.read(table.game_id) if e.type == "Ticked")

    def loaded_die(body):
        if body["version"] == ticked.version:
            body["data"] = {"roll": ticked.data["roll"] % 6 + 1}
        return body

    rewrite_log(redis_client, table.game_id, loaded_die, rehash=False)
    broken = client.get(table.url("/audit")).get_json()
    assert broken["verdict"] == "chain_broken" and broken["chain_broken_at"] == ticked.version
    rewrite_log(redis_client, table.game_id, lambda body: body, rehash=True)
    unfair = client.get(table.url("/audit")).get_json()
    assert unfair["chain_ok"] and unfair["verdict"] == "unfair"
    assert unfair["first_mismatch"] == ticked.version - 1  # the batch's CommandAccepted


def test_rewinds_and_forks_audit_fair(client, games):
    table = new_table(client)
    play_on_turn(client, table, 2)
    client.post(table.url("/proposals"), json={"kind": "rewind", "to_version": 3}, headers=table.seats[0])
    client.post(table.url("/proposals/6/accept"), headers=table.seats[1])
    client.post(table.url("/proposals"), json={"kind": "fork", "to_version": 5}, headers=table.seats[0])
    fork = client.post(table.url("/proposals/9/accept"), headers=table.seats[1]).get_json()["fork_game_id"]
    finish(client, table, games)
    assert client.get(table.url("/audit")).get_json()["verdict"] == "fair"
    forked = type(table)(fork, table.creator, table.seats)
    assert client.get(forked.url("/audit")).get_json()["fork_origin_ok"] is True
    finish(client, forked, games)
    verdict = client.get(forked.url("/audit")).get_json()
    assert verdict["verdict"] == "fair" and verdict["fork_origin_ok"] is True
    assert client.get(table.url("/audit")).get_json()["fork_origin_ok"] is None


def test_a_fork_whose_first_state_is_not_its_origins_is_unfair(client, games, redis_client):
    table = new_table(client, seats=1)
    play_on_turn(client, table, 2)
    fork = client.post(table.url("/proposals"), json={"kind": "fork", "to_version": 5}, headers=table.seats[0])
    forked = type(table)(fork.get_json()["fork_game_id"], table.creator, table.seats)

    def richer(body):
        if body["type"] == "ForkedFrom":
            body["data"]["state"]["total"] = 40
        return body

    rewrite_log(redis_client, forked.game_id, richer, rehash=True)
    verdict = client.get(forked.url("/audit")).get_json()
    assert verdict["chain_ok"] and verdict["fork_origin_ok"] is False and verdict["verdict"] == "unfair"


def test_a_client_can_recompute_the_verdict_from_the_export_alone(client, games):
    """docs/audit.md, step by step, with nothing of ours but the game's rules."""
    table = new_table(client)
    finish(client, table, games)
    lines = client.get(table.url("/export")).get_data(as_text=True).splitlines()
    events = [json.loads(line) for line in lines]
    prev = "0" * 64
    for number, event in enumerate(events, start=1):
        assert event["version"] == number and event["prev_hash"] == prev
        content = {k: v for k, v in event.items() if k not in ("hash", "redacted", "text")}
        canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert hashlib.sha256(canonical.encode()).hexdigest() == event["hash"]
        prev = event["hash"]
    seed = events[-1]["data"]["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == events[0]["data"]["seed_commitment"]
    state, checked = COUNTER.initial_state(), 0
    meta = {"GameCreated", "GameStarted", "CommandAccepted", "SeedRevealed"}
    for i, event in enumerate(events):
        if event["type"] == "CommandAccepted":
            run = []
            for later in events[i + 1 :]:
                if later["type"] in meta:
                    break
                run.append([later["type"], later["data"]])
            rng = Rng.for_position(seed, event["version"] - 1)
            decided = COUNTER.decide(state, event["data"]["seat"], event["data"]["command"], rng)
            assert [[e.type, e.data] for e in decided] == run
            checked += 1
        elif event["type"] not in meta:

            state = COUNTER.evolve(state, Event(event["type"], event["data"]))
    verdict = client.get(table.url("/audit")).get_json()
    assert verdict["head_hash"] == prev and verdict["decisions_checked"] == checked + 1
