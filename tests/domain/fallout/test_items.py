"""Equipping, Items, Inventory, Apparel, Weapons, Companions, Exhaust, Unique Asset Cards, Loot Cards, Killed."""

from __future__ import annotations

from dataclasses import replace

from domain.fallout import items, results
from domain.fallout.content import register_pack
from domain.fallout.game import FALLOUT
from domain.fallout.pack.component_schemas import CardSchema
from domain.fallout.rulebook import Resolution
from domain.fallout.state import Turn
from domain.rng import Rng
from tests.contract.schemas import schemas_of
from tests.domain.fallout.fixtures import FULL, data, full_game, play, quiet_game, refused, survivor


def gain(state, seat, *cards, rng=None):
    """Resolve a result bar giving ``cards`` (by drawing them off the top of the loot deck)."""
    state = replace(state, loot_deck=tuple(cards) + state.loot_deck)
    return resolve(state, seat, [{"loot": len(cards)}], rng)


def resolve(state, seat, bar, rng=None):
    res = Resolution(state, rng or Rng("x"))
    results.push(res, seat, "test", "item", 1, bar)
    from domain.fallout.advance import advance

    advance(res, seat)
    return res.state, res.events


def test_equipping_gained_cards_fill_an_empty_slot_or_ask() -> None:
    """Equipping, Loot Cards: an item for an empty slot is equipped; for a taken slot the survivor chooses."""
    state = full_game(1)  # the scout: rifle equipped
    state, _ = gain(state, 0, "jacket")
    assert state.survivor(0).equipped == ("rifle", "jacket")
    state, _ = gain(state, 0, "pipe")
    assert state.pending.kind == "equip_gained"
    assert {"type": "equip", "card": "pipe"} in FALLOUT.legal_actions(state, 0)
    state, _ = play(state, 0, {"type": "equip", "card": "pipe"})
    s = state.survivor(0)
    assert s.equipped == ("jacket", "pipe") and s.inventory == ("rifle",)


def test_inventory_three_cards_then_discard_down() -> None:
    """Inventory, Loot Cards: draw them all, then choose and discard down to three."""
    state = survivor(full_game(1), 0, inventory=("medkit", "zine", "jet"))
    state = replace(state, asset_deck=("first_aid",) + state.asset_deck)
    state, _ = resolve(state, 0, [{"asset": 1}])
    assert state.pending.kind == "discard_card" and len(state.survivor(0).inventory) == 4
    state, events = play(state, 0, {"type": "discard", "card": "zine"})
    assert state.survivor(0).inventory == ("medkit", "jet", "first_aid") and state.loot_discard[-1] == "zine"


def test_loot_cards_one_time_events_are_resolved_and_discarded() -> None:
    """Loot Cards: a one-time event is resolved, then discarded."""
    state, events = gain(full_game(1, caps=0), 0, "stash")
    assert state.survivor(0).caps == 2 and "stash" in state.loot_discard and "stash" not in state.survivor(0).inventory


def test_items_aid_drugs_and_magazines_are_used_from_the_inventory() -> None:
    """Items: aid, drugs and magazines are used from the inventory during one's turn, then discarded."""
    state = survivor(full_game(1), 0, inventory=("medkit", "jet"), hp=10)
    assert {"type": "use", "card": "medkit"} in FALLOUT.legal_actions(state, 0)
    state, _ = play(state, 0, {"type": "use", "card": "medkit"})
    assert state.survivor(0).hp == 13 and state.survivor(0).inventory == ("jet",) and "medkit" in state.loot_discard
    state, _ = play(state, 0, {"type": "use", "card": "jet"})
    assert state.survivor(0).has_trait("addicted") and state.turn.movement == 1
    other = full_game(2, ["scout", "keeper"])
    other = survivor(other, 1, inventory=("medkit",))
    assert refused(other, 1, {"type": "use", "card": "medkit"}).code == "not_your_turn"


def test_companions_exhaust_for_their_ability_and_camp_unexhausts_with_conditions_and_costs() -> None:
    """Companions, Exhaust, Camp Action: exhaust to use; camping unexhausts, paying costs; a companion whose
    condition fails is discarded, even in the inventory."""
    state = survivor(full_game(1, caps=0), 0, equipped=("rifle", "dogmeat"), inventory=("mutt",), exhausted=("mutt",))
    state, _ = play(state, 0, {"type": "use", "card": "dogmeat"})
    assert "dogmeat" in state.survivor(0).exhausted and state.turn.movement == 1
    assert {"type": "use", "card": "dogmeat"} not in FALLOUT.legal_actions(state, 0)
    state = survivor(state, 0, traits=(("reputation", "vilified"),))
    state, events = play(state, 0, {"type": "camp"})
    s = state.survivor(0)
    assert "dogmeat" in s.exhausted  # its unexhaust cost (1 Caps) could not be paid
    assert "mutt" not in s.inventory and data(events, "CardDiscarded")[0]["reason"] == "companion_condition"
    state = replace(survivor(state, 0, caps=2), turn=Turn(0))
    state, events = play(state, 0, {"type": "camp"})
    assert state.survivor(0).exhausted == () and state.survivor(0).caps == 1


