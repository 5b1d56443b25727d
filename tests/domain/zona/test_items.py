"""Items, the backpack, wear, artifacts, the market and camping."""

from __future__ import annotations

import pytest

from domain.game import RuleViolation
from domain.rng import Rng
from domain.zona import items
from domain.zona.game import ZONA
from domain.zona.resolution import ZonaResolution
from tests.domain.zona.fixtures import PACK, choose, clear_threats, new_game, put, resolve, send, strip, with_stalker


def _bare(character="mila", **fields):
    state = new_game(2, characters=[character, "vera"])
    state = strip(state, 0)
    state = clear_threats(state)
    return with_stalker(state, 0, **fields)


def _gain(state, card):
    state = put(state, card, "hand")
    res = ZonaResolution(state, Rng("g"))
    items.gain(res, 0, card, "hand")
    from domain.zona import flow

    flow.run(res)
    return res.state


def test_item_kinds_junk_equipment_finds_artifacts():
    """Zona §"PRZEDMIOTY": four kinds, each from its own deck (finds from the facilities)."""
    state = new_game(2)
    kinds = {PACK.item_type(c).kind for c in state.decks["junk"]} | {
        PACK.item_type(c).kind for c in state.decks["equipment"]}
    assert kinds == {"junk", "equipment"}
    assert all(PACK.item_type(c).kind == "find" for cards in state.finds.values() for c in cards)
    assert all(PACK.item_type(c).artifact for c in state.decks["yellow_artifact"])


def test_small_items_take_no_slot_and_have_no_limit():
    """Zona §"MAŁE PRZEDMIOTY": beside the board, any number."""
    state = _bare()
    for n in (1, 2):
        state = _gain(state, f"canned_meat#{n}")
    for n in (1, 2):
        state = _gain(state, f"lucky_bolt#{n}")
    assert len(state.stalkers[0]["small"]) == 4 and state.stalkers[0]["backpack"] == []


def test_backpack_full_asks_to_drop_or_refuse():
    """Zona §"PLECAK": five slots; a sixth regular item needs room made (our ruling)."""
    state = _bare()
    for card in ("rusty_pipe#1", "rusty_pipe#2", "torn_map#1", "scope_rifle#1", "scope_rifle#2"):
        state = _gain(state, card)
    assert len(state.stalkers[0]["backpack"]) == 5
    state = _gain(state, "anomaly_probe#1")
    assert state.pending["kind"] == "gain_item"
    assert {"type": "stow"} not in state.pending["choices"]
    state = choose(state, {"type": "drop", "card": "torn_map#1"})  # room made: the new card goes in
    assert "anomaly_probe#1" in state.stalkers[0]["backpack"] and "torn_map#1" in state.discards["junk"]


def test_a_find_in_another_stalkers_decision_reads_as_a_find():
    """Zona §"ZNALEZISKA": finds are looked at alone, so another seat's prompt names none, as its view does."""
    state = _bare()
    for card in ("rusty_pipe#1", "rusty_pipe#2", "torn_map#1", "scope_rifle#1", "scope_rifle#2"):
        state = _gain(state, card)
    state = _gain(state, "lead_cape#f1")
    assert state.pending["kind"] == "gain_item"
    assert "Lead Cape" in ZONA.describe_decision(state, 0)
    for seat in (1, None):
        assert "Lead Cape" not in ZONA.describe_decision(state, seat) and "a find" in ZONA.describe_decision(state, seat)


def test_outfit_worn_by_body_part_and_changed_on_own_turn():
    """Zona §"STRÓJ": no two worn outfits on one body part; wearing one moves the other to the backpack."""
    state = _bare()
    state = put(state, "gas_hood#1", "worn:0")
    state = _gain(state, "hazmat_suit#1")  # head and body
    assert {"type": "wear"} in state.pending["choices"]
    state = choose(state, {"type": "wear"})
    assert state.stalkers[0]["worn"] == ["hazmat_suit#1"]
    assert "gas_hood#1" in state.stalkers[0]["backpack"]
    assert {"type": "put_on", "card": "gas_hood#1"} in ZONA.legal_actions(state, 0)
    state = send(state, 0, {"type": "put_on", "card": "gas_hood#1"})
    assert state.stalkers[0]["worn"] == ["gas_hood#1"]


