"""While a game runs, nothing that answers seat A shows seat B's secrets or a face-down deck.

Both games are played over the client generated from the API document
(tests/service/client.py): every request built and every answer parsed by its
models and checked against the document; the secrets are searched for in the
answers as served.
"""

from __future__ import annotations

import json

from domain.fallout.content import catalog
from tests.games.counter import CARDS
from tests.service.client import Typed

#: What seat A reads of a game, besides the answers to its own actions.
READS = {
    "state": ("getState", {}),
    "state at 4": ("getState", {"at": 4}),
    "actions": ("listActions", {}),
    "events": ("getEvents", {"limit": 1000}),
    "audit": ("getAudit", {}),
    "stream": ("streamGame", {"after": 0}),
    "summary": ("getGame", {}),
}


def _read_everything(typed: Typed, caller, game_id: str, reads: dict) -> dict[str, str]:
    """Every read of the game as ``caller``, each answer's body as served."""
    seen = {}
    for name, (operation, args) in reads.items():
        typed.call(operation, caller, game_id, **args)
        seen[name] = typed.text
    # The generated client leaves the export's NDJSON out (docs/api.md): read it as text, through its httpx client.
    export = (caller or typed.anonymous).get_httpx_client().get(f"/games/{game_id}/export")
    assert export.status_code == 200 and all(json.loads(line) for line in export.text.splitlines())
    seen["export"] = export.text
    return seen


def test_no_response_to_one_seat_holds_another_seats_hidden_data(typed: Typed, games):
    created = typed.call("createGame", None, body=typed.model("CreateCounterGame")(game="counter", seats=2, seed="hidden"))
    game_id = created.game_id
    seats = {s.seat: typed.caller(s.token) for s in created.seats}
    a, b = 0, 1
    redraw = typed.model("CounterCommandRedraw")(type_="redraw")

    def act(seat: int, command):
        version = typed.call("getState", None, game_id).version
        acted = typed.call("postAction", seats[seat], game_id, body=command, if_match=f'"{version}"')
        assert isinstance(acted, typed.model("CounterActed")), acted
        return acted

    # Play a little, with both seats drawing new secrets, so the log holds
    # hidden data in the setup, in later events and in the seats' commands.
    for seat in (b, a, b):
        act(seat, redraw)
    turn = typed.call("getState", None, game_id).waiting_for[0]
    act(turn, typed.model("CounterCommandAdd")(type_="add", amount=2))

    record = games.load(game_id).state
    assert not record.over
    b_secrets = {e.data["secret"] for e in games.store.read(game_id) if e.type == "SecretDrawn" and e.data["seat"] == b}
    b_secrets |= {games.store.read(game_id, 3, 3)[0].data["secrets"][b]}  # the setup, after GameStarted
    hidden = b_secrets | set(CARDS)

    own = act(a, redraw)
    seen = {"action": typed.text}
    a_secret = own.events[-1].data.secret
    seen.update(_read_everything(typed, seats[a], game_id, READS))
    typed.call("listGames", None)
    seen["listing"] = typed.text

    for name, text in seen.items():
        for secret in hidden:
            assert secret not in text, f"{name} shows {secret!r} to seat {a}"
    # Not vacuous: seat A does see its own secret, where it should.
    assert a_secret in seen["state"] and a_secret in seen["events"] and a_secret in seen["stream"]

    typed.call("getEvents", None, game_id, limit=1000)
    assert a_secret not in typed.text and not any(s in typed.text for s in hidden)


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


def test_no_response_to_one_seat_holds_another_seats_fallout_agendas_or_deck_orders(typed: Typed, games):
    created = typed.call("createGame", None, body=typed.model("CreateFalloutGame")(
        game="fallout", seats=2, seed="hidden-fallout"))  # fmt: skip
    game_id = created.game_id
    seats = {s.seat: typed.caller(s.token) for s in created.seats}
    answers_to_a = []
    for _ in range(12):  # setup choices and a few moves, short of the first round end
        now = games.load(game_id).state
        waiting = now.module.waiting_for(now.state)
        if not waiting:
            break
        seat = waiting[0]
        listed = typed.call("listActions", seats[seat], game_id)
        # Declaring loyalty shows the agenda card to every seat (Loyalty), so a card declared and
        # withdrawn is no secret any more: these few moves keep every hand hidden.
        command = next((a for a in listed.actions if a.type_ not in ("end_turn", *PUBLIC_AGENDA_MOVES)), listed.actions[0])
        answer = typed.call("postAction", seats[seat], game_id, body=command, if_match=f'"{listed.version}"')
        assert isinstance(answer, typed.model("FalloutActed")), command
        if seat == 0:
            answers_to_a.append(typed.text)
    assert answers_to_a and not games.load(game_id).state.over
    hidden, orders = _fallout_hidden(games, game_id, 0)
    assert hidden and orders

    texts = {f"action {n}": text for n, text in enumerate(answers_to_a)}
    reads = {k: v for k, v in READS.items() if k != "summary"}
    reads["state at 3"] = ("getState", {"at": 3})
    texts.update(_read_everything(typed, seats[0], game_id, reads))
    pack = games.load(game_id).state.state.pack
    for name, text in texts.items():
        for secret in hidden:
            assert secret not in _without_longer_names(text, secret, pack), f"{name} shows {secret!r} to seat 0"
        for order in orders:
            assert json.dumps(order[:2]) not in text and json.dumps(order[:2], separators=(",", ":")) not in text, name
    own = games.load(game_id).state.state.survivors[0].agendas
    assert own and all(card in texts["state"] for card in own)  # not vacuous: seat 0 sees its own hand
    # Cards you can read: the view's faces hold seat 0's own agendas, and none of the hidden cards.
    faces = json.loads(texts["state"])["view"]["faces"]
    assert all(faces[card]["text"] for card in own) and not hidden & set(faces)
    events = json.loads(texts["events"])["events"]
    assert events and all(e["text"] for e in events)  # the words were there to search


