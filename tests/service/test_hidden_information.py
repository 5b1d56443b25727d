"""While a game runs, nothing that answers seat A shows seat B's secrets or a face-down deck."""

from __future__ import annotations

import json

from domain.fallout.content import catalog
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
    b_secrets |= {games.store.read(table.game_id, 3, 3)[0].data["secrets"][b]}  # the setup, after GameStarted
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


def _fallout_hidden(games, game_id: str, seat: int) -> tuple[set[str], list[list[str]]]:
    """What ``seat`` must not see of a running Fallout game: other hands (ids, names and
    texts), the agenda deck's cards, and the order of every face-down deck."""

    state = games.load(game_id).state.state
    agendas = {card.id: card for card in catalog(state.pack).pack.agendas}
    # Names too: the log's words (``text``) name cards by their names.
    cards = set(state.agenda_deck) | {agendas[card].name for card in state.agenda_deck}
    for survivor in state.survivors:
        if survivor.seat != seat:
            for card in survivor.agendas:
                cards |= {card, agendas[card].text, agendas[card].name}
    orders = [list(state.agenda_deck), list(state.loot_deck), list(state.asset_deck), list(state.perk_deck),
              list(state.unique_deck), *(list(d) for d in state.encounter_decks.values())]  # fmt: skip
    return cards, [order for order in orders if len(order) > 1]


def _without_longer_names(text: str, secret: str, pack_id: str) -> str:
    """``text`` less every other name in the pack that holds ``secret``: a hidden agenda called "The Ghost
    Ship" does not show in the public unique card "The Ghost Ship's Log" (views name the unique deck)."""
    c = catalog(pack_id)
    names = {thing.name for table in (c.cards, c.pack.survivors, c.pack.tiles, c.pack.spaces) for thing in table.values()}
    names |= {thing.name for thing in (*c.pack.agendas, *c.pack.perks, *c.pack.enemies)}
    names |= {card.title for card in (*c.quests.values(), *c.encounters.values())}
    for name in sorted((n for n in names if n and secret in n and n != secret), key=len, reverse=True):
        text = text.replace(name, "")
    return text


#: Commands that show an agenda card to every seat.
PUBLIC_AGENDA_MOVES = ("declare_loyalty", "withdraw_loyalty")


def test_no_response_to_one_seat_holds_another_seats_fallout_agendas_or_deck_orders(client, games):
    table = new_table(client, game="fallout", seed="hidden-fallout")
    answers_to_a = []
    for _ in range(12):  # setup choices and a few moves, short of the first round end
        now = games.load(table.game_id).state
        waiting = now.module.waiting_for(now.state)
        if not waiting:
            break
        seat = waiting[0]
        actions = client.get(table.url("/actions"), headers=table.seats[seat]).get_json()["actions"]
        # Declaring loyalty shows the agenda card to every seat (Loyalty), so a card declared and
        # withdrawn is no secret any more: these few moves keep every hand hidden.
        command = next((a for a in actions if a["type"] not in ("end_turn", *PUBLIC_AGENDA_MOVES)), actions[0])
        answer = act(client, table, seat, command)
        assert answer.status_code == 200, command
        if seat == 0:
            answers_to_a.append(answer.get_data(as_text=True))
    assert answers_to_a and not games.load(table.game_id).state.over
    hidden, orders = _fallout_hidden(games, table.game_id, 0)
    assert hidden and orders

    as_a = table.seats[0]
    texts = {f"action {n}": text for n, text in enumerate(answers_to_a)}
    for path in ("/state", "/state?at=3", "/actions", "/events?limit=1000", "/export", "/audit", "/stream?after=0"):
        response = client.get(table.url(path), headers=as_a)
        assert response.status_code == 200, path
        texts[path] = response.get_data(as_text=True)
    pack = games.load(table.game_id).state.state.pack
    for name, text in texts.items():
        for secret in hidden:
            assert secret not in _without_longer_names(text, secret, pack), f"{name} shows {secret!r} to seat 0"
        for order in orders:
            assert json.dumps(order[:2]) not in text and json.dumps(order[:2], separators=(",", ":")) not in text, name
    own = games.load(table.game_id).state.state.survivors[0].agendas
    assert own and all(card in texts["/state"] for card in own)  # not vacuous: seat 0 sees its own hand
    events = json.loads(texts["/events?limit=1000"])["events"]
    assert events and all(e["text"] for e in events)  # the words were there to search
