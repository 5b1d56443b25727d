"""Fallout keeps the game contract (``domain.game.Game``): what it declares is what it does.

Random games of the mini pack, the full test pack and the bundled pack are
played with every seat's legal actions; every event they emit must have the
shape its schema declares, every legal action the shape of its command
schema, and every view (each seat's and a spectator's) the shape of the view
schema. The options resolve to what setup really plays, and the outcome
agrees with the end of the game (Winning the Game).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from marshmallow import RAISE

from domain.fallout.content import SHELF, pack_named
from domain.fallout.game import FALLOUT
from domain.fallout.rulebook import RULES
from domain.fallout.state import GameState
from domain.game import SYSTEM, Event, Game, Outcome, Refusal, RuleViolation
from domain.rng import Rng
from tests.domain.fallout.fixtures import FULL, MINI
from tests.domain.fallout.test_random_play import bot_pick

SCHEMAS = {schema.name: schema for schema in FALLOUT.event_schemas}
GAMES = [(MINI.id, "test", seed) for seed in range(4)] + [(FULL.id, "test", seed) for seed in range(8)]
GAMES += [("base", "saltmarsh_reach", seed) for seed in range(3)]


def random_game(pack: str, scenario: str, seed: int) -> Iterator[tuple[GameState, list[dict[str, Any]], list[Event]]]:
    """Each state of a random game, with the legal actions the seat to act had and the events that followed."""
    options = FALLOUT.resolve_options({"pack": pack, "scenario": scenario})
    events = FALLOUT.setup({**options, "players": seed % 4 + 1}, Rng(f"contract-{seed}"))
    state = FALLOUT.initial_state()
    for event in events:
        state = FALLOUT.evolve(state, event)
    pick = Rng(f"contract-bot-{seed}")
    yield state, [], events
    while not FALLOUT.is_over(state) and state.round <= 12:
        command = FALLOUT.system_command(state)
        actions: list[dict[str, Any]] = []
        seat: int | str = SYSTEM
        if command is None:
            seat = FALLOUT.waiting_for(state)[0]
            actions = FALLOUT.legal_actions(state, seat)
            command = bot_pick(pick, actions)
        events, state = FALLOUT.decide_and_fold(state, seat, command, Rng(f"contract-{seed}", str(state.round)))
        yield state, actions, events


def _shape_errors(schema: Any, data: dict[str, Any]) -> dict[str, Any]:
    return schema(unknown=RAISE).validate(data)


@pytest.mark.parametrize("pack,scenario,seed", GAMES)
def test_events_actions_and_views_have_their_declared_shapes(pack: str, scenario: str, seed: int) -> None:
    """Every event emitted, every legal action and every view validate against the declared schemas."""
    for n, (state, actions, events) in enumerate(random_game(pack, scenario, seed)):
        for event in events:
            assert event.type in SCHEMAS, f"{event.type} is emitted but not declared"
            assert not _shape_errors(SCHEMAS[event.type].schema, event.data), (event.type, event.data)
        for action in actions:
            assert FALLOUT.check_command(action) == action
        if n % 5 == 0 or FALLOUT.is_over(state):
            for seat in [*range(state.players), None]:
                view = FALLOUT.view(state, seat)
                assert not _shape_errors(FALLOUT.view_schema, view), (seat, _shape_errors(FALLOUT.view_schema, view))
                assert set(view) == set(FALLOUT.view_schema().fields), "the view schema documents every field"


def test_every_declared_event_is_folded_and_every_command_is_handled() -> None:
    """Each event type has a fold or a watch; each command type a turn's handler, an answer, or the system's."""
    assert set(SCHEMAS) == set(RULES.events)
    assert set(SCHEMAS) <= set(RULES.folds) | set(RULES.watches)
    handled = set(RULES.actions) | RULES.answer_commands | RULES.system_commands
    assert set(FALLOUT.command_schemas) == handled


def test_view_schema_describes_every_field() -> None:
    """Clients code against the view schema: each field says what it holds."""

    def fields_of(schema: Any, path: str = "") -> Iterator[tuple[str, Any]]:
        for name, field in schema().fields.items():
            yield f"{path}{name}", field
            nested = getattr(field, "nested", None) or getattr(getattr(field, "inner", None), "nested", None)
            if isinstance(nested, type):
                yield from fields_of(nested, f"{path}{name}.")

    missing = [name for name, field in fields_of(FALLOUT.view_schema) if not field.metadata.get("description")]
    assert missing == []


def test_a_command_with_an_unknown_field_is_malformed() -> None:
    """A command is kept in the log for good: one with a field its schema does not know is refused."""
    with pytest.raises(RuleViolation) as err:
        FALLOUT.check_command({"type": "end_turn", "hurry": True})
    assert err.value.kind is Refusal.MALFORMED
    with pytest.raises(RuleViolation) as err:
        FALLOUT.check_command({"type": "step"})  # its space is missing
    assert err.value.kind is Refusal.MALFORMED
    with pytest.raises(RuleViolation) as err:
        FALLOUT.check_command({"type": "dance"})
    assert err.value.kind is Refusal.MALFORMED and err.value.code == "unknown_command"


def test_options_resolve_to_the_scenario_setup_plays() -> None:
    """Complete Setup: a creator who names no scenario gets the pack's own, recorded as it is played."""
    resolved = FALLOUT.resolve_options({})
    # The pack is pinned to its content address: the game plays these files for good (docs/versioning.md).
    assert resolved == {"pack": SHELF.address("base"), "scenario": next(iter(pack_named("base").scenarios))}
    assert resolved["pack"].startswith("base@")
    state = FALLOUT.initial_state()
    for event in FALLOUT.setup({**resolved, "players": 2}, Rng("options")):
        state = FALLOUT.evolve(state, event)
    assert (state.pack, state.scenario) == (resolved["pack"], resolved["scenario"])
    mini = FALLOUT.resolve_options({"pack": MINI.id, "survivors": ["scout"]})
    assert mini == {"pack": MINI.id, "scenario": "test", "survivors": ["scout"]}


