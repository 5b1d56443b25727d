"""Undo: a seat takes back its own last move within its turn, needing nobody's agreement, while the move
revealed nothing hidden and drew no chance (service/usecases/undo.py, docs/api.md "Undo")."""

from __future__ import annotations

import pytest

from bots import decide, make_bot
from domain.rng import Rng
from events.snapshots import fold
from service.usecases.errors import Refused
from service.usecases.undo import NEAR
from tests.service.tables import act, finish, new_table, state


def _offer(client, table, seat: int) -> dict:
    return client.get(table.url("/actions"), headers=table.seats[seat]).get_json()


def _undo(client, table, seat: int, version: int | None = None):
    version = state(client, table)["version"] if version is None else version
    return client.post(table.url("/undo"), headers={**table.seats[seat], "If-Match": f'"{version}"'})


def test_a_solo_seat_takes_back_its_moves_one_by_one_and_the_log_keeps_them(client, games):
    table = new_table(client, seats=1)
    start = state(client, table)
    assert _offer(client, table, 0)["undo"] is None, "nothing of this turn to take back yet"
    act(client, table, 0, {"type": "add", "amount": 2})
    act(client, table, 0, {"type": "add", "amount": 3})
    offered = _offer(client, table, 0)["undo"]
    assert offered["text"].startswith("Take back: ") and "3" in offered["text"]

    undone = _undo(client, table, 0)
    assert undone.status_code == 200, undone.get_json()
    assert undone.get_json()["to_version"] == offered["to_version"]
    assert state(client, table)["view"]["total"] == 2
    assert state(client, table)["view"] == client.get(table.url(f"/state?at={offered['to_version']}")).get_json()["view"]
    # Again: the move before goes too, back to the start of the game's play.
    assert _undo(client, table, 0).status_code == 200
    assert state(client, table)["view"] == start["view"]
    nothing = _undo(client, table, 0)
    assert nothing.status_code == 409 and nothing.get_json()["code"] == "nothing_to_undo"

    events = client.get(table.url("/events"), headers=table.seats[0]).get_json()["events"]
    undos = [e for e in events if e["type"] == "MoveUndone"]
    assert len(undos) == 2 and [e["type"] for e in events].count("Added") == 2, "nothing is deleted"
    assert "You take back a move (back to version" in undos[0]["text"]  # words addressed to the seat itself
    # Play goes on from there; a fold without snapshots agrees, and the finished game's audit re-derives it all.
    assert fold(games.store, None, games.folder, table.game_id).state == games.load(table.game_id).state
    finish(client, table, games)
    assert client.get(table.url("/audit")).get_json()["verdict"] == "fair"


def test_undoing_reaches_a_move_further_back_than_the_first_read(client):
    """The last move is first looked for among the newest events (undo.NEAR). Moves made and taken back after
    it leave it further back than that, behind a chain of undos, and it is still found (up to undo.LOOK_BACK)."""
    table = new_table(client, seats=1)
    start = state(client, table)
    assert act(client, table, 0, {"type": "add", "amount": 2}).status_code == 200
    # Each round: moves (of 1: the total stays below the counter game's first tick) and their undos.
    while state(client, table)["version"] - start["version"] <= NEAR:
        for _ in range(3):
            assert act(client, table, 0, {"type": "add", "amount": 1}).status_code == 200
        for _ in range(3):
            assert _undo(client, table, 0).status_code == 200
    assert state(client, table)["view"]["total"] == 2
    offered = _offer(client, table, 0)["undo"]
    assert offered is not None and "2" in offered["text"], offered
    assert _undo(client, table, 0).status_code == 200
    assert state(client, table)["view"] == start["view"]


def test_a_move_that_drew_chance_or_showed_a_secret_is_not_undone(client):
    """The counter game's redraw draws a secret from the seed, shown to its seat only: only a rewind by agreement
    may take it back."""
    table = new_table(client, seats=1)
    act(client, table, 0, {"type": "redraw"})
    assert _offer(client, table, 0)["undo"] is None
    before = state(client, table)["version"]
    refused = _undo(client, table, 0)
    assert refused.status_code == 409
    assert refused.get_json()["code"] in ("undo_after_reveal", "undo_after_chance")
    assert state(client, table)["version"] == before, "a refusal appends nothing"


def test_a_move_that_passed_the_turn_is_the_tables_and_the_version_must_match(client):
    table = new_table(client, seats=2)
    first = state(client, table)["waiting_for"][0]
    other = 1 - first
    act(client, table, first, {"type": "add", "amount": 1})
    for seat in (first, other):
        assert _offer(client, table, seat)["undo"] is None
        refused = _undo(client, table, seat)
        assert refused.status_code == 409 and refused.get_json()["code"] == "nothing_to_undo", seat
    stale = _undo(client, table, other, version=3)
    assert stale.status_code == 412 and stale.get_json()["code"] == "stale_version"
    missing = client.post(table.url("/undo"), headers=table.seats[other])
    assert missing.status_code == 428
    spectator = client.post(table.url("/undo"), headers={"If-Match": '"9"'})
    assert spectator.status_code == 401


#: Zona's events that bring a card from a face-down deck into sight: no number is drawn (the deck was shuffled
#: long before) and nobody is shown it otherwise, yet the seat learns what was hidden.
FROM_HIDDEN_DECKS = {"NewsDrawn", "EventCardDrawn", "ThreatDrawn", "ItemDrawn"}


def test_a_move_that_turned_a_card_from_a_hidden_deck_is_not_undone_though_no_die_was_rolled(services):
    """Zona §"WYDARZENIA": an event card comes off the top of a deck shuffled at setup; the move that turned it
    draws no random number and hides nothing from anyone, but it showed the seat what was hidden, so only a
    rewind by agreement may take it back. A plain move of the same game may be taken back alone."""
    games, automation = services.games, services.automation
    seats = [{"seat": 0, "kind": "human", "name": "Ann", "bot": None}]
    game_id = games.create("zona", {"pack": "test", "draft": "free"}, seats, seed="undo-reveal").game_id
    bot = make_bot("random")
    offered, refused = 0, 0
    for step in range(400):
        automation.run_system(game_id)
        record = games.load(game_id).state
        if record.over or offered and refused:
            break
        if 0 not in record.module.waiting_for(record.state):
            continue
        actions = record.module.legal_actions(record.state, 0)
        command = decide(bot, record.module, record.state, actions, 0, Rng("undo-reveal", str(step)))
        acted = games.act(game_id, 0, command, follow_up=False)
        shown = {e.type for e in acted.events}
        if 0 not in games.load(game_id).state.module.waiting_for(games.load(game_id).state.state):
            continue
        offer = services.undo.offer(game_id, 0)
        if shown & FROM_HIDDEN_DECKS:
            assert offer is None, (command, shown)
            with pytest.raises(Refused) as why:
                services.undo.undo(game_id, 0, None)
            refused += why.value.code == "undo_after_reveal"
        elif offer is not None:
            offered += 1
    assert offered and refused, (offered, refused)
