"""Property test on the base pack: 200 games of random legal play at each player count, each to its end.

The invariants are part 1's (``test_random_play.check``) after every command: stamina, fatigue,
injuries and reputation within bounds, every item card and threat token of the box in exactly one
place, one seat waited for, every pending decision offered to its seat alone. Two of them cost more
than a command and are sampled so the 800 games stay cheap: no view names another stalker's find
(every ``VIEWS`` commands), and the fold of the whole log equals the live state (every ``REFOLD``th
game). As in part 1, one game in five seat 0 starts the action phase at the power plant with two
secrets (arranged through the log's own events), so random play also reaches the sarcophagus.
"""

from __future__ import annotations

import json

import pytest

from domain.game import Event
from domain.rng import Rng
from domain.zona.game import ZONA
from domain.zona.pack import pack_named
from tests.domain.zona.fixtures import expected_items, expected_tokens, fold
from tests.domain.zona.test_random_play import FREE, VARIANTS, check, check_views

GAMES = 200
VIEWS = 100
REFOLD = 10
BASE = pack_named("base")
ITEMS = frozenset(expected_items(BASE))
TOKENS = frozenset(expected_tokens(BASE))
POWER_PLANT = next(a.id for a in BASE.areas.values() if a.power_plant)


def arranged_events(state):
    """Seat 0 holds the top card of two facility decks as its secrets and stands at the power plant."""
    two = sorted(state["facility_of"])[:2]
    secrets = [Event("SecretDiscovered", {"thing": state["decks"][area][0], "source": f"deck:{area}",
                                          "target": "secrets:0", "seat": 0})
               for area in (state["facility_of"][name] for name in two)]
    return [*secrets, Event("StalkerRelocated", {"seat": 0, "area": POWER_PLANT, "by": "arranged"})]


def play(seed: int, players: int):
    options = ZONA.resolve_options({"pack": "base", **VARIANTS[seed % len(VARIANTS)]})
    options["players"] = players
    events = ZONA.setup(options, Rng(f"base-setup-{players}-{seed}"))
    state = fold(events)
    pick = Rng(f"base-pick-{players}-{seed}")
    commands = 0
    arranged = seed % 5 != 0
    while not state["over"]:
        if not arranged and state["phase"] == "action":
            arranged = True
            more = arranged_events(state)
            events += more
            state = fold(more, state)
        seat = ZONA.waiting_for(state)[0]
        actions = ZONA.legal_actions(state, seat)
        steady = [a for a in actions if a["type"] not in FREE]
        command = pick.choice(steady if steady and pick.below(8) else actions)
        new, state = ZONA.decide_and_fold(state, seat, command, Rng(f"base-{players}-{seed}-{commands}"))
        events += new
        commands += 1
        check(state, players, BASE, ITEMS, TOKENS)
        if commands % VIEWS == 0:
            check_views(state, players)
        assert commands < 6000, "a game of the base pack ends well before this"
    if seed % REFOLD == 0:
        assert fold(events) == state, "the fold of the log is the live state"
        json.dumps(ZONA.view(state, 0))
    return state


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_legal_games_of_the_base_pack_end_within_bounds(players):
    """Zona §"PRZEGRANA" / §"ZWYCIĘSTWO": every game of the base pack ends, in one win or the shared loss."""
    endings = {"win": 0, "news": 0, "sarcophagus": 0}
    for seed in range(GAMES):
        state = play(seed, players)
        assert state["over"]
        if state["winner"] is not None:
            assert state["lost"] is None
            endings["win"] += 1
        else:
            endings[state["lost"]] += 1
    assert sum(endings.values()) == GAMES
    assert endings["news"] > 0 and endings["win"] > 0
