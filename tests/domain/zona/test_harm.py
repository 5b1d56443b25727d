"""Damage, protection, stamina, injuries, death, healing, fatigue and reputation."""

from __future__ import annotations

from domain.rng import Rng
from tests.domain.zona.fixtures import (
    PACK,
    accept_tests,
    choose,
    new_game,
    put,
    resolve,
    send,
    strip,
    with_stalker,
)


def _bare(character="mila", **fields):
    state = new_game(2, characters=[character, "vera"])
    state = strip(state, 0)
    return with_stalker(state, 0, **fields)


def test_damage_types_matter_only_for_protection():
    """Zona §"RODZAJE OBRAŻEŃ": radiation, disturbance, wound; a wound-only coat stops no radiation."""
    state = _bare(damage=0)
    state = put(state, "patched_coat@orest", "worn:0")
    hit = resolve(state, 0, [{"damage": {"radiation": 2}}])
    assert hit.pending is None and hit.stalkers[0]["damage"] == 2
    cut = resolve(state, 0, [{"damage": {"wound": 2}}])
    assert cut.pending["kind"] == "protect"


def test_each_protection_symbol_prevents_one_damage_of_its_type():
    """Zona §"OCHRONA PRZED OBRAŻENIAMI": a worn vest with two wound symbols stops 2 wounds and takes a token."""
    state = _bare(damage=0)
    state = put(state, "kevlar_vest#1", "worn:0")
    state = resolve(state, 0, [{"damage": {"wound": 3, "radiation": 1}}])
    state = choose(state, {"type": "protect", "card": "kevlar_vest#1"})
    assert state.stalkers[0]["damage"] == 2  # 1 wound + 1 radiation
    assert state.wear["kevlar_vest#1"] == 1


def test_carried_outfit_does_not_protect():
    """Zona §"STRÓJ": an outfit works only while worn."""
    state = _bare(damage=0)
    state = put(state, "kevlar_vest#1", "backpack:0")
    state = resolve(state, 0, [{"damage": {"wound": 2}}])
    assert state.pending is None and state.stalkers[0]["damage"] == 2


def test_damage_fills_the_first_free_boxes():
    """Zona §"OTRZYMYWANIE OBRAŻEŃ": one damage, one box."""
    state = resolve(_bare(damage=1), 0, [{"damage": {"disturbance": 2}}])
    assert state.stalkers[0]["damage"] == 3


def test_stamina_overflow_becomes_one_injury():
    """Zona §"WYTRZYMAŁOŚĆ": past the last box the excess is discarded and one injury taken."""
    stamina = PACK.stalkers["mila"].stamina
    state = resolve(_bare(damage=stamina - 1), 0, [{"damage": {"radiation": 3}}])
    assert state.stalkers[0]["damage"] == stamina
    assert state.pending["kind"] == "injury"


def test_injuries_one_per_attribute_and_the_chosen_one_is_lowered():
    """Zona §"URAZY": the player picks an attribute without an injury."""
    stamina = PACK.stalkers["mila"].stamina
    state = resolve(_bare(damage=stamina, injuries=["agility"]), 0, [{"damage": {"wound": 1}}])
    offered = {c["attribute"] for c in state.pending["choices"]}
    assert offered == {"alertness", "intellect", "willpower"}
    state = choose(state, {"type": "injure", "attribute": "willpower"})
    assert state.stalkers[0]["injuries"] == ["agility", "willpower"]


def test_healing_removes_damage_tokens():
    """Zona §"LECZENIE": heal N takes N tokens off the track."""
    state = resolve(_bare(damage=3), 0, [{"heal": 2}])
    assert state.stalkers[0]["damage"] == 1
    state = resolve(_bare(damage=1, injuries=["agility"]), 0, [{"heal_injury": 1}])
    assert state.stalkers[0]["injuries"] == []


def test_healing_an_injury_at_the_research_camp_the_player_chooses_which_attribute_recovers():
    """Zona §"URAZY" / §"AKCJE OBSZARÓW" (Obóz naukowy): paying to "discard an injury token" lets the player
    choose which of their injuries goes; a lapsed turn heals the one taken first; one injury needs no choice."""
    from domain.zona.game import ZONA

    state = _bare(area="fieldlab", roubles=1000, damage=0, injuries=["agility", "willpower"])
    state = send(state, 0, {"type": "area_action"})
    state = choose(state, {"type": "choose", "option": 0})  # pay 800
    pending = state.pending
    assert pending["kind"] == "heal_injury" and pending["seat"] == 0
    assert pending["choices"] == [{"type": "recover", "attribute": "agility"}, {"type": "recover", "attribute": "willpower"}]
    assert ZONA.timeout_command(state, 0) == {"type": "recover", "attribute": "agility"}
    healed = choose(state, {"type": "recover", "attribute": "willpower"})
    assert healed.stalkers[0]["injuries"] == ["agility"] and healed.stalkers[0]["roubles"] == 200
    single = resolve(_bare(injuries=["intellect"]), 0, [{"heal_injury": 1}])
    assert single.pending is None and single.stalkers[0]["injuries"] == []


