"""Fallout's ``determinize`` (``FALLOUT.ai``): a whole state from one seat's view, consistent with it.

Along seeded games of random play, for every seat: the view of the sampled
state is the view it was made from, the legal actions are the same, and the
sampled state can be played on (every command a bot might try is decided).
"""

from __future__ import annotations

import pytest

from domain.fallout.game import FALLOUT
from domain.game import SYSTEM
from domain.rng import Rng
from tests.bots.play import random_play
from tests.domain.fallout.fixtures import FULL, MINI

#: The bundled pack, the mini pack, and the full test pack (encounters, quests, trading, influence).
#: The bundled pack's default scenario, filled in as the service fills it in (its pack has several).
BASE = FALLOUT.resolve_options({})
PACKS = [(BASE, 3), ({"pack": MINI.id, "scenario": "test"}, 2), ({"pack": FULL.id, "scenario": "test"}, 4)]


@pytest.mark.parametrize("options,players", PACKS, ids=[o.get("pack", "base") for o, _ in PACKS])
def test_the_view_of_a_determinized_state_is_the_view_it_came_from(options, players):
    checked = 0
    for n, _, state in random_play(FALLOUT, options, players, f"det-{players}", 400):
        if n % 3:
            continue
        for seat in range(players):
            view = FALLOUT.view(state, seat)
            sampled = FALLOUT.ai.determinize(view, seat, Rng(f"sample-{n}-{seat}"))
            assert FALLOUT.view(sampled, seat) == view, (n, seat)
            assert FALLOUT.legal_actions(sampled, seat) == FALLOUT.legal_actions(state, seat)
            for command in FALLOUT.legal_actions(sampled, seat)[:4]:
                assert FALLOUT.decide(sampled, seat, command, Rng(f"try-{n}"))
            if FALLOUT.system_command(sampled) is not None:
                assert FALLOUT.decide(sampled, SYSTEM, FALLOUT.system_command(sampled), Rng(f"sys-{n}"))
            checked += 1
    assert checked > 40


def test_what_is_hidden_is_sampled_not_copied():
    """Two samples differ in what the seat cannot see, and agree on what it can."""
    *_, (_, _, state) = random_play(FALLOUT, BASE, 3, "hidden", 60)
    view = FALLOUT.view(state, 0)
    samples = [FALLOUT.ai.determinize(view, 0, Rng(f"s{i}")) for i in range(8)]
    assert {s.survivors[1].agendas + s.agenda_deck for s in samples} != {samples[0].survivors[1].agendas + samples[0].agenda_deck}
    assert all(s.survivors[0].agendas == state.survivors[0].agendas for s in samples)
    hidden_tiles = [p.id for p in state.places if not p.faceup]
    if hidden_tiles:
        assert len({tuple(p.tile for p in s.places) for s in samples}) > 1


def test_a_lapsed_deadline_ends_the_turn_or_takes_the_default():
    for _, _, state in random_play(FALLOUT, BASE, 2, "timeout", 300):
        waiting = FALLOUT.waiting_for(state)
        if not waiting:
            continue
        seat = waiting[0]
        command = FALLOUT.timeout_command(state, seat)
        assert command in FALLOUT.legal_actions(state, seat)
        if state.pending is None and state.trade is None:
            assert command == {"type": "end_turn"}
        elif state.pending is None:
            assert command == {"type": "trade_cancel"}  # a trade being put together is cancelled first
        elif state.pending.kind == "reroll":
            assert command["type"] == "keep_dice"
