"""Setup, the draft and preparing stalkers; components; the solo setup."""

from __future__ import annotations

import pytest

from domain.game import RuleViolation
from domain.rng import Rng
from domain.zona.game import ZONA
from domain.zona.pack import SHELF, PackError, load, pack_named, read_directory
from domain.zona.schemas import SIDE_CHOICES
from domain.zona.state import BACKPACK_SLOTS
from tests.domain.zona.fixtures import PACK, fold, new_game, send


def test_components_four_dispenser_queues_three_dice_and_unlimited_pools():
    """Zona §"SPIS ELEMENTÓW": three dice, four dispenser slots, four facilities; roubles and damage
    tokens have no limit (WAŻNE), so a stalker's roubles grow without any cap."""
    state = new_game(2)
    assert set(state.dispenser) == {"green_mutant", "yellow_mutant", "green_anomaly", "yellow_anomaly"}
    assert len(state.locks) == 4
    from domain.zona.checks import DICE

    assert DICE == 3
    from tests.domain.zona.fixtures import resolve

    rich = resolve(state, 0, [{"roubles": 10**6}])
    assert rich.stalkers[0]["roubles"] == state.stalkers[0]["roubles"] + 10**6


@pytest.mark.parametrize("players,side,finds,spaces", [(1, "small", 2, 1), (2, "small", 2, 1),
                                                        (3, "large", 3, 2), (4, "large", 4, 2)])
def test_setup_board_side_find_decks_locks_market_and_track(players, side, finds, spaces):
    """Zona §"PRZYGOTOWANIE DO GRY": the side by player count, four lock tokens of eight, find decks
    of as many cards as players (two in solo), the market filled, the emission marker at 0."""
    state = new_game(players)
    assert state.side == side
    assert all(len(cards) == finds for cards in state.finds.values())
    assert len({lock["lock"] for lock in state.locks.values()}) == 4
    assert not any(lock["open"] for lock in state.locks.values())
    assert all(None not in row for row in state.market.values())
    assert state.emission == 0
    from domain.zona.board import board_for

    assert board_for("test", side).facility_spaces == spaces
    # Every facility deck lies at its own place in a first game.
    assert state.facility_of == PACK.facilities


def test_setup_random_facilities_deals_decks_to_places():
    """Zona §"PRZYGOTOWANIE DO GRY" steps 5-8: in later games the facility decks may be dealt at random."""
    placements = {tuple(sorted(new_game(2, seed=f"r{i}", random_facilities=True).facility_of.items()))
                  for i in range(8)}
    assert len(placements) > 1


def test_dispenser_draws_from_the_bottom_and_discards_onto_the_top():
    """Zona §"UŻYWANIE PODAJNIKA": a queue per slot."""
    from domain.zona import encounter
    from domain.zona.resolution import ZonaResolution

    state = new_game(2)
    queue = state.dispenser["green_mutant"]
    res = ZonaResolution(state, Rng("d"))
    token = encounter.draw(res, "mutant", "green", "in_play")
    assert token == queue[0]
    encounter.discard(res, token, "in_play")
    assert res.state.dispenser["green_mutant"][-1] == token
    assert res.state.dispenser["green_mutant"][0] == queue[1]


def test_draft_deals_two_boards_each_and_keeps_one():
    """Zona §"WYBÓR I PRZYGOTOWANIE SZPERACZY": two random boards per player, one kept."""
    opts = ZONA.resolve_options({"first_voice": 1, "pack": "test"})
    opts["players"] = 3
    state = fold(ZONA.setup(opts, Rng("draft")))
    boards = [state.draft[str(s)] for s in range(3)]
    assert all(len(b) == 2 for b in boards)
    assert len({c for b in boards for c in b}) == 6
    # The Voice drafts first.
    assert state.pending["seat"] == 1
    assert [c["character"] for c in state.pending["choices"]] == boards[1]
    other = boards[0][0]
    with pytest.raises(RuleViolation):
        send(state, 1, {"type": "choose_stalker", "character": other})


