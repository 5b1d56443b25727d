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

The 200 games at each player count are slow tests (``make test``), in parts that xdist spreads over
its workers; the fast lane (``make test-fast``) plays the first five at each count. Each game is
played once per session (tests/shared_games.py).
"""

from __future__ import annotations

import pytest

from domain.game import Event
from domain.zona.game import ZONA
from domain.zona.pack import pack_named
from tests.domain.zona.fixtures import expected_items, expected_tokens
from tests.domain.zona.test_random_play import PARTS, VARIANTS, assert_both_endings, ending, play_out

GAMES = 200
VIEWS = 100
REFOLD = 10
BASE = pack_named("base")
ITEMS = frozenset(expected_items(BASE))
TOKENS = frozenset(expected_tokens(BASE))
POWER_PLANT = next(a.id for a in BASE.areas.values() if a.power_plant)


def arranged_events(state):
    """Seat 0 holds the top card of two facility decks as its secrets and stands at the power plant."""
    two = sorted(state.facility_of)[:2]
    secrets = [Event("SecretDiscovered", {"thing": state.decks[area][0], "source": f"deck:{area}",
                                          "target": "secrets:0", "seat": 0})
               for area in (state.facility_of[name] for name in two)]
    return [*secrets, Event("StalkerRelocated", {"seat": 0, "area": POWER_PLANT, "by": "arranged"})]


def play(seed: int, players: int):
    return play_out(seed, players, VARIANTS[seed % len(VARIANTS)], BASE, ITEMS, TOKENS, arranged_events,
                    tag=f"base-{players}-", views=VIEWS, refold=seed % REFOLD == 0, limit=6000)


def games_of(players: int, part: int | None = None, count: int = GAMES) -> dict[str, int]:
    """Seeds by their key in the session's record (rules version, pack, seats, seed), or one ``part``."""
    seeds = range(count)
    if part is not None:
        size = count // PARTS
        seeds = seeds[part * size:(part + 1) * size]
    return {f"{ZONA.rules}/base/{players}p/{seed}": seed for seed in seeds}


def ended(players: int):
    return lambda seed: ending(play(seed, players))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_five_random_legal_games_of_the_base_pack_end(shared_games, players):
    """Zona §"PRZEGRANA" / §"ZWYCIĘSTWO": the slow test's first five games at each player count end."""
    list(shared_games.each(games_of(players, count=5), ended(players)))


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS), ids=[f"part{n + 1}of{PARTS}" for n in range(PARTS)])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_legal_games_of_the_base_pack_end_within_bounds(shared_games, players, part):
    """Zona §"PRZEGRANA" / §"ZWYCIĘSTWO": every game of the base pack ends, in one win or the shared loss."""
    list(shared_games.each(games_of(players, part), ended(players)))


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_base_packs_games_at_each_player_count_end_in_wins_and_in_the_news_loss(shared_games, players):
    """Zona §"PRZEGRANA" / §"ZWYCIĘSTWO": over the 200 games at each player count, a win and the news loss."""
    assert_both_endings(end for _, end in shared_games.each(games_of(players), ended(players)))
