"""Property test: 200 games of random legal play, 1-4 players, each to its end.

Each command is picked among ``legal_actions`` of the seat the game waits
for (free item shuffling only now and then, so games move on). After every
command: stamina, fatigue, injuries and reputation within bounds, every item
card and every threat token in exactly one place (conserved), exactly one
seat waited for while the game runs, and every pending decision naming one
seat with choices only it is offered; now and then, no view names a find
another stalker holds. Every event the game emits (setup's and each
command's) validates against its declared schema. At the end the fold of the whole log
equals the live state, and the game is over: a win or the shared loss
(Zona §"PRZEGRANA", §"ZWYCIĘSTWO").

The 200 games are slow tests (``make test``), run in parts that xdist spreads
over its workers; the fast lane (``make test-fast``) plays their first 20.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

import pytest

from domain.game import Event
from domain.rng import Rng
from domain.zona.game import ZONA
from domain.zona.model import REPUTATIONS
from domain.zona.state import MAX_FATIGUE, MAX_INJURIES
from tests.contract.schemas import schemas_of
from tests.domain.zona.fixtures import PACK, all_items, all_tokens, expected_items, expected_tokens, fold

GAMES = 200
FREE = ("put_on", "take_off", "drop", "use_item")
ITEMS = frozenset(expected_items())
TOKENS = frozenset(expected_tokens())
#: Every event the games emit validates against its declared schema, as the service checks it.
SCHEMAS = schemas_of(ZONA)


def check(state, players, pack=PACK, items=ITEMS, tokens=TOKENS):
    """Part 1's invariants after every command (``items`` and ``tokens``: every card and token of ``pack``)."""
    for s in state.stalkers:
        if s["character"] is None:
            continue
        stamina = pack.stalkers[s["character"]].stamina
        assert 0 <= s["damage"] <= stamina, s
        assert 0 <= s["fatigue"] <= MAX_FATIGUE, s
        assert s["reputation"] in REPUTATIONS
        assert len(s["injuries"]) <= MAX_INJURIES or s["dead"], s
        assert len(set(s["injuries"])) == len(s["injuries"]), s
        assert s["roubles"] >= 0
        assert len(s["backpack"]) <= 5 and len(s["sixth"]) <= 1
    # Ids are unique, so the same count and the same set is the same multiset (cheaper than sorting).
    held, met = all_items(state), all_tokens(state)
    assert len(held) == len(items) and set(held) == items, "item cards conserved"
    assert len(met) == len(tokens) and set(met) == tokens, "threat tokens conserved"
    if not state.over and not state.frames:
        # Between turns nothing is half-done: no card being read or looked at, no threat being met.
        assert state.pending is None or state.phase == "setup"
        assert state.hand == [] and state.in_play == [] and state.reading == [], state.phase
    if not state.over:
        waiting = ZONA.waiting_for(state)
        assert len(waiting) == 1, waiting
        pending = state.pending
        if pending is not None:
            assert 0 <= pending["seat"] < players and pending["choices"]
            for seat in range(players):
                offered = ZONA.legal_actions(state, seat)
                assert bool(offered) == (seat == pending["seat"])


def _strings(value):
    """Every string value in a JSON-like tree (keys aside); a loop, not recursion: views are big."""
    out, todo = set(), [value]
    while todo:
        v = todo.pop()
        if type(v) is str:
            out.add(v)
        elif type(v) is dict:
            todo.extend(v.values())
        elif type(v) is list:
            todo.extend(v)
    return out


def check_views(state, players):
    """No seat's view (nor a spectator's) names a find another stalker holds."""
    if state.over:
        return
    for seat in [None, *range(players)]:
        shown = _strings(ZONA.view(state, seat))
        for other in state.stalkers:
            if other["seat"] == seat:
                continue
            held = {c for c in other["backpack"] + other["worn"] + other["small"] + other["sixth"] if "#f" in c}
            assert not shown & held, (seat, shown & held)


def arranged_events(state):
    """Every fifth game seat 0 starts at the power plant with two secrets, so random play also goes
    into the sarcophagus and can win (arranged through the log's own events, after the draft)."""
    secrets = [Event("SecretDiscovered", {"thing": card, "source": f"deck:{deck}", "target": "secrets:0", "seat": 0})
               for deck, card in ((state.facility_of["greenhouse"], "f_gh3"),
                                  (state.facility_of["deeparchive"], "f_da3"))]
    return [*secrets, Event("StalkerRelocated", {"seat": 0, "area": "reactoryard", "by": "arranged"})]


