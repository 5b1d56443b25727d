"""While a game runs, nothing that answers seat A shows seat B's secrets or a face-down deck."""

from __future__ import annotations

from tests.games.counter import CARDS
from tests.service.tables import act, new_table, state


def test_no_response_to_one_seat_holds_another_seats_hidden_data(client, games):
    table = new_table(client, seed="hidden")
    a, b = 0, 1
    # Play a little, with both seats drawing new secrets, so the log holds
    # hidden data in the setup, in later events and in the seats' commands.
    for seat in (b, a, b):
        assert act(client, table, seat, {"type": "redraw"}).status_code == 200
    turn = state(client, table)["waiting_for"][0]
    assert act(client, table, turn, {"type": "add", "amount": 2}).status_code == 200

    record = games.load(table.game_id).state
    assert not record.over
    b_secrets = {e.data["secret"] for e in games.store.read(table.game_id) if e.type == "SecretDrawn" and e.data["seat"] == b}
    b_secrets |= {games.store.read(table.game_id, 2, 2)[0].data["secrets"][b]}
    a_secret = record.state.secrets[a]
    hidden = b_secrets | set(CARDS)

    seen = {}
    as_a = table.seats[a]
    own = act(client, table, a, {"type": "redraw"})
    seen["action"] = own.get_data(as_text=True)
    a_secret = own.get_json()["events"][-1]["data"]["secret"]
    for name, path in {
        "state": "/state",
        "state at 4": "/state?at=4",
        "actions": "/actions",
        "events": "/events?limit=1000",
        "export": "/export",
        "audit": "/audit",
        "stream": "/stream?after=0",
        "summary": "",
    }.items():
        response = client.get(table.url(path), headers=as_a)
        assert response.status_code == 200, name
        seen[name] = response.get_data(as_text=True)
    seen["listing"] = client.get("/games").get_data(as_text=True)

    for name, text in seen.items():
        for secret in hidden:
            assert secret not in text, f"{name} shows {secret!r} to seat {a}"
    # Not vacuous: seat A does see its own secret, where it should.
    assert a_secret in seen["state"] and a_secret in seen["events"] and a_secret in seen["stream"]

    spectator = client.get(table.url("/events?limit=1000")).get_data(as_text=True)
    assert a_secret not in spectator and not any(s in spectator for s in hidden)
