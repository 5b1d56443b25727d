"""The board, the round and the actions of a turn."""

from __future__ import annotations

import pytest

from domain.game import RuleViolation
from domain.zona.actions import destinations
from domain.zona.board import board_for
from tests.domain.zona.fixtures import (
    PACK,
    accept_tests,
    choose,
    clear_threats,
    edit,
    new_game,
    put,
    send,
    with_stalker,
)


def test_areas_are_adjacent_across_a_shared_border():
    """Zona §"OBSZAR": adjacency is a shared border that is not a solid line."""
    board = board_for("test", "large")
    assert board.adjacent("hayfields", "quarrypit") and board.adjacent("quarrypit", "hayfields")
    assert not board.adjacent("hayfields", "glasslake")


def test_normal_borders_are_crossed_by_a_move():
    """Zona §"GRANICE": a move crosses a normal border into the adjacent area."""
    state = clear_threats(new_game(2, characters=["mila", "vera"]))
    state = with_stalker(state, 0, area="quarrypit")
    assert set(destinations(state, 0)) >= {"hayfields", "reedmarsh", "fieldlab", "rustwood"}
    state = send(state, 0, {"type": "move", "to": "reedmarsh"})
    assert state.stalkers[0]["area"] == "reedmarsh"


def test_sectors_green_yellow_red():
    """Zona §"SEKTORY PLANSZY": every open area is green, yellow or red; bunkers belong to none."""
    sectors = {a.sector for a in PACK.areas.values()}
    assert {"green", "yellow", "red"} <= sectors
    assert PACK.areas["fieldlab"].sector == "bunker" and not PACK.areas["fieldlab"].open_ground


def test_open_ground_is_green_yellow_and_red_only():
    """Zona §"OTWARTA PRZESTRZEŃ": bunkers, facilities and the sarcophagus are not open ground."""
    open_ = {a.id for a in PACK.areas.values() if a.open_ground}
    assert "ghosttown" in open_ and "hayfields" in open_
    assert not open_ & {"fieldlab", "greenhouse", "core"}


def test_bunkers_never_hold_threats():
    """Zona §"BUNKRY": no threat token is ever placed in a bunker."""
    from domain.rng import Rng
    from domain.zona import encounter
    from domain.zona.resolution import ZonaResolution

    res = ZonaResolution(new_game(2), Rng("b"))
    before = list(res.state.dispenser["green_mutant"])
    encounter.place(res, "mutant", "green", "hamlet")
    assert res.state.threats.get("hamlet", []) == []
    assert res.state.dispenser["green_mutant"] == before


def test_blockades_cut_the_small_side_only():
    """Zona §"BLOKADA": the outpost-barracks line is solid on the 1-2 player side."""
    assert not board_for("test", "small").adjacent("outpost", "barracks")
    assert board_for("test", "large").adjacent("outpost", "barracks")


def test_power_plant_border_is_never_crossed_by_a_move():
    """Zona §"GRANICA OBSZARU ELEKTROWNI": the power plant only by the red areas' actions."""
    state = clear_threats(new_game(2, characters=["mila", "vera"]))
    state = with_stalker(state, 0, area="ghosttown")
    assert "reactoryard" not in destinations(state, 0)
    with pytest.raises(RuleViolation):
        send(state, 0, {"type": "move", "to": "reactoryard"})


def test_shortcut_deals_one_damage_of_its_type_unless_a_map_is_used():
    """Zona §"SKRÓTY": crossing the hayfields-scrapyard shortcut deals 1 wound; a map avoids it."""
    state = clear_threats(new_game(2, characters=["mila", "vera"]))
    state = with_stalker(state, 0, area="hayfields", damage=0)
    # Mila wears no coat: the wound lands.
    after = accept_tests(send(state, 0, {"type": "move", "to": "scrapyard"}))
    assert after.stalkers[0]["damage"] == 1
    state = put(state, "torn_map#1", "backpack:0")
    assert {"type": "move", "to": "scrapyard", "map": "torn_map#1"} in __import__(
        "domain.zona.game", fromlist=["ZONA"]).ZONA.legal_actions(state, 0)
    after = send(state, 0, {"type": "move", "to": "scrapyard", "map": "torn_map#1"})
    assert after.stalkers[0]["damage"] == 0
    assert "torn_map#1" in after.deactivated


