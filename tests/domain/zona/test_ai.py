"""Zona's AI part (``domain.zona.ai``): worlds sampled from a seat's view, scores, lapsed turns, and bots
that play better than chance."""

from __future__ import annotations

import statistics

from bots import make_bot
from domain.rng import Rng
from domain.zona.ai import LAPSED, LAPSED_AHEAD, LOST, WON, ZONA_AI, evaluate, standing
from domain.zona.game import ZONA
from domain.zona.state import dump, load
from domain.zona.view import is_find
from service.usecases.selfplay import play_game
from tests.domain.zona.fixtures import (
    all_items,
    all_tokens,
    edit,
    expected_items,
    expected_tokens,
    new_game,
    resolve,
    strip,
    with_stalker,
)

ITEMS = expected_items()
TOKENS = expected_tokens()


def _random_play(players: int, seed: str, steps: int, **options):
    """The states of one game of random legal play (free item steps now and then only)."""
    opts = ZONA.resolve_options({"pack": "test", **options})
    state = ZONA.initial_state()
    for event in ZONA.setup({**opts, "players": players}, Rng(seed)):
        state = ZONA.evolve(state, event)
    rng = Rng(seed, "play")
    states = [state]
    for step in range(steps):
        if ZONA.is_over(state):
            break
        seat = ZONA.waiting_for(state)[0]
        actions = ZONA.legal_actions(state, seat)
        calm = [a for a in actions if a["type"] not in ("put_on", "take_off", "drop")] or actions
        state = ZONA.decide_and_fold(state, seat, rng.choice(calm if rng.below(5) else actions), Rng(seed, f"{step}"))[1]
        states.append(state)
    return states


GAMES = [(1, "solo", {}), (2, "pair", {"read_whole_card": True}), (3, "three", {"random_facilities": True}),
         (4, "four", {"draft": "free"})]


def test_a_world_sampled_from_a_view_looks_the_same_and_plays_on():
    """Every seat, everywhere in a game: the sampled world's view is the view, the legal actions the same,
    every card and token in exactly one place, and the rules go on from it."""
    checked = 0
    for players, seed, options in GAMES:
        for n, state in enumerate(_random_play(players, seed, 400, **options)[::7]):
            if ZONA.is_over(state):
                continue
            for seat in range(players):
                view = ZONA.view(state, seat)
                world = ZONA_AI.determinize(view, seat, Rng(seed, f"world{n}-{seat}"))
                assert ZONA.view(world, seat) == view, (seed, n, seat)
                assert ZONA.legal_actions(world, seat) == ZONA.legal_actions(state, seat), (seed, n, seat)
                assert sorted(all_items(world)) == ITEMS, (seed, n, seat)
                assert sorted(all_tokens(world)) == TOKENS, (seed, n, seat)
                for action in ZONA.legal_actions(world, seat):
                    ZONA.decide_and_fold(world, seat, action, Rng(seed, "search"))
                checked += 1
    assert checked > 100


def test_what_a_seat_cannot_see_is_dealt_at_random():
    """Zona §"PRZYGOTOWANIE DO GRY": decks are shuffled face down; Zona §"ZNALEZISKA": finds are looked at
    alone. Two worlds from one view deal them differently; what the seat sees never changes."""
    state = new_game(2, seed="dealt")
    view = ZONA.view(state, 0)
    worlds = [ZONA_AI.determinize(view, 0, Rng("dealt", str(i))) for i in range(6)]
    assert len({tuple(w.decks["green"]) for w in worlds}) > 1
    assert len({tuple(w.finds["vault"]) for w in worlds}) > 1
    assert len({tuple(sorted(w.draft["1"])) for w in worlds}) > 1
    for w in worlds:
        assert w.stalkers[0] == state.stalkers[0]
        assert w.market == state.market


def test_another_stalkers_finds_are_sampled_from_finds_the_seat_has_not_seen():
    state = new_game(2, seed="finds")
    mine, theirs = sorted(c for c in ITEMS if is_find(c))[:2]
    state = load(dump(state))
    for seat, card in ((0, mine), (1, theirs)):
        for deck in state.finds.values():
            if card in deck:
                deck.remove(card)
        state.stalkers[seat]["backpack"].append(card)
    view = ZONA.view(state, 0)
    assert "find" in view["stalkers"][1]["backpack"]
    for i in range(8):
        world = ZONA_AI.determinize(view, 0, Rng("finds", str(i)))
        held = [c for c in world.stalkers[1]["backpack"] if is_find(c)]
        assert len(held) == 1 and held[0] != mine
        assert ZONA.view(world, 0) == view


