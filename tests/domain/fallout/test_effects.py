"""The effects vocabulary (docs/fallout-effects.md): every form parses, every mistake is reported."""

from __future__ import annotations

import pytest

from domain.fallout import effects as fx
from domain.fallout.model import AgendaCard, Card, EncounterCard, EncounterOption, QuestCard, QuestObjective


def test_results_amounts_relative_to_the_encounter_level():
    """Results: an encounter icon on a card reads as the level, with + or -."""
    assert fx.parse_amount(2).of(3) == 2
    assert fx.parse_amount("L").of(3) == 3
    assert fx.parse_amount("L+1").of(3) == 4
    assert fx.parse_amount("L-2").of(1) == 0  # never below zero
    for bad in (-1, "L*2", "two", True, None):
        with pytest.raises(fx.EffectError):
            fx.parse_amount(bad)


def test_results_the_whole_result_bar():
    """Results: add #, stage #, become X, # XP, # Caps, draw ×n, shop #, unique, ★+/♠+, trash."""
    bar = fx.parse_results([
        {"add": 114}, {"stage": "115"}, {"become": "Idolized"}, {"xp": 2}, {"caps": "L+1"},
        {"loot": 2}, {"asset": 1}, {"agenda": 1}, {"shop": 2}, {"unique": "tin_crown"}, {"unique": "random"},
        {"star": "++"}, "♠+", {"spade": 3}, "trash", {"damage": 2}, {"rads": 1}, {"recover": 3},
        {"remove_rads": 1}, {"lose_trait": "addicted"}, {"place_marker": "t.a"}, "remove_marker",
        {"faction_token": {"faction": "spade", "space": "t.a"}}, {"lose_item": "x"}, {"lose_caps": 2},
        {"movement": 2}, "unexhaust",
    ])
    assert bar[0] == fx.Add(114) and bar[1] == fx.Stage(115) and bar[2] == fx.Become("idolized")
    assert bar[5] == fx.Draw("loot", fx.Amount(2)) and bar[10] == fx.GainUnique(None)
    assert bar[11] == fx.Power("star", 2) and bar[12] == fx.Power("spade", 1) and bar[13] == fx.Power("spade", 3)
    assert bar[14] == fx.Trash()


def test_conditions_and_tasks():
    """Encounter Action: conditions on options; tasks are tests or draw and fight."""
    assert fx.parse_condition({"trait": "vilified"}) == fx.HasTrait("vilified")
    both = fx.parse_condition({"special": "C", "with_survivor": True})
    assert both == fx.AllOf((fx.HasSpecial("C"), fx.WithSurvivor()))
    assert fx.parse_condition({"not": {"any": [{"caps": 3}, {"item": "x"}]}}) == fx.Not(
        fx.AnyOf((fx.HasCaps(3), fx.HasItem("x"))))
    assert fx.parse_task({"test": {"special": ["S", "A"], "difficulty": "L"}}) == fx.TestTask(
        ("S", "A"), fx.Amount(0, True))
    assert fx.parse_task({"draw_and_fight": "robot"}) == fx.DrawAndFight("robot")
    for bad in ({"test": {"special": "Q", "difficulty": 1}}, {"draw_and_fight": "dragon"}, {"fight": "x"}):
        with pytest.raises(fx.EffectError):
            fx.parse_task(bad)


def test_agenda_influence_conditions():
    """Influence: each agenda gives 1, plus its conditions."""
    assert fx.parse_influence({"gain": 2, "if": {"caps": 10}}).condition == fx.HasCaps(10)
    per = fx.parse_influence({"per": {"lead": "star"}, "every": 2, "most": 3})
    assert per == fx.Influence(1, None, fx.Counter("lead", "star"), 2, 3)
    with pytest.raises(fx.EffectError):
        fx.parse_influence({"gain": 1})


KNOWN = fx.Known(
    spaces=frozenset({"t.a"}), traits=frozenset({"idolized", "vilified"}), cards=frozenset({"x"}),
    uniques=frozenset({"u"}), encounter_numbers=frozenset({101}), quest_numbers=frozenset({201}),
)


def test_check_lists_every_problem_of_a_card():
    card = EncounterCard(
        id="e", deck="wasteland", intro="...",
        options=(
            EncounterOption(label="Fight", tasks=({"draw_and_fight": "dragon"},), succeed=({"add": 999},)),
            EncounterOption(label="Leave", results=({"become": "famous"}, {"stage": 201}, "trash")),
            EncounterOption(label="", forced=True),
        ),
    )
    problems = fx.check_encounter(card, KNOWN)
    assert any("dragon" in p for p in problems)
    assert any("add 999" in p for p in problems)
    assert any("famous" in p for p in problems)
    assert any("label" in p for p in problems) and any("FORCED" in p for p in problems)
    assert len(problems) == 5


def test_check_quest_agenda_and_card():
    quest = QuestCard(id="q", number=201, title="Q", on_stage=({"place_marker": "t.b"},), objectives=(
        QuestObjective(trigger={"kill": "critter"}, results=({"xp": 1},)),
        QuestObjective(requirement={"space": "t.a"}, instructions=({"test": {"special": "P", "difficulty": 2}},),
                       results=({"add": 101}, "trash")),
    ))
    assert fx.check_quest(quest, KNOWN) == ["on_stage[0]: no space 't.b'"]
    agenda = AgendaCard(id="a", name="A", players=1, activation=("critter",), influence=({"if": {"trait": "idolized"}},))
    assert fx.check_agenda(agenda, KNOWN) == []
    dog = Card(id="dog", name="Dog", kind="companion", deck="asset", recruit={"caps": 2}, effects=({"recover": 2},))
    assert fx.check_card(dog, KNOWN) == ["recruit: a trait (`{trait: idolized}`) or a letter (`{special: C}`)"]
