"""Threats and the four steps of an encounter."""

from __future__ import annotations

from domain.rng import Rng
from domain.zona import encounter, flow
from domain.zona.resolution import ZonaResolution
from tests.domain.zona.fixtures import (
    PACK,
    accept_tests,
    choose,
    clear_threats,
    edit,
    new_game,
    put,
    strip,
    with_stalker,
)


def _bare(faces, character="mila", area="quarrypit", **fields):
    state = new_game(1, characters=[character], die_faces=faces)
    state = strip(state, 0)
    state = clear_threats(state)
    return with_stalker(state, 0, area=area, fatigue=5, **fields)  # fatigue 5: no forcing offered


def _meet(state, token, no_flee=False):
    state = put(state, token, "in_play")
    res = ZonaResolution(state, Rng("enc"))
    encounter.start(res, 0, token, no_flee)
    flow.run(res)
    return res.state


def test_threat_tokens_show_detection_confrontation_damage_and_loot():
    """Zona §"MUTANTY I ANOMALIE": anomalies are met with intellect or willpower, mutants with
    agility or willpower; each token names detection, confrontation, damage and loot."""
    for threat in PACK.threats.values():
        allowed = ("intellect", "willpower") if threat.kind == "anomaly" else ("agility", "willpower")
        assert threat.attribute in allowed and threat.detect > 0 and threat.damage
    assert PACK.threats["gm_rat"].loot == {"trophy": 100}


def test_detection_failed_hurts_then_the_stalker_may_flee():
    """Zona §"2. WYKRYCIE": a failed alertness test deals the token's damage; whatever the result
    the stalker may flee, and the token stays in the area."""
    state = _bare(["minus"], damage=0)  # alertness 4 - 3 = 1 < 2
    state = accept_tests(_meet(state, "gm_rat#1"))
    assert state.stalkers[0]["damage"] == 1
    assert state.pending["kind"] == "flee"
    state = choose(state, {"type": "flee"})
    assert state.threats["quarrypit"] == ["gm_rat#1"] and state.in_play == []


def test_confrontation_won_defeats_and_loses_hurts():
    """Zona §"3. KONFRONTACJA": pass defeats the threat; fail deals its damage and leaves it here."""
    won = _bare(["plus"], damage=0)
    won = accept_tests(_meet(won, "gm_rat#1"))
    won = accept_tests(choose(won, {"type": "confront"}))
    assert won.stalkers[0]["trophies"] == ["gm_rat#1"] and won.stalkers[0]["damage"] == 0
    lost = _bare(["blank"], character="orest", damage=0)  # alertness 2 passes 2; agility 1 fails 2
    lost = accept_tests(_meet(lost, "gm_rat#1"))
    lost = accept_tests(choose(lost, {"type": "confront"}))
    assert lost.stalkers[0]["damage"] == 1
    assert lost.threats["quarrypit"] == ["gm_rat#1"]


def test_loot_trophy_artifact_or_nothing():
    """Zona §"4. ŁUP": a mutant is kept as a trophy; an anomaly gives its artifact and goes back
    on top of its dispenser queue; "none" gives nothing."""
    state = _bare(["plus"], character="yuri", area="reedmarsh")
    state = put(state, "glowstone#1", "deck:green_artifact")
    state = accept_tests(_meet(state, "ga_fizz#1", no_flee=True))
    assert "glowstone#1" in state.stalkers[0]["backpack"]
    assert state.dispenser["green_anomaly"][-1] == "ga_fizz#1"
    two = _bare(["plus"], character="yuri", area="glasslake")
    two = accept_tests(_meet(two, "ya_vortex#1", no_flee=True))
    assert len([c for c in two.stalkers[0]["backpack"] if PACK.item_type(c).colour == "yellow"]) == 2
    bare = _bare(["plus"], character="yuri", area="reedmarsh")
    bare = accept_tests(_meet(bare, "ga_haze#1", no_flee=True))
    assert bare.stalkers[0]["backpack"] == [] and bare.dispenser["green_anomaly"][-1] == "ga_haze#1"


