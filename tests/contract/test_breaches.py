"""The suite catches what it claims to: each check fails on a counter broken in its one way.

A check that passes every game it is given proves nothing; here each one
meets a game that breaks exactly the promise it checks (a real subclass of
the counter, not a mock) and must fail it, while the plain counter passes
(the parametrized suite shows that).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from marshmallow import Schema

from domain.game import Event, EventSchema, Game, Refusal, RuleViolation
from domain.rng import Rng
from tests.contract import test_ai as ai_checks
from tests.contract import test_hidden as hidden_checks
from tests.contract import test_refusals as refusal_checks
from tests.contract import test_rules as rule_checks
from tests.contract import test_surface as surface_checks
from tests.contract import test_words as word_checks
from tests.contract.driver import plays_of, probes_of
from tests.games.counter import Counter, CounterAI, CounterState


class LeakyRedact(Counter):
    """Shows every seat the others' secrets and the deck, in the log only."""

    def redact(self, event: Event, seat: int | None) -> Event:
        return event


class PeekingView(Counter):
    """Shows a spectator seat 0's secret, which the log keeps from it."""

    def view(self, state: CounterState, seat: int | None) -> dict[str, Any]:
        shown = super().view(state, seat)
        return {**shown, "secret": state.secrets[0]} if seat is None and state.secrets else shown


class ScribblingEvolve(Counter):
    """Counts on each event how often it was folded, changing a stored fact."""

    def evolve(self, state: CounterState, event: Event) -> CounterState:
        event.data["folds"] = event.data.get("folds", 0) + 1
        return super().evolve(state, event)


class AnyoneMayAdd(Counter):
    """Accepts an add from any seat, though only the one whose turn it is is offered it."""

    def decide_and_fold(self, state, seat, command, rng):
        if command.get("type") == "add" and isinstance(seat, int) and not state.over:
            state = CounterState(**{**state.__dict__, "turn": seat})
        return super().decide_and_fold(state, seat, command, rng)


class OffersAddToAll(Counter):
    """Offers every seat an add at any time, though only the turn's seat may send it."""

    def legal_actions(self, state: CounterState, seat: int) -> list[dict[str, Any]]:
        offered = super().legal_actions(state, seat)
        return offered if state.over or offered[0]["type"] == "add" else [{"type": "add", "amount": 1}, *offered]


class TupleSnapshots(Counter):
    """Dumps its rolls as a tuple, which a snapshot's trip through JSON turns into a list."""

    def dump_state(self, state: CounterState) -> dict[str, Any]:
        return {**super().dump_state(state), "rolls": state.rolls}


class ForgetfulFold(Counter):
    """Hands the service back the state the decision started from."""

    def decide_and_fold(self, state, seat, command, rng):
        return super().decide_and_fold(state, seat, command, rng)[0], state


class Cheering(Counter):
    """Emits an event type it never declared."""

    def setup(self, options, rng):
        return [*super().setup(options, rng), Event("Cheered", {})]


class BlindSampler(CounterAI):
    """Samples the seat's own secret too, so a searching bot plays another game."""

    def determinize(self, view, seat, rng):
        return super().determinize({**view, "secret": None}, seat, rng)


class BlindAI(Counter):
    ai = BlindSampler()


class CoarseKey(CounterAI):
    """Keys a position by the seat alone, so a bot would score every position as the first it met."""

    def scoring_key(self, state, seat):
        return seat


class Undiscerning(Counter):
    ai = CoarseKey()


class Hasty(CounterAI):
    """Reads from the state that a seat always chooses freely, where its view says it is not its turn."""

    def free_choice(self, view, seat):
        return view["turn"] == seat

    def free_choice_at(self, state, seat):
        return True


class Impatient(Counter):
    ai = Hasty()


class Inventive(CounterAI):
    """Would have a search weigh adding 4, which no seat may send."""

    def candidates(self, view, seat, actions, ahead):
        return [*actions, {"type": "add", "amount": 4}]

    def candidates_at(self, state, seat, actions, ahead):
        return [*actions, {"type": "add", "amount": 4}]


class Overreaching(Counter):
    ai = Inventive()


class TwoMinded(CounterAI):
    """Keeps every choice when asked with the view, only the first when a look-ahead asks with the state."""

    def candidates_at(self, state, seat, actions, ahead):
        return actions[:1]


class Inconsistent(Counter):
    ai = TwoMinded()


class OneWorldDealer(CounterAI):
    """Deals one world from a view and hands it out for every ``Rng``: a search would see one world only."""

    def dealer(self, view, seat):
        world = self.determinize(view, seat, Rng("once"))
        return lambda rng: world


class OneWorld(Counter):
    ai = OneWorldDealer()


class TellingWords(Counter):
    """Words that name the seat's next neighbour's secret, read off the state rather than the event."""

    def describe_decision(self, state: CounterState, seat: int | None) -> str | None:
        prompt = super().describe_decision(state, seat)
        if prompt is None or seat is None or not state.secrets:
            return prompt
        return f"{prompt} Seat {(seat + 1) % state.players} holds {state.secrets[(seat + 1) % state.players]}."


class GossipingWords(Counter):
    """Words that tell every reader of a SecretDrawn which secret was drawn, whatever the event showed it."""

    def describe_event(self, event: Event, seat: int | None, state: CounterState) -> str:
        if event.type == "SecretDrawn":
            return f"Seat {event.data['seat']} draws {state.secrets[event.data['seat']]}."
        return super().describe_event(event, seat, state)