def test_dropping_at_any_time_finds_leave_the_game():
    """Zona §"UPUSZCZANIE PRZEDMIOTÓW": to its discard pile; a find to the box."""
    state = _bare()
    state = put(state, "lab_notes#f1", "small:0")
    state = put(state, "rusty_pipe#1", "backpack:0")
    state = send(state, 0, {"type": "drop", "card": "lab_notes#f1"})
    state = send(state, 0, {"type": "drop", "card": "rusty_pipe#1"})
    assert "lab_notes#f1" in state.box and "rusty_pipe#1" in state.discards["junk"]
    assert state.turn["actions"] == 0  # dropping is no action


def test_sixth_slot_passive_and_lost():
    """Zona §"6. MIEJSCE": a worn frame pack gives a 6th slot; losing it moves the 6th item into the
    backpack; with the backpack full the stalker drops another item to make room, or the 6th one."""
    state = _bare()
    state = put(state, "frame_pack#1", "worn:0")
    for card in ("rusty_pipe#1", "rusty_pipe#2", "torn_map#1", "scope_rifle#1", "scope_rifle#2", "anomaly_probe#1"):
        state = _gain(state, card)
    assert state.stalkers[0]["sixth"] == ["anomaly_probe#1"]
    lost = send(state, 0, {"type": "drop", "card": "frame_pack#1"})
    assert lost.pending["kind"] == "sixth_lost"
    kept = choose(lost, {"type": "drop", "card": "torn_map#1"})
    assert kept.stalkers[0]["sixth"] == [] and "anomaly_probe#1" in kept.stalkers[0]["backpack"]
    gone = choose(lost, {"type": "drop", "card": "anomaly_probe#1"})
    assert gone.stalkers[0]["sixth"] == [] and "anomaly_probe#1" in gone.discards["equipment"]


def test_use_wear_single_consumable_durable_and_refresh():
    """Zona §"UŻYWANIE I USZKADZANIE PRZEDMIOTÓW": single-use discarded, a consumable discarded when its
    last box fills, a durable deactivated until the refresh at the end of the news phase."""
    state = _bare()
    for card in ("lucky_bolt#1", "medkit#1", "scope_rifle#1"):
        state = put(state, card, "small:0" if PACK.item_type(card).small else "backpack:0")
    res = ZonaResolution(state, Rng("u"))
    items.use(res, 0, "lucky_bolt#1", "test")
    assert "lucky_bolt#1" in res.state.discards["junk"]
    items.use(res, 0, "medkit#1", "heal")
    assert res.state.wear["medkit#1"] == 1 and "medkit#1" in res.state.stalkers[0]["small"]
    items.use(res, 0, "medkit#1", "heal")
    assert "medkit#1" in res.state.discards["equipment"] and "medkit#1" not in res.state.wear
    items.use(res, 0, "scope_rifle#1", "test")
    assert not items.works(PACK, res.state, res.state.stalkers[0], "scope_rifle#1")
    from domain.zona import news

    res.push("news", step="voice", emitted=False, card=None)
    news.step_news(res, res.frame)
    assert "scope_rifle#1" not in res.state.deactivated


def test_damage_an_item_spares_durables():
    """Zona §"USZKADZANIE": a token on the item; durable items cannot be damaged."""
    state = _bare()
    state = put(state, "scope_rifle#1", "backpack:0")
    state = put(state, "kevlar_vest#1", "backpack:0")
    state = resolve(state, 0, [{"damage_item": 1}])
    assert state.wear == {"kevlar_vest#1": 1}


def test_crowbar_branch_damages_the_crowbar_without_its_own_effect():
    """Zona §"ŁOM": the category branch puts a token on the crowbar and gives the branch."""
    state = _bare()
    state = put(state, "rusty_pipe#1", "backpack:0")
    state = put(state, "scope_rifle#1", "deck:equipment")
    state = resolve(state, 0, [{"category": {"name": "crowbar", "effects": [{"take": {"deck": "equipment"}}]}}])
    state = choose(state, {"type": "use_category", "card": "rusty_pipe#1"})
    assert state.wear["rusty_pipe#1"] == 1 and "scope_rifle#1" in state.stalkers[0]["backpack"]
    none = resolve(_bare(), 0, [{"category": {"name": "crowbar", "effects": [{"roubles": 500}]}}])
    assert none.pending is None


def test_take_an_item_is_the_top_card():
    """Zona §"NAGRODY": the top card of that deck."""
    state = _bare()
    top = state.decks["junk"][0]
    state = resolve(state, 0, [{"take": {"deck": "junk"}}])
    assert top in items_of(state, 0)


