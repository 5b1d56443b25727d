"""V.A.T.S. dice: rolling, rerolls, and tests.

A roll stays on the table (``GameState.roll``) while its owner spends rerolls,
one at a time, each on any subset of the three dice; Well Rested may be given
up for one more. Every reroll is a pending decision listing each non-empty
subset, so a client never has to know the rule to offer it.

``start_test`` is the entry point encounters, quests and card results call: the
result comes back as a ``TestResolved`` event carrying the caller's ``then``.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from domain.engine.shapes import boolean, integer, integers, record, string
from domain.fallout import modifiers, traits
from domain.fallout.model import Pack
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import WELL_RESTED, Decision, GameState, Roll, Test, replace

RULE_DICE = "V.A.T.S. Dice"
RULE_TESTS = "Tests"
RULE_FIGHT = "Fight"

SUBSETS = tuple(
    [list(c) for n in (1, 2, 3) for c in combinations(range(3), n)]
)


def roll(res: Resolution, dice: list[int] | None = None) -> list[int]:
    pack = res.catalog.pack
    which = range(len(pack.dice)) if dice is None else dice
    return [res.rng.below(len(pack.dice[i].faces)) for i in which]


def hits(pack: Pack, faces: tuple[int, ...] | list[int]) -> int:
    return sum(pack.dice[i].faces[f].hits for i, f in enumerate(faces))


def areas(pack: Pack, faces: tuple[int, ...] | list[int]) -> list[frozenset[str]]:
    return [pack.dice[i].faces[f].areas for i, f in enumerate(faces)]


def start_roll(res: Resolution, seat: int, rerolls: int, test: dict[str, Any] | None = None) -> None:
    well_rested = res.state.survivor(seat).has_trait(WELL_RESTED)
    during = test is None and bool(modifiers.abilities(res.state, seat, (modifiers.DURING,)))
    extra = {"abilities": True} if during else {}  # left out otherwise: the event as it always was
    res.emit("DiceRolled", seat=seat, faces=roll(res), rerolls=rerolls, well_rested=well_rested, test=test, **extra)


def start_test(
    res: Resolution, seat: int, letters: list[str], difficulty: int, then: dict[str, Any] | None = None
) -> None:
    """Tests: one reroll per listed letter the survivor has; succeed on hits >= difficulty."""
    held = res.state.survivor(seat).letters
    rerolls = sum(1 for letter in letters if letter in held) + modifiers.bonus(res.state, seat, "test_rerolls")
    start_roll(
        res, seat, rerolls, test={"letters": list(letters), "difficulty": difficulty, "then": then or {}}
    )


def reroll_choices(state: GameState) -> list[dict[str, Any]]:
    r = state.roll
    assert r is not None
    choices: list[dict[str, Any]] = []
    if r.rerolls > 0:
        choices += [{"type": "reroll", "dice": subset} for subset in SUBSETS]
    if r.well_rested:
        choices.append({"type": "give_up_well_rested"})
    if r.abilities:
        choices += modifiers.abilities(state, r.seat, (modifiers.DURING,))
    choices.append({"type": "keep_dice"})
    return choices


def request_reroll(res: Resolution) -> None:
    r = res.state.roll
    assert r is not None
    res.request(r.seat, "reroll", reroll_choices(res.state), faces=list(r.faces), rerolls=r.rerolls)


@RULES.answer(
    "reroll",
    RULE_DICE,
    commands={
        "reroll": {"dice": integers()},
        "keep_dice": {},
        "give_up_well_rested": {},
        "use_in_fight": {"card": string()},
    },
)
def answer(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    r = res.state.roll
    assert r is not None
    kind = command["type"]
    if kind == "reroll":
        dice = list(command["dice"])
        res.emit("DiceRerolled", seat=r.seat, dice=dice, faces=roll(res, dice))
    elif kind == "use_in_fight":
        modifiers.use(res, r.seat, command["card"], (modifiers.DURING,))
    elif kind == "give_up_well_rested":
        found = traits.token_for(res, WELL_RESTED)
        res.emit("WellRestedGivenUp", seat=r.seat, token=found[0] if found else None)
    else:
        res.emit("DiceKept", seat=r.seat, faces=list(r.faces))


def finish_test(res: Resolution) -> None:
    r = res.state.roll
    assert r is not None and r.test is not None
    total = hits(res.catalog.pack, r.faces)
    res.emit(
        "TestResolved",
        seat=r.seat,
        faces=list(r.faces),
        hits=total,
        difficulty=r.test.difficulty,
        success=total >= r.test.difficulty,
        then=dict(r.test.then),
    )


# -- folds -------------------------------------------------------------------


def _kept(rerolls: int, well_rested: bool, abilities: bool = False) -> bool:
    return rerolls <= 0 and not well_rested and not abilities


@RULES.fold(
    "DiceRolled",
    {
        "abilities": boolean(optional=True),
        "faces": integers(),
        "rerolls": integer(),
        "seat": integer(),
        "test": record(nullable=True),
        "well_rested": boolean(),
    },
)
def _rolled(state: GameState, data: dict) -> GameState:
    test = data.get("test")
    return replace(
        state,
        roll=Roll(
            seat=data["seat"],
            faces=tuple(data["faces"]),
            rerolls=data["rerolls"],
            well_rested=data["well_rested"],
            kept=_kept(data["rerolls"], data["well_rested"], bool(data.get("abilities"))),
            abilities=bool(data.get("abilities")),
            test=None
            if test is None
            else Test(tuple(test["letters"]), test["difficulty"], dict(test.get("then") or {})),
        ),
    )


@RULES.fold("DiceRerolled", {"dice": integers(), "faces": integers(), "seat": integer()})
def _rerolled(state: GameState, data: dict) -> GameState:
    r = state.roll
    if r is None:
        return state
    faces = list(r.faces)
    for die, face in zip(data["dice"], data["faces"], strict=False):  # a fold never fails on a stored event
        faces[die] = face
    rerolls = r.rerolls - 1
    return replace(
        state,
        roll=replace(r, faces=tuple(faces), rerolls=rerolls, kept=_kept(rerolls, r.well_rested, r.abilities)),
    )


@RULES.fold("WellRestedGivenUp", {"seat": integer(), "token": string()})
def _well_rested_given_up(state: GameState, data: dict) -> GameState:
    seat = data["seat"]
    state = state.with_survivor(
        seat, traits=tuple(t for t in state.survivor(seat).traits if t[0] != data["token"])
    )
    r = state.roll
    if r is None:
        return state
    return replace(state, roll=replace(r, rerolls=r.rerolls + 1, well_rested=False, kept=False))


@RULES.fold("DiceKept", {"faces": integers(), "seat": integer()})
def _dice_kept(state: GameState, data: dict) -> GameState:
    r = state.roll
    return state if r is None else replace(state, roll=replace(r, kept=True))


@RULES.fold(
    "TestResolved",
    {
        "difficulty": integer(),
        "faces": integers(),
        "hits": integer(),
        "seat": integer(),
        "success": boolean(),
        "then": record(),
    },
)
def _test_resolved(state: GameState, data: dict) -> GameState:
    return replace(state, roll=None)
