"""The log over HTTP: pages, the NDJSON export, and the live stream."""

from __future__ import annotations

import json
import threading

from tests.service.tables import act, finish, new_table, play_on_turn


def _stream(client, table, seat=None, **headers):
    """Read a whole stream (it ends after the test config's idle time); its messages."""
    if seat is not None:
        headers.update(table.seats[seat])
    response = client.get(table.url("/stream"), headers=headers)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    return _parse(response.get_data(as_text=True))


def _parse(text: str) -> list[dict]:
    messages = []
    for block in text.split("\n\n"):
        message = {"comments": []}
        for line in block.splitlines():
            if line.startswith(":"):
                message["comments"].append(line[1:].strip())
            else:
                name, _, value = line.partition(": ")
                message[name] = json.loads(value) if name == "data" else value
        if len(message) > 1 or message["comments"]:
            messages.append(message)
    return messages


def test_the_event_log_pages(client):
    table = new_table(client, seats=1)
    for _ in range(3):
        play_on_turn(client, table, 1)
    first = client.get(table.url("/events?limit=2")).get_json()
    assert [e["version"] for e in first["events"]] == [1, 2] and first["next_after"] == 2
    rest = client.get(table.url("/events?after=2")).get_json()
    assert [e["version"] for e in rest["events"]] == list(range(3, 10)) and rest["next_after"] is None
    assert rest["events"][0]["prev_hash"] == first["events"][-1]["hash"]


def test_the_export_is_the_whole_log_as_ndjson(client, games):
    table = new_table(client, seats=1)
    play_on_turn(client, table, 2)
    response = client.get(table.url("/export"), headers=table.seats[0])
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert [e["version"] for e in lines] == [1, 2, 3, 4, 5]
    stored = games.store.read(table.game_id, upcast=False)
    assert [e["hash"] for e in lines] == [e.hash for e in stored]
    assert lines[3]["data"] == {"seat": 0, "command": {"type": "add", "amount": 2}}


def test_the_stream_opens_with_the_callers_view_then_follows_the_log(app, client):
    table = new_table(client)
    turn = client.get(table.url("/state")).get_json()["waiting_for"][0]

    response = client.get(table.url("/stream"), headers=table.seats[turn], buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    chunks = iter(response.response)
    # The retry hint, then the caller's view: once it is read the stream is open at version 3, and a
    # move played now, while the stream waits on the log, must follow it.
    opened = [next(chunks), next(chunks)]
    player = threading.Thread(target=act, args=(app.test_client(), table, turn, {"type": "add", "amount": 1}, 3))
    player.start()
    messages = _parse(b"".join([*opened, *chunks]).decode())
    player.join()
    response.close()
    assert messages[0] == {"comments": [], "retry": "1000"}
    opening = messages[1]
    assert opening["event"] == "state" and "id" not in opening
    assert opening["data"]["version"] == 3 and opening["data"]["seat"] == turn
    events = [m for m in messages if m.get("event") == "event"]
    assert [(m["id"], m["data"]["type"]) for m in events] == [("4", "CommandAccepted"), ("5", "Added")]
    assert any("keep-alive" in c for m in messages for c in m["comments"])
    assert "closing" in messages[-1]["comments"][0]


def test_a_reconnection_with_last_event_id_loses_nothing_and_repeats_nothing(client):
    table = new_table(client, seats=1)
    for _ in range(3):
        play_on_turn(client, table, 1)  # versions 4..9
    resumed = _stream(client, table, **{"Last-Event-ID": "5"})
    assert [int(m["id"]) for m in resumed if m.get("event") == "event"] == [6, 7, 8, 9]
    by_query = _stream(client, table, **{"X-Unused": "1"})
    assert [m for m in by_query if m.get("event") == "event"] == []  # default: after the view's version
    assert [int(m["id"]) for m in _parse(client.get(table.url("/stream?after=8")).get_data(as_text=True))
            if m.get("event") == "event"] == [9]  # fmt: skip
    bad = client.get(table.url("/stream"), headers={"Last-Event-ID": "soon"})
    assert bad.status_code == 400 and bad.get_json()["code"] == "bad_last_event_id"


def test_everything_shows_once_the_game_is_over(client, games):
    table = new_table(client)
    finish(client, table, games)
    events = client.get(table.url("/events?limit=1000")).get_json()["events"]
    assert not any(e["redacted"] for e in events)
    set_up = next(e for e in events if e["type"] == "CounterSetUp")
    assert None not in set_up["data"]["secrets"] and set_up["data"]["deck"]
    assert events[-1]["type"] == "SeedRevealed" and events[-1]["data"]["seed"] == "http"
    ended = client.get("/games?status=ended").get_json()["games"]
    assert [g["game_id"] for g in ended] == [table.game_id]