def test_threat_ability_is_read_first_trophy_lowers_and_spawn():
    """Zona §"1. ZDOLNOŚĆ ZAGROŻENIA": the ability changes the encounter: a brute's confrontation
    is 2 lower for a discarded trophy; a swarm beaten brings another token into the area."""
    state = _bare(["blank"], character="bogdan", area="range")  # agility 4 vs 5
    state = put(state, "gm_rat#1", "trophies:0")
    state = accept_tests(_meet(state, "ym_brute#1", no_flee=True))
    assert state.pending["kind"] == "trophy"
    state = accept_tests(choose(state, {"type": "discard_trophy", "token": "gm_rat#1"}))
    assert state.stalkers[0]["trophies"] == ["ym_brute#1"]  # 4 vs 5 - 2: defeated
    swarm = _bare(["plus"], character="orest")
    swarm = accept_tests(_meet(swarm, "gm_swarm#1", no_flee=True))
    assert len(swarm.threats["quarrypit"]) == 1


def test_undefeated_threats_in_facilities_are_discarded():
    """Zona §"ŻETONY ZAGROŻEŃ W TAJNYCH OBIEKTACH": never left in a facility."""
    state = _bare(["minus"], character="orest", area="greenhouse", damage=0)
    state = accept_tests(_meet(state, "gm_rat#1"))
    state = accept_tests(choose(state, {"type": "flee"}))
    assert state.threats.get("greenhouse", []) == []
    assert state.dispenser["green_mutant"][-1] == "gm_rat#1"


def test_moscow_eye_like_action_allows_no_flight():
    """Zona §"AKCJE OBSZARÓW": the red areas' encounter has no flight after detection."""
    state = _bare(["blank"], character="orest", area="ironeye", damage=0)
    state = edit(state, turn={"seat": 0, "actions": 0, "area_action": False, "bought": [], "done": False})
    from tests.domain.zona.fixtures import events_of

    events, state = events_of(state, 0, {"type": "area_action"})
    while state.pending is not None:
        assert state.pending["kind"] != "flee"
        kind = state.pending["kind"]
        more, state = events_of(state, 0, {"type": "accept"} if kind == "test_options" else state.pending["choices"][-1])
        events += more
    tests = [e.data["attribute"] for e in events if e.type == "TestResolved"]
    token = next(e.data["thing"] for e in events if e.type == "ThreatDrawn")
    # Detection, then straight to the confrontation.
    assert tests[:2] == ["alertness", PACK.threat(token).attribute]


def test_item_patterns_confrontation_only_and_skipping_an_encounter():
    """Zona §"OBJAŚNIENIE KART PRZEDMIOTÓW": a confrontation-only artifact is offered in the confrontation
    test, not in detection; a find that skips a mutant encounter sets the token aside undefeated."""
    state = _bare(["blank"], character="zoya", area="range", damage=0)
    state = with_stalker(state, 0, fatigue=0)
    state = put(state, "slag_heart#1", "backpack:0")
    state = _meet(state, "ym_pack#1")
    assert state.frames[-1]["stage"] == "detect"
    assert {"type": "use_item", "card": "slag_heart#1"} not in state.pending["choices"]
    state = accept_tests(state)
    state = choose(state, {"type": "confront"})
    assert state.frames[-1]["stage"] == "confront"
    assert {"type": "use_item", "card": "slag_heart#1"} in state.pending["choices"]
    musk = _bare(["blank"], area="range", damage=0)
    musk = put(musk, "giant_musk#f1", "small:0")
    musk = _meet(musk, "ym_pack#1")
    assert musk.pending["kind"] == "skip_encounter"
    musk = choose(musk, {"type": "skip", "card": "giant_musk#f1"})
    s = musk.stalkers[0]
    assert musk.dispenser["yellow_mutant"][-1] == "ym_pack#1" and s["trophies"] == [] and s["damage"] == 0
    assert "giant_musk#f1" in musk.box