#: Games also spread over the rulings a group may play otherwise (docs/zona-engine.md).
VARIANTS = [{}, {"draft": "free"}, {"random_facilities": True}, {"read_whole_card": True},
            {"cancel_target": "minus_or_triangle"}, {"triangle_pair": "none"}, {"news_loss": "on_empty_draw"},
            {"worsen_at_bad": "damage"}, {"die_faces": ["plus", "minus", "blank"]}]


def play_out(seed: int, players: int, variant: dict, pack=PACK, items=ITEMS, tokens=TOKENS,
             arrange=arranged_events, tag: str = "", views: int = 10, refold: bool = True, limit: int = 3000):
    """One game of random legal play to its end, ``check``ed after every command and its views every
    ``views`` commands; one game in five ``arrange``d at the start of the action phase; the fold of the
    whole log compared with the live state when ``refold``."""
    options = ZONA.resolve_options({"pack": pack.name, **variant})
    options["players"] = players
    events = ZONA.setup(options, Rng(f"{tag}setup-{seed}"))
    SCHEMAS.check(events, f"{pack.name} {players}p {tag}seed {seed} setup")
    state = fold(events)
    pick = Rng(f"{tag}pick-{seed}")
    commands = 0
    arranged = seed % 5 != 0
    while not state.over:
        if not arranged and state.phase == "action":
            arranged = True
            more = arrange(state)
            events += more
            state = fold(more, state)
        seat = ZONA.waiting_for(state)[0]
        actions = ZONA.legal_actions(state, seat)
        steady = [a for a in actions if a["type"] not in FREE]
        command = pick.choice(steady if steady and pick.below(8) else actions)
        new, state = ZONA.decide_and_fold(state, seat, command, Rng(f"{tag}game-{seed}-{commands}"))
        SCHEMAS.check(new, f"{pack.name} {players}p {tag}seed {seed} command {commands} seat", seat, command)
        events += new
        commands += 1
        check(state, players, pack, items, tokens)
        if commands % views == 0:
            check_views(state, players)
        assert commands < limit, f"a game of the {pack.name} pack ends well before this"
    if refold:
        assert fold(events) == state, "the fold of the log is the live state"
        json.dumps(ZONA.view(state, 0))
    return state


def play(seed: int):
    return play_out(seed, 1 + seed % 4, VARIANTS[(seed // 4) % len(VARIANTS)])


def ending(state) -> str:
    """How a game ended: "win" or the loss (state.lost); one or the other, never both."""
    assert state.over
    if state.winner is not None:
        assert state.lost is None
        return "win"
    assert state.lost in ("news", "sarcophagus"), state.lost
    return state.lost


def assert_both_endings(endings: Iterable[str]) -> None:
    """Over the lot both a win and the news loss."""
    counted = Counter(endings)
    assert counted["news"] > 0 and counted["win"] > 0, counted


#: The 200 games run as four slow tests of 50 (``part``), which xdist hands to different workers; a
#: last test reads their endings. Each game is played once per session (tests/shared_games.py).
PARTS = 4


def games_of(tag: str, part: int | None = None, count: int = GAMES) -> dict[str, int]:
    """Seeds by their key in the session's record (rules version, ``tag``, seed), or one ``part`` of them."""
    seeds = range(count)
    if part is not None:
        size = count // PARTS
        seeds = seeds[part * size:(part + 1) * size]
    return {f"{ZONA.rules}/{tag}/{seed}": seed for seed in seeds}


def test_twenty_random_legal_games_end(shared_games):
    """Zona §"PRZEGRANA" / §"ZWYCIĘSTWO": 20 quick games (the slow test's first 20) each end, in one
    win or the shared loss."""
    list(shared_games.each(games_of(PACK.name, count=20), lambda seed: ending(play(seed))))


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS), ids=[f"part{n + 1}of{PARTS}" for n in range(PARTS)])
def test_random_legal_games_end_within_bounds(shared_games, part):
    """Zona §"PRZEGRANA" / §"ZWYCIĘSTWO": every game ends, in one win or the shared loss."""
    list(shared_games.each(games_of(PACK.name, part), lambda seed: ending(play(seed))))


@pytest.mark.slow
def test_the_two_hundred_games_end_in_wins_and_in_the_news_loss(shared_games):
    """Zona §"PRZEGRANA" / §"ZWYCIĘSTWO": over the 200 games, both a win and the loss when the news run out."""
    assert_both_endings(end for _, end in shared_games.each(games_of(PACK.name), lambda seed: ending(play(seed))))
