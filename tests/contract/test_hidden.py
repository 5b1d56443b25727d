"""Views and redaction: each seat sees what it may, through the state and the log alike."""

from __future__ import annotations

from typing import Any

from domain.game import Game
from tests.contract.driver import Play, json_ready, leaves, seen

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


def test_the_log_shows_a_seat_nothing_another_seat_sees_privately(game: Game, plays: list[Play]):
    """No event, as redacted for seat s, tells s what another seat's view shows privately when it happens.

    "Privately" is judged on the views right after the decision that emitted
    the event: a string in some other seat's view, but in neither s's view nor
    the spectator's (another seat's secret, its agenda cards), and which s did
    not know already (from its earlier views, its earlier log, its own
    commands: a card once revealed may be named again). Command types are the
    game's published vocabulary, no secret.

    Judged there, and only there, on purpose: a card revealed to everyone and
    discarded within one decision is in no view at all, and one taken from a
    hand and shown publicly is in no hand afterwards, so neither is mistaken
    for a leak. What no seat's view ever shows (a deck's order) cannot be told
    from public words by strings alone; the log keeping it is checked from the
    other side (a view may not show what the log hid) and per game in the
    service's own tests.
    """
    vocabulary = set(game.command_schemas)
    for play in plays:
        known: dict[object, set[str]] = {seat: set() for seat in [None, *play.seat_range]}
        decisions = [(None, {}, play.setup, play.start), *((s.seat, s.command, s.events, s.after) for s in play.steps)]
        for who, command, events, after in decisions:
            if game.is_over(after):
                break
            if who in known:
                known[who] |= leaves(command)
            views = {seat: seen(game.view(after, seat)) for seat in [None, *play.seat_range]}
            for seat in [None, *play.seat_range]:
                private = set().union(*(views[other] for other in play.seat_range if other != seat))
                private -= views[seat] | views[None] | vocabulary | known[seat]
                for event in events:
                    shown = leaves(game.redact(event, seat).data)
                    leaked = shown & private
                    assert not leaked, (
                        f"{play.name}: {event.type} as redacted for seat {seat} shows {sorted(leaked)}, "
                        "which another seat's view shows and this seat's does not"
                    )
                    known[seat] |= shown
                known[seat] |= views[seat]


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
                leaked = seen(game.view(state, seat)) & (hidden_so_far - shown_so_far)
                assert not leaked, f"{play.name}: seat {seat}'s view shows {sorted(leaked)}, which its log hides"


def _strings(value: Any) -> set[str]:
    """Every string in ``value``, keys included."""
    if isinstance(value, dict):
        return set(value).union(*(_strings(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value))
    return {value} if isinstance(value, str) else set()


def test_a_views_card_faces_are_of_ids_the_view_shows_and_no_other(game: Game, plays: list[Play]):
    """A view's ``faces`` (cards you can read) are read off the view: each is the face of a string the rest of
    the view shows, so a face never tells a seat of a card its view hides; each has a name, a kind, a cost
    (a number or null) and its rules in words. A game whose views carry no faces passes as is."""
    for play in plays[::2]:
        for state in play.sampled(SAMPLED):
            for seat in [None, *play.seat_range]:
                shown = game.view(state, seat)
                faces = shown.get("faces")
                if faces is None:
                    continue
                rest = _strings({k: v for k, v in shown.items() if k != "faces"})
                assert set(faces) <= rest, f"{play.name}: seat {seat} has faces of ids its view does not show: " \
                    f"{sorted(set(faces) - rest)[:5]}"  # fmt: skip
                for key, face in faces.items():
                    assert isinstance(face["name"], str) and face["name"] and isinstance(face["kind"], str), key
                    assert face["cost"] is None or isinstance(face["cost"], int), key
                    assert isinstance(face["text"], str) and face["text"].strip(), key
