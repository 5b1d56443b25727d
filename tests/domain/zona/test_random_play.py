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
"""

from __future__ import annotations

import json

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
    for s in state["stalkers"]:
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
    if not state["over"] and not state["frames"]:
        # Between turns nothing is half-done: no card being read or looked at, no threat being met.
        assert state["pending"] is None or state["phase"] == "setup"
        assert state["hand"] == [] and state["in_play"] == [] and state["reading"] == [], state["phase"]
    if not state["over"]:
        waiting = ZONA.waiting_for(state)
        assert len(waiting) == 1, waiting
        pending = state["pending"]
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
    if state["over"]:
        return
    for seat in [None, *range(players)]:
        shown = _strings(ZONA.view(state, seat))
        for other in state["stalkers"]:
            if other["seat"] == seat:
                continue
            held = {c for c in other["backpack"] + other["worn"] + other["small"] + other["sixth"] if "#f" in c}
            assert not shown & held, (seat, shown & held)


def arranged_events(state):
    """Every fifth game seat 0 starts at the power plant with two secrets, so random play also goes
    into the sarcophagus and can win (arranged through the log's own events, after the draft)."""
    secrets = [Event("SecretDiscovered", {"thing": card, "source": f"deck:{deck}", "target": "secrets:0", "seat": 0})
               for deck, card in ((state["facility_of"]["greenhouse"], "f_gh3"),
                                  (state["facility_of"]["deeparchive"], "f_da3"))]
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
    while not state["over"]:
        if not arranged and state["phase"] == "action":
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


def assert_every_game_ends(games):
    """Each game over, in one win or the shared loss; over the lot both a win and the news loss."""
    endings = {"win": 0, "news": 0, "sarcophagus": 0}
    for state in games:
        assert state["over"]
        if state["winner"] is not None:
            assert state["lost"] is None
            endings["win"] += 1
        else:
            endings[state["lost"]] += 1
    assert endings["news"] > 0 and endings["win"] > 0, endings


def test_random_legal_games_end_within_bounds():
    """Zona §"PRZEGRANA" / §"ZWYCIĘSTWO": every game ends, in one win or the shared loss."""
    assert_every_game_ends(play(seed) for seed in range(GAMES))
