"""Property test on the base pack: 200 games of random legal play at each player count, each to its end.

The invariants are part 1's (``test_random_play.check``) after every command: stamina, fatigue,
injuries and reputation within bounds, every item card and threat token of the box in exactly one
place, one seat waited for, every pending decision offered to its seat alone, every event the game
emits valid against its declared schema (as the service checks it before appending). Two of them
cost more than a command and are sampled so the 800 games stay cheap (about 50 s of CPU in all): no view names
another stalker's find (every ``VIEWS`` commands), and the fold of the whole log equals the live state
(every ``REFOLD``th game). As in part 1, one game in five seat 0 starts the action phase at the power
plant with two secrets (arranged through the log's own events), so random play also reaches the
sarcophagus.
"""

from __future__ import annotations

import pytest

from domain.game import Event
from domain.zona.pack import pack_named
from tests.domain.zona.fixtures import expected_items, expected_tokens
from tests.domain.zona.test_random_play import VARIANTS, assert_every_game_ends, play_out

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
    return play_out(seed, players, VARIANTS[seed % len(VARIANTS)], BASE, ITEMS, TOKENS, arranged_events,
                    tag=f"base-{players}-", views=VIEWS, refold=seed % REFOLD == 0, limit=6000)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_legal_games_of_the_base_pack_end_within_bounds(players):
    """Zona §"PRZEGRANA" / §"ZWYCIĘSTWO": every game of the base pack ends, in one win or the shared loss."""
    assert_every_game_ends(play(seed, players) for seed in range(GAMES))
