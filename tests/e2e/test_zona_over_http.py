"""A 2-player game of Zona played over the HTTP API, with a real rq worker running.

Three full rounds (action, event and news phases), and more until the Voice has chosen (at most
``MOST_ROUNDS``), are played by two clients,
each with its own seat's token, over the client generated from the API
document (every request built and every answer parsed by its models); where the rules let the Voice of the Zone
choose (the threat met on arrival, an area for a news card), the Voice's seat
answers through its own client. After every command the state each seat is
served equals the fold of the stored events at the served version, and
nothing one seat is served names what only the other may know: the other
stalker's find cards, or the parts of an event card its stalker has not met
(the sections for other areas, the paragraphs not reached) unless that seat
is the one reading the card aloud.
"""

from __future__ import annotations

import json

import pytest

from domain.rng import Rng
from domain.zona.cards import section
from domain.zona.pack import pack_named
from domain.zona.state import State
from domain.zona.view import is_find, reader_of
from domain.zona.words import card_text
from events.snapshots import fold
from service.usecases.games import Games
from tests.service.client import Typed

ROUNDS = 3
#: Rounds played at most while waiting for the Voice's first choice (random play meets one in a few rounds).
MOST_ROUNDS = 8
#: Decisions the rules give the Voice of the Zone: which threat a stalker meets on
#: arriving, and where a news card's effect lands.
VOICE_DECISIONS = {"arrival", "voice_area"}
#: Text shorter than this could turn up by chance (a number, a word); longer is a card's own.
MEANINGFUL = 24


def _hidden_from(seat: int, state: State) -> set[str]:
    """What ``seat`` may not read in the game as it stands (``state``: the unredacted fold)."""
    hidden = set()
    for stalker in state.stalkers:
        if stalker["seat"] != seat:
            hidden |= {c for c in json.dumps(stalker).split('"') if is_find(c)}
    pack = pack_named(state.pack)
    for frame in state.frames:
        if frame["kind"] != "card" or frame["seat"] != seat or reader_of(state, seat) == seat:
            continue
        if state.options["read_whole_card"]:
            continue
        card = pack.events[frame["card"]]
        text = card_text(card)
        # What the stalker meets is theirs to see; the rest of the card stays with its reader:
        # the sections for other areas or reputations, the paragraphs not reached yet.
        if card.paragraphs:
            unseen = [t for n, t in text.items() if int(n) - 1 > frame["paragraph"]]
        else:
            unseen = [t for key, t in text.items() if key != section(card, state, seat)]
        met = {t for key, t in text.items() if t not in unseen}
        hidden |= {t for t in unseen if len(t) >= MEANINGFUL and t not in met}
    return hidden


@pytest.mark.slow
def test_two_players_play_three_rounds_of_zona_over_http(typed: Typed, games: Games, worker):
    created = typed.call("createGame", None, body=typed.model("CreateZonaGame")(game="zona", seats=2, seed="zona-e2e"))
    game_id = created.game_id
    seats = {s.seat: typed.caller(s.token) for s in created.seats}
    rng = Rng("zona-e2e-policy")
    phases_seen: set[str] = set()
    voice_answers = 0
    seen_after: dict[int, int] = {0: 0, 1: 0}

    def check_seat(seat: int, hidden: set[str]) -> dict:
        state = typed.call("getState", seats[seat], game_id)
        served = state.to_dict()
        folded = fold(games.store, None, games.folder, game_id, at=state.version)
        assert served["view"] == folded.state.module.view(folded.state.state, seat)
        # The log as this seat reads it, from where it last read.
        log = typed.call("getEvents", seats[seat], game_id, after=seen_after[seat], limit=1000)
        seen_after[seat] = log.version
        actions = typed.call("listActions", seats[seat], game_id)
        text = json.dumps([served, log.to_dict(), actions.to_dict()])
        leaked = sorted(h for h in hidden if h in text)
        assert leaked == [], f"seat {seat} was served what it may not see: {leaked[:3]}"
        return served

    for _step in range(3000):
        record = games.load(game_id).state
        state = record.state
        # A card's sentence may also stand on the public board (an area's action in
        # words): what a spectator sees is nobody's secret.
        public = json.dumps(record.module.view(state, None))
        for seat in (0, 1):
            served = check_seat(seat, {h for h in _hidden_from(seat, state) if h not in public})
        view = served["view"]
        phases_seen.add(view["phase"])
        if served["over"] or view["round"] > ROUNDS and voice_answers or view["round"] > MOST_ROUNDS:
            break
        seat = served["waiting_for"][0]
        listed = typed.call("listActions", seats[seat], game_id)
        choice = rng.choice(typed.raw["actions"])
        pending, turn = view["pending"], (view["turn"] or {}).get("seat")
        if pending and pending["seat"] == view["voice"] and pending["kind"] in VOICE_DECISIONS and turn != seat:
            voice_answers += 1  # the Voice's choice, made by its seat's client, in another's turn or the news
        command = listed.actions[typed.raw["actions"].index(choice)]
        answer = typed.call("postAction", seats[seat], game_id, body=command, if_match=f'"{listed.version}"')
        assert isinstance(answer, typed.model("ZonaActed")), answer
    else:
        pytest.fail("the rounds took more than 3,000 commands")

    assert view["round"] > ROUNDS or served["over"]
    # Every phase was played, whether or not it asked anyone anything (a round's news may need no choice).
    played = {e.data["phase"] for e in games.store.read(game_id) if e.type == "PhaseStarted"}
    assert {"action", "event", "news"} <= played, played
    assert {"action", "event"} <= phases_seen  # and the clients acted in both
    assert voice_answers > 0, f"the Voice of the Zone never chose in {view['round'] - 1} rounds"
    assert games.store.verify(game_id).ok
