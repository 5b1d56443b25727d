"""The ladder's arithmetic (bots/ratings.py) and the ``holotape selfplay --ladder`` command."""

from __future__ import annotations

import math

import pytest

from bots.ratings import bradley_terry, comparisons, ladder, wilson
from bots.selfplay import GameResult
from service.cli import main, player_counts


def game(levels, winners):
    return GameResult(levels=list(levels), winners=list(winners), leaders=list(winners), decisions=10, rounds=3)


def test_only_a_win_against_a_seat_that_did_not_win_is_a_decisive_comparison():
    found = comparisons([
        game(["a", "b"], [0]),            # a beat b
        game(["a", "b", "a"], [1]),       # b beat both a seats
        game(["a", "b"], [0, 1]),         # a shared victory: nothing
        game(["a", "b"], []),             # everyone lost: nothing
        game(["a", "a", "b"], [0]),       # a beat b; the other a seat is the same level
    ])
    assert found == {("a", "b"): 2, ("b", "a"): 2}


def test_two_levels_rate_by_their_odds_with_the_virtual_draw():
    beaten = comparisons([game(["strong", "weak"], [0])] * 30 + [game(["strong", "weak"], [1])] * 10)
    rated = bradley_terry(["weak", "strong"], beaten)
    assert rated["weak"] == 0
    # Two levels have the closed form: the odds are the wins, each with half a virtual win added.
    assert rated["strong"] == pytest.approx(400 * math.log10(30.5 / 10.5), abs=0.01)


def test_three_levels_come_out_in_the_order_of_their_results():
    results = (
        [game(["planner", "greedy"], [0])] * 14 + [game(["planner", "greedy"], [1])] * 6
        + [game(["greedy", "random"], [0])] * 18 + [game(["greedy", "random"], [1])] * 2
        + [game(["planner", "random"], [0])] * 19 + [game(["planner", "random"], [1])] * 1
    )
    rated = ladder(["random", "greedy", "planner"], results, resamples=50)
    assert [r.level for r in rated] == ["planner", "greedy", "random"]
    for r in rated:
        assert r.low <= r.elo <= r.high
    assert rated[-1].elo == 0 and rated[-1].low == rated[-1].high == 0  # the anchor
    assert rated[0].high > rated[0].low


def test_a_level_that_never_lost_keeps_a_finite_rating():
    rated = bradley_terry(["random", "greedy"], comparisons([game(["greedy", "random"], [0])] * 50))
    assert math.isfinite(rated["greedy"]) and rated["greedy"] > 600


def test_wilson_interval_matches_known_values():
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_player_counts_read_lists_and_ranges():
    assert player_counts("2") == [2]
    assert player_counts("2,3,4") == player_counts("2-4") == [2, 3, 4]
    with pytest.raises(ValueError):
        player_counts("0")


def test_the_ladder_plays_every_pair_at_every_player_count_and_prints_ratings(capsys, tmp_path):
    record = tmp_path / "ladder.jsonl"
    assert main(["selfplay", "--ladder", "--bots", "random,greedy", "--games", "1", "--players", "2,3",
                 "--load", "tests.domain.fallout.fixtures", "--option", "pack=mini", "--option", "scenario=test",
                 "--record", str(record)]) == 0
    out = capsys.readouterr().out
    lines = record.read_text().splitlines()
    assert len(lines) == 2  # one game per pair per player count
    assert "ratings" in out and "random v greedy" in out
    for players in ("2", "3", "all"):
        assert any(line.split()[:2] == [players, "random"] for line in out.splitlines())
    # The recorded results print the same ladder again without playing.
    assert main(["selfplay", "--ladder", "--bots", "random,greedy", "--summarize", str(record)]) == 0
    assert capsys.readouterr().out.strip() in out


def test_several_player_counts_without_the_ladder_are_refused(capsys):
    assert main(["selfplay", "--players", "2,3"]) == 2
    assert "--ladder" in capsys.readouterr().err
