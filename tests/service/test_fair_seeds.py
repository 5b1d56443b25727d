"""Fair seeds (docs/audit.md, "The seed"): the server's secret, committed at creation, mixed with
each seat's contribution given before the start; the setup dealt only at the start; the audit
checks all of it, and nothing served before the end lets anyone compute the seed."""

from __future__ import annotations

import hashlib
import json

from domain.rng import Rng
from events.envelope import NewEvent
from service.usecases import genesis
from service.usecases.audit import audit
from service.usecases.lobby import Lobby
from service.usecases.record import Record, RecordFolder, apply
from tests.games.counter import COUNTER
from tests.service.tables import Table, bearer, finish, new_table, play_on_turn, rewrite_log, state

ANN = "ann-" + "a1" * 14  # what a client would draw at random; fixed here to find it in answers
BOB = "bob-" + "b2" * 14


def _contributed_table(client) -> Table:
    """Ann takes seat 0 at creation and contributes; Bob joins seat 1 with his; the creator starts."""
    table = new_table(client, seed=None, players=["Ann"])
    given = client.put(table.url("/seats/0/contribution"), json={"contribution": ANN}, headers=table.seats[0])
    assert given.status_code == 200, given.get_json()
    joined = client.post(table.url("/seats"), json={"name": "Bob", "contribution": BOB})
    assert joined.status_code == 201, joined.get_json()
    table.seats[1] = bearer(joined.get_json()["token"])
    return table


