"""Camp Action (trading), Exhaust (traded cards stay exhausted), Agenda Cards (hidden while traded)."""

from __future__ import annotations

from domain.fallout.game import FALLOUT
from tests.domain.fallout.fixtures import full_game, play, refused, survivor


def two_campers():
    state = full_game(2, ["scout", "keeper"], caps=3, agendas=("ag1", "ag3"), inventory=("medkit",),
                       exhausted=("rifle",))
    return survivor(state, 1, space="camp.b", caps=1, agendas=("ag2",), inventory=("zine",))


def test_camp_action_trading_one_seat_proposes_the_other_accepts() -> None:
    """Camp Action: trade items, agendas and Caps with a survivor in an adjacent space; both agree."""
    state, _ = play(two_campers(), 0, {"type": "camp"})
    state = survivor(state, 0, exhausted=("rifle",))  # exhausted again since, say, by an ability
    assert {"type": "trade", "with": 1} in FALLOUT.legal_actions(state, 0)
    for step in ({"type": "trade", "with": 1}, {"type": "trade_give", "card": "rifle"},
                 {"type": "trade_give", "card": "ag1"}, {"type": "trade_give_caps"},
                 {"type": "trade_take", "card": "zine"}, {"type": "trade_take_agenda"}):
        state, _ = play(state, 0, step)
    # While the trade is put together, nothing else may happen.
    assert refused(state, 0, {"type": "move"}).code == "trade_in_progress"
    state, _ = play(state, 0, {"type": "trade_propose"})
    assert state.pending.seat == 1 and state.pending.kind == "answer_trade"
    assert FALLOUT.view(state, 0)["pending"]["choices"] == [None, None]  # seat 1's agenda cards stay hidden
    state, events = play(state, 1, {"type": "accept_trade", "agendas": ["ag2"]})
    me, them = state.survivor(0), state.survivor(1)
    assert "rifle" in them.equipped and "rifle" in them.exhausted  # still exhausted
    assert me.inventory == ("medkit", "zine") and set(me.agendas) == {"ag3", "ag2"} and them.agendas == ("ag1",)
    assert (me.caps, them.caps) == (2, 2)


def test_camp_action_trading_declined_changes_nothing_and_closes_with_the_next_action() -> None:
    """Camp Action: the other survivor may decline; trading ends with the camp action."""
    state, _ = play(two_campers(), 0, {"type": "camp"})
    before = state
    state, _ = play(state, 0, {"type": "trade", "with": 1})
    state, _ = play(state, 0, {"type": "trade_give_caps"})
    state, _ = play(state, 0, {"type": "trade_propose"})
    state, _ = play(state, 1, {"type": "decline_trade"})
    assert state.survivors == before.survivors and state.trade is None
    state, events = play(state, 0, {"type": "move"})
    assert "TradingClosed" in [e.type for e in events]
    assert not [c for c in FALLOUT.legal_actions(state, 0) if c["type"].startswith("trade")]


def test_camp_action_traits_tokens_perks_and_character_abilities_are_not_tradable() -> None:
    """Camp Action: traits, S.P.E.C.I.A.L. tokens, perks and character ability cards cannot be traded."""
    state = survivor(two_campers(), 0, perks=("perk_s",), abilities=("knack",), traits=(("reputation", "idolized"),))
    state, _ = play(state, 0, {"type": "camp"})
    state, _ = play(state, 0, {"type": "trade", "with": 1})
    offered = {c.get("card") for c in FALLOUT.legal_actions(state, 0)}
    assert not offered & {"perk_s", "knack", "reputation", "p1", "idolized"}
    assert refused(state, 0, {"type": "trade_give", "card": "perk_s"}).code == "not_a_trade_step"


def test_trading_only_after_a_camp_action_and_only_with_a_survivor_in_or_next_to_the_space() -> None:
    """Trading, Camp Action: a survivor trades as part of a camp action, with survivors in their space or an
    adjacent one; a survivor two spaces away cannot be traded with, and without camping nobody can."""
    state = two_campers()
    assert not [c for c in FALLOUT.legal_actions(state, 0) if c["type"] == "trade"]  # no camp action yet
    assert refused(state, 0, {"type": "trade", "with": 1}).code
    far = survivor(state, 1, space="ruins.b")  # camp.a and ruins.b do not touch
    far, _ = play(far, 0, {"type": "camp"})
    assert {"type": "trade", "with": 1} not in FALLOUT.legal_actions(far, 0)
    near, _ = play(state, 0, {"type": "camp"})
    assert {"type": "trade", "with": 1} in FALLOUT.legal_actions(near, 0)