def items_of(state, seat):
    s = state.stalkers[seat]
    return s["backpack"] + s["worn"] + s["small"] + s["sixth"]


def test_artifacts_are_items_used_like_others():
    """Zona §"ARTEFAKTY": an artifact in the backpack, used in a test, worn by its durability."""
    state = _bare()
    state = put(state, "glowstone#1", "backpack:0")
    assert PACK.item_type("glowstone#1").artifact and PACK.item_type("echo_stone#f1").artifact
    res = ZonaResolution(state, Rng("a"))
    items.use(res, 0, "glowstone#1", "test")
    assert "glowstone#1" in res.state.deactivated


def test_emanation_counts_every_artifact_and_forbids_what_cannot_be_paid():
    """Zona §"ODDZIAŁYWANIE": +1 fatigue per artifact owned, the one used included; unusable if it would
    pass fatigue 5, injure, or need a trophy the stalker lacks; a suit can cancel it."""
    state = _bare(fatigue=1)
    state = put(state, "glowstone#1", "backpack:0")
    state = put(state, "glowstone#2", "backpack:0")
    res = ZonaResolution(state, Rng("e"))
    items.use(res, 0, "glowstone#1", "test")
    assert res.state.stalkers[0]["fatigue"] == 3
    tired = with_stalker(state, 0, fatigue=4)
    assert not items.emanation_allowed(PACK, tired, tired.stalkers[0], "glowstone#1")
    pearl = put(_bare(), "quiet_pearl#1", "backpack:0")
    assert not items.emanation_allowed(PACK, pearl, pearl.stalkers[0], "quiet_pearl#1")
    pearl = put(pearl, "gm_rat#1", "trophies:0")
    assert items.emanation_allowed(PACK, pearl, pearl.stalkers[0], "quiet_pearl#1")
    suited = put(tired, "hazmat_suit#1", "worn:0")
    assert items.shields(PACK, suited, suited.stalkers[0], "glowstone#1") == ["hazmat_suit#1"]


def test_item_card_clarifications_unrepairable_and_free_use():
    """Zona §"OBJAŚNIENIE KART PRZEDMIOTÓW": some cards never lose tokens; using a heal item on one's
    turn is not an action."""
    state = _bare(damage=2)
    state = put(state, "quiet_pearl#1", "backpack:0")
    state = put(state, "medkit#1", "small:0")
    state.wear["quiet_pearl#1"] = 1
    res = ZonaResolution(state, Rng("r"))
    from domain.zona import market

    assert market.repairable(res, 0) == []
    state = send(state, 0, {"type": "use_item", "card": "medkit#1"})
    assert state.stalkers[0]["damage"] == 1 and state.turn["actions"] == 0


def test_market_columns_by_reputation_and_slide_after_a_purchase():
    """Zona §"TARGOWISKO": columns 1-2 anyone, 3 good or neutral, 4 good only; after a turn with a
    purchase the row slides left and fills from the right."""
    from domain.zona.market import columns_open

    assert (columns_open("bad"), columns_open("neutral"), columns_open("good")) == (2, 3, 4)
    state = _bare(area="hamlet", roubles=5000, reputation="bad")
    state = send(state, 0, {"type": "area_action"})
    while state.pending["kind"] != "trade" or {"type": "rest"} in state.pending["choices"]:
        state = choose(state, state.pending["choices"][-1])
    buys = {(c["row"], c["slot"]) for c in state.pending["choices"] if c["type"] == "buy"}
    assert {slot for _, slot in buys} == {0, 1}
    row = list(state.market["junk"])
    state = choose(state, {"type": "buy", "row": "junk", "slot": 0})
    while state.pending and state.pending["kind"] != "trade":
        state = choose(state, state.pending["choices"][0])
    sells = {c["thing"] for c in state.pending["choices"] if c["type"] == "sell"}
    assert row[0] not in sells  # bought this turn: not sold back the same turn
    state = choose(state, {"type": "done"})
    state = send(state, 0, {"type": "pass"}) if state.turn and state.turn["seat"] == 0 else state
    assert state.market["junk"][:3] == row[1:]
    assert state.market["junk"][3] not in row