class Mute(Counter):
    """Has no words for a tick."""

    def describe_event(self, event: Event, seat: int | None, state: CounterState) -> str:
        return "" if event.type == "Ticked" else super().describe_event(event, seat, state)


def _without(kind: Refusal, code: str) -> dict[Refusal, dict[str, str]]:
    return {**Counter.refusals, kind: {c: m for c, m in Counter.refusals[kind].items() if c != code}}


class Taciturn(Counter):
    """Does not declare the refusal of a tick that is not due, which its rules make."""

    refusals = _without(Refusal.NOT_NOW, "tick_not_due")


class Boastful(Counter):
    """Declares a refusal its rules never make."""

    refusals = {**Counter.refusals, Refusal.MALFORMED: {**Counter.refusals[Refusal.MALFORMED], "bad_jackpot": "no"}}


class Mislabelled(Counter):
    """Declares its out-of-turn refusal MALFORMED (422), though its rules refuse it as NOT_NOW (409)."""

    refusals = {**_without(Refusal.NOT_NOW, "not_your_turn"),
                Refusal.MALFORMED: {**Counter.refusals[Refusal.MALFORMED], "not_your_turn": "not yours"}}  # fmt: skip


class Grumpy(Counter):
    """Refuses an add out of turn with a code it never declared, built where no scan of its package looks."""

    def decide_and_fold(self, state, seat, command, rng):
        if command.get("type") == "add" and isinstance(seat, int) and seat != state.turn and not state.over:
            raise RuleViolation("not_today", "ask again tomorrow")
        return super().decide_and_fold(state, seat, command, rng)


class Shortsighted(Counter):
    """Its look-ahead (``after``) leaves the command unplayed: its bots would search a game nobody plays."""

    def after(self, state, seat, command, rng):
        return state


class Unsung(Counter):
    """Declares an event type that it never emits and gives no example of: nobody has seen its words."""

    event_schemas = [*Counter.event_schemas, EventSchema("Jackpot", 1, Schema)]


BREACHES: list[tuple[type[Game], Callable[..., None]]] = [
    (Unsung, word_checks.test_every_declared_event_type_is_described),
    (TellingWords, word_checks.test_the_words_show_a_seat_nothing_another_seat_sees_privately),
    (TellingWords, word_checks.test_the_words_read_nothing_hidden_from_the_state),
    (GossipingWords, word_checks.test_the_words_show_a_seat_nothing_another_seat_sees_privately),
    (GossipingWords, word_checks.test_the_words_read_nothing_hidden_from_the_state),
    (Mute, word_checks.test_every_event_reads_as_a_sentence_for_every_seat_and_a_spectator),
    (LeakyRedact, hidden_checks.test_the_log_shows_a_seat_nothing_another_seat_sees_privately),
    (PeekingView, hidden_checks.test_views_show_a_seat_nothing_the_log_hides_from_it),
    (ScribblingEvolve, rule_checks.test_evolve_decide_and_redact_leave_their_inputs_alone),
    (AnyoneMayAdd, rule_checks.test_a_refused_command_changes_nothing),
    (OffersAddToAll, rule_checks.test_waiting_for_system_command_and_outcome_agree),
    (TupleSnapshots, rule_checks.test_snapshots_round_trip_through_json),
    (ForgetfulFold, rule_checks.test_folding_the_stored_log_gives_the_live_state),
    (ForgetfulFold, rule_checks.test_decide_and_fold_agrees_with_decide_and_its_fold),
    (Shortsighted, rule_checks.test_after_gives_the_state_decide_and_fold_gives),
    (Cheering, surface_checks.test_every_emitted_event_is_declared_and_fits_its_schema),
    (BlindAI, ai_checks.test_a_determinized_view_is_the_view_it_came_from),
    (Undiscerning, ai_checks.test_positions_with_one_scoring_key_score_alike),
    (OneWorld, ai_checks.test_a_dealer_deals_the_worlds_determinize_deals),
    (Impatient, ai_checks.test_a_free_choice_read_from_the_state_is_the_views),
    (Overreaching, ai_checks.test_the_choices_worth_weighing_are_legal_and_read_alike_from_the_state),
    (Inconsistent, ai_checks.test_the_choices_worth_weighing_are_legal_and_read_alike_from_the_state),
    (Taciturn, refusal_checks.test_every_code_the_rules_raise_is_declared_with_its_kind),
    (Taciturn, refusal_checks.test_every_refusal_met_in_play_is_declared_with_its_kind),
    (Mislabelled, refusal_checks.test_every_code_the_rules_raise_is_declared_with_its_kind),
    (Mislabelled, refusal_checks.test_every_refusal_met_in_play_is_declared_with_its_kind),
    (Boastful, refusal_checks.test_every_declared_code_is_raised_somewhere),
    (Grumpy, refusal_checks.test_every_refusal_met_in_play_is_declared_with_its_kind),
]


@pytest.mark.parametrize(("broken", "check"), BREACHES, ids=[f"{b.__name__}-{c.__name__[5:]}" for b, c in BREACHES])
def test_the_check_fails_a_game_that_breaks_it(broken: type[Game], check: Callable[..., None]):
    game = broken()
    plays = plays_of(game)
    arguments = {"game": game, "plays": plays, "ai": game.ai}
    names = check.__code__.co_varnames[: check.__code__.co_argcount]
    if "probes" in names:
        arguments["probes"] = probes_of(game, plays)
    with pytest.raises((AssertionError, pytest.fail.Exception)):
        check(**{name: arguments[name] for name in names})