def test_fourth_injury_kills_and_a_new_stalker_comes_at_the_end_of_the_news_phase():
    """Zona §"ŚMIERĆ": everything discarded; a board not used yet; one of two secrets kept;
    no starting threats for the new stalker."""
    stamina = PACK.stalkers["mila"].stamina
    state = _bare(damage=stamina, injuries=["agility", "intellect", "willpower"], secrets=["f_gh1", "f_ss1"])
    state = put(state, "kevlar_vest#1", "backpack:0")
    state = put(state, "gm_rat#1", "trophies:0")
    state = resolve(state, 0, [{"damage": {"radiation": 1}}])
    dead = state.stalkers[0]
    assert dead["dead"] and dead["backpack"] == [] and dead["trophies"] == []
    assert "kevlar_vest#1" in state.discards["equipment"]
    assert state.turn["seat"] == 1  # the dead seat's turn ends at once
    state = send(state, 1, {"type": "pass"})
    while state.pending and state.pending["kind"] != "new_stalker":
        state = choose(state, state.pending["choices"][0])
    assert state.pending["kind"] == "new_stalker"
    offered = {c["character"] for c in state.pending["choices"]}
    assert not offered & {"mila", "vera"}
    keeps = {c["keep"] for c in state.pending["choices"]}
    assert keeps == {"f_gh1", "f_ss1", None}
    from tests.domain.zona.fixtures import events_of

    events, state = events_of(state, 0, {"type": "new_stalker", "character": "lev", "keep": "f_ss1"})
    assert not [e for e in events if e.type == "ThreatDrawn" and e.data["target"].startswith("area:")]
    lev = state.stalkers[0]
    assert lev["character"] == "lev" and not lev["dead"] and lev["secrets"] == ["f_ss1"]
    assert lev["area"] == PACK.stalkers["lev"].area and lev["fatigue"] == 1


def test_a_dead_stalkers_two_secrets_one_may_be_kept_or_none():
    """Zona §"ŚMIERĆ": with two secrets discovered the player "may keep 1 of them": each of the two, or
    neither, with every new board; a lapsed turn keeps the first secret; with one secret nothing is kept."""
    from domain.zona import setup
    from domain.zona.game import ZONA
    from domain.zona.resolution import ZonaResolution

    def reborn(secrets):
        state = _bare(damage=0, secrets=secrets)
        state = with_stalker(state, 0, dead=True, area=None)
        res = ZonaResolution(state, Rng("rebirth"))
        res.push("rebirth", seat=0)
        setup.step_rebirth(res, res.frame)
        return res.state

    state = reborn(["f_gh1", "f_ss1"])
    choices = state.pending["choices"]
    for character in {c["character"] for c in choices}:
        assert {c["keep"] for c in choices if c["character"] == character} == {"f_gh1", "f_ss1", None}
    assert ZONA.timeout_command(state, 0)["keep"] == "f_gh1"
    fresh = choose(state, next(c for c in choices if c["keep"] is None))
    assert fresh.stalkers[0]["secrets"] == []
    assert "f_gh1" in fresh.discards["greenhouse"] and "f_ss1" in fresh.discards["signalstation"]
    assert {c["keep"] for c in reborn(["f_gh1"]).pending["choices"]} == {None}


def test_fatigue_bounds_overflow_and_no_voluntary_overflow():
    """Zona §"ZMĘCZENIE": 0-5; each point past 5 is an unpreventable damage; no forcing at 5."""
    state = _bare(damage=0, fatigue=4)
    state = put(state, "kevlar_vest#1", "worn:0")
    state = resolve(state, 0, [{"fatigue": 3}])
    assert state.stalkers[0]["fatigue"] == 5
    assert state.pending is None and state.stalkers[0]["damage"] == 2
    low = resolve(_bare(fatigue=1), 0, [{"fatigue": -3}])
    assert low.stalkers[0]["fatigue"] == 0


def test_reputation_ladder_and_its_ends():
    """Zona §"REPUTACJA": worsen good → neutral → bad; at bad +1 fatigue; improving at good −1 fatigue."""
    state = _bare(reputation="good", fatigue=2)
    state = resolve(state, 0, [{"reputation": -1}])
    assert state.stalkers[0]["reputation"] == "neutral"
    state = resolve(state, 0, [{"reputation": -1}, {"reputation": -1}])
    assert state.stalkers[0]["reputation"] == "bad" and state.stalkers[0]["fatigue"] == 3
    good = resolve(_bare(reputation="good", fatigue=2), 0, [{"reputation": 1}])
    assert good.stalkers[0]["reputation"] == "good" and good.stalkers[0]["fatigue"] == 1
    harsh = new_game(2, characters=["mila", "vera"], worsen_at_bad="damage")
    harsh = with_stalker(harsh, 0, reputation="bad", damage=0)
    harsh = accept_tests(resolve(harsh, 0, [{"reputation": -1}]))
    assert harsh.stalkers[0]["damage"] == 1