def _secrets_of(games, game_id: str, seat: int) -> set[str]:
    """Every secret ``seat`` drew in a counter game (its setup's and its redraws')."""
    found = {e.data["secret"] for e in games.store.read(game_id) if e.type == "SecretDrawn" and e.data["seat"] == seat}
    return found | {e.data["secrets"][seat] for e in games.store.read(game_id) if e.type == "CounterSetUp"}


def test_a_player_token_shows_each_game_and_seat_only_what_that_seat_may_see(typed: Typed, games):
    """A player with seats in two games, and two seats in one of them (docs/players.md): acting as a
    seat (Holotape-Seat when it holds two) it reads that seat's secrets and never another seat's."""
    alice = typed.call("createPlayer", None, body=typed.model("CreatePlayer")(name="Alice"))
    as_alice = typed.caller(alice.token)
    redraw = typed.model("CounterCommandRedraw")(type_="redraw")
    # One game where Alice holds seat 0 and Bob (a seat token) seat 1; one where Alice holds both seats.
    shared = typed.call("createGame", as_alice, body=typed.model("CreateCounterGame")(
        game="counter", seats=2, players=["Alice"], seed="players-1"))  # fmt: skip
    bob = typed.call("joinGame", None, shared.game_id, body=typed.model("Join")(name="Bob"))
    typed.call("startGame", as_alice, shared.game_id)
    both = typed.call("createGame", as_alice, body=typed.model("CreateCounterGame")(game="counter", seats=2, seed="players-2"))
    hands = {
        (shared.game_id, 0): as_alice,
        (shared.game_id, 1): typed.caller(bob.token),
        # Fresh clients: with_headers on a used one changes that one's headers too.
        (both.game_id, 0): typed.caller(alice.token).with_headers({"Holotape-Seat": "0"}),
        (both.game_id, 1): typed.caller(alice.token).with_headers({"Holotape-Seat": "1"}),
    }
    for game_id, seat in [*hands, *hands]:  # each seat draws new secrets, twice
        version = typed.call("getState", None, game_id).version
        typed.call("postAction", hands[(game_id, seat)], game_id, body=redraw, if_match=f'"{version}"')

    for (game_id, seat), caller in hands.items():
        if caller is hands[(shared.game_id, 1)]:
            continue  # Bob is no player: the seat-token suite above covers him
        other = _secrets_of(games, game_id, 1 - seat)
        own = _secrets_of(games, game_id, seat)
        assert other and own
        seen = _read_everything(typed, caller, game_id, {k: v for k, v in READS.items() if k != "audit"})
        for name, text in seen.items():
            for secret in other:
                assert secret not in text, f"{name} shows seat {1 - seat}'s {secret!r} to the player as seat {seat}"
        assert any(secret in seen["state"] for secret in own)  # not vacuous: it sees its own seat's
    # With two seats there and no seat named, the player is refused, not shown either view.
    plain = as_alice.get_httpx_client().get(f"/games/{both.game_id}/state")
    assert plain.status_code == 400 and plain.json()["code"] == "seat_required"
    # The inbox words each entry for its own seat: the shared game's shows nothing of Bob's.
    inbox = typed.call("listMyGames", as_alice)
    assert {(e.game_id, e.seat) for e in inbox.games} == {k for k, c in hands.items() if c is not hands[(shared.game_id, 1)]}
    shared_entries = json.dumps([e.to_dict() for e in inbox.games if e.game_id == shared.game_id])
    assert not any(secret in shared_entries for secret in _secrets_of(games, shared.game_id, 1))
