"""Views and redaction: each seat sees what it may, through the state and the log alike."""

from __future__ import annotations

from typing import Any

from domain.game import Game
from tests.contract.driver import Play, json_ready, leaves

SAMPLED = 30


def _running(game: Game, play: Play) -> tuple[list[Any], list[list]]:
    """The states while the game ran, and the events of each decision that left it running.

    Once a game is over everything may be revealed (its last decision's
    events included: they are appended in one go and read once it is over).
    """
    states, batches = [], []
    for _, events, _, after in play.decisions():
        if game.is_over(after):
            break
        states.append(after)
        batches.append(events)
    return states, batches


def test_views_fit_the_view_schema_for_every_seat_and_a_spectator(game: Game, plays: list[Play]):
    for play in plays:
        for state in play.sampled(SAMPLED):
            for seat in [None, *play.seat_range]:
                shown = game.view(state, seat)
                errors = game.view_schema().validate(shown)
                assert not errors, f"{play.name}: seat {seat}'s view does not fit view_schema: {errors}"
                assert json_ready(shown), f"{play.name}: seat {seat}'s view does not survive JSON"


def test_the_log_shows_a_seat_nothing_its_views_hide(game: Game, plays: list[Play]):
    """No event, as redacted for seat s while the game runs, carries a string s's views never show.

    Only strings the game itself keeps from s count (a game-neutral notion of
    "hidden", so public words an event carries and a view leaves out are no
    leak): those some other seat's view shows while s's never does (another
    seat's agenda, another seat's secret), and those ``redact`` takes out of
    some event for s (a deck's order). What s sent itself it knows. Over the
    whole game, since a string hidden early may be revealed later; the last
    decision is left out, as everything may be revealed once the game is over.
    """
    for play in plays:
        states, batches = _running(game, play)
        seen = {seat: set().union(*(leaves(game.view(state, seat)) for state in states)) for seat in play.seat_range}
        for seat in [None, *play.seat_range]:
            own = seen.get(seat, set()) | leaves(play.commands_of(seat))
            if seat is None:
                own |= set().union(*(leaves(game.view(state, None)) for state in states))
            others = set().union(*(strings for other, strings in seen.items() if other != seat))
            redacted = [(event, game.redact(event, seat)) for batch in batches for event in batch]
            taken_out = set().union(*(leaves(event.data) - leaves(shown.data) for event, shown in redacted))
            hidden = (others | taken_out) - own
            for event, shown in redacted:
                leaked = leaves(shown.data) & hidden
                assert not leaked, (
                    f"{play.name}: {event.type} as redacted for seat {seat} shows {sorted(leaked)}, which that seat's "
                    "views never show while the game keeps it from the seat elsewhere (in another seat's view, or "
                    "redacted out of an event): hide it in redact, or show it in the view once it is revealed"
                )


def test_views_show_a_seat_nothing_the_log_hides_from_it(game: Game, plays: list[Play]):
    """No view of seat s shows a string ``redact`` took out of an event for s, unless the log shows it to s too.

    Checked as the game goes: at each running state, against the events up to
    it, so a card hidden in the setup and drawn face up later is fine once an
    event has shown it, and a view that shows it before any event did is not.
    """
    for play in plays:
        states, batches = _running(game, play)
        for seat in [None, *play.seat_range]:
            shown_so_far = leaves(play.commands_of(seat))
            hidden_so_far: set[str] = set()
            for state, batch in zip(states, batches, strict=True):
                for event in batch:
                    shown = leaves(game.redact(event, seat).data)
                    shown_so_far |= shown
                    hidden_so_far |= leaves(event.data) - shown
                leaked = leaves(game.view(state, seat)) & (hidden_so_far - shown_so_far)
                assert not leaked, f"{play.name}: seat {seat}'s view shows {sorted(leaked)}, which its log hides"
