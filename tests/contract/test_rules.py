"""What a game does: replay, purity, refusals, legal actions, snapshots, whose turn it is."""

from __future__ import annotations

import copy
import json

import pytest

from domain.game import SYSTEM, Event, Game, Refusal, RuleViolation
from domain.rng import Rng
from tests.contract.driver import UNKNOWN_TYPE, Play, Probe, json_ready

#: States per play that the costlier checks (each legal action decided) look at.
SAMPLED = 25
#: Legal actions per seat and state that are decided for real.
ACTIONS = 8


def _stored(event: Event) -> Event:
    # What the store hands back: the data after a trip through JSON.
    return Event(event.type, json.loads(json.dumps(event.data)))


def _spread(items: list, most: int) -> list:
    return items[:: max(1, len(items) // most)][:most]


def test_the_driver_plays_only_what_legal_actions_serve(plays: list[Play]):
    """Random play refuses nothing it was served and never finds the game stuck."""
    for play in plays:
        assert play.refused_legal is None, f"{play.name}: a served legal action was refused: {play.refused_legal}"
        assert not play.stuck, f"{play.name}: the game runs but waits on nobody and has no system command due"
        assert play.steps, f"{play.name}: not a single decision was played"


def test_folding_the_stored_log_gives_the_live_state(game: Game, plays: list[Play]):
    for play in plays:
        state = game.initial_state()
        for n, (_, events, _, live) in enumerate(play.decisions()):
            for event in events:
                state = game.evolve(state, _stored(event))
            assert game.dump_state(state) == game.dump_state(live), f"{play.name}: the fold parts at decision {n}"


def test_decide_and_fold_agrees_with_decide_and_its_fold(game: Game, plays: list[Play]):
    """The service keeps decide_and_fold's state; a replay folds decide's events. They must be one."""
    for play in plays:
        for step in play.steps:
            events = game.decide(step.before, step.seat, step.command, Rng(play.seed, step.label))
            assert events == step.events, f"{play.name} {step.label}: decide and decide_and_fold emit differently"
            state = step.before
            for event in events:
                state = game.evolve(state, event)
            assert game.dump_state(state) == game.dump_state(step.after), f"{play.name} {step.label}"


def test_after_gives_the_state_decide_and_fold_gives(game: Game, plays: list[Play]):
    """A bot's look-ahead plays ``after``, which keeps no events: the game it searches must be the one played."""
    for play in plays:
        for step in play.steps:
            state = game.after(step.before, step.seat, step.command, Rng(play.seed, step.label))
            assert game.dump_state(state) == game.dump_state(step.after), f"{play.name} {step.label}: after parts"


def test_evolve_decide_and_redact_leave_their_inputs_alone(game: Game, plays: list[Play]):
    """States may be shared (snapshots, bots' searches) and events are facts: nothing changes them."""
    for play in plays:
        for step in play.steps:
            dumped, command = game.dump_state(step.before), copy.deepcopy(step.command)
            game.decide(step.before, step.seat, step.command, Rng(play.seed, step.label))
            assert game.dump_state(step.before) == dumped, f"{play.name} {step.label}: decide changed its state"
            assert step.command == command, f"{play.name} {step.label}: decide changed the command"
        for _, events, before, _ in play.decisions():
            state = before
            for event in events:
                data, dumped = copy.deepcopy(event.data), game.dump_state(state)
                after = game.evolve(state, event)
                assert game.dump_state(state) == dumped, f"{play.name}: evolve changed its state on {event.type}"
                for seat in [None, *play.seat_range]:
                    game.redact(event, seat)
                assert event.data == data, f"{play.name}: evolve or redact changed {event.type}'s data"
                state = after


def test_a_refused_command_changes_nothing(game: Game, probes: list[Probe]):
    """Every command nobody was offered is refused with a RuleViolation and leaves the state as it was.

    Refusals are sent for a seat the command is not legal for now (borrowed
    from what the play sent elsewhere), as the system when it is not the
    system command due, and as an unknown type (MALFORMED): ``driver.probes_of``.
    """
    assert any(probe.why != UNKNOWN_TYPE for probe in probes), "no refusal was ever tried"
    for probe in probes:
        violation = probe.refused
        if violation is None:
            pytest.fail(f"{game.name}: {probe} and decide accepted it")
        assert not probe.changed, f"refusing {probe} changed the state"
        assert isinstance(violation.code, str) and violation.code and violation.message, violation
        assert isinstance(violation.kind, Refusal)
        if probe.why == UNKNOWN_TYPE:
            assert violation.kind is Refusal.MALFORMED, f"an unknown command is {violation.kind}, not MALFORMED"


def test_check_command_refuses_unknown_types_and_fields_as_malformed(game: Game, plays: list[Play]):
    commands = [a for play in plays for a in play.commands_of(0)[:5]] + list(game.examples.get("actions", []))
    assert commands, "nothing to check"
    for command in commands:
        for bad in ({**command, "no_such_field": 1}, {**command, "type": "no_such_command"}, {"amount": 1}):
            with pytest.raises(RuleViolation) as refused:
                game.check_command(bad)
            assert refused.value.kind is Refusal.MALFORMED, f"{bad}: {refused.value.kind}"


def test_every_served_legal_action_passes_check_command_and_is_decided(game: Game, plays: list[Play]):
    decided = 0
    for play in plays:
        for n, state in enumerate(play.sampled(SAMPLED)):
            due = game.system_command(state)
            if due is not None:
                assert game.check_command(due) == due
                game.decide(state, SYSTEM, due, Rng(play.seed, f"system{n}"))
            for seat in play.seat_range:
                for action in _spread(game.legal_actions(state, seat), ACTIONS):
                    assert game.check_command(action) == action, f"{play.name}: {action} fails its own schema"
                    try:
                        game.decide(state, seat, action, Rng(play.seed, f"legal{n}"))
                    except RuleViolation as refused:
                        pytest.fail(f"{play.name}: seat {seat}'s legal {action} refused: {refused.code} {refused}")
                    decided += 1
    assert decided, "no legal action was ever decided"


def test_snapshots_round_trip_through_json(game: Game, plays: list[Play]):
    for play in plays:
        for state in play.sampled(SAMPLED):
            dumped = game.dump_state(state)
            assert json_ready(dumped), f"{play.name}: dump_state is not JSON-ready"
            loaded = game.load_state(json.loads(json.dumps(dumped)))
            assert game.dump_state(loaded) == dumped, f"{play.name}: load_state(dump_state(s)) dumps differently"
            # A game resumed from a snapshot must go on as the one folded from the log.
            for seat in play.seat_range:
                assert game.legal_actions(loaded, seat) == game.legal_actions(state, seat)
                assert game.view(loaded, seat) == game.view(state, seat)
            assert game.waiting_for(loaded) == game.waiting_for(state)


def test_a_state_read_back_from_a_snapshot_decides_every_command_alike(game: Game, plays: list[Play]):
    """The same commands give the same events whatever the state came from (DESIGN.md, invariant 8).

    The store keeps snapshots as sorted JSON, so a game loaded from one walks
    its dicts in another order than a game folded from its log; a decision that
    follows dict order would then differ between the live game and its audit
    (Zona's emission once discarded threats in insertion order).
    """
    for play in plays:
        for step in play.steps:
            stored = json.loads(json.dumps(game.dump_state(step.before), sort_keys=True))
            again = game.decide(game.load_state(stored), step.seat, step.command, Rng(play.seed, step.label))
            assert [(e.type, e.data) for e in again] == [(e.type, e.data) for e in step.events], (
                f"{play.name}: {step.command} by {step.seat} decides otherwise on a state read back from a snapshot"
            )


def test_waiting_for_system_command_and_outcome_agree(game: Game, plays: list[Play]):
    """Who may act now, as the service and the workers read it.

    A due system command waits on nobody; a finished game waits on nobody, has
    nothing due and offers nothing; a running game has work due or someone
    to wait on, each with something to do; and a seat the game is not waiting
    on is offered only the command types the game declares ``out_of_turn``.
    """
    for play in plays:
        for state in play.states():
            waited, due, outcome = game.waiting_for(state), game.system_command(state), game.outcome(state)
            offered = {seat: game.legal_actions(state, seat) for seat in play.seat_range}
            assert game.is_over(state) is outcome.over
            if outcome.over:
                assert not waited and due is None, f"{play.name}: over, yet waiting on {waited} / due {due}"
                assert not any(offered.values()), f"{play.name}: over, yet offering {offered}"
                continue
            assert not outcome.winners, f"{play.name}: winners {outcome.winners} while the game runs"
            assert set(waited) <= set(play.seat_range), f"{play.name}: waiting on {waited}"
            assert (due is None) == bool(waited), f"{play.name}: due {due} while waiting on {waited}"
            for seat in waited:
                assert offered[seat], f"{play.name}: waiting on seat {seat}, who has no legal action"
            for seat, actions in offered.items():
                if seat not in waited:
                    stray = [a for a in actions if a.get("type") not in game.out_of_turn]
                    assert not stray, f"{play.name}: seat {seat} is not waited on, yet offered {stray}"


def test_json_ready_detects_what_json_changes():
    # The helper the checks above lean on: a tuple comes back a list, so it must not pass.
    assert json_ready({"a": [1, "b", None]}) and not json_ready({"a": (1,)}) and not json_ready({1: "a"})