def test_exhaust_unexhaust_costs_in_hp_and_rads_never_paid_with_ones_life() -> None:
    """Exhaust, Camp Action: an unexhaust cost may be HP or rads (docs/fallout-effects.md's Rad Hound: 1 rad); it is paid
    when the card unexhausts, and a cost that would kill the survivor is not paid: the card stays exhausted."""
    hound = CardSchema().load({
        "id": "rad_hound", "name": "Rad Hound", "kind": "companion", "deck": "asset",
        "unexhaust_cost": {"rads": 1}, "effects": [{"movement": 1}],
    })
    assert (hound.unexhaust_cost, hound.unexhaust_hp, hound.unexhaust_rads) == (0, 0, 1)
    pack = register_pack(replace(FULL, id="mini2_hound", cards={**FULL.cards, "rad_hound": hound}))
    state = survivor(quiet_game(1, pack=pack.id), 0, space="camp.a", equipped=("rad_hound",),
                     exhausted=("rad_hound",), hp=10, rads=2)
    state, events = play(state, 0, {"type": "camp"})
    unexhausted = data(events, "CardsUnexhausted")[0]
    assert unexhausted["rads"] == 1 and "hp" not in unexhausted
    assert state.survivor(0).rads == 3 and state.survivor(0).exhausted == ()
    dying = survivor(quiet_game(1, pack=pack.id), 0, space="camp.a", equipped=("rad_hound",),
                     exhausted=("rad_hound",), hp=16, rads=15)
    dying, events = play(dying, 0, {"type": "camp"})  # HP 16 (the most), rads 15 -> 16 would kill: unpaid
    assert dying.survivor(0).exhausted == ("rad_hound",) and dying.survivor(0).rads == 15
    assert not data(events, "SurvivorKilled")


def test_equipping_at_the_start_of_the_turn_only() -> None:
    """Equipping: at the start of one's turn, equip from the inventory (swapping)."""
    state = survivor(full_game(1), 0, inventory=("pipe",))
    assert {"type": "equip", "card": "pipe"} in FALLOUT.legal_actions(state, 0)
    moved, _ = play(state, 0, {"type": "equip", "card": "pipe"})
    assert moved.survivor(0).equipped == ("pipe",) and moved.survivor(0).inventory == ("rifle",)
    state, _ = play(state, 0, {"type": "move"})
    assert refused(state, 0, {"type": "equip", "card": "pipe"}).code == "cannot_equip"


def test_unique_asset_cards_by_name_or_at_random() -> None:
    """Unique Asset Cards, Results: gain the named unique asset; if it is not available, a random one."""
    state, _ = resolve(full_game(1), 0, [{"unique": "crown"}])
    assert "crown" in state.survivor(0).equipped and "crown" not in state.unique_deck
    state, events = resolve(state, 0, [{"unique": "crown"}])
    assert data(events, "UniqueGained")[0]["card"] in ("lucky_gun", "robo")


def test_unique_asset_cards_a_random_one_names_none_asked_and_its_event_is_valid() -> None:
    """Unique Asset Cards, Results (``unique: random``): a random unique asset is gained, and its UniqueGained
    records that no card was asked for (``asked`` null), which its declared schema accepts, so the service
    appends it; a named one records the card asked for."""
    state, events = resolve(full_game(1), 0, [{"unique": "random"}])
    gained = data(events, "UniqueGained")
    assert gained == [{"seat": 0, "card": gained[0]["card"], "asked": None}]
    assert gained[0]["card"] in ("crown", "lucky_gun", "robo") and gained[0]["card"] not in state.unique_deck
    schemas_of(FALLOUT).check(events, "unique: random")
    _, named = resolve(full_game(1), 0, [{"unique": "crown"}])
    assert data(named, "UniqueGained") == [{"seat": 0, "card": "crown", "asked": "crown"}]
    schemas_of(FALLOUT).check(named, "unique: crown")


def test_unique_asset_cards_a_discarded_one_goes_beside_the_deck_for_good() -> None:
    """Unique Asset Cards: a discarded unique asset is placed next to the unique asset deck, not into it, so
    it is neither gained by name nor at random again."""
    state = survivor(full_game(1), 0, inventory=("robo",), hp=2)
    state = replace(state, unique_deck=("crown", "lucky_gun"))
    state, _ = resolve(state, 0, [{"damage": 2}])  # Killed: the inventory is discarded
    state, _ = play(state, 0, {"type": "respawn", "space": "camp.a"})
    assert state.unique_discard == ("robo",) and "robo" not in state.unique_deck
    assert FALLOUT.view(state, 0)["unique_discard"] == ["robo"]
    for seed in "abcdef":
        _, events = resolve(state, 0, [{"unique": "robo"}], Rng(seed))
        assert data(events, "UniqueGained")[0]["card"] in ("crown", "lucky_gun")


def test_killed_inventory_goes_to_the_discard_piles() -> None:
    """Killed, Loot Cards, Asset Cards: the inventory is discarded to the matching discard piles."""
    state = survivor(full_game(1), 0, inventory=("medkit", "first_aid"), hp=2)
    state, _ = resolve(state, 0, [{"damage": 2}])
    assert state.loot_discard == ("medkit",) and state.asset_discard == ("first_aid",)


def test_over_limit_helper_names_the_first_survivor() -> None:
    """Inventory: the limit is three cards; equipped cards do not count."""
    state = survivor(full_game(1), 0, equipped=("rifle", "jacket", "mutt"), inventory=("medkit", "zine", "jet"))
    assert items.over_limit(state) is None
    assert items.over_limit(survivor(state, 0, inventory=("medkit", "zine", "jet", "pipe"))) == (0, "inventory")