@pytest.mark.parametrize(
    "options,code",
    [({"players": 2}, "bad_options"), ({"pack": "nowhere"}, "unknown_pack"), ({"scenario": "nowhere"}, "unknown_scenario"),
     ({"survivors": "scout"}, "bad_options")],
)
def test_bad_options_are_malformed(options: dict[str, Any], code: str) -> None:
    """Complete Setup: players come from the seats, not the options; unknown packs and scenarios are refused."""
    with pytest.raises(RuleViolation) as err:
        FALLOUT.resolve_options(options)
    assert err.value.kind is Refusal.MALFORMED and err.value.code == code


@pytest.mark.parametrize("pack,scenario,seed", GAMES[:6])
def test_outcome_agrees_with_the_end_of_the_game(pack: str, scenario: str, seed: int) -> None:
    """Winning the Game: the outcome is over exactly when the game is, and names its winners."""
    for state, _, _ in random_game(pack, scenario, seed):
        outcome = FALLOUT.outcome(state)
        assert isinstance(outcome, Outcome)
        assert outcome.over == FALLOUT.is_over(state) == (state.phase == "over")
        assert outcome.winners == tuple(state.winners)
        assert outcome.over or outcome.winners == ()
        assert outcome.progress == {"round": state.round, "phase": state.phase, "result": state.result}


def test_decide_and_fold_hands_back_the_fold_of_its_events() -> None:
    """The service folds no decision twice: the state decide_and_fold returns is its events' fold."""
    for state, _, _ in random_game(FULL.id, "test", 5):
        if FALLOUT.is_over(state) or FALLOUT.system_command(state) is not None:
            continue
        seat = FALLOUT.waiting_for(state)[0]
        for action in FALLOUT.legal_actions(state, seat)[:3]:
            events, after = FALLOUT.decide_and_fold(state, seat, action, Rng("fold"))
            folded = state
            for event in events:
                folded = FALLOUT.evolve(folded, event)
            assert after == folded and events == FALLOUT.decide(state, seat, action, Rng("fold"))


def test_examples_are_real_and_have_their_declared_shapes() -> None:
    """The API document's examples: options that resolve, a view and legal actions of a real early game."""
    examples = FALLOUT.examples
    assert set(examples) == {"options", "view", "actions", "texts", "prompt", "events"}
    FALLOUT.resolve_options(examples["options"])
    assert isinstance(examples["prompt"], str) and examples["prompt"]
    assert not _shape_errors(FALLOUT.view_schema, examples["view"])
    assert examples["view"]["phase"] == "playing" and examples["actions"]
    for action in examples["actions"]:
        FALLOUT.check_command(action)
    # Each action's words, as GET …/actions serves them beside it.
    assert len(examples["texts"]) == len(examples["actions"]) and all(examples["texts"])


def test_fallout_is_a_game_with_its_declared_surface() -> None:
    assert isinstance(FALLOUT, Game)
    assert FALLOUT.name == "fallout" and FALLOUT.title
    assert 1 in FALLOUT.seats and 4 in FALLOUT.seats and 5 not in FALLOUT.seats and 0 not in FALLOUT.seats
    assert FALLOUT.ai is not None


def test_every_decision_names_its_rules_reference_topic() -> None:
    """A refused answer tells the player which rule forbids it: every pending decision names its topic."""
    assert {kind: answer.rule for kind, answer in RULES.answers.items() if not answer.rule} == {}
    assert RULES.answers["reroll"].rule == "V.A.T.S. Dice" and RULES.answers["answer_trade"].rule == "Camp Action"