def test_preparing_a_stalker_from_the_back_of_the_board():
    """Zona §"WYBÓR I PRZYGOTOWANIE SZPERACZY": damage, roubles, reputation, starting area,
    fatigue 1, the four own cards, and the two starting threats of each board."""
    state = new_game(2, characters=["bogdan", "vera"])
    bogdan = state.stalkers[0]
    c = PACK.stalkers["bogdan"]
    assert (bogdan["area"], bogdan["damage"], bogdan["roubles"], bogdan["reputation"], bogdan["fatigue"]) == (
        c.area, c.damage, c.roubles, c.reputation, 1)
    cards = sorted(bogdan["backpack"] + bogdan["worn"] + bogdan["small"])
    assert cards == sorted(f"{e}@bogdan" for e in c.equipment)
    assert "patched_coat@bogdan" in bogdan["worn"]
    assert "tin_flask@bogdan" in bogdan["small"]
    for spec in [*c.threats, *PACK.stalkers["vera"].threats]:
        tokens = state.threats.get(spec.area, [])
        assert any(PACK.threat(t).kind == spec.kind and PACK.threat(t).colour == spec.colour for t in tokens)


def test_free_choice_variant_offers_every_board():
    """Zona §"WYBÓR I PRZYGOTOWANIE SZPERACZY" variant: everyone agrees, any board."""
    opts = ZONA.resolve_options({"first_voice": 0, "draft": "free", "pack": "test"})
    opts["players"] = 2
    state = fold(ZONA.setup(opts, Rng("free")))
    assert len(state.pending["choices"]) == len(PACK.stalkers)
    state = send(state, 0, {"type": "choose_stalker", "character": "ilya"})
    assert {"type": "choose_stalker", "character": "ilya"} not in state.pending["choices"]


def test_attributes_are_printed_one_to_four_and_never_below_zero():
    """Zona §"CECHY": four attributes 1-4; an injury lowers one, never below 0."""
    from domain.zona.checks import attribute_value
    from domain.zona.resolution import ZonaResolution
    from tests.domain.zona.fixtures import with_stalker

    state = new_game(1, characters=["bogdan"])
    assert set(PACK.stalkers["bogdan"].attributes) == {"alertness", "agility", "intellect", "willpower"}
    res = ZonaResolution(with_stalker(state, 0, injuries=["intellect"]), Rng("a"))
    assert attribute_value(res, 0, "intellect") == 0  # printed 1, injured
    assert attribute_value(res, 0, "agility") == 4


def test_backpack_holds_five_items():
    """Zona §"PLECAK": five slots for items not worn and not small."""
    assert BACKPACK_SLOTS == 5


def test_a_broken_pack_reports_every_problem_at_once():
    """Zona §"SPIS ELEMENTÓW": content is checked at load; all problems in one report."""
    files = read_directory(SHELF.bundled("test"))
    files["board"] = {**files["board"], "areas": [*files["board"]["areas"], {"id": "x", "name": "X", "sector": "blue"}]}
    files["items"] = {"items": [*files["items"]["items"], {"id": "bad", "name": "Bad", "kind": "junk", "price": 150,
                                                           "use": "single", "hael": 1}]}
    files["events"] = {**files["events"], "green": [
        *files["events"]["green"], {"id": "g_bad", "name": "Bad", "sections": {"nowhere": [{"explode": 1}, {"win": True}]}}]}
    with pytest.raises(PackError) as err:
        load(files, "broken")
    text = "\n".join(err.value.problems)
    assert "sector must be one of" in text
    assert "prices are multiples of 100" in text
    assert "unknown keys ['hael']" in text
    assert "unknown effect 'explode'" in text
    assert "win ends a paragraph" in text
    assert len(err.value.problems) >= 4


def test_the_side_choices_offered_to_a_form_are_the_bundled_packs_sides():
    """Zona §"PRZYGOTOWANIE DO GRY": the board's two sides, small for 1-2 players and large for 3-4, as the
    options schema offers them to the lobby's form (`x-choices`)."""
    sides = pack_named("base").sides
    assert set(SIDE_CHOICES) == set(sides)
    for side, words in SIDE_CHOICES.items():
        assert f"{min(sides[side].players)}-{max(sides[side].players)} players" in words