def test_reputation_starts_from_the_board_and_shows_as_a_token():
    """Zona §"REPUTACJA" (character): good, neutral or bad from the back of the board."""
    state = new_game(2, characters=["vera", "bogdan"])
    assert [s["reputation"] for s in state.stalkers] == ["good", "bad"]


def test_damage_tokens_mark_stamina_wear_and_deactivation():
    """Zona §"ŻETONY ZNISZCZEŃ": one kind of token on the track, on worn items, on used durables."""
    state = _bare(damage=0)
    state = put(state, "kevlar_vest#1", "worn:0")
    state = put(state, "pocket_lamp@mila", "backpack:0")
    state = resolve(state, 0, [{"damage": {"wound": 3}}])
    state = choose(state, {"type": "protect", "card": "kevlar_vest#1"})
    assert state.stalkers[0]["damage"] == 1 and state.wear["kevlar_vest#1"] == 1
    from domain.rng import Rng
    from domain.zona import items
    from domain.zona.resolution import ZonaResolution

    res = ZonaResolution(state, Rng("d"))
    items.use(res, 0, "pocket_lamp@mila", "test")
    assert "pocket_lamp@mila" in res.state.deactivated


def test_each_stalker_has_an_own_ability():
    """Zona §"SZPERACZE I GŁOS ZONY" (ZDOLNOŚĆ): a unique ability on the board; Zoya's stops one wound
    once a round, and it is ready again after the news phase's refresh."""
    state = _bare(character="zoya", damage=0)
    state = resolve(state, 0, [{"damage": {"wound": 2}}])
    assert {"type": "protect", "card": "ability"} in state.pending["choices"]
    state = choose(state, {"type": "protect", "card": "ability"})
    assert state.stalkers[0]["damage"] == 1 and state.stalkers[0]["ability_used"]
    again = resolve(state, 0, [{"damage": {"wound": 1}}])
    assert again.pending is None and again.stalkers[0]["damage"] == 2
    from domain.rng import Rng
    from domain.zona import news
    from domain.zona.resolution import ZonaResolution

    res = ZonaResolution(state, Rng("refresh"))
    res.push("news", step="voice", emitted=False, card=None)
    news.step_news(res, res.frame)
    assert not res.state.stalkers[0]["ability_used"]


def test_item_patterns_immunity_type_conversion_and_maxed_fatigue():
    """Zona §"OBJAŚNIENIE KART PRZEDMIOTÓW": an immunity to mutants stops a mutant's damage but not other
    damage; a converter turns one damage into another type so a second item stops it; a reagent sets
    fatigue to the maximum, and at the maximum changes nothing and hurts nothing."""
    state = _bare(damage=0)
    state = put(state, "herd_bell#1", "backpack:0")
    from domain.rng import Rng
    from domain.zona import flow, harm
    from domain.zona.resolution import ZonaResolution

    res = ZonaResolution(state, Rng("bell"))
    harm.suffer(res, 0, {"wound": 3}, by="mutant")
    flow.run(res)
    assert res.state.pending["choices"][0] == {"type": "protect", "card": "herd_bell#1"}
    spared = choose(res.state, {"type": "protect", "card": "herd_bell#1"})
    assert spared.stalkers[0]["damage"] == 0
    plain = resolve(state, 0, [{"damage": {"wound": 1}}])
    assert plain.pending is None and plain.stalkers[0]["damage"] == 1
    mixed = put(_bare(damage=0), "turning_sponge#1", "backpack:0")
    mixed = put(mixed, "kevlar_vest#1", "worn:0")
    mixed = resolve(mixed, 0, [{"damage": {"radiation": 1, "wound": 1}}])
    mixed = choose(mixed, {"type": "convert", "card": "turning_sponge#1", "from_type": "radiation", "to_type": "wound"})
    assert mixed.frames[-1]["amounts"] == {"wound": 2}
    mixed = choose(mixed, {"type": "protect", "card": "kevlar_vest#1"})
    assert mixed.stalkers[0]["damage"] == 0
    tired = resolve(_bare(fatigue=2, damage=0), 0, [{"fatigue_max": True}])
    assert tired.stalkers[0]["fatigue"] == 5
    again = resolve(tired, 0, [{"fatigue_max": True}])
    assert again.stalkers[0]["fatigue"] == 5 and again.stalkers[0]["damage"] == 0