def test_a_purchase_in_the_event_phase_slides_and_refills_the_market_when_the_card_is_done():
    """Zona §"TARGOWISKO": "if the player bought at least 1 item in their turn, at the end of the turn" the
    row slides left and fills from the right, in every phase: a card that opens the market in the event
    phase refills it when that stalker's card is done, before the next stalker reads."""
    from tests.domain.zona.fixtures import events_of

    state = _bare(area="milltown", roubles=5000, reputation="good", fatigue=1)
    state = with_stalker(state, 1, area="hayfields")
    state = put(state, "y_caravan", "deck:yellow")
    state = send(state, 0, {"type": "pass"})
    state = send(state, 1, {"type": "pass"})
    assert state.phase == "event" and state.pending["kind"] == "trade"
    row = list(state.market["junk"])
    state = choose(state, {"type": "buy", "row": "junk", "slot": 0})
    while state.pending["kind"] != "trade":
        state = choose(state, state.pending["choices"][0])
    events, state = events_of(state, 0, {"type": "done"})
    kinds = [e.type for e in events]
    assert "MarketSlid" in kinds and "MarketFilled" in kinds, kinds
    read = next(i for i, e in enumerate(events) if e.type == "EventCardDrawn" and e.data["seat"] == 1)
    assert kinds.index("MarketFilled") < read, "the market waits for a later action phase"
    after = [e.data for e in events[:read] if e.type in ("MarketSlid", "MarketFilled")]
    assert [d["thing"] for d in after if d["target"].startswith("market:junk")][:3] == row[1:]


def test_camping_rests_by_willpower_then_heal_repair_sell_buy():
    """Zona §"OBOZOWANIE": fatigue down by willpower, heal 1 for 200, repair 1 for 100, sell at value."""
    state = _bare(character="orest", area="waystation", fatigue=5, damage=2, roubles=1000, reputation="neutral")
    state = put(state, "kevlar_vest#1", "backpack:0")
    state.wear["kevlar_vest#1"] = 2
    state = send(state, 0, {"type": "area_action"})
    state = choose(state, {"type": "rest"})
    # The inn's own −1, then willpower 4 and Orest's camp ability 1: 5 - 1 - 5 = 0.
    assert state.stalkers[0]["fatigue"] == 0
    state = choose(state, {"type": "heal"})
    assert state.stalkers[0]["damage"] == 1 and state.stalkers[0]["roubles"] == 800
    state = choose(state, {"type": "repair", "card": "kevlar_vest#1"})
    assert state.wear["kevlar_vest#1"] == 1 and state.stalkers[0]["roubles"] == 700
    state = choose(state, {"type": "sell", "thing": "kevlar_vest#1"})
    assert state.stalkers[0]["roubles"] == 700 + 500 - 100


def test_abilities_of_their_own_mending_in_camp_and_haggling_over_sales():
    """Zona §"ZDOLNOŚĆ": each stalker's ability is unique. Beside the rerolls, protections and the deacon's
    rest: the field medic heals 1 damage free when she rests in camp (§"OBOZOWANIE"), and the smuggler
    sells everything, trophies too, for 100 roubles more (§"OBOZOWANIE", §"AKCJE OBSZARÓW")."""
    medic = _bare(character="nadia", area="waystation", fatigue=3, damage=2, roubles=0, reputation="neutral")
    medic = choose(send(medic, 0, {"type": "area_action"}), {"type": "rest"})
    assert medic.stalkers[0]["damage"] == 1 and medic.stalkers[0]["roubles"] == 0
    plain = _bare(character="orest", area="waystation", fatigue=3, damage=2, roubles=0, reputation="neutral")
    plain = choose(send(plain, 0, {"type": "area_action"}), {"type": "rest"})
    assert plain.stalkers[0]["damage"] == 2
    smuggler = _bare(character="lev", area="waystation", roubles=0, reputation="neutral")
    smuggler = put(put(smuggler, "kevlar_vest#1", "backpack:0"), "gm_rat#1", "trophies:0")
    smuggler = choose(send(smuggler, 0, {"type": "area_action"}), {"type": "rest"})
    smuggler = choose(smuggler, {"type": "sell", "thing": "kevlar_vest#1"})
    assert smuggler.stalkers[0]["roubles"] == 500 + 100
    smuggler = choose(smuggler, {"type": "sell", "thing": "gm_rat#1"})
    assert smuggler.stalkers[0]["roubles"] == 600 + PACK.threat("gm_rat#1").loot["trophy"] + 100


