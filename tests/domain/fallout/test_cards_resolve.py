"""Encounter Cards, Quest Cards, Loot Cards, Perk Cards, Results: every card of a pack resolves.

For each encounter card, each option a survivor may choose is resolved to the
end (answering any decision at random); each quest objective and each card
or perk with effects likewise. This runs on the full test pack and on the
bundled pack, so content written in the effects
vocabulary is known to work with the engine, not only to parse.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.fallout import results
from domain.fallout.advance import advance
from domain.fallout.content import catalog, pack_named
from domain.fallout.game import FALLOUT
from domain.fallout.model import SPECIAL
from domain.fallout.rulebook import Resolution
from domain.fallout.state import GameState, Turn
from domain.rng import Rng
from tests.domain.fallout.fixtures import FULL, fold


def _packs() -> list[str]:
    return [FULL.id, "base"]


PROFILES = (
    dict(traits=(), caps=0),
    dict(traits="idolized synth well_rested", caps=25),
    dict(traits="vilified super_mutant addicted", caps=4),
)


def base_state(pack: str, profile: dict) -> GameState:
    """A two-player game with every tile face up, no enemies, seat 0 holding every letter."""
    scenario = next(iter(pack_named(pack).scenarios))
    survivors = sorted(pack_named(pack).survivors)[:2]
    options = {"pack": pack, "scenario": scenario, "players": 2, "survivors": survivors}
    state = fold(FALLOUT.initial_state(), FALLOUT.setup(options, Rng("cards")))
    traits = []
    for side in (profile["traits"] or "").split():
        token = next(t for t in catalog(pack).pack.trait_tokens if side in t.sides)
        traits.append((token.id, side))
    state = state.with_survivor(
        0, traits=tuple(traits), caps=profile["caps"],
        special=tuple((letter, f"tok_{letter}") for letter in SPECIAL),
    )
    return replace(state, places=_every_encounter_icon(pack, state), enemies=(), first_player=0, turn=Turn(0))


def _every_encounter_icon(pack: str, state: GameState) -> tuple:
    """Every place face up, with a tile of each encounter icon the pack has among them: the shuffle may
    leave a vault's tile in the box, so it takes the place of a tile of its back that shows no vault."""
    tiles = catalog(pack).pack.tiles
    kinds = {t.id: {s.encounter.kind for s in t.spaces if s.encounter} for t in tiles.values()}
    places = [replace(p, faceup=True) for p in state.places]
    for kind in sorted(set().union(*kinds.values())):
        if any(kind in kinds[p.tile] for p in places):
            continue
        tile = next(t for t in sorted(tiles) if kind in kinds[t] and tiles[t].back != "double_sided")
        at = next(i for i, p in enumerate(places) if p.back == tiles[tile].back and not
                  any(k.startswith("vault") for k in kinds[p.tile]))
        places[at] = replace(places[at], tile=tile)
    return tuple(places)


def settle(state: GameState, pick: Rng, limit: int = 400) -> GameState:
    for _ in range(limit):
        if state.over:
            return state
        command = FALLOUT.system_command(state)
        if command is not None:
            return state  # the round end is not what is tested here
        if state.pending is None:
            return state
        seat = state.pending.seat
        state = fold(state, FALLOUT.decide(state, seat, pick.choice(FALLOUT.legal_actions(state, seat)), pick))
    raise AssertionError("the card did not finish resolving")


def spaces_with(state: GameState, kind: str) -> list[str]:
    from domain.fallout.board import board_of

    board = board_of(state)
    return sorted(s for s, space in board.spaces.items() if space.encounter and space.encounter.kind == kind)


@pytest.mark.parametrize("pack", _packs())
def test_encounter_cards_every_option_resolves(pack: str) -> None:
    """Encounter Action, Encounter Cards, Results: every option of every encounter card resolves to the end."""
    pick = Rng("encounters")
    chosen: set[tuple[str, int]] = set()
    for card in catalog(pack).pack.encounters.values():
        for profile in PROFILES:
            state = base_state(pack, profile)
            space = spaces_with(state, card.deck)[0]
            state = state.with_survivor(0, space=space)
            state = replace(state, encounter_decks={**state.encounter_decks, card.deck: (card.id,)})
            state = fold(state, FALLOUT.decide(state, 0, {"type": "encounter"}, pick))
            for choice in state.pending.choices:
                after = fold(state, FALLOUT.decide(state, 0, choice, pick))
                after = settle(after, pick)
                assert after.over or after.encounter is None, (card.id, choice)
                chosen.add((card.id, choice["option"]))
    # Every card could be resolved by one of the survivors.
    assert set(catalog(pack).pack.encounters) == {c for c, _ in chosen}


@pytest.mark.parametrize("pack", _packs())
def test_quest_cards_every_objective_resolves(pack: str) -> None:
    """Quest Cards, Quest Action, Results: every objective's results (and instructions) resolve to the end."""
    from domain.fallout import quest

    pick = Rng("quests")
    for card in catalog(pack).pack.quests.values():
        for index, objective in enumerate(card.objectives):
            state = replace(base_state(pack, PROFILES[1]), quests=(card.id,))
            res = Resolution(state, pick)
            if objective.trigger is None:
                res.emit("QuestActionTaken", seat=0, quest=card.id, objective=index, level=1)
            else:
                quest.complete(res, 0, card.id, index)
            advance(res, 0)
            state = settle(res.state, pick)
            assert state.over or (state.questing is None and not state.resolving), (card.id, index)


@pytest.mark.parametrize("pack", _packs())
def test_loot_asset_unique_and_perk_effects_resolve(pack: str) -> None:
    """Loot Cards, Items, Companions, Perk Cards, Results: every card's and perk's effects resolve."""
    pick = Rng("cards")
    bars = [(c.id, c.effects) for c in catalog(pack).pack.cards.values() if c.effects]
    bars += [(p.id, p.effects) for p in catalog(pack).pack.perks if p.effects]
    for source, bar in bars:
        res = Resolution(base_state(pack, PROFILES[1]), pick)
        results.push(res, 0, source, "item", 2, bar)
        advance(res, 0)
        state = settle(res.state, pick)
        assert state.over or not state.resolving, source
