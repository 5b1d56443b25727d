"""Bot policies: legal, reproducible, within their budget, and the self-play command."""

from __future__ import annotations

import hashlib
import itertools
import json
import struct
import time
from collections import Counter
from typing import Any

import pytest

from bots import LEVELS, make_bot
from bots.lookahead import Shared, Weighed
from bots.policies import PLANNER_BUDGET_MS, PlannerBot
from bots.selfplay import final_standing
from domain.fallout.game import FALLOUT
from domain.game import SYSTEM
from domain.rng import FirstDrawn, Imagined, Rng
from domain.zona.ai import ZONA_AI
from domain.zona.game import ZONA
from service.cli import main
from service.usecases.selfplay import play_game
from tests.bots.play import random_play
from tests.domain.fallout.fixtures import MINI
from tests.games.counter import COUNTER

MINI_OPTIONS = {"pack": MINI.id, "scenario": "test"}


def _states(module, options, players, seed, steps):
    return ((seat, state) for _, seat, state in random_play(module, options, players, seed, steps) if seat != SYSTEM)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_picks_a_legal_action_from_the_view_alone(level):
    bot = make_bot(level, {"bot_rollouts": 2})
    for module, options in ((FALLOUT, MINI_OPTIONS), (COUNTER, {})):
        for n, (seat, state) in enumerate(itertools.islice(_states(module, options, 2, f"legal-{level}", 200), 0, 200, 7)):
            actions = module.legal_actions(state, seat)
            chosen = bot.choose(module, module.view(state, seat), actions, seat, Rng("bot", str(n)))
            assert chosen in actions


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_rng_picks_the_same_move(level):
    bot = make_bot(level, {"bot_rollouts": 2})
    seat, state = list(itertools.islice(_states(FALLOUT, MINI_OPTIONS, 2, "same", 40), 30, 31))[0]
    view, actions = FALLOUT.view(state, seat), FALLOUT.legal_actions(state, seat)
    picks = {str(bot.choose(FALLOUT, view, actions, seat, Rng("g", "s0-v7"))) for _ in range(3)}
    assert len(picks) == 1


def test_the_planner_stops_at_its_time_budget():
    ticks = itertools.count()
    planner = PlannerBot(budget_ms=5, clock=lambda: next(ticks) / 1000)  # a millisecond per look at the clock
    seat, state = next(iter(_states(FALLOUT, MINI_OPTIONS, 2, "budget", 5)))
    actions = FALLOUT.legal_actions(state, seat)
    planner.choose(FALLOUT, FALLOUT.view(state, seat), actions, seat, Rng("p"))
    assert next(ticks) <= 8


def test_the_planners_budget_is_its_threads_cpu_time_not_the_wall_clock():
    """A loaded machine (another process on the core) makes a decision later, not shallower: time the thread
    spends off the CPU (here, asleep) is not counted against the budget, time spent searching is."""
    clock = PlannerBot().clock
    before = clock()
    time.sleep(0.05)
    assert clock() - before < 0.02
    before, wall = clock(), time.monotonic()
    while time.monotonic() - wall < 0.05:  # busy: this counts
        sum(range(1000))
    assert clock() > before


def test_a_selfplay_run_resumed_from_its_record_plays_the_games_the_whole_run_would_have(tmp_path, capsys):
    """``--resume`` goes on from the games a ``--record`` holds: the same seats and seeds as one whole run."""
    common = ["selfplay", "--bots", "random", "--players", "2", "--seed", "resume",
              "--load", "tests.domain.fallout.fixtures", "--option", "pack=mini", "--option", "scenario=test"]
    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    assert main([*common, "--games", "3", "--record", str(whole)]) == 0
    assert main([*common, "--games", "2", "--record", str(parts)]) == 0
    assert main([*common, "--games", "3", "--record", str(parts), "--resume"]) == 0
    assert "seats" in capsys.readouterr().out

    def games(path: Any) -> list[tuple[Any, ...]]:
        return [(r["levels"], r["winners"], r["decisions"]) for r in map(json.loads, path.read_text().splitlines())]

    assert len(games(parts)) == 3 and games(parts) == games(whole)


def test_a_games_ai_sets_the_planners_default_time_and_a_tables_setting_overrides_it():
    """Zona's planner needs several worlds a decision (its AI asks for 200 ms); Fallout's keeps the
    service's default; a table's ``bot_budget_ms`` is the planner's time whatever the game."""
    assert make_bot("planner", {}, ZONA.ai).budget == ZONA_AI.planner_budget_ms / 1000 == 0.2
    assert make_bot("planner", {}, FALLOUT.ai).budget == PLANNER_BUDGET_MS / 1000
    assert make_bot("planner", {"bot_budget_ms": 80}, ZONA.ai).budget == 0.08
    assert make_bot("planner").budget == PLANNER_BUDGET_MS / 1000


