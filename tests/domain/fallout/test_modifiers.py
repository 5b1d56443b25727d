"""Character Cards, Fight ("before a fight", "during a fight"), Perk Cards, Tests: modifiers and abilities.

A pack of the full test pack plus the example cards of docs/fallout-effects.md
("Character cards" and "Modifiers"), read from the page itself: passive
modifiers that hold while a card is held, and timed ones used in a fight.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import yaml

from domain.fallout import effects as fx
from domain.fallout import vats
from domain.fallout.content import register_pack
from domain.fallout.game import FALLOUT
from domain.fallout.model import Card, Perk, Survivor
from domain.fallout.pack.component_schemas import CardSchema, PerkSchema
from domain.fallout.rulebook import Resolution
from tests.domain.fallout.fixtures import (
    BLANK,
    BODY,
    FULL,
    HIT,
    ScriptedRng,
    add_enemy,
    data,
    new_game,
    play,
    quiet_game,
    refused,
    survivor,
)

DOCS = Path(__file__).parents[3] / "docs" / "fallout-effects.md"


def doc_examples(*sections: str) -> list[Card | Perk]:
    """The YAML examples of these sections of docs/fallout-effects.md, loaded as the pack loader loads cards."""
    found: list[Card | Perk] = []
    for part in DOCS.read_text().split("\n## ")[1:]:
        title, _, body = part.partition("\n")
        if title.strip() in sections:
            for block in re.findall(r"```yaml\n(.*?)```", body, re.S):
                for entry in yaml.safe_load(block):
                    found.append(CardSchema().load(entry) if "kind" in entry else PerkSchema().load(entry))
    return found


EXAMPLES = doc_examples("Character cards", "Modifiers")
CARDS = {c.id: c for c in EXAMPLES if isinstance(c, Card)}
(FOCUS,) = (p for p in EXAMPLES if isinstance(p, Perk))
PACK = register_pack(replace(
    FULL, id="mini2_modifiers", cards={**FULL.cards, **CARDS}, perks=FULL.perks + (FOCUS,),
    survivors={**FULL.survivors, "gambler": Survivor("gambler", "Gambler", "L", "lucky_streak")},
))


def game(**changes):
    """Seat 0 (letters S and L) at camp.a, in a quiet game of this pack."""
    state = quiet_game(1, pack=PACK.id)
    return survivor(state, 0, **{"space": "camp.a", "special": (("S", "s1"), ("L", "l1")), "equipped": (), **changes})


def test_character_cards_an_ability_card_is_used_by_exhausting_it_and_camp_readies_it() -> None:
    """Character Cards, Exhaust: a character card that is not an item sits beside the board; its effects are used
    during the turn by exhausting it (never discarding it), and a camp action unexhausts it."""
    state = game(abilities=("lucky_streak",), caps=0)
    assert {"type": "use", "card": "lucky_streak"} in FALLOUT.legal_actions(state, 0)
    state, events = play(state, 0, {"type": "use", "card": "lucky_streak"})
    assert data(events, "CardUsed")[0]["spent"] == "exhausted"
    assert state.survivor(0).caps == 1 and state.survivor(0).abilities == ("lucky_streak",)
    assert refused(state, 0, {"type": "use", "card": "lucky_streak"}).code == "cannot_use"
    state, _ = play(state, 0, {"type": "camp"})
    assert "lucky_streak" not in state.survivor(0).exhausted


def test_character_cards_the_survivor_follows_its_rules_from_setup() -> None:
    """Character Cards, Complete Setup step 7: the gambler starts with its ability card beside the board, and its
    passive rule holds in every test: one more reroll."""
    state = new_game(1, ["gambler"], pack=PACK.id)
    assert state.survivor(0).abilities == ("lucky_streak",) and state.survivor(0).equipped == ()
    res = Resolution(replace(state, pending=None), ScriptedRng(BLANK, BLANK, BLANK))
    vats.start_test(res, 0, ["C"], 2)
    assert res.state.roll.rerolls == 1  # no C, but the card's extra reroll


def test_fight_passive_modifiers_of_held_cards_add_hits_and_armor_while_their_condition_holds() -> None:
    """Fight steps 3 and 4, Weapons, Companions: a held card's passive modifiers count in every fight: the guard
    dog cancels one enemy hit; the spiked bat adds a hit, but only while the survivor is Vilified."""
    plain = game(equipped=("spiked_bat", "guard_dog"))
    state, raider = add_enemy(plain, "raider", "camp.a")
    state, events = play(state, 0, {"type": "fight", "enemy": raider}, ScriptedRng(HIT, BLANK, BLANK))
    state, more = play(state, 0, {"type": "keep_dice"})
    resolved = data(events + more, "FightResolved")[0]
    assert resolved["canceled"] == 1 and resolved["damage"] == 0 and resolved["hits"] == 0
    vilified = game(equipped=("spiked_bat", "guard_dog"), traits=(("reputation", "vilified"),))
    state, raider = add_enemy(vilified, "raider", "camp.a")
    state, events = play(state, 0, {"type": "fight", "enemy": raider}, ScriptedRng(BODY, BLANK, BLANK))
    state, more = play(state, 0, {"type": "keep_dice"})
    assert data(events + more, "FightResolved")[0]["hits"] == 2 and state.enemy(raider) is None  # killed (level 2)


def test_fight_before_a_fight_abilities_are_used_before_the_dice_are_rolled() -> None:
    """Fight (before a fight): an ability timed "before a fight" is offered once the fight starts and before
    step 1; the rerolls it gives join the roll; once the survivor rolls, it is too late."""
    state, rat = add_enemy(game(abilities=("war_cry",)), "rat", "camp.a")
    state, events = play(state, 0, {"type": "fight", "enemy": rat})
    assert state.pending.kind == "before_fight" and state.roll is None
    assert state.pending.choices == ({"type": "use_in_fight", "card": "war_cry"}, {"type": "roll_dice"})
    assert FALLOUT.timeout_command(state, 0) == {"type": "roll_dice"}  # a lapsed seat spends nothing
    state, events = play(state, 0, {"type": "use_in_fight", "card": "war_cry"}, ScriptedRng(BLANK, BLANK, BLANK))
    assert data(events, "FightBoosted")[0]["rerolls"] == 2 and state.roll.rerolls == 2
    assert "war_cry" in state.survivor(0).exhausted
    skipped, rat = add_enemy(game(abilities=("war_cry",)), "rat", "camp.a")
    skipped, _ = play(skipped, 0, {"type": "fight", "enemy": rat})
    skipped, events = play(skipped, 0, {"type": "roll_dice"}, ScriptedRng(BLANK, BLANK, BLANK))
    # No reroll and nothing "during a fight": the dice stand, the fight resolves, the card unused.
    assert data(events, "DiceRolled")[0]["rerolls"] == 0 and "FightResolved" in [e.type for e in events]
    assert "FightBoosted" not in [e.type for e in events] and "war_cry" not in skipped.survivor(0).exhausted


def test_fight_during_a_fight_abilities_and_perks_are_used_while_the_dice_are_on_the_table() -> None:
    """Fight (during a fight), Perk Cards: a weapon's "during a fight" ability (one more hit) and a perk's (one
    more reroll) are offered with the dice on the table, even with no reroll left; the perk goes back to
    the deck, the weapon is exhausted."""
    state = game(equipped=("steady_scope",), perks=("perk_focus",))
    state, rat = add_enemy(state, "rat", "camp.a")
    state, _ = play(state, 0, {"type": "fight", "enemy": rat}, ScriptedRng(BLANK, BLANK, BLANK))
    assert state.pending.kind == "reroll" and state.roll.rerolls == 0  # no P: still asked, for the abilities
    choices = state.pending.choices
    assert {"type": "use_in_fight", "card": "steady_scope"} in choices
    assert {"type": "use_in_fight", "card": "perk_focus"} in choices
    state, _ = play(state, 0, {"type": "use_in_fight", "card": "perk_focus"})
    assert state.roll.rerolls == 1 and "perk_focus" in state.perk_deck
    state, _ = play(state, 0, {"type": "use_in_fight", "card": "steady_scope"})
    assert state.fight.hits == 1 and "steady_scope" in state.survivor(0).exhausted
    state, events = play(state, 0, {"type": "keep_dice"})
    resolved = data(events, "FightResolved")[0]
    assert resolved["hits"] == 1 and resolved["enemy_killed"]  # blank dice, the scope's hit kills the rat


def test_fight_timed_cards_are_not_used_between_actions() -> None:
    """Fight (timing): a card timed for fights is not one of the turn's "use" commands."""
    state = game(equipped=("steady_scope",), abilities=("war_cry",))
    assert not [c for c in FALLOUT.legal_actions(state, 0) if c["type"] == "use"]


def test_effects_modifiers_vocabulary_and_its_checks() -> None:
    """Character Cards, Perk Cards: modifiers parse; timed cards' effects are modifiers; the checks refuse an
    ability card that would be discarded, or a timed effect that is a result."""
    assert fx.parse_modifier({"fight_hits": 1, "if": {"trait": "vilified"}}).condition == fx.HasTrait("vilified")
    assert set(CARDS) == {"lucky_streak", "spiked_bat", "guard_dog", "war_cry", "steady_scope"}  # the docs' examples
    assert all(fx.check(card) == [] for card in EXAMPLES)
    assert fx.check_card(replace(CARDS["lucky_streak"], exhaust=False))
    assert fx.check_card(replace(CARDS["war_cry"], effects=({"caps": 1},)))
    assert fx.check_card(replace(CARDS["guard_dog"], passive=({"damage": 1},)))
