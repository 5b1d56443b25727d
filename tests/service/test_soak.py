"""The short soak: games played over HTTP at once with streams open, and no error (`make soak` is the long one)."""

from __future__ import annotations

from tests.soak import soak


def test_a_short_soak_meets_no_error():
    report = soak(games=8, streams=40, seconds=8, game="counter")
    assert report.errors == {}
    assert report.actions > 100 and report.games_started >= 8
    assert report.percentile(0.99) < 2.0
