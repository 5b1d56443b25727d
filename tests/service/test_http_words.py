"""The game in words over HTTP: each served event's ``text`` and the pending decision's ``prompt``, per caller."""

from __future__ import annotations

import json

from tests.service.tables import act, finish, new_table, state
from tests.service.test_http_log import _stream


def _texts(client, table, seat: int | None) -> dict[int, str]:
    headers = table.seats[seat] if seat is not None else {}
    events = client.get(table.url("/events?limit=1000"), headers=headers).get_json()["events"]
    assert all(isinstance(e["text"], str) and e["text"].strip() for e in events), events
    return {e["version"]: e["text"] for e in events}


def test_every_served_event_carries_its_sentence_for_the_caller(client, games):
    table = new_table(client, seed="words")
    drawn = act(client, table, 1, {"type": "redraw"})
    assert drawn.status_code == 200
    # The answer to an action: the batch in words, as its seat reads it, the new secret named.
    answered = drawn.get_json()["events"]
    secret = answered[-1]["data"]["secret"]
    # Its own seat is "you" to the reader (``domain.engine.addressing``).
    assert [e["text"] for e in answered] == ["You send redraw.", f"Seat 1 draws the secret {secret}."]

    own, other, spectator = _texts(client, table, 1), _texts(client, table, 0), _texts(client, table, None)
    version = answered[-1]["version"]
    assert own[version] == f"Seat 1 draws the secret {secret}."  # the counter's words name every seat alike
    # Another seat and a spectator read that a secret was drawn, not which: the words follow the redaction.
    assert other[version] == spectator[version] == "Seat 1 draws a new secret."
    assert other[version - 1] == "Seat 1 acts."
    assert own[1] == "A game of counter is created for 2 seats." and own[2] == "The game starts."  # then the setup
    assert not any(secret in text for text in [*other.values(), *spectator.values()])

    # The export is the log as stored, each line with its words for the exporter beside the stored fields.
    lines = [json.loads(line) for line in client.get(table.url("/export"), headers=table.seats[1]).get_data(as_text=True).splitlines()]
    assert {e["version"]: e["text"] for e in lines} == own
    assert "text" not in games.store.read(table.game_id)[-1].data


def test_the_state_and_the_actions_carry_the_pending_decision_in_words(client, games):
    lobby = new_table(client, seed="words", players=["Ada"])
    assert state(client, lobby)["prompt"] is None  # not started: nobody is waited on yet

    table = new_table(client, seed="words")
    now = state(client, table, 0)
    turn = now["waiting_for"][0]
    expected = f"Seat {turn} must add 1, 2 or 3 to the total of 0 (50 wins)."
    # The seat the game waits on reads it as "you"; another seat and a spectator by the seat's name.
    assert state(client, table, 1 - turn)["prompt"] == expected and state(client, table)["prompt"] == expected
    assert now["prompt"] == (expected if turn else "You must add 1, 2 or 3 to the total of 0 (50 wins).")
    listed = client.get(table.url("/actions"), headers=table.seats[turn]).get_json()
    assert listed["prompt"] == "You must add 1, 2 or 3 to the total of 0 (50 wins)." and listed["actions"]
    # Each action with its words, and posted back as listed, words and all, it is taken.
    assert [a["text"] for a in listed["actions"]] == ["Add 1 to the total of 0", "Add 2 to the total of 0",
                                                     "Add 3 to the total of 0", "Redraw your secret"]
    acted = act(client, table, turn, listed["actions"][1])
    assert acted.status_code == 200, acted.get_json()
    accepted = [e for e in games.store.read(table.game_id) if e.type == "CommandAccepted"][-1]
    assert accepted.data["command"] == {"type": "add", "amount": 2}  # the words are no part of the command

    opening = _stream(client, table, seat=1)[1]
    assert opening["event"] == "state" and "must add 1, 2 or 3 to the total of 2" in opening["data"]["prompt"]

    over = finish(client, table, games)
    assert over["over"] and over["prompt"] is None
    assert client.get(table.url("/actions"), headers=table.seats[0]).get_json()["prompt"] is None
    # Once over, the log still reads in words, to anyone, down to the revealed seed.
    ended = _texts(client, table, None)
    assert ended[3].startswith("2 seats race to 50")  # the setup, dealt at the start (version 2) and ended[max(ended)].startswith("The game's seed is revealed")


def test_the_stream_carries_each_events_sentence(client):
    table = new_table(client, seats=1, seed="words")
    act(client, table, 0, {"type": "add", "amount": 2})
    events = [m for m in _stream(client, table, seat=0, **{"Last-Event-ID": "3"}) if m.get("event") == "event"]
    assert [m["data"]["text"] for m in events] == ["You send add.", "You add 2."]