def _derived(secret: str, contributions: dict[int, str]) -> str:
    """docs/audit.md's formula, written out again from the page."""
    mixed = {"secret": secret, "contributions": [[seat, c] for seat, c in sorted(contributions.items())]}
    return hashlib.sha256(json.dumps(mixed, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def test_two_seats_contribute_play_to_the_end_and_the_audit_reads_fair(client, games):
    table = _contributed_table(client)
    # Before the start each seat sees the other's contribution, in the state and in the log.
    ann_sees = state(client, table, 0)
    assert ann_sees["contributions"] == [{"seat": 0, "contribution": ANN}, {"seat": 1, "contribution": BOB}]
    logged = client.get(table.url("/events"), headers=table.seats[0]).get_json()["events"]
    assert [e["data"] for e in logged if e["type"] == "ContributionGiven"][-1] == {"seat": 1, "contribution": BOB}
    assert [e["type"] for e in logged] == ["GameCreated", "ContributionGiven", "SeatJoined", "ContributionGiven"]
    assert logged[3]["text"] == "Bob (seat 1) gives a contribution to the game's seed."
    assert client.post(table.url("/start"), headers=table.creator).status_code == 200

    finish(client, table, games)
    export = [json.loads(line) for line in client.get(table.url("/export")).get_data(as_text=True).splitlines()]
    types = [e["type"] for e in export]
    assert types[4:6] == ["GameStarted", "CounterSetUp"]  # dealt at the start, never before
    secret = export[-1]["data"]["seed"]
    told = client.get(table.url(f"/events?after={len(export) - 1}")).get_json()["events"][0]["text"]
    assert told.startswith(f"The server's secret is revealed: {secret};")
    assert hashlib.sha256(secret.encode()).hexdigest() == export[0]["data"]["seed_commitment"]
    # As a client would, from the export alone: the contributions before the start, the seed, the setup.
    given = {e["data"]["seat"]: e["data"]["contribution"] for e in export[:4] if e["type"] == "ContributionGiven"}
    seed = _derived(secret, given)
    dealt = COUNTER.setup({"players": 2}, Rng.for_position(seed, 0))
    assert [[e.type, e.data] for e in dealt] == [[export[5]["type"], export[5]["data"]]]
    verdict = client.get(table.url("/audit"), headers=table.seats[1]).get_json()
    assert verdict["verdict"] == "fair" and verdict["seed_matches_commitment"]
    assert verdict["seed_source"] == "server" and verdict["seed_mix"] == "contributions"
    assert verdict["contributed_seats"] == [0, 1]
    assert verdict["effective_seed"] == seed == _derived(secret, {0: ANN, 1: BOB}) != secret
    commands = types.count("CommandAccepted")
    assert verdict["decisions_checked"] == commands + 1  # and the setup, at the start


def test_before_the_end_nothing_served_to_anyone_holds_the_secret_or_the_seed(client, games):
    table = _contributed_table(client)
    assert client.post(table.url("/start"), headers=table.creator).status_code == 200
    play_on_turn(client, table, 2)
    secret = games.seed(table.game_id)
    seed = _derived(secret, {0: ANN, 1: BOB})
    acted = play_on_turn(client, table, 1).get_data(as_text=True)
    served = [acted]
    for headers in (table.seats[0], table.seats[1], table.creator, {}):
        for path in ("/state", "/actions", "/events?limit=1000", "/export", "/audit", ""):
            response = client.get(table.url(path), headers=headers)
            assert response.status_code == 200, (path, response.get_data(as_text=True))
            served.append(response.get_data(as_text=True))
    served.append(client.get("/games?limit=100").get_data(as_text=True))
    assert not state(client, table)["over"]
    for body in served:
        assert secret not in body and seed not in body
    # The seed is no function of what was served: it needs the secret, which only the end reveals.
    assert state(client, table)["seed"] is None

    finish(client, table, games)
    assert state(client, table, 1)["seed"] == secret


def test_a_changed_contribution_or_secret_reads_unfair_even_with_a_rebuilt_chain(client, games, redis_client):
    table = _contributed_table(client)
    client.post(table.url("/start"), headers=table.creator)
    finish(client, table, games)
    started = next(e for e in games.store.read(table.game_id) if e.type == "GameStarted")

    def other_contribution(body):
        if body["type"] == "ContributionGiven" and body["data"]["seat"] == 1:
            body["data"]["contribution"] = "bob-" + "c3" * 14
        return body

    rewrite_log(redis_client, table.game_id, other_contribution, rehash=True)
    verdict = client.get(table.url("/audit")).get_json()
    assert verdict["chain_ok"] and verdict["seed_matches_commitment"] and verdict["verdict"] == "unfair"
    assert verdict["first_mismatch"] == started.version  # another seed deals another setup

    def bobs_again(body):
        if body["type"] == "ContributionGiven" and body["data"]["seat"] == 1:
            body["data"]["contribution"] = BOB
        return body

    rewrite_log(redis_client, table.game_id, bobs_again, rehash=True)
    assert client.get(table.url("/audit")).get_json()["verdict"] == "fair"  # the log as it was

    def other_secret(body):
        if body["type"] == "SeedRevealed":
            body["data"]["seed"] = "f" * 64
        return body

    rewrite_log(redis_client, table.game_id, other_secret, rehash=True)
    verdict = client.get(table.url("/audit")).get_json()
    assert verdict["chain_ok"] and verdict["seed_matches_commitment"] is False and verdict["verdict"] == "unfair"


def test_a_contribution_counts_only_from_its_own_seat_and_before_the_start(client):
    table = new_table(client, seed=None, seats=3, players=["Ann", "Cy"])
    mine = {"contribution": ANN}
    assert client.put(table.url("/seats/1/contribution"), json=mine, headers=table.seats[0]).get_json()["code"] == (
        "not_your_seat"
    )
    by_creator = client.put(table.url("/seats/0/contribution"), json=mine, headers=table.creator)
    assert by_creator.status_code == 403 and by_creator.get_json()["code"] == "not_a_seat_token"
    short = client.put(table.url("/seats/0/contribution"), json={"contribution": "abc"}, headers=table.seats[0])
    assert short.status_code == 422
    # Cy contributes and leaves before the start: the contribution leaves with him.
    client.put(table.url("/seats/1/contribution"), json={"contribution": BOB}, headers=table.seats[1])
    client.delete(table.url("/seats/1"), headers=table.seats[1])
    assert state(client, table, 0)["contributions"] == []
    client.put(table.url("/seats/1/bot"), json={"bot": "random"}, headers=table.creator)
    client.put(table.url("/seats/2/bot"), json={"bot": "random"}, headers=table.creator)
    client.put(table.url("/seats/0/contribution"), json=mine, headers=table.seats[0])
    assert client.post(table.url("/start"), headers=table.creator).status_code == 200
    version = state(client, table)["version"]
    late = client.put(table.url("/seats/0/contribution"), json={"contribution": BOB}, headers=table.seats[0])
    assert late.status_code == 409 and late.get_json()["code"] == "seed_fixed"
    assert state(client, table)["version"] == version and state(client, table)["contributions"][0]["contribution"] == ANN
    # A replacement joining after the start cannot contribute any more.
    client.delete(table.url("/seats/0"), headers=table.seats[0])
    rejoin = client.post(table.url("/seats"), json={"name": "Dee", "contribution": BOB})
    assert rejoin.status_code == 409 and rejoin.get_json()["code"] == "seed_fixed"
    assert client.post(table.url("/seats"), json={"name": "Dee"}).status_code == 201
    assert state(client, table)["contributions"] == [{"seat": 0, "contribution": ANN}]  # fixed at the start


def test_a_chosen_seed_takes_no_contribution_and_the_audit_says_who_chose_it(client, games):
    table = new_table(client, seed="chosen", players=["Ann"])
    refused = client.post(table.url("/seats"), json={"name": "Bob", "contribution": BOB})
    assert refused.status_code == 409 and refused.get_json()["code"] == "seed_fixed"
    table.seats[1] = bearer(client.post(table.url("/seats"), json={"name": "Bob"}).get_json()["token"])
    client.post(table.url("/start"), headers=table.creator)
    finish(client, table, games)
    verdict = client.get(table.url("/audit"), headers=table.seats[1]).get_json()
    assert verdict["verdict"] == "fair" and verdict["seed_source"] == "creator" and verdict["seed_mix"] == "secret"
    assert verdict["effective_seed"] == "chosen"  # the chooser could compute every card: the audit says so


def test_the_setup_is_dealt_at_the_start_from_the_secret_and_the_contributions(games):
    """The use case alone: nothing of the rules is dealt before the start."""
    seats = [{"seat": 0, "kind": "human", "name": "Ann", "bot": None}, {"seat": 1, "kind": "open", "name": None, "bot": None}]
    created = games.create("counter", {}, seats)
    assert [e.type for e in games.store.read(created.game_id)] == ["GameCreated"]
    lobby = Lobby(games)
    lobby.join(created.game_id, "Bob", contribution=BOB)
    lobby.contribute(created.game_id, 0, ANN)
    lobby.start(created.game_id)
    events = games.store.read(created.game_id)
    setup = [e for e in events if e.version > next(s.version for s in events if s.type == "GameStarted")]
    seed = genesis.effective_seed(games.seed(created.game_id), genesis.WITH_CONTRIBUTIONS, {0: ANN, 1: BOB})
    assert [(e.type, e.data) for e in setup] == [(e.type, e.data) for e in genesis.setup_events(events[0].data, seed)]
    assert seed == _derived(games.seed(created.game_id), {0: ANN, 1: BOB})


def test_a_game_from_before_contributions_still_plays_and_audits_fair(games):
    """Its GameCreated has no seed_mix; its setup is in the creation's batch, from the secret alone."""
    game_id = games.store.new_game_id()
    secret = "an-older-secret"
    created = {
        "game": "counter",
        "options": {},
        "seats": [{"seat": 0, "kind": "human", "name": None, "bot": None}],
        "seed_commitment": genesis.commitment(secret),
    }
    setup = [NewEvent(e.type, e.data) for e in genesis.setup_events(created, secret)]
    games.open(game_id, secret, [NewEvent("GameCreated", created), *setup, NewEvent("GameStarted", {})])
    while not games.load(game_id).state.over:
        record = games.load(game_id).state
        if record.module.system_command(record.state):
            games.act(game_id, "system", record.module.system_command(record.state))
        else:
            games.act(game_id, 0, {"type": "add", "amount": 3})
    verdict = audit(games.store, game_id)
    assert verdict.verdict == "fair" and verdict.seed_mix is None and verdict.effective_seed == secret



def test_a_fallout_table_is_dealt_at_its_start_from_the_mixed_seed(client, games):
    """Complete Setup happens when the game starts, from the secret and both seats' contributions."""
    created = client.post("/games", json={"game": "fallout", "seats": 2, "players": ["Ann"]}).get_json()
    table = Table(created["game_id"], bearer(created["creator_token"]), {0: bearer(created["seats"][0]["token"])})
    client.put(table.url("/seats/0/contribution"), json={"contribution": ANN}, headers=table.seats[0])
    table.seats[1] = bearer(client.post(table.url("/seats"), json={"name": "Bob", "contribution": BOB}).get_json()["token"])
    in_lobby = state(client, table, 0)
    assert in_lobby["status"] == "lobby" and in_lobby["view"] == {"phase": "new"}  # nothing dealt yet
    assert client.post(table.url("/start"), headers=table.creator).status_code == 200
    events = games.store.read(table.game_id)
    started = next(e.version for e in events if e.type == "GameStarted")
    seed = _derived(games.seed(table.game_id), {0: ANN, 1: BOB})
    dealt = [(e.type, e.data) for e in events if e.version > started]
    assert dealt and dealt == [(e.type, e.data) for e in genesis.setup_events(events[0].data, seed)]
    assert state(client, table, 0)["waiting_for"]  # the setup's first decision is there to take


def test_the_contributions_are_fixed_by_the_start_in_the_fold():
    """A stored contribution after the start, or a player leaving after it, changes no seed."""
    created = {"game": "counter", "options": {}, "seats": [{"seat": 0, "kind": "human", "name": "Ann", "bot": None}],
               "seed_commitment": genesis.commitment("s"), "seed_mix": genesis.WITH_CONTRIBUTIONS}  # fmt: skip
    record = apply(Record(), "GameCreated", created, 1)
    record = apply(record, "ContributionGiven", {"seat": 0, "contribution": ANN}, 2)
    record = apply(record, "GameStarted", {}, 3)
    record = apply(record, "ContributionGiven", {"seat": 0, "contribution": BOB}, 4)
    record = apply(record, "SeatLeft", {"seat": 0, "removed": False}, 5)
    assert record.contributions == {0: ANN}
    again = RecordFolder().load(RecordFolder().dump(record))  # and a snapshot keeps them
    assert again.contributions == {0: ANN} and again.seed_mix == genesis.WITH_CONTRIBUTIONS


def test_a_table_taken_at_creation_contributes_when_created_unstarted(client, games):
    """docs/audit.md's recipe for one device passed around: create with start false, contribute, start."""
    table = new_table(client, seed=None, start=False)
    for seat, contribution in ((0, ANN), (1, BOB)):
        given = client.put(table.url(f"/seats/{seat}/contribution"), json={"contribution": contribution},
                           headers=table.seats[seat])  # fmt: skip
        assert given.status_code == 200
    assert client.post(table.url("/start"), headers=table.creator).status_code == 200
    finish(client, table, games)
    verdict = client.get(table.url("/audit")).get_json()
    assert verdict["verdict"] == "fair" and verdict["contributed_seats"] == [0, 1]