def test_facilities_are_entered_through_their_entrances_once_open():
    """Zona §"TAJNE OBIEKTY": the dashed border is the way in, and only when the facility is open."""
    state = clear_threats(new_game(2, characters=["mila", "vera"]))
    state = with_stalker(state, 0, area="quarrypit")
    assert "greenhouse" not in destinations(state, 0)
    state.locks["greenhouse"]["open"] = True
    assert "greenhouse" in destinations(state, 0)
    state = with_stalker(state, 0, area="hayfields")
    assert "greenhouse" not in destinations(state, 0)


def test_round_runs_action_event_news_and_the_voice_passes_left():
    """Zona §"PRZEBIEG ROZGRYWKI": actions from the Voice in turn order, then events, then news;
    the marker goes to the left; a new round starts with the new Voice."""
    state = clear_threats(new_game(3, characters=["mila", "vera", "bogdan"], first_voice=1))
    assert state.phase == "action" and state.turn["seat"] == 1
    state = send(state, 1, {"type": "pass"})
    assert state.turn["seat"] == 2
    state = send(state, 2, {"type": "pass"})
    assert state.turn["seat"] == 0
    round_ = state.round
    state = send(state, 0, {"type": "pass"})
    from tests.domain.zona.fixtures import answer_all

    state = answer_all(state)
    assert state.round == round_ + 1 and state.voice == 2
    assert state.turn["seat"] == 2


def test_up_to_two_actions_a_turn_and_the_same_action_twice():
    """Zona §"AKCJE": two actions each; the same type may be taken twice."""
    state = clear_threats(new_game(2, characters=["mila", "vera"]))
    state = with_stalker(state, 0, fatigue=3)
    state = send(state, 0, {"type": "rest"})
    assert state.turn["seat"] == 0 and state.turn["actions"] == 1
    state = send(state, 0, {"type": "rest"})
    assert state.stalkers[0]["fatigue"] == 1
    assert state.turn["seat"] == 1


def test_rest_lowers_fatigue_by_one():
    """Zona §"ODPOCZYNEK": −1 fatigue."""
    state = with_stalker(new_game(2), 0, fatigue=4)
    assert send(state, 0, {"type": "rest"}).stalkers[0]["fatigue"] == 3


def test_pass_as_first_action_ends_the_turn():
    """Zona §"PAS": passing first means no second action."""
    state = new_game(2)
    state = send(state, 0, {"type": "pass"})
    assert state.turn["seat"] == 1


def test_moving_into_a_threat_starts_an_encounter():
    """Zona §"RUCH": a move into an area with a token resolves an encounter there."""
    state = clear_threats(new_game(2, characters=["mila", "vera"], die_faces=["plus"]))
    state = with_stalker(state, 0, area="hayfields")
    state = put(state, "gm_rat#1", "area:quarrypit")
    state = send(state, 0, {"type": "move", "to": "quarrypit"})
    assert state.in_play == ["gm_rat#1"]
    assert state.pending["kind"] == "test_options"  # detection first


def test_voice_chooses_which_threat_is_met_on_arrival():
    """Zona §"ŻETONY ZAGROŻEŃ NA PLANSZY": with several tokens the Voice's seat chooses; no
    encounter for a stalker who starts the turn there."""
    state = clear_threats(new_game(2, characters=["mila", "vera"], first_voice=1))
    state = send(state, 1, {"type": "pass"})
    state = with_stalker(state, 0, area="hayfields")
    state = put(state, "gm_rat#1", "area:quarrypit")
    state = put(state, "ga_fizz#1", "area:quarrypit")
    state = send(state, 0, {"type": "move", "to": "quarrypit"})
    assert state.pending["kind"] == "threat_met" and state.pending["seat"] == 1
    state = choose(state, {"type": "meet", "token": "ga_fizz#1"})
    assert state.in_play == ["ga_fizz#1"] and state.threats["quarrypit"] == ["gm_rat#1"]


