"""Complete Setup, steps 1 to 9."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.fallout.content import pack_named, register_pack
from domain.fallout.game import FALLOUT
from domain.fallout.options import SCENARIO_CHOICES
from domain.fallout.state import MAX_HP
from domain.game import Refusal, RuleViolation
from domain.rng import Rng
from tests.domain.fallout.fixtures import FULL, MINI, fold, new_game, play, types


def test_complete_setup_deals_the_player_boards() -> None:
    """Complete Setup step 8: rads 0, HP 16, XP peg at its start, 3 Caps, one agenda, two tokens."""
    state = new_game(3, ["scout", "keeper", "voice"])
    for s in state.survivors:
        assert s.hp == MAX_HP and s.rads == 0 and s.xp is None and s.caps == 3
        assert len(s.agendas) == 1
        assert len(s.letters) == 2 and len(set(s.letters)) == 2
    scout = state.survivor(0)
    assert ("P", "own_scout") in scout.special  # the token with the scout's silhouette
    assert scout.equipped == ("rifle",)
    assert state.survivor(2).abilities == ("knack",)


def test_special_tokens_the_supply_holds_no_silhouette_token() -> None:
    """S.P.E.C.I.A.L. Tokens, Complete Setup steps 3 and 8: the supply is the tokens without a silhouette
    (the box's 35); each survivor's own token comes with the character, and the random second token is
    drawn from the supply, never another character's silhouette token."""
    silhouettes = {t.id for t in MINI.special_tokens if t.survivor is not None}
    for seed in "abcdefgh":
        state = new_game(2, ["scout", "keeper"], seed=seed)
        assert not silhouettes & set(state.special_supply)
        assert len(state.special_supply) == len(MINI.special_tokens) - len(silhouettes) - 2
        for s in state.survivors:
            own = {t.id for t in MINI.special_tokens if t.survivor == s.survivor}
            assert {token for _, token in s.special} & silhouettes == own


def test_complete_setup_step_1_the_chosen_scenario_is_the_one_played() -> None:
    """Complete Setup step 1 (Choose Scenario), Scenario: the scenario named in the options is played: its map,
    its factions; a scenario the pack does not have is refused."""
    base = MINI.scenarios["test"]
    other = replace(base, id="other", name="Other Reach", places=base.places[:2], start_place="east")
    pack = register_pack(replace(MINI, id="mini_two_scenarios", scenarios={"test": base, "other": other}))
    state = new_game(1, ["scout"], pack=pack.id, scenario="other")
    assert state.scenario == "other" and [p.id for p in state.places] == ["camp", "east"]
    assert state.survivor(0).space.startswith("ruins.")  # the start tile of "other" is the one at "east"
    with pytest.raises(RuleViolation):
        FALLOUT.setup({"pack": pack.id, "scenario": "missing", "players": 1}, Rng("x"))


def test_complete_setup_step_6_the_shop_is_four_asset_cards_face_up() -> None:
    """Complete Setup step 6 (Create Shop), Shop: four asset cards are dealt face up from the shuffled asset
    deck; every seat sees them."""
    state = new_game(2, ["scout", "keeper"], pack=FULL.id)
    assets = {c.id for c in FULL.cards.values() if c.deck == "asset"}
    assert len(state.shop) == 4 and set(state.shop) <= assets and not set(state.shop) & set(state.asset_deck)
    assert set(state.shop) | set(state.asset_deck) == assets
    assert FALLOUT.view(state, 1)["shop"] == list(state.shop)


def test_complete_setup_places_survivors_on_start_spaces() -> None:
    """Complete Setup step 7: figures on unoccupied spaces of the starting tile."""
    state = new_game(2, ["scout", "keeper"])
    assert {s.space for s in state.survivors} == {"camp.a", "camp.b"}


def test_complete_setup_agenda_deck_drops_cards_for_more_players() -> None:
    """Complete Setup step 5: agenda cards numbered above the player count are removed."""
    for players in (1, 2, 3):
        state = new_game(players, ["scout", "keeper", "voice"][:players], seed=f"p{players}")
        cards = set(state.agenda_deck) | {a for s in state.survivors for a in s.agendas}
        assert cards == {a.id for a in MINI.agendas if a.players <= players}


def test_complete_setup_first_player_is_random() -> None:
    """Complete Setup step 7: randomly choose a first player; the first turn is theirs."""
    firsts = {new_game(4, ["scout", "keeper", "voice", "mech"], seed=str(i)).first_player for i in range(30)}
    assert firsts == {0, 1, 2, 3}
    state = new_game(4, ["scout", "keeper", "voice", "mech"], seed="x")
    assert state.turn.seat == state.first_player


def test_complete_setup_face_down_tiles_by_back_and_enemies_on_icons() -> None:
    """Complete Setup steps 2 and 9: face-down tiles shuffled by back; one face-up enemy per icon."""
    seen = set()
    for i in range(20):
        state = new_game(1, ["scout"], seed=f"m{i}")
        by_place = {p.id: p for p in state.places}
        assert by_place["w"].tile == "crater" and not by_place["w"].faceup
        assert {by_place["ne"].tile, by_place["se"].tile} == {"bog", "marsh"}
        seen.add(by_place["ne"].tile)
        # ruins.a shows a critter icon: one active critter stands there.
        assert [(e.type, e.space, e.active) for e in state.enemies] == [("critter", "ruins.a", True)]
        assert state.power == (0, 0)
        assert state.shop == ()
    assert seen == {"bog", "marsh"}


def test_complete_setup_survivors_chosen_seat_by_seat() -> None:
    """Complete Setup step 7: starting with the first player and going clockwise, each chooses."""
    state = new_game(3, seed="choose")
    first = state.first_player
    order = []
    while state.phase == "choosing":
        decision = state.pending
        assert decision.kind == "choose_survivor"
        order.append(decision.seat)
        assert FALLOUT.waiting_for(state) == [decision.seat]
        state, _ = play(state, decision.seat, decision.choices[0])
    assert order == [first, (first + 1) % 3, (first + 2) % 3]
    assert len({s.survivor for s in state.survivors}) == 3
    assert state.turn.seat == first


def test_complete_setup_rejects_bad_options() -> None:
    """Complete Setup: bad options are refused with 422."""
    for options in (
        {"pack": "mini", "scenario": "nope", "players": 2},
        {"pack": "mini", "scenario": "test", "players": 5},
        {"pack": "mini", "scenario": "test", "players": 2, "survivors": ["scout", "scout"]},
        {"pack": "mini", "scenario": "test", "players": 1, "survivors": ["ghost"]},
        {"pack": "nope", "scenario": "test", "players": 1},
    ):
        with pytest.raises(RuleViolation) as err:
            FALLOUT.setup(options, Rng("x"))
        assert err.value.kind is Refusal.MALFORMED


def test_complete_setup_is_reproducible() -> None:
    """Complete Setup: the same seed gives the same events; folding them is the state."""
    a = FALLOUT.setup({"pack": "mini", "scenario": "test", "players": 2}, Rng("same"))
    b = FALLOUT.setup({"pack": "mini", "scenario": "test", "players": 2}, Rng("same"))
    assert a == b
    assert types(a)[0] == "GameSetUp"
    assert fold(FALLOUT.initial_state(), a).phase == "choosing"


def test_the_scenario_choices_offered_to_a_form_are_the_bundled_packs_scenarios():
    """Complete Setup, step 1 (choose a scenario): the options schema offers the lobby's form the bundled pack's
    scenarios (`x-choices`), each by the name the pack gives it."""
    scenarios = pack_named("base").scenarios
    assert SCENARIO_CHOICES == {sid: scenario.name for sid, scenario in scenarios.items()}
