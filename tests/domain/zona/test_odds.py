"""What Zona's bots read into a position besides their own body: a facility's odds for a stalker
(``domain.zona.odds``), threats on the way in, and the best rival's progress (``domain.zona.ai``)."""

from __future__ import annotations

import copy

from domain.zona import odds
from domain.zona.ai import evaluate, standing
from domain.zona.game import ZONA
from domain.zona.pack import pack_named
from tests.domain.zona.fixtures import new_game, with_stalker

FACES = pack_named("base").faces


def test_a_tests_odds_rise_with_the_attribute_and_fall_with_the_difficulty():
    """Zona §"WYKONYWANIE TESTÓW": the attribute plus the dice against the difficulty; Zona §"ZDOLNOŚĆ": a
    reroll of that attribute helps."""
    for difficulty in (2, 3, 4):
        chances = [odds.pass_chance(value, difficulty, False, FACES) for value in range(5)]
        assert chances == sorted(chances) and chances[0] < chances[-1]
        assert odds.pass_chance(2, difficulty, True, FACES) > odds.pass_chance(2, difficulty, False, FACES)
    assert odds.pass_chance(3, 3, False, FACES) > odds.pass_chance(3, 4, False, FACES)
    # Two plus, a minus, two blanks, a triangle: 3 dice at 0 reach 1 in 104 of 216 rolls.
    assert odds.pass_chance(0, 1, False, FACES) == 104 / 216


def test_a_facility_cards_odds_follow_its_paragraphs_to_the_secret():
    """Zona §"WYDARZENIA TAJNEGO OBIEKTU": a card reads on paragraph after paragraph ("continue") until the
    secret or "mission failed"; a choice is the stalker's (the Voice's, where the card gives it)."""
    test = {"attribute": "intellect", "difficulty": 3}
    two_tests = [[{"test": test, "pass": [{"next": True}], "fail": [{"failed": True}]}],
                 [{"test": test, "pass": [{"secret": True}], "fail": [{"failed": True}]}]]
    p = odds.pass_chance(3, 3, False, FACES)
    assert abs(odds.card_chance(two_tests, {"intellect": 3}, None, FACES) - p * p) < 1e-12
    choose = [{"label": "safe", "effects": [{"secret": True}]}, {"label": "lost", "effects": [{"failed": True}]}]
    assert odds.card_chance([[{"choose": choose}]], {}, None, FACES) == 1.0
    assert odds.card_chance([[{"choose": choose, "by": "voice"}]], {}, None, FACES) == 0.0
    assert odds.card_chance([[{"failed": True}]], {"intellect": 4}, None, FACES) == 0.0


def test_a_stalker_strong_in_the_facilities_tests_stands_better():
    """Zona §"WYBÓR I PRZYGOTOWANIE SZPERACZY": the same position held by a stalker whose attributes suit
    the facility tests scores higher, which is what a bot drafts by; Zona §"CECHY": an injury to an
    attribute the tests ask for costs more than one to an attribute they rarely ask for."""
    state = new_game(2, seed="odds", pack="base", characters=["docent", "hryhor"])
    docent = standing(ZONA.view(state, 0), 0)
    # The base pack's stalkers ordered by their odds at the facilities' cards (the pack is tuned, so which
    # stalker suits the tests best is read from it, not named here).
    suits = sorted(pack_named("base").stalkers, key=lambda c: sum(odds.chances("base", {"character": c}).values()))
    weakest, strongest = (standing(ZONA.view(with_stalker(state, 0, character=c), 0), 0) for c in (suits[0], suits[-1]))
    assert strongest > weakest, (suits[0], suits[-1])
    base = odds.chances("base", {"character": "docent", "injuries": []})
    hurt = odds.chances("base", {"character": "docent", "injuries": ["intellect"]})
    assert all(hurt[deck] <= base[deck] for deck in base) and hurt["recordvault"] < base["recordvault"]
    intellect = standing(ZONA.view(with_stalker(state, 0, injuries=["intellect"]), 0), 0)
    agility = standing(ZONA.view(with_stalker(state, 0, injuries=["agility"]), 0), 0)
    assert intellect < agility < docent


def test_threats_on_a_facilitys_entrances_put_it_a_step_further():
    """Zona §"ŻETONY ZAGROŻEŃ NA PLANSZY": moving into an area with a threat means meeting it, so a facility
    whose entrances the Voice has threatened is further away."""
    state = new_game(2, seed="odds")
    view = ZONA.view(state, 0)
    for info in view["facilities"].values():
        info["open"] = True  # no lock in the way: only the walk counts
    threatened = copy.deepcopy(view)
    token = next(iter(pack_named("test").threats))
    for area in ("quarrypit", "rustwood", "smelter", "glasslake", "barracks", "fogridge", "range", "milltown"):
        threatened["threats"][area] = [{"token": token}]
    assert view["stalkers"][0]["area"] == "fieldlab"  # a step from two facilities' entrances, on none
    assert standing(threatened, 0) < standing(view, 0)


def test_a_rivals_progress_counts_against_a_seat():
    """Zona §"CEL GRY" is a race: another stalker's secret lowers a seat's score (its own standing the
    same), so as the Voice of the Zone (Zona §"SZPERACZE I GŁOS ZONY") a bot hinders the leader."""
    state = new_game(2, seed="rival")
    secret = next(c for c, card in pack_named("test").events.items() if card.deck == "vault")
    ahead = with_stalker(state, 1, secrets=[secret])
    assert standing(ZONA.view(ahead, 0), 0) == standing(ZONA.view(state, 0), 0)
    assert evaluate(ZONA.view(ahead, 0), 0) < evaluate(ZONA.view(state, 0), 0)
    # The scoring view a search reads scores alike.
    assert evaluate(ZONA.ai.scoring_view(ahead, 0), 0) == evaluate(ZONA.view(ahead, 0), 0)
