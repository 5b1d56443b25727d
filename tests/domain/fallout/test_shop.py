"""Shop, Shopping, Asset Cards, Component Limitations."""

from __future__ import annotations

from dataclasses import replace

from domain.fallout.game import FALLOUT
from domain.rng import Rng
from tests.domain.fallout.fixtures import data, decks, full_game, play, refused


def shopping_game(**changes):
    state = decks(full_game(1, **changes), settlement=("s_market",))
    state = replace(state, shop=("helmet", "codsworth", "combat_armor", "dogmeat"),
                    asset_deck=("knife", "bat", "stimpak"), asset_discard=())
    state, _ = play(state, 0, {"type": "encounter"})
    state, events = play(state, 0, {"type": "choose_option", "option": 0})
    return state, events


def test_shopping_draws_one_asset_to_the_left_then_offers_interactions() -> None:
    """Shopping, Shop: draw one asset to the left of the shop; then up to # buys, sells or recruits."""
    state, events = shopping_game(caps=2)
    assert state.shop == ("knife", "helmet", "codsworth", "combat_armor", "dogmeat")
    assert state.pending.kind == "shop" and state.pending.context["left"] == 2
    offered = {(c["type"], c.get("card")) for c in state.pending.choices}
    # Knife (1) and helmet (2) are affordable; combat armor (5) is not; Codsworth wants Idolized; Dogmeat wants S.
    assert offered == {("buy", "knife"), ("buy", "helmet"), ("done_shopping", None)}


def test_shopping_buy_sell_and_reset_to_four() -> None:
    """Shopping, Shop, Asset Cards: buy pays the cost; sell gives value - 1; afterwards the shop resets to four,
    discarding from the right."""
    state, _ = shopping_game(caps=2, inventory=("first_aid",))
    state, _ = play(state, 0, {"type": "buy", "card": "helmet"})
    assert state.survivor(0).caps == 0 and "helmet" in state.survivor(0).equipped
    state, events = play(state, 0, {"type": "sell", "card": "first_aid"})
    assert state.survivor(0).caps == 0 and state.asset_discard[0] == "first_aid"  # value 1 - 1
    assert state.shopping is None and state.shop == ("knife", "codsworth", "combat_armor", "dogmeat")


def test_shopping_recruit_needs_the_trait_or_letter() -> None:
    """Shopping (recruit): a companion is taken only by a survivor with the trait or letter on it."""
    state, _ = shopping_game(special=(("S", "s1"), ("P", "p1")))
    assert {"type": "recruit", "card": "dogmeat"} in state.pending.choices
    assert {"type": "recruit", "card": "codsworth"} not in state.pending.choices
    state, _ = play(state, 0, {"type": "recruit", "card": "dogmeat"})
    assert "dogmeat" in state.survivor(0).equipped
    assert refused(state, 0, {"type": "recruit", "card": "codsworth"}).code == "not_a_choice"


def test_component_limitations_the_asset_discards_are_reshuffled_when_the_deck_runs_out() -> None:
    """Component Limitations, Shop: an empty asset deck is refilled from its discard pile (shuffled)."""
    state = decks(full_game(1, caps=9), settlement=("s_tavern",))
    state = replace(state, shop=("helmet", "codsworth", "combat_armor", "dogmeat"), asset_deck=(),
                    asset_discard=("knife", "bat"))
    state, _ = play(state, 0, {"type": "encounter"})
    state, events = play(state, 0, {"type": "choose_option", "option": 0})
    assert data(events, "AssetDeckReshuffled") and len(state.shop) == 5
    state, events = play(state, 0, {"type": "done_shopping"})
    # Five cards after the action: the rightmost is discarded.
    assert data(events, "ShopReset") == [{"discarded": ["dogmeat"], "drawn": []}]
    assert len(state.shop) == 4 and state.asset_discard == ("dogmeat",)
    reshuffle = next(e for e in FALLOUT.decide(
        replace(state, shop=(), asset_deck=(), asset_discard=("knife", "bat")), 0, {"type": "end_turn"}, Rng("r")
    ) if e.type == "AssetDeckReshuffled")
    assert FALLOUT.redact(reshuffle, 0).data["order"] == [None, None]
