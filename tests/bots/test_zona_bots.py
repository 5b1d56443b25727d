"""The bots on Zona: how far the planner looks, how greedy answers its own follow-ups, and a sampling
failure that costs a bot its foresight, never its seat.

Zona §"PRZEBIEG ROZGRYWKI": a round is every stalker's turn, then the event phase (where a stalker inside a
facility reads its deck and may learn its secret), then the news phase. A planner that stopped at another
seat's turn never saw the event phase unless it sat last; it now plays on to the next round.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import pytest

from bots import make_bot
from bots.lookahead import follow_up, settle
from bots.policies import PlannerBot, decide
from domain.rng import Rng
from domain.zona.ai import ZONA_AI, ZonaAI
from domain.zona.game import ZONA, ZonaGame
from domain.zona.state import turn_order
from tests.bots.play import random_play
from tests.domain.zona.fixtures import new_game, resolve, strip

OPTIONS = ZONA.resolve_options({"first_voice": 0})


def _positions(players: int, seed: str, steps: int = 400):
    for _, seat, state in random_play(ZONA, OPTIONS, players, seed, steps):
        if state.phase != "setup":
            yield seat, state


def test_the_planner_plays_through_the_other_seats_turns_and_the_round_end():
    """Zona §"PRZEBIEG ROZGRYWKI": from the first seat's turn the playout runs through the other stalker's
    turn, the event and news phases, into the next round (or the game's end)."""
    planner = PlannerBot(rollouts=1)
    checked = 0
    for seat, state in _positions(2, "horizon"):
        if not ZONA_AI.free_choice(ZONA.view(state, seat), seat):
            continue
        if turn_order(state)[0] != seat or state.turn["actions"]:
            continue  # the first seat of the round, at the start of its turn: the others still to play
        end = planner.playout(ZONA_AI, ZONA, state, seat, {"type": "pass"}, Rng("horizon", str(checked)))
        assert end.over or end.round == state.round + 1, (state.round, end.round)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


class _TurnPlayouts(ZonaAI):
    whole_round_playouts = False


def test_without_whole_round_playouts_the_planner_stops_at_the_next_seats_turn():
    """A game whose AI does not ask for whole-round playouts (Fallout's) keeps the horizon its planner was
    measured with: the playout ends where another seat chooses freely, in the same round."""
    planner, ai = PlannerBot(rollouts=1), _TurnPlayouts()
    for seat, state in _positions(2, "horizon"):
        if not ai.free_choice(ZONA.view(state, seat), seat) or turn_order(state)[0] != seat:
            continue
        end = planner.playout(ai, ZONA, state, seat, {"type": "pass"}, Rng("turn"))
        assert end.round == state.round and end.turn["seat"] != seat
        return
    pytest.fail("no first seat's turn in the game")


def test_the_scoring_view_scores_as_the_whole_view_does():
    """The bots score from ``scoring_view`` (quicker); it must read exactly as the seat's view does, each part
    as the view shows it (of the pending decision, whose it is and its kind)."""
    checked = 0
    for players, seed in ((1, "look-solo"), (3, "look-three")):
        for n, (_, state) in enumerate(_positions(players, seed, 300)):
            if n % 5:
                continue
            for seat in range(players):
                whole, quick = ZONA.view(state, seat), ZONA_AI.scoring_view(state, seat)
                assert ZONA_AI.evaluate(quick, seat) == ZONA_AI.evaluate(whole, seat)
                assert ZONA_AI.free_choice(quick, seat) == ZONA_AI.free_choice(whole, seat)
                assert {k: whole[k] for k in quick if k not in ("table", "board", "pending")} == {
                    k: v for k, v in quick.items() if k not in ("table", "board", "pending")}
                if quick["pending"] is not None:  # whose decision and its kind, not its choices
                    assert quick["pending"] == {k: whole["pending"][k] for k in ("seat", "kind")}
                else:
                    assert whole["pending"] is None
                checked += 1
    assert checked > 30


def test_a_searching_bot_is_handed_the_view_without_cards_and_faces_and_deals_and_chooses_as_from_the_whole():
    """The bots' search view (``ZonaAI.search_view``, what ``bots.policies.decide`` hands a greedy or planner
    bot) is the seat's view less the cards it names and its faces, with of the board's description the spaces
    inside a facility; the worlds dealt from it and a greedy bot's choice are those of the whole view."""
    greedy, checked = make_bot("greedy"), 0
    for players, seed in ((1, "search-solo"), (3, "search-three")):
        for n, (seat, state) in enumerate(_positions(players, seed, 300)):
            if n % 9 or seat not in ZONA.waiting_for(state):
                continue
            whole, searched = ZONA.view(state, seat), ZONA_AI.search_view(state, seat)
            assert searched == {
                **{k: v for k, v in whole.items() if k not in ("cards", "faces", "board")},
                "board": {"facility_spaces": whole["board"]["facility_spaces"]},
            }
            dealt = [ZONA.dump_state(ZONA_AI.determinize(v, seat, Rng(seed, str(n)))) for v in (whole, searched)]
            assert dealt[0] == dealt[1]
            actions = ZONA.legal_actions(state, seat)
            if len(actions) > 1:
                chosen = [greedy.choose(ZONA, v, actions, seat, Rng(seed, f"c{n}")) for v in (whole, searched)]
                assert chosen[0] == chosen[1]
            checked += 1
    assert checked >= 10


def _owed_decisions(players: int, seed: str):
    """Positions where a seat owes an answer with more than one choice."""
    for _, state in _positions(players, seed, 600):
        pending = state.pending
        if pending is not None and len(ZONA.legal_actions(state, pending["seat"])) > 1:
            yield pending["seat"], state


def test_greedy_answers_its_follow_ups_by_their_result_not_by_the_lapsed_default():
    """A decision the seat owes after its action (keep or reroll the dice, meet or flee, what to give up) is
    answered with the choice that scores best at once, not always with what a lapsed deadline sends; and on
    the whole its answers leave the seat standing no worse than the defaults would."""
    differ = compared = 0
    mine, theirs = [], []
    for seed in ("follow-a", "follow-b", "follow-c"):
        for seat, state in _owed_decisions(2, seed):
            answer = follow_up(ZONA_AI, ZONA, state, seat, Rng(seed, str(compared)))
            assert answer is not None
            command, after = answer
            assert command in ZONA.legal_actions(state, seat)
            default = ZONA.timeout_command(state, seat)
            lapsed = ZONA.decide_and_fold(state, seat, default, Rng(seed, f"{compared}-default"))[1]
            mine.append(ZONA_AI.evaluate(ZONA.view(after, seat), seat))
            theirs.append(ZONA_AI.evaluate(ZONA.view(lapsed, seat), seat))
            differ += command != default
            compared += 1
    assert compared > 10
    assert differ > 0, "greedy's follow-ups were always the lapsed defaults"
    assert sum(mine) >= sum(theirs), (sum(mine), sum(theirs))


def test_settle_stops_when_the_seat_chooses_freely_again():
    """The action, then the seat's own answers, until its turn goes on or someone else must act."""
    for seat, state in _positions(2, "settle"):
        if not ZONA_AI.free_choice(ZONA.view(state, seat), seat):
            continue
        for action in ZONA.legal_actions(state, seat):
            after = settle(ZONA_AI, ZONA, state, seat, action, Rng("settle"))
            waiting = ZONA.waiting_for(after)
            assert after.over or seat not in waiting or ZONA_AI.free_choice(ZONA.view(after, seat), seat)
        return


class _Unsampled(ZonaAI):
    """Zona's AI whose sampling fails, as a bug in ``determinize`` would: in reading the view (``dealer``) or in
    dealing a world from it."""

    def __init__(self, fails_in: str):
        self.fails_in = fails_in

    def determinize(self, view: dict[str, Any], seat: int, rng: Rng) -> Any:
        raise KeyError("a card the sampler did not expect")

    def dealer(self, view: dict[str, Any], seat: int) -> Callable[[Rng], Any]:
        if self.fails_in == "dealer":
            raise KeyError("a view the sampler did not expect")
        return functools.partial(self.determinize, view, seat)


def _broken_sampling(fails_in: str) -> ZonaGame:
    class BrokenSampling(ZonaGame):
        ai = _Unsampled(fails_in)

    return BrokenSampling()


SAMPLING_FAILS = ("dealer", "deal")


@pytest.mark.parametrize("fails_in", SAMPLING_FAILS)
def test_a_bot_whose_worlds_cannot_be_dealt_still_plays_a_legal_move(fails_in: str):
    """A failure in sampling a world falls back to a legal move (at random, as a game without an AI), for
    every level, on turns and on owed decisions alike."""
    broken = _broken_sampling(fails_in)
    played = 0
    for seat, state in _positions(2, "broken", 120):
        actions = broken.legal_actions(state, seat)
        for level in ("greedy", "planner"):
            bot = make_bot(level, {"bot_rollouts": 2})
            chosen = bot.choose(broken, broken.view(state, seat), actions, seat, Rng("broken", str(played)))
            assert chosen in actions
        played += 1
        if played >= 12:
            break
    assert played == 12


@pytest.mark.parametrize("fails_in", SAMPLING_FAILS)
def test_greedy_scores_nothing_without_a_world(fails_in: str):
    from bots.policies import GreedyBot

    broken = _broken_sampling(fails_in)
    seat, state = next(_positions(2, "none"))
    actions = broken.legal_actions(state, seat)
    scores = GreedyBot().scores(broken.ai, broken, broken.view(state, seat), actions, seat, Rng("none"))
    assert scores == [-math.inf] * len(actions)


def test_selfplay_reports_zona_wins_against_the_shared_loss_and_keeps_a_record(tmp_path, capsys):
    """``holotape selfplay --game zona`` reports like Fallout's, plus the won games against the shared loss
    (Zona §"PRZEGRANA") with their rounds; ``--record`` keeps each result, ``--summarize`` reads it back."""
    from service.cli import main

    record = tmp_path / "results.jsonl"
    assert main(["selfplay", "--game", "zona", "--bots", "random", "--games", "2", "--players", "1",
                 "--record", str(record)]) == 0
    played = capsys.readouterr().out
    assert "win rate" in played and "lost by everyone: 2" in played
    assert len(record.read_text().splitlines()) == 2
    assert main(["selfplay", "--game", "zona", "--bots", "random", "--summarize", str(record)]) == 0
    again = capsys.readouterr().out
    assert again.splitlines()[:4] == played.splitlines()[:4]


def _tests_owed(seeds: tuple[str, ...]):
    """Positions where a seat has rolled a test and owes its ``test_options`` (Zona §"WYKONYWANIE TESTÓW")."""
    for seed in seeds:
        for seat, state in _owed_decisions(2, seed):
            if state.pending["kind"] == "test_options":
                yield seat, state


#: The decisions the planner weighs by their result at once: a rolled test, an encounter's answers.
WEIGHED_AT_ONCE = {"test_options", "flee", "trophy", "skip_encounter"}


def test_rolled_tests_and_encounters_are_weighed_at_once_and_nothing_else_is():
    """Zona §"WYKONYWANIE TESTÓW": after seeing the dice the stalker forces, rerolls, uses an item or keeps the
    roll; §"2. WYKRYCIE": it confronts (a test rolled at once) or flees. Those decisions, and only the seat's
    own, are the ones the planner weighs by their result right after (over the faces of the first die they
    roll); trades (§"OBOZOWANIE"), the Voice's marks, injuries and the rest it plays out."""
    kinds = set()
    for seat, state in _owed_decisions(2, "chance"):
        kind = state.pending["kind"]
        kinds.add(kind)
        assert ZONA_AI.chance_decision(ZONA.view(state, seat), seat) == (kind in WEIGHED_AT_ONCE), kind
        assert not ZONA_AI.chance_decision(ZONA.view(state, 1 - seat), 1 - seat)
    assert {"test_options", "flee", "trade"} <= kinds and kinds - WEIGHED_AT_ONCE


def test_the_planner_weighs_confronting_a_threat_over_every_face_of_the_first_die():
    """Zona §"3. KONFRONTACJA": confronting rolls the threat's test at once; the planner plays the confrontation
    once per face of its first die (``FirstDrawn``) and greedy settles the rest, so its worth is the odds'
    and fleeing (no dice) is weighed against it on the same worlds."""
    found = next(((seat, state) for seat, state in _owed_decisions(2, "chance") if state.pending["kind"] == "flee"),
                 None)
    assert found is not None, "no encounter to confront or flee"
    seat, state = found
    confront = {"type": "confront"}
    assert confront in ZONA.legal_actions(state, seat)
    seen: list[str] = []

    class _Counting(ZonaGame):
        def after(self, at: Any, who: Any, command: Any, rng: Rng) -> Any:  # what the look-ahead plays
            events, folded = ZONA.decide_and_fold(at, who, command, rng)
            if at is state and command == confront:  # the confrontation weighed, not a follow-up's
                seen.append(next(e for e in events if e.type == "DiceRolled").data["dice"][0])
            return folded

    value = PlannerBot(rollouts=1).expected(ZONA_AI, _Counting(), state, seat, confront, Rng("confront"))
    assert sorted(seen) == sorted(state.options["die_faces"])
    assert math.isfinite(value)
    chosen = PlannerBot(rollouts=2).choose(ZONA, ZONA.view(state, seat), ZONA.legal_actions(state, seat), seat,
                                           Rng("flee"))
    assert chosen in ZONA.legal_actions(state, seat)


def test_the_planner_weighs_a_reroll_over_every_face_the_die_can_show():
    """Zona §"PRZERZUCANIE KOŚCI": a rerolled die shows any face of the pack's dice; the planner plays the
    reroll once per face (``FirstDrawn``), so its value is their mean, not one roll's."""
    found = next(((seat, state, reroll) for seat, state in _tests_owed(("reroll-a", "reroll-b", "reroll-c"))
                  for reroll in ZONA.legal_actions(state, seat) if reroll["type"] in ("force", "reroll")), None)
    assert found is not None, "no rolled test with a reroll to weigh"
    seat, state, reroll = found
    seen: list[str] = []

    class _Counting(ZonaGame):
        def after(self, at: Any, who: Any, command: Any, rng: Rng) -> Any:  # what the look-ahead plays
            events, folded = ZONA.decide_and_fold(at, who, command, rng)
            if at is state and command == reroll:  # the reroll weighed, not a follow-up's
                seen.append(next(e for e in events if e.type == "DieRerolled").data["face"])
            return folded

    value = PlannerBot(rollouts=1).expected(ZONA_AI, _Counting(), state, seat, reroll, Rng("reroll"))
    assert sorted(seen) == sorted(state.options["die_faces"])
    assert math.isfinite(value)


def test_the_planner_keeps_a_roll_that_already_passes():
    """Zona §"WYKONYWANIE TESTÓW": a total at or above the difficulty passes; rerolling can only lose it, and
    forcing or an item costs fatigue or wear, so the planner keeps it (the ties go to keeping the roll)."""
    planner = PlannerBot(rollouts=1)
    kept = 0
    for seat, state in _tests_owed(("keep-a", "keep-b", "keep-c", "keep-d")):
        context = state.pending["context"]
        if context["total"] < context["difficulty"]:
            continue
        actions = ZONA.legal_actions(state, seat)
        chosen = planner.choose(ZONA, ZONA.view(state, seat), actions, seat, Rng("keep", str(kept)))
        assert chosen == {"type": "accept"}, (context, chosen)
        kept += 1
        if kept == 3:
            return
    assert kept > 0, "no rolled test that already passed"


def test_greedy_keeps_a_passing_roll_before_it_looks_ahead_and_the_planner_weighs_it():
    """Zona §"WYKONYWANIE TESTÓW": a roll that passes is kept. Greedy asks its AI which choices are worth
    weighing before it deals a world (here sampling fails, so a search would choose at random) and sends the
    one left; the planner weighs every choice of its own decision its own way."""
    broken = _broken_sampling("dealer")
    state = strip(new_game(1, characters=["yuri"], die_faces=["plus"]), 0)
    state = resolve(state, 0, [{"test": {"attribute": "intellect", "difficulty": 3}, "pass": [], "fail": []}])
    actions = broken.legal_actions(state, 0)
    assert len(actions) > 1 and state.pending["kind"] == "test_options"
    for level, kept in (("greedy", True), ("planner", False)):
        chosen = [decide(make_bot(level, {"bot_rollouts": 1}), broken, state, actions, 0, Rng("keep", f"v{n}"))
                  for n in range(12)]
        assert all(c in actions for c in chosen)
        assert (set(map(str, chosen)) == {str({"type": "accept"})}) is kept, (level, chosen)