def test_a_win_scores_above_everything_and_a_loss_below():
    """Zona §"ZWYCIĘSTWO" and §"PRZEGRANA": the game's end outweighs any position."""
    state = new_game(2, seed="end")
    view = ZONA.view(state, 0)
    assert LOST < evaluate(view, 0) < WON
    won = {**view, "over": True, "winner": 0, "phase": "over"}
    lost = {**view, "over": True, "winner": None, "lost": "news", "phase": "over"}
    assert evaluate(won, 0) == WON and evaluate(won, 1) == LOST and evaluate(lost, 0) == LOST
    # Standing sets the end aside: who stood best when everyone lost.
    assert standing(lost, 0) == standing(view, 0)


def test_secrets_and_the_way_to_the_sarcophagus_score_in_order():
    """Zona §"CEL GRY": two secrets of two facilities, then the power plant, then the sarcophagus."""
    state = new_game(1, seed="goal")
    areas = state.facility_of
    secret = {deck: next(c for c, card in _events().items() if card.deck == deck) for deck in areas}
    base = standing(ZONA.view(state, 0), 0)
    one = with_stalker(state, 0, secrets=[secret["vault"]])
    two = with_stalker(state, 0, secrets=[secret["vault"], secret["greenhouse"]])
    assert base < standing(ZONA.view(one, 0), 0) < standing(ZONA.view(two, 0), 0)
    by_area = [standing(ZONA.view(with_stalker(two, 0, area=a), 0), 0) for a in ("hayfields", "ghosttown",
                                                                                   "reactoryard", "core")]
    assert by_area == sorted(by_area) and len(set(by_area)) == 4


def test_wounds_fatigue_and_injuries_cost_items_and_roubles_help():
    """Zona §"OBRAŻENIA", §"URAZY", §"ZMĘCZENIE": a hurt, tired stalker stands worse."""
    state = new_game(1, seed="body")
    base = standing(ZONA.view(state, 0), 0)
    for worse in ({"damage": 2}, {"fatigue": 4}, {"injuries": ["agility"]}, {"reputation": "bad"}):
        assert standing(ZONA.view(with_stalker(state, 0, **worse), 0), 0) < base, worse
    assert standing(ZONA.view(with_stalker(state, 0, roubles=900), 0), 0) > base


def _events():
    from domain.zona.pack import pack_named

    return pack_named("test").events


def test_a_lapsed_turn_passes_and_a_lapsed_test_keeps_its_roll():
    """Zona §"PAS": passing ends the turn; a test's roll is kept as it fell."""
    state = new_game(2, seed="lapse")
    seat = ZONA.waiting_for(state)[0]
    assert ZONA.timeout_command(state, seat) == {"type": "pass"}
    assert ZONA.timeout_command(state, 1 - seat) is None
    for state in _random_play(2, "lapse", 300):
        pending = state.pending
        if pending and pending["kind"] == "test_options":
            assert ZONA.timeout_command(state, pending["seat"]) == {"type": "accept"}
            break
    else:
        raise AssertionError("no test met")


def test_a_lapsed_offer_to_give_something_up_keeps_everything():
    """Zona §"WYKONYWANIE AKCJI OBSZARÓW": the Smelter's action asks for a trophy or an artifact; a lapsed
    player gives up nothing."""
    state = with_stalker(new_game(1, seed="smelter"), 0, area="smelter", trophies=[])
    token = next(t for ts in state.dispenser.values() for t in ts)
    state = load(dump(state))
    for queue in state.dispenser.values():
        if token in queue:
            queue.remove(token)
    state.stalkers[0]["trophies"].append(token)
    state = ZONA.decide_and_fold(state, 0, {"type": "area_action"}, Rng("smelter"))[1]
    assert state.pending["kind"] == "give_up"
    assert ZONA.timeout_command(state, 0) == {"type": "choose", "option": 1}


def test_free_choice_is_the_seats_own_turn():
    """Zona §"AKCJE": a stalker chooses its actions freely on its own turn; a decision is answered."""
    state = new_game(2, seed="free")
    seat = ZONA.waiting_for(state)[0]
    assert ZONA_AI.free_choice(ZONA.view(state, seat), seat)
    assert not ZONA_AI.free_choice(ZONA.view(state, 1 - seat), 1 - seat)
    for state in _random_play(2, "free", 200):
        if state.pending and not state.over:
            seat = state.pending["seat"]
            assert not ZONA_AI.free_choice(ZONA.view(state, seat), seat)
            break


def test_greedy_beats_random_in_two_player_games():
    """Over a few 2-player games of the test pack, seats swapped each game, greedy wins and random does not."""
    wins = {"greedy": 0, "random": 0}
    for g in range(6):
        levels = ["greedy", "random"] if g % 2 == 0 else ["random", "greedy"]
        result = play_game("zona", levels, f"ai-pair-{g}", {"pack": "test"})
        for seat in result.winners:
            wins[levels[seat]] += 1
    assert wins["greedy"] > wins["random"], wins


