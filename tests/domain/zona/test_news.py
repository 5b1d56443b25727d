"""News, the emission, the shared loss, and the solo variant's automated Voice."""

from __future__ import annotations

import pytest

from domain.rng import Rng
from domain.zona import flow, news
from domain.zona.game import ZONA
from domain.zona.pack import pack_named
from domain.zona.resolution import ZonaResolution
from tests.domain.zona.fixtures import PACK, accept_tests, choose, clear_threats, edit, new_game, put, with_stalker


def _quiet(players=2, **options):
    state = new_game(players, characters=["mila", "vera", "bogdan", "zoya"][:players], **options)
    state = clear_threats(state)
    for seat in range(players):
        s = state.stalkers[seat]
        for card in s["backpack"] + s["worn"] + s["small"]:
            state = put(state, card, "box")
        state = with_stalker(state, seat, area="hamlet", fatigue=1)
    return state


def _news_phase(state, card, seed="n"):
    """Run the news phase with ``card`` on top of the news deck."""
    state = put(state, card, "deck:news")
    state = edit(state, phase="news", turn=None)
    res = ZonaResolution(state, Rng(seed))
    news.start_phase(res)
    flow.run(res)
    return res.state


def test_news_arrows_advance_the_emission_marker_and_the_voice_passes_left_and_items_refresh():
    """Zona §"WIEŚCI": arrows move the marker; then the Voice passes left and deactivated items refresh."""
    state = _quiet()
    state = edit(state, deactivated=["kevlar_vest#1"])
    state = put(state, "kevlar_vest#1", "backpack:0")
    state = _news_phase(state, "n_migration")
    while state.pending and state.pending["kind"] == "voice_area":
        assert state.pending["seat"] == 0  # the Voice places the news threats
        state = choose(state, {"type": "mark", "area": "hayfields"})
    assert state.emission == 2 and state.voice == 1 and state.deactivated == []
    assert len(state.threats["hayfields"]) == 2
    assert "n_migration" in state.removed


def test_timed_news_stays_until_replaced_on_the_area_the_voice_marks():
    """Zona §"WIEŚCI": a timed card sits in its slot on a Voice-chosen area; a newer one replaces it."""
    state = _news_phase(_quiet(), "n_patrol")
    state = choose(state, {"type": "mark", "area": "milltown"})
    assert state.timed == {"card": "n_patrol", "target": "milltown"}
    state = with_stalker(state, 1, area="milltown")
    state = edit(state, turn={"seat": 1, "actions": 0, "area_action": False, "bought": [], "done": False})
    assert {"type": "area_action"} not in ZONA.legal_actions(state, 1)
    state = edit(state, turn=None)
    state = _news_phase(state, "n_fog")
    state = choose(state, {"type": "mark", "area": "hayfields"})
    assert state.timed["card"] == "n_fog" and "n_patrol" in state.removed


def test_emission_five_steps():
    """Zona §"EMISJA": reveal, the dash to a bunker for +2 fatigue, damage by sector on open ground
    (cumulative), the board reset with the card's threats, the market reset; the marker back to 0."""
    state = _quiet(3)
    state = with_stalker(state, 0, area="hayfields", damage=0)  # next to the field lab: may dash
    state = with_stalker(state, 1, area="glasslake", damage=0)
    state = with_stalker(state, 2, area="greenhouse", damage=0)
    state = put(state, "gm_rat#1", "area:outpost")
    state = edit(state, emission=PACK.track - 1)
    state = put(state, "e_pale", "deck:emission")
    market_before = list(state.market["junk"])
    state = _news_phase(state, "n_tremor")
    assert state.pending["kind"] == "dash" and state.pending["seat"] == 0
    state = choose(state, {"type": "dash", "bunker": "fieldlab"})
    state = accept_tests(state)
    assert state.stalkers[0]["area"] == "fieldlab" and state.stalkers[0]["damage"] == 0
    assert state.stalkers[1]["damage"] == 2  # yellow: green 1 + yellow 1
    assert state.stalkers[2]["damage"] == 0  # a facility is no open ground
    assert "gm_rat#1" not in state.threats.get("outpost", [])
    placed = {area for area, tokens in state.threats.items() if tokens}
    assert placed == {"reedmarsh", "rustwood"}
    assert state.market["junk"] != market_before and state.emission == 0
    # The news card was put back and then resolved: fatigue +1 for everyone.
    assert "n_tremor" in state.removed


def test_shared_loss_when_the_news_deck_runs_out():
    """Zona §"PRZEGRANA": after the news phase that drew the last card, everyone loses."""
    state = _quiet()
    last = state.decks["news"][0]
    for card in state.decks["news"][1:]:
        state = put(state, card, "removed")
    state = _news_phase(state, last)
    while state.pending:
        state = choose(state, state.pending["choices"][0])
    assert state.over and state.lost == "news" and ZONA.outcome(state).winners == ()
    later = _quiet(news_loss="on_empty_draw")
    for card in later.decks["news"][1:]:
        later = put(later, card, "removed")
    later = _news_phase(later, later.decks["news"][0])
    while later.pending:
        later = choose(later, later.pending["choices"][0])
    assert not later.over and later.phase == "action"


