"""XP and leveling up.

The XP peg sits in the leftmost hole or under one of the survivor's
S.P.E.C.I.A.L. tokens, and each XP moves it under the next token the survivor
has, in letter order; from under the rightmost token it wraps to the leftmost
hole and the survivor levels up. All XP is moved first, then each level is
resolved: draw two tokens from the supply, keep one (a decision); a letter the
survivor already has becomes a perk choice instead.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import integer, string, strings
from domain.fallout import effects as fx
from domain.fallout import results
from domain.fallout.model import SPECIAL
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import Decision, GameState, Leveling, SurvivorState, replace, with_letter

RULE_XP = "XP"
RULE_LEVELING = "Leveling Up"


def move_peg(letters: tuple[str, ...], peg: str | None, amount: int) -> tuple[str | None, int]:
    """Where the peg ends after ``amount`` XP, and how many levels it gained."""
    owned = [letter for letter in SPECIAL if letter in letters]
    levels = 0
    for _ in range(amount):
        if peg is None:
            nxt = owned[0] if owned else None
        else:
            later = [letter for letter in owned if SPECIAL.index(letter) > SPECIAL.index(peg)]
            nxt = later[0] if later else None
        if nxt is None:
            levels += 1
        peg = nxt
    return peg, levels


def gain(res: Resolution, seat: int, amount: int) -> None:
    if amount <= 0:
        return
    survivor = res.state.survivor(seat)
    peg, levels = move_peg(survivor.letters, survivor.xp, amount)
    res.emit("XPGained", seat=seat, amount=amount, peg=peg, levels=levels)


@results.about_survivor(fx.GainXP)
def _gain_result(res: Resolution, seat: int, level: int, r: fx.GainXP) -> None:
    gain(res, seat, r.amount.of(level))


def level_up(res: Resolution) -> None:
    seat = res.state.level_ups[0]
    supply = list(res.state.special_supply)
    drawn = []
    for _ in range(min(2, len(supply))):
        token = res.rng.choice(supply)
        supply.remove(token)
        drawn.append(token)
    res.emit("LevelUpStarted", seat=seat, drawn=drawn)
    if drawn:
        letters = sorted({res.catalog.tokens[t].letter for t in drawn}, key=SPECIAL.index)
        res.request(seat, "choose_special", [{"type": "choose_special", "letter": letter} for letter in letters])


def perk_choices(res: Resolution, survivor: SurvivorState, letter: str) -> list[str]:
    perks = [res.catalog.perks[p] for p in res.state.perk_deck]
    matching = [p.id for p in perks if p.special == letter]
    if matching:
        return matching
    return [p.id for p in perks if p.special in survivor.letters]


@RULES.answer("choose_special", RULE_LEVELING, commands={"choose_special": {"letter": string()}})
def answer_special(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    leveling = res.state.leveling
    assert leveling is not None
    letter = command["letter"]
    token = next(t for t in leveling.drawn if res.catalog.tokens[t].letter == letter)
    others = [t for t in leveling.drawn if t != token]
    survivor = res.state.survivor(leveling.seat)
    if letter not in survivor.letters:
        res.emit("SpecialTokenGained", seat=leveling.seat, token=token, letter=letter, returned=others)
        return
    perks = perk_choices(res, survivor, letter)
    res.emit("SpecialTokenDuplicated", seat=leveling.seat, token=token, letter=letter, returned=list(leveling.drawn), perks=perks)
    if perks:
        res.request(leveling.seat, "choose_perk", [{"type": "choose_perk", "perk": p} for p in perks])


@RULES.answer("choose_perk", RULE_LEVELING, commands={"choose_perk": {"perk": string()}})
def answer_perk(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    leveling = res.state.leveling
    assert leveling is not None
    res.emit("PerkGained", seat=leveling.seat, perk=command["perk"])


# -- folds -------------------------------------------------------------------


@RULES.fold("XPGained", {"amount": integer(), "levels": integer(), "peg": string(nullable=True), "seat": integer()})
def _xp_gained(state: GameState, data: dict) -> GameState:
    state = state.with_survivor(data["seat"], xp=data["peg"])
    return replace(state, level_ups=state.level_ups + (data["seat"],) * data["levels"])


@RULES.fold("LevelUpStarted", {"drawn": strings(), "seat": integer()})
def _level_up_started(state: GameState, data: dict) -> GameState:
    supply = list(state.special_supply)
    for token in data["drawn"]:
        if token in supply:
            supply.remove(token)
    return replace(
        state,
        level_ups=state.level_ups[1:],
        special_supply=tuple(supply),
        leveling=Leveling(data["seat"], tuple(data["drawn"])) if data["drawn"] else None,
    )


@RULES.fold("SpecialTokenGained", {"letter": string(), "returned": strings(), "seat": integer(), "token": string()})
def _token_gained(state: GameState, data: dict) -> GameState:
    seat = data["seat"]
    survivor = state.survivor(seat)
    state = state.with_survivor(seat, special=with_letter(survivor.special, data["letter"], data["token"]))
    return replace(state, special_supply=state.special_supply + tuple(data["returned"]), leveling=None)


@RULES.fold(
    "SpecialTokenDuplicated",
    {
        "letter": string(),
        "perks": strings(),
        "returned": strings(),
        "seat": integer(),
        "token": string(),
    },
)
def _token_duplicated(state: GameState, data: dict) -> GameState:
    leveling = state.leveling
    return replace(
        state,
        special_supply=state.special_supply + tuple(data["returned"]),
        leveling=replace(leveling, drawn=(), letter=data["letter"]) if leveling and data["perks"] else None,
    )


@RULES.fold("PerkGained", {"perk": string(), "seat": integer()})
def _perk_gained(state: GameState, data: dict) -> GameState:
    seat = data["seat"]
    state = state.with_survivor(seat, perks=state.survivor(seat).perks + (data["perk"],))
    return replace(state, perk_deck=tuple(p for p in state.perk_deck if p != data["perk"]), leveling=None)
