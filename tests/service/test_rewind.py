"""Rewind and fork by agreement: the state goes back, the log keeps everything."""

from __future__ import annotations

from events.snapshots import fold
from service import wiring
from service.usecases.proposals import Proposals
from tests.service.tables import act, finish, new_table, play_on_turn, state


def _two_moves(client):
    table = new_table(client)
    play_on_turn(client, table, 2)  # versions 4, 5
    play_on_turn(client, table, 3)  # versions 6, 7
    return table


def test_a_rewind_accepted_by_the_other_seat_returns_the_game_to_that_version(client, games):
    table = _two_moves(client)
    proposed = client.post(table.url("/proposals"), json={"kind": "rewind", "to_version": 5}, headers=table.seats[0])
    assert proposed.status_code == 201
    body = proposed.get_json()
    assert body["outcome"] == "pending" and body["proposal"]["id"] == 8 and body["proposal"]["accepted"] == [0]
    assert state(client, table)["proposal"]["kind"] == "rewind"
    twice = client.post(table.url("/proposals/8/accept"), headers=table.seats[0])
    assert twice.status_code == 409 and twice.get_json()["code"] == "already_accepted"
    accepted = client.post(table.url("/proposals/8/accept"), headers=table.seats[1])
    assert accepted.status_code == 200 and accepted.get_json()["outcome"] == "rewound"

    now = state(client, table)
    assert now["view"]["total"] == 2 and now["proposal"] is None and now["version"] == 10
    assert now["view"] == client.get(table.url("/state?at=5")).get_json()["view"]
    types = [e["type"] for e in client.get(table.url("/events")).get_json()["events"]]
    assert types[-3:] == ["ProposalMade", "ProposalAccepted", "GameRewound"] and types.count("Added") == 2
    # Play goes on from the earlier state, and folding without snapshots agrees.
    play_on_turn(client, table, 1)
    assert state(client, table)["view"]["total"] == 3
    assert fold(games.store, None, games.folder, table.game_id).state == games.load(table.game_id).state


def test_a_declined_proposal_changes_nothing_and_frees_the_way_for_another(client):
    table = _two_moves(client)
    client.post(table.url("/proposals"), json={"kind": "rewind", "to_version": 5}, headers=table.seats[0])
    pending = client.post(table.url("/proposals"), json={"kind": "rewind", "to_version": 3}, headers=table.seats[1])
    assert pending.status_code == 409 and pending.get_json()["code"] == "proposal_pending"
    declined = client.post(table.url("/proposals/8/decline"), headers=table.seats[1])
    assert declined.get_json()["outcome"] == "declined"
    assert state(client, table)["view"]["total"] == 5 and state(client, table)["proposal"] is None
    gone = client.post(table.url("/proposals/8/accept"), headers=table.seats[1])
    assert gone.status_code == 404 and gone.get_json()["code"] == "no_such_proposal"


def test_a_player_leaving_drops_the_pending_proposal(client):
    table = _two_moves(client)
    client.post(table.url("/proposals"), json={"kind": "rewind", "to_version": 5}, headers=table.seats[0])
    assert client.delete(table.url("/seats/1"), headers=table.seats[1]).status_code == 200
    assert state(client, table)["proposal"] is None
    again = client.post(table.url("/proposals"), json={"kind": "rewind", "to_version": 5}, headers=table.seats[0])
    assert again.get_json()["outcome"] == "rewound"  # nobody else to ask now


def test_only_resting_points_after_the_start_can_be_returned_to(client):
    table = _two_moves(client)
    # Version 2 is the GameStarted before the setup dealt in its batch (docs/audit.md): mid-batch.
    wrong = ((1, "bad_version"), (2, "not_a_resting_point"), (7, "bad_version"), (4, "not_a_resting_point"), (99, "bad_version"))
    for version, code in wrong:
        response = client.post(
            table.url("/proposals"), json={"kind": "rewind", "to_version": version}, headers=table.seats[0]
        )
        assert response.status_code == 422 and response.get_json()["code"] == code, version
    spectator = client.post(table.url("/proposals"), json={"kind": "rewind", "to_version": 5})
    assert spectator.status_code == 401


def test_alone_at_the_table_a_rewind_happens_at_once(client):
    table = new_table(client, seats=1)
    play_on_turn(client, table, 2)
    done = client.post(table.url("/proposals"), json={"kind": "rewind", "to_version": 3}, headers=table.seats[0])
    assert done.get_json()["outcome"] == "rewound"
    assert state(client, table)["view"]["total"] == 0


def test_a_snapshot_taken_after_a_rewind_is_right(redis_client):
    games = wiring.build(redis_client, snapshot_every=3).games
    game_id = games.create("counter", {}, [{"seat": 0, "kind": "human", "name": None, "bot": None}], seed="snap").game_id
    for _ in range(3):
        games.act(game_id, 0, {"type": "add", "amount": 1})

    Proposals(games).propose(game_id, 0, "rewind", 5)
    for _ in range(2):
        games.act(game_id, 0, {"type": "add", "amount": 2})
    loaded = games.load(game_id)
    assert loaded.from_snapshot > 0
    assert loaded.state == fold(games.store, None, games.folder, game_id).state
    assert loaded.state.state.total == 5


def test_a_fork_agreed_by_every_seat_is_a_new_game_with_the_same_seats(client, games):
    table = _two_moves(client)
    client.post(table.url("/proposals"), json={"kind": "fork", "to_version": 5}, headers=table.seats[1])
    forked = client.post(table.url("/proposals/8/accept"), headers=table.seats[0]).get_json()
    assert forked["outcome"] == "forked"
    fork = forked["fork_game_id"]
    view = client.get(f"/games/{fork}/state", headers=table.seats[0]).get_json()
    assert view["view"]["total"] == 2 and view["status"] == "running" and view["seat"] == 0
    assert state(client, table)["view"]["total"] == 5  # the origin goes on unchanged
    origin_log = client.get(table.url("/events")).get_json()["events"]
    assert origin_log[-1]["type"] == "GameForked" and origin_log[-1]["data"]["fork_game_id"] == fork
    # The fork's seed is its own, and its first state is hidden while it runs.
    fork_log = client.get(f"/games/{fork}/events").get_json()["events"]
    assert fork_log[0]["data"]["seed_commitment"] != origin_log[0]["data"]["seed_commitment"]
    assert fork_log[1]["type"] == "ForkedFrom" and fork_log[1]["data"]["state"] is None
    assert fork_log[1]["data"]["hash"] == origin_log[4]["hash"]
    turn = view["waiting_for"][0]
    assert act(client, type(table)(fork, table.creator, table.seats), turn, {"type": "add", "amount": 1}).status_code == 200


def test_a_finished_game_forks_at_once(client, games):
    table = new_table(client, seats=2)
    finish(client, table, games)
    before = state(client, table)["version"]
    forked = client.post(table.url("/proposals"), json={"kind": "fork", "to_version": 5}, headers=table.seats[0])
    assert forked.status_code == 201 and forked.get_json()["outcome"] == "forked"
    assert state(client, table)["version"] == before
    assert client.get(f"/games/{forked.get_json()['fork_game_id']}/state").get_json()["view"]["total"] == 3