def test_search_meets_a_chosen_threat_in_the_own_area():
    """Zona §"POSZUKIWANIE": an encounter with a token of the stalker's choice, without moving."""
    state = clear_threats(new_game(2, characters=["mila", "vera"], die_faces=["plus"]))
    state = with_stalker(state, 0, area="quarrypit")
    state = put(state, "gm_rat#1", "area:quarrypit")
    state = put(state, "gm_dog#1", "area:quarrypit")
    state = send(state, 0, {"type": "search", "token": "gm_dog#1"})
    assert state.in_play == ["gm_dog#1"]


def test_area_action_once_a_turn_and_not_blocked_by_threats():
    """Zona §"WYKONYWANIE AKCJI OBSZARÓW": the action of the area occupied, once per turn, threats or not."""
    state = clear_threats(new_game(2, characters=["mila", "vera"]))
    state = with_stalker(state, 0, area="milltown", fatigue=0)
    state = put(state, "ym_brute#1", "area:milltown")
    roubles = state.stalkers[0]["roubles"]
    state = send(state, 0, {"type": "area_action"})
    assert state.stalkers[0]["roubles"] == roubles + 400 and state.stalkers[0]["fatigue"] == 2
    with pytest.raises(RuleViolation) as err:
        send(state, 0, {"type": "area_action"})
    assert err.value.rule == 'Zona §"WYKONYWANIE AKCJI OBSZARÓW"'


def test_area_actions_of_each_kind():
    """Zona §"AKCJE OBSZARÓW": the HQ-like barracks worsens reputation for equipment, refused
    with a bad one; the scrapyard hurts then gives 2 of 3 junk; the waystation rests 1."""
    state = clear_threats(new_game(2, characters=["mila", "bogdan"]))
    state = with_stalker(state, 0, area="barracks", reputation="neutral")
    state = put(state, "scope_rifle#1", "deck:equipment")
    after = send(state, 0, {"type": "area_action"})
    assert after.stalkers[0]["reputation"] == "bad"
    assert "scope_rifle#1" in after.stalkers[0]["backpack"]
    bad = with_stalker(state, 0, reputation="bad")
    with pytest.raises(RuleViolation):
        send(bad, 0, {"type": "area_action"})
    scrap = with_stalker(state, 0, area="scrapyard", damage=0)
    scrap = accept_tests(send(scrap, 0, {"type": "area_action"}))
    assert scrap.stalkers[0]["damage"] == 2
    assert scrap.pending["kind"] == "keep" and len(scrap.hand) == 3
    scrap = choose(scrap, scrap.pending["choices"][0])
    from tests.domain.zona.fixtures import answer_all

    scrap = answer_all(scrap)
    junk = [c for c in scrap.stalkers[0]["backpack"] + scrap.stalkers[0]["small"]
            if PACK.item_type(c).kind == "junk"]
    assert len(junk) == 2
    inn = with_stalker(state, 0, area="waystation", fatigue=3)
    inn = send(inn, 0, {"type": "area_action"})
    assert inn.pending["kind"] == "trade"  # camping follows the inn's own effect
    assert inn.stalkers[0]["fatigue"] == 2


def test_red_area_action_leads_to_the_power_plant_only_with_two_secrets():
    """Zona §"SARKOFAG": the sarcophagus via the power plant's action, the power plant via a red area's."""
    state = clear_threats(new_game(2, characters=["mila", "vera"], die_faces=["plus"]))
    state = with_stalker(state, 0, area="ghosttown", damage=0, secrets=["f_gh1", "f_ss1"])
    state = accept_tests(send(state, 0, {"type": "area_action"}))
    state = accept_tests(state)
    assert state.stalkers[0]["area"] == "reactoryard"
    no_secret = with_stalker(edit(state), 0, area="ghosttown", damage=0, secrets=["f_gh1"])
    no_secret = edit(no_secret, turn={"seat": 0, "actions": 0, "area_action": False, "bought": [], "done": False})
    no_secret = accept_tests(send(no_secret, 0, {"type": "area_action"}))
    assert no_secret.stalkers[0]["area"] == "ghosttown"
    at_plant = with_stalker(edit(state), 0, area="reactoryard")
    at_plant = edit(at_plant, turn={"seat": 0, "actions": 0, "area_action": False, "bought": [], "done": False})
    at_plant = accept_tests(send(at_plant, 0, {"type": "area_action"}))
    assert at_plant.stalkers[0]["area"] == "core"
    assert destinations(at_plant, 0) == []
