"""Words: every event and every pending decision reads as a sentence, for every seat, hiding what redaction hides.

The service describes an event from the event as ``redact`` hands it to the
reader (``service.usecases.words``), with the game right before the event
(the log folded up to it): so every event is described here for every seat
and a spectator with that state, and, for robustness, with the game's
initial state too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from domain.game import Event, Game, Seat
from domain.rng import Rng
from tests.contract.driver import Play, leaves, seen

#: Running states per play whose words are compared with a determinized world's.
DETERMINIZED = 8


def _sentence(text: object, what: str) -> str:
    assert isinstance(text, str) and text.strip(), f"{what} has no words: {text!r}"
    return text


def _example_events(game: Game) -> list[Event]:
    return [Event(e["type"], e["data"]) for e in game.examples.get("events", [])]


def _readers(play: Play) -> list[Seat | None]:
    return [None, *play.seat_range]


def _running(game: Game, play: Play) -> Iterator[tuple[Any, list[Event], Any]]:
    """(who, events, state after) of each decision that left the game running: until then, hidden stays hidden."""
    for who, events, _, after in play.decisions():
        if game.is_over(after):
            return
        yield who, events, after


def at_each(game: Game, before: Any, events: list[Event]) -> Iterator[tuple[Event, Any]]:
    """Each event with the state right before it, the state its words read."""
    state = before
    for event in events:
        yield event, state
        state = game.evolve(state, event)


def test_every_event_reads_as_a_sentence_for_every_seat_and_a_spectator(game: Game, plays: list[Play]):
    """Each event of random play, redacted for each reader, gets a non-empty sentence,
    described with the state right before it and with the initial state."""
    initial = game.initial_state()
    for play in plays:
        for _, events, before, after in play.decisions():
            for event, at in at_each(game, before, events):
                for seat in _readers(play):
                    shown = event if game.is_over(after) else game.redact(event, seat)
                    for state in (at, initial):
                        _sentence(game.describe_event(shown, seat, state), f"{play.name}: {event.type} for seat {seat}")


def test_every_declared_event_type_is_described(game: Game, plays: list[Play]):
    """Every type in ``event_schemas`` is met in random play or given as an example (``examples["events"]``)."""
    declared = {schema.name for schema in game.event_schemas}
    examples = _example_events(game)
    undeclared = sorted({e.type for e in examples} - declared)
    assert not undeclared, f"example events of undeclared types: {undeclared}"
    for event in examples:
        errors = next(s for s in game.event_schemas if s.name == event.type).schema().validate(event.data)
        assert not errors, f"example {event.type} does not fit its schema: {errors}"
        for play in plays[:1]:
            for seat in _readers(play):
                for state in (play.start, list(play.states())[-1], game.initial_state()):
                    shown = game.redact(event, seat)
                    _sentence(game.describe_event(shown, seat, state), f"example {event.type} for seat {seat}")
    met = {event.type for play in plays for _, events, _, _ in play.decisions() for event in events}
    missing = sorted(declared - met - {e.type for e in examples})
    assert not missing, f"never described: neither met in random play nor given in examples['events']: {missing}"


def test_every_pending_decision_reads_as_a_sentence(game: Game, plays: list[Play]):
    """While the game waits on a seat, every reader gets a prompt; while it waits on nobody, none."""
    for play in plays:
        for state in play.states():
            waiting = game.waiting_for(state)
            for seat in _readers(play):
                prompt = game.describe_decision(state, seat)
                if waiting:
                    _sentence(prompt, f"{play.name}: the decision for seat {seat}")
                else:
                    assert prompt is None, f"{play.name}: a prompt {prompt!r} while the game waits on nobody"


def test_the_words_show_a_seat_nothing_another_seat_sees_privately(game: Game, plays: list[Play]):
    """No sentence for seat s contains a string another seat's view shows privately.

    "Privately" as ``test_hidden`` judges it for the log: in some other seat's
    view right after the decision, in neither s's view nor the spectator's,
    and not known to s already (its own commands, its earlier views, what its
    log showed). Words are prose, so a hidden string is looked for inside them.
    """
    vocabulary = set(game.command_schemas)
    # Every other play (the fewest and the most seats): views are the cost of this check.
    for play in plays[::2]:
        known: dict[Seat | None, set[str]] = {seat: set() for seat in _readers(play)}
        commands = [{}, *(step.command for step in play.steps)]
        befores = [before for _, _, before, _ in play.decisions()]
        for (who, events, after), command, before in zip(_running(game, play), commands, befores, strict=False):
            if who in known:
                known[who] |= leaves(command)
            views = {seat: seen(game.view(after, seat)) for seat in _readers(play)}
            for seat in _readers(play):
                private = set().union(*(views[other] for other in play.seat_range if other != seat))
                private -= views[seat] | views[None] | vocabulary | known[seat]
                words = [game.describe_event(game.redact(e, seat), seat, at) for e, at in at_each(game, before, events)]
                words.append(game.describe_decision(after, seat) or "")
                for text in words:
                    leaked = sorted(p for p in private if p in text)
                    assert not leaked, f"{play.name}: seat {seat} reads {text!r}, which shows {leaked}"
                known[seat] |= views[seat] | set().union(*(leaves(game.redact(e, seat).data) for e in events))


def test_the_words_read_nothing_hidden_from_the_state(game: Game, plays: list[Play]):
    """Described with a determinized world (everything the seat cannot see resampled), the words are the same.

    The state is handed to ``describe_event`` for names only; this is what
    proves it: a sentence that changes when hidden parts change tells them.
    Each event is described with the state right before it, as the service
    does, and with a world determinized from that state's view.
    Games without an AI part have no sampler and skip this check.
    """
    if game.ai is None:
        return
    for play in plays:
        running = [(events, before, after) for (_, events, after), (_, _, before, _) in zip(_running(game, play), play.decisions(), strict=False)]
        stride = max(1, len(running) // DETERMINIZED)
        for n, (events, before, after) in enumerate(running[::stride]):
            for seat in play.seat_range:
                world = game.ai.determinize(game.view(after, seat), seat, Rng(play.seed, f"words-{n}-{seat}"))
                assert game.describe_decision(world, seat) == game.describe_decision(after, seat), (
                    f"{play.name}: seat {seat}'s prompt depends on what it cannot see"
                )
                for k, (event, at) in enumerate(at_each(game, before, events)):
                    world = game.ai.determinize(game.view(at, seat), seat, Rng(play.seed, f"words-{n}-{seat}-{k}"))
                    shown = game.redact(event, seat)
                    assert game.describe_event(shown, seat, world) == game.describe_event(shown, seat, at), (
                        f"{play.name}: {event.type}'s words for seat {seat} depend on what it cannot see"
                    )


#: What an action's words may never hold: an internal id's marks, a bare option number, a snake_case token.
_INTERNAL = re.compile(r"[@#]|\bOption: ?\d|\b[a-z0-9]+_[a-z0-9_]+\b")


def test_every_legal_action_reads_as_words_for_its_seat_and_shows_no_internal_id(game: Game, plays: list[Play]):
    """``describe_command``: every action ``legal_actions`` offers a seat has words (the API's action ``text``),
    with no internal id in them: no ``@`` or ``#``, no "Option: N", no snake_case."""
    for play in plays:
        for state in play.sampled(60):
            for seat in play.seat_range:
                for command in game.legal_actions(state, seat):
                    text = _sentence(game.describe_command(state, seat, command), f"{play.name}: {command} for seat {seat}")
                    assert not _INTERNAL.search(text), f"{play.name}: {command} reads {text!r}, an internal id"
                    assert text[:1].isupper(), f"{play.name}: {command} reads {text!r}: a button starts with a capital"


def test_an_actions_words_show_its_seat_nothing_another_seat_sees_privately(game: Game, plays: list[Play]):
    """No action's words for seat s contain a string another seat's view shows privately (as the log's words
    are checked above): the words name only what s sees or sent."""
    vocabulary = set(game.command_schemas)
    for play in plays[::2]:
        for state in play.sampled(20):
            if game.is_over(state):
                continue
            views = {seat: seen(game.view(state, seat)) for seat in _readers(play)}
            for seat in play.seat_range:
                private = set().union(*(views[other] for other in play.seat_range if other != seat))
                private -= views[seat] | views[None] | vocabulary
                for command in game.legal_actions(state, seat):
                    text = game.describe_command(state, seat, command)
                    leaked = sorted(p for p in private - leaves(command) if p in text)
                    assert not leaked, f"{play.name}: seat {seat}'s action {command} reads {text!r}, which shows {leaked}"