def test_selfplay_plays_whole_games_and_reports_per_bot(capsys):
    result = play_game("fallout", ["greedy", "random"], "sp", MINI_OPTIONS)
    assert result.finished and result.decisions > 10
    assert main(["selfplay", "--bots", "random,greedy", "--games", "2", "--players", "2",
                 "--load", "tests.domain.fallout.fixtures", "--option", "pack=mini", "--option", "scenario=test"]) == 0
    out = capsys.readouterr()
    assert "win rate" in out.out and "decisions/s" in out.out and "2/2 games" in out.err


@pytest.mark.parametrize(("module", "options"), [(FALLOUT, MINI_OPTIONS), (ZONA, {})], ids=["fallout", "zona"])
def test_self_play_reads_the_end_of_a_game_from_each_seats_scoring_view_as_from_the_public_view(module, options):
    """``final_standing``: once a game is over each seat's scoring view gives its standing as the public
    view does, so self-play ranks its leaders on the cheaper one; a game stopped short keeps the public view."""
    ai = module.ai
    ended = 0
    for players in (2, 3):
        for g in range(4):
            seed = f"end-{players}-{g}"
            positions = list(random_play(module, options, players, seed, 3000))
            _, seat, state = positions[-1]
            command = module.system_command(state) or Rng(f"{seed}-pick").choice(module.legal_actions(state, seat))
            state = module.decide_and_fold(state, seat, command, Rng(seed, f"v{len(positions) - 1}"))[1]
            if not module.is_over(state):
                continue
            ended += 1
            public = module.view(state, None)
            assert final_standing(module, state, players) == [ai.standing(public, s) for s in range(players)]
    assert ended >= 4
    _, _, short = list(random_play(module, options, 2, "end-short", 30))[-1]
    public = module.view(short, None)
    assert final_standing(module, short, 2) == [ai.standing(public, s) for s in range(2)]


def test_a_first_drawn_stream_fixes_its_first_draw_and_then_runs_as_the_plain_one():
    """The planner enumerates a command's first chance (``PlannerBot.expected``): ``FirstDrawn`` answers its
    first ``below(n)`` with the outcome asked for and records ``n``; every later draw is the plain stream's."""
    for k in range(6):
        drawn = FirstDrawn("seed", "label", k + 6)
        assert drawn.span is None
        assert drawn.below(6) == k and drawn.span == 6
        plain = Rng("seed", "label")
        assert [drawn.below(10) for _ in range(5)] == [plain.below(10) for _ in range(5)]


def test_what_a_bot_imagines_draws_eight_uniform_words_from_each_digest_of_the_plain_stream():
    """A bot's look-ahead (every ``sub`` source: its sampled worlds, the commands it tries) draws from
    ``Imagined``: the plain stream's SHA-256 digests cut into eight 32-bit words, each a draw, so a greedy
    decision hashes an eighth as often. As reproducible and as uniform as ``Rng`` (a word past the largest
    multiple of the bound is passed over); a bound wider than a word draws as ``Rng`` does."""
    words = struct.unpack(">8I", hashlib.sha256(b"seed\x00look\x000").digest())
    cut = Imagined("seed", "look")
    assert [cut.below(1 << 32) for _ in range(8)] == list(words)
    assert cut.counter == 1  # one digest for eight draws
    cut.below(6)
    assert cut.counter == 2
    assert Imagined("seed", "look").below(1 << 40) == Rng("seed", "look").below(1 << 40)
    a, b = Imagined("seed", "dice"), Imagined("seed", "dice")
    faces = [a.below(6) for _ in range(6000)]
    assert faces == [b.below(6) for _ in range(6000)]
    assert all(880 < n < 1120 for n in Counter(faces).values()) and len(Counter(faces)) == 6
    with pytest.raises(ValueError):
        a.below(0)


def test_a_later_world_answers_the_follow_ups_as_the_first_world_did_where_it_may():
    """Greedy with ``follow_ups_shared`` (Zona's AI): an action's first world weighs its follow-ups and keeps
    the answers; a later world gives them again one by one, each only where it is legal, and weighs any
    other follow-up itself."""
    state = next(s for _, s in _states(ZONA, {}, 2, "shared", 300)
                 if s.pending and len(ZONA.legal_actions(s, s.pending["seat"])) > 1)
    seat = state.pending["seat"]
    actions = ZONA.legal_actions(state, seat)
    first = Weighed()
    weighed = first(ZONA_AI, ZONA, state, seat, Imagined("shared", "w0"))
    assert weighed is not None and first.answers == [weighed[0]] and weighed[0] in actions
    other = next(a for a in actions if a != weighed[0])
    again = Shared([other, {"type": "not_a_command"}])
    assert again(ZONA_AI, ZONA, state, seat, Imagined("shared", "w1"))[0] == other
    fallback = again(ZONA_AI, ZONA, state, seat, Imagined("shared", "w1"))  # not legal: weighed here
    assert fallback is not None and fallback[0] in actions
    assert ZONA.legal_actions(state, seat) == actions  # the state itself is never changed