def test_camping_is_once_a_turn():
    """Zona §"OBOZOWANIE": camping is the bunker's action, so at most once a turn."""
    state = _bare(area="hamlet")
    state = send(state, 0, {"type": "area_action"})
    while state.pending:
        state = choose(state, state.pending["choices"][-1])
    with pytest.raises(RuleViolation):
        send(state, 0, {"type": "area_action"})


def test_wearing_a_gained_outfit_over_the_6th_slot_source_asks_what_to_drop():
    """Zona §"6. MIEJSCE" / §"STRÓJ": a new back outfit worn at once sends the sling bag (the 6th-slot
    source) to the pack; with the pack full, the stalker chooses what to drop, and the gain is done."""
    state = _bare()
    state = put(state, "sling_bag@mila", "worn:0")
    for card in ("rusty_pipe#1", "rusty_pipe#2", "torn_map#1", "scope_rifle#1"):
        state = _gain(state, card)
    state = _gain(state, "anomaly_probe#1")  # fifth backpack slot
    state = _gain(state, "anomaly_probe#2")  # the 6th slot
    assert state.stalkers[0]["sixth"] == ["anomaly_probe#2"]
    state = _gain(state, "lead_cape#f1")  # back: the same body part as the sling bag
    assert {"type": "wear"} not in state.pending["choices"]  # the bag needs a place first
    state = choose(state, {"type": "drop", "card": "torn_map#1"})
    state = choose(state, {"type": "wear"})
    assert state.stalkers[0]["worn"] == ["lead_cape#f1"]
    assert state.pending["kind"] == "sixth_lost"
    state = choose(state, {"type": "drop", "card": "rusty_pipe#1"})
    s = state.stalkers[0]
    assert len(s["backpack"]) == 5 and s["sixth"] == [] and state.pending is None
    assert not [f for f in state.frames if f["kind"] == "gain"]


def test_owning_a_crowbar_is_enough_where_nothing_is_used():
    """Zona §"ŁOM" (with KATEGORIA): an effect keyed to owning an item of a category (the mill town's
    bonus) applies without using or damaging it."""
    state = _bare(area="milltown", fatigue=0, roubles=0)
    state = put(state, "rusty_pipe#1", "backpack:0")
    state = send(state, 0, {"type": "area_action"})
    assert state.stalkers[0]["roubles"] == 500 and state.wear.get("rusty_pipe#1") is None
    without = send(_bare(area="milltown", fatigue=0, roubles=0), 0, {"type": "area_action"})
    assert without.stalkers[0]["roubles"] == 400


def test_an_artifact_usable_past_the_maximum_costs_damage():
    """Zona §"OBJAŚNIENIE KART PRZEDMIOTÓW": an artifact marked usable at maximum fatigue may be used at 5;
    each point past it is a damage no protection stops."""
    state = _bare(fatigue=5, damage=0)
    state = put(state, "root_log#1", "backpack:0")
    assert items.emanation_allowed(PACK, state, state.stalkers[0], "root_log#1")
    res = ZonaResolution(state, Rng("log"))
    items.use(res, 0, "root_log#1", "test")
    from domain.zona import flow

    flow.run(res)
    assert res.state.stalkers[0]["fatigue"] == 5 and res.state.stalkers[0]["damage"] == 2


def test_cards_used_in_a_named_place_are_no_action():
    """Zona §"OBJAŚNIENIE KART PRZEDMIOTÓW": a card used in the action phase in the area it names (or
    anywhere, for a repair kit), before or after an action, is not an action."""
    state = _bare(area="outpost")
    state = put(state, "ration_coupons#1", "small:0")
    state = put(state, "field_kit#1", "backpack:0")
    state = put(state, "kevlar_vest#1", "backpack:0")
    state.wear["kevlar_vest#1"] = 2
    assert {"type": "use_item", "card": "ration_coupons#1"} not in ZONA.legal_actions(state, 0)
    at_barracks = with_stalker(state, 0, area="barracks", roubles=0)
    at_barracks = send(at_barracks, 0, {"type": "use_item", "card": "ration_coupons#1"})
    assert at_barracks.stalkers[0]["roubles"] == 300 and at_barracks.turn["actions"] == 0
    kit = send(state, 0, {"type": "use_item", "card": "field_kit#1"})
    kit = choose(choose(kit, {"type": "repair", "card": "kevlar_vest#1"}), {"type": "repair", "card": "kevlar_vest#1"})
    assert kit.wear["kevlar_vest#1"] == 0 and kit.wear["field_kit#1"] == 1 and kit.turn["actions"] == 0