def _solo(level: str, seed: str) -> tuple[float, bool]:
    """One solo game played by a bot of ``level``: its final standing, and whether it won."""
    bot = make_bot(level)
    state = ZONA.initial_state()
    options = ZONA.resolve_options({"pack": "test", "solo_news_discard": 0})
    for event in ZONA.setup({**options, "players": 1}, Rng(seed)):
        state = ZONA.evolve(state, event)
    version = 1
    while not ZONA.is_over(state):
        command = bot.choose(ZONA, ZONA.view(state, 0), ZONA.legal_actions(state, 0), 0, Rng(seed, f"bot{version}"))
        state = ZONA.decide_and_fold(state, 0, command, Rng(seed, f"v{version}"))[1]
        version += 1
    return standing(ZONA.view(state, 0), 0), ZONA.outcome(state).winners == (0,)


def test_greedy_stands_better_than_random_solo():
    """Solo (Zona §"WARIANT GRY SOLO") on the test pack's ten news cards, none set aside (five rounds are
    too few for a win on so small a pack): greedy ends its games standing better, and wins more."""
    greedy = [_solo("greedy", f"ai-solo-{g}") for g in range(5)]
    chance = [_solo("random", f"ai-solo-{g}") for g in range(5)]
    assert statistics.mean(s for s, _ in greedy) > statistics.mean(s for s, _ in chance), (greedy, chance)
    assert sum(w for _, w in greedy) >= sum(w for _, w in chance)


def _rolled(faces: list[str], difficulty: int):
    """Seat 0 (Yuri, with nothing that changes a test) at the decision after rolling an intellect test."""
    state = strip(new_game(1, characters=["yuri"], die_faces=faces), 0)
    spec = {"attribute": "intellect", "difficulty": difficulty}
    return resolve(state, 0, [{"test": spec, "pass": [], "fail": []}], seed="weigh")


def _kept(state):
    actions = ZONA.legal_actions(state, 0)
    kept = ZONA_AI.candidates(ZONA.view(state, 0), 0, actions, False)
    assert ZONA_AI.candidates_at(state, 0, actions, False) == kept
    assert ZONA_AI.candidates(ZONA.view(state, 0), 0, actions, True) == kept  # a test is weighed alike ahead
    return kept


def test_a_roll_that_passes_is_kept_without_weighing_rerolls():
    """Zona §"WYKONYWANIE TESTÓW": a roll at or above the difficulty passes; a reroll or an item could only
    lower it or cost something, so a search weighs keeping it alone."""
    state = _rolled(["plus"], 3)
    assert state.pending["kind"] == "test_options" and len(ZONA.legal_actions(state, 0)) > 1
    assert _kept(state) == [{"type": "accept"}]


def test_a_failing_roll_is_weighed_rerolling_its_worst_die():
    """Zona §"WYKONYWANIE TESTÓW" and §"FORSOWANIE TESTU": a minus takes 1 off, two triangles 1 between
    them, a blank or a lone triangle nothing: forcing is weighed on the die whose reroll can gain most, and
    keeping the roll stays among the choices."""
    state = _rolled(["minus"], 6)
    context = state.pending["context"]
    for dice, worst in (
        (["plus", "minus", "blank"], 1),
        (["blank", "triangle", "triangle"], 1),
        (["plus", "triangle", "blank"], 1),
        (["plus", "plus", "blank"], 2),
    ):
        arranged = edit(state, pending={**state.pending, "context": {**context, "dice": dice}})
        kept = _kept(arranged)
        assert {"type": "accept"} in kept and {"type": "force", "die": worst} in kept, (dice, kept)
        assert all(a.get("die", worst) == worst for a in kept), (dice, kept)


def test_what_a_searching_bot_answers_as_a_lapsed_deadline_would():
    """Zona §"SPOTKANIE Z MUTANTEM ALBO ANOMALIĄ" (flee) and the rest of ``LAPSED``: a searching bot answers
    them at the lapsed default, for its weighed answer was that default nearly always; §"SZPERACZE I GŁOS ZONY":
    the Voice's area only in a look-ahead, its own decision weighed. Any other decision's choices are all
    weighed."""
    actions = [{"type": "a"}, {"type": "b"}]

    def kept(kind: str, ahead: bool, seat: int = 0) -> list:
        pending = {"seat": 0, "kind": kind, "choices": actions, "context": {}}
        return ZONA_AI.candidates({"pending": pending}, seat, actions, ahead)

    assert "flee" in LAPSED and "voice_area" in LAPSED_AHEAD and "voice_area" not in LAPSED
    for kind in LAPSED:
        assert kept(kind, False) == kept(kind, True) == []
    assert kept("voice_area", True) == [] and kept("voice_area", False) == actions
    assert kept("trade", True) == kept("trade", False) == actions
    assert kept("flee", True, seat=1) == actions  # not this seat's decision
