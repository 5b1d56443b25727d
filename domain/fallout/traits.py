"""Traits: double-sided tokens; a survivor holds at most one of each kind.

Gaining the trait on the hidden side flips the token, unless the side face up
shows the lock. Losing a trait discards its token, lock or not.
"""

from __future__ import annotations

from domain.engine.shapes import boolean, integer, string
from domain.fallout import effects as fx
from domain.fallout import results
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import GameState, trait_key


def token_for(res: Resolution, side: str) -> tuple[str, int] | None:
    """The trait token carrying ``side`` and which of its sides it is."""
    key = trait_key(side)
    for token in res.catalog.pack.trait_tokens:
        for i, s in enumerate(token.sides):
            if trait_key(s) == key:
                return token.id, i
    return None


def gain(res: Resolution, seat: int, side: str) -> None:
    found = token_for(res, side)
    if found is None:
        return
    token_id, index = found
    token = res.catalog.traits[token_id]
    wanted = token.sides[index]
    held = dict(res.state.survivor(seat).traits).get(token_id)
    if held == wanted:
        return
    if held is not None and held in token.locked:
        return  # the lock face up stops the flip: the trait is simply not gained
    res.emit("TraitGained", seat=seat, token=token_id, trait=wanted, flipped=held is not None)


def lose(res: Resolution, seat: int, side: str) -> None:
    key = trait_key(side)
    for token_id, held in res.state.survivor(seat).traits:
        if trait_key(held) == key:
            res.emit("TraitLost", seat=seat, token=token_id, trait=held)
            return


@results.about_survivor(fx.Become)
def _become(res: Resolution, seat: int, level: int, r: fx.Become) -> None:
    gain(res, seat, r.trait)


@results.about_survivor(fx.LoseTrait)
def _lose_trait(res: Resolution, seat: int, level: int, r: fx.LoseTrait) -> None:
    lose(res, seat, r.trait)


@RULES.fold("TraitGained", {"flipped": boolean(), "seat": integer(), "token": string(), "trait": string()})
def _gained(state: GameState, data: dict) -> GameState:
    traits = dict(state.survivor(data["seat"]).traits)
    traits[data["token"]] = data["trait"]
    return state.with_survivor(data["seat"], traits=tuple(sorted(traits.items())))


@RULES.fold("TraitLost", {"seat": integer(), "token": string(), "trait": string()})
def _lost(state: GameState, data: dict) -> GameState:
    traits = tuple(t for t in state.survivor(data["seat"]).traits if t[0] != data["token"])
    return state.with_survivor(data["seat"], traits=traits)