def test_solo_setup_and_the_automated_voice():
    """Zona §"WARIANT GRY SOLO": finds two a deck, four starting threats (own board and a random
    other), five news cards set aside; the Voice picks the stalker's area and the hardest threat."""
    state = new_game(1, characters=["mila"])
    assert all(len(cards) == 2 for cards in state.finds.values())
    assert sum(len(t) for t in state.threats.values()) == 4
    assert len(state.removed) == 5 and len(state.decks["news"]) == len(PACK.news) - 5
    quiet = _quiet(1)
    quiet = with_stalker(quiet, 0, area="hayfields")
    quiet = _news_phase(quiet, "n_patrol")
    assert quiet.timed == {"card": "n_patrol", "target": "hayfields"}
    arrive = _quiet(1, die_faces=["plus"])
    arrive = with_stalker(arrive, 0, area="hayfields")
    arrive = put(arrive, "gm_rat#1", "area:quarrypit")
    arrive = put(arrive, "gm_dog#1", "area:quarrypit")
    from tests.domain.zona.fixtures import send

    arrive = send(arrive, 0, {"type": "move", "to": "quarrypit"})
    assert arrive.in_play == ["gm_dog#1"]  # detection 3 beats 2


def test_voice_of_the_zone_goes_first_and_decides_for_the_zone():
    """Zona §"SZPERACZE I GŁOS ZONY": the Voice holder acts first and makes the Zone's choices."""
    state = _quiet(3, first_voice=2)
    assert state.turn["seat"] == 2 and ZONA.waiting_for(state) == [2]
    state = _news_phase(state, "n_bloom")
    assert state.pending["kind"] == "voice_area" and state.pending["seat"] == 2


def test_timed_news_on_a_border_and_spread_threats():
    """Zona §"WIEŚCI": a timed card may mark a border (no move crosses it); a news effect on an area and
    one next to it is placed by the Voice in both."""
    from domain.zona.actions import destinations

    state = _news_phase(_quiet(), "n_fallen")
    assert state.pending["kind"] == "voice_area"
    assert {"type": "mark", "border": "hayfields|quarrypit"} in state.pending["choices"]
    state = choose(state, {"type": "mark", "border": "hayfields|quarrypit"})
    state = with_stalker(state, 0, area="hayfields")
    assert "quarrypit" not in destinations(state, 0) and "milltown" in destinations(state, 0)
    spread = _news_phase(_quiet(), "n_stampede")
    spread = choose(spread, {"type": "mark", "area": "hayfields"})
    assert {c["area"] for c in spread.pending["choices"]} == {"quarrypit", "scrapyard", "milltown"}
    spread = choose(spread, {"type": "mark", "area": "milltown"})
    assert spread.threats["hayfields"] and spread.threats["milltown"]


def test_solo_effect_on_two_areas_only_in_the_stalkers():
    """Zona §"WARIANT GRY SOLO": an effect covering the stalker's area and an adjacent one applies
    only to the stalker's area."""
    solo = with_stalker(_quiet(1), 0, area="outpost")
    solo = _news_phase(solo, "n_stampede")
    placed = {area for area, tokens in solo.threats.items() if tokens}
    assert placed == {"outpost"}
    assert solo.pending is None or solo.pending["kind"] != "voice_area"


def test_emission_dash_costs_one_with_a_dash_item():
    """Zona §"EMISJA": the dash to a bunker is +2 fatigue, +1 with the nest-like artifact; never past 5."""
    state = _quiet(2)
    state = with_stalker(state, 0, area="hayfields", fatigue=4, damage=0)
    state = with_stalker(state, 1, area="hamlet")
    state = edit(state, emission=PACK.track - 1)
    state = _news_phase(state, "n_quiet")
    assert state.pending is None or state.pending["kind"] != "dash"  # 4 + 2 > 5: no dash offered
    helped = _quiet(2)
    helped = put(helped, "nest_coil#1", "backpack:0")
    helped = with_stalker(helped, 0, area="hayfields", fatigue=4, damage=0)
    helped = with_stalker(helped, 1, area="hamlet")
    helped = edit(helped, emission=PACK.track - 1)
    helped = _news_phase(helped, "n_quiet")
    assert helped.pending["choices"] == [{"type": "dash", "bunker": "fieldlab", "card": "nest_coil#1"},
                                           {"type": "stay"}]
    helped = choose(helped, {"type": "dash", "bunker": "fieldlab", "card": "nest_coil#1"})
    assert helped.stalkers[0]["fatigue"] == 5 and helped.stalkers[0]["area"] == "fieldlab"


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_pack_sets_news_aside_at_each_player_count(players):
    """Zona §"WIEŚCI": the news deck is the game's clock; a pack may set cards aside unseen at a player count
    (news.yaml ``set_aside``, content as the cards are), on top of the solo rule's five (Zona §"WARIANT GRY
    SOLO"). The base pack shortens the group clock so a group can lose too (docs/content-pack.md)."""
    base = pack_named("base")
    state = new_game(players, pack="base", characters=sorted(base.stalkers)[:players])
    cut = (5 if players == 1 else 0) + base.set_aside.get(players, 0)
    assert len(state.removed) == cut and len(state.decks["news"]) == len(base.news) - cut
    assert set(state.removed).isdisjoint(state.decks["news"])
    # The test pack names no count: the whole deck at 2-4, the solo rule's five set aside at 1.
    plain = new_game(players)
    assert len(plain.removed) == (5 if players == 1 else 0)
