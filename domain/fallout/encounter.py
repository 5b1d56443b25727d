"""The encounter action (Encounter Action, Encounter Cards, Encounter Icons).

In a space with an encounter icon whose deck exists, with no face-up enemy
(Loyalty: the loyal faction's tokens do not count), once per turn (Actions),
the survivor draws the top card of the matching deck. The read-aloud split is
explicit: the acting seat is asked to choose with only the intro and each
option's bold label, condition and tasks in front of it (Solo Play: the same,
read by oneself); the chosen outcome is revealed only once chosen, and no
other outcome ever. A FORCED option whose condition holds is the only
choice; one whose condition fails cannot be chosen. Tasks run left to right
and lead to the succeed or the fail results. The level of the icon stands for
L. A trashed card leaves the game; any other goes to the bottom of its deck.

Events never name the drawn card to the seats (``redact`` drops it) and the
view shows only what was read aloud, so a client holding the pack cannot look
the other outcomes up.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import boolean, integer, mixed, record, string
from domain.fallout import conditions, loyalty, results, tasks
from domain.fallout.board import board_of
from domain.fallout.content import catalog
from domain.fallout.model import EncounterCard, EncounterOption
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import Decision, Encounter, GameState, replace, replaced
from domain.game import RuleViolation

RULE = "Encounter Action"
RULE_CARDS = "Encounter Cards"
RULE_ICONS = "Encounter Icons"


def problem(state: GameState, seat: int) -> RuleViolation | None:
    """Why the survivor cannot encounter now, as the refusal to raise, or None.

    Each code is written out where the refusal is built, so the contract suite
    reads it from the source (``FalloutGame.refusals`` declares them all)."""
    turn = state.turn
    s = state.survivor(seat)
    if turn is None or turn.actions <= 0:
        return RuleViolation("no_actions_left", "Both actions of this turn are spent.", rule="Actions")
    if s.space is None:
        return RuleViolation("not_on_map", "You are not on the map.", rule=RULE)
    icon = board_of(state).spaces[s.space].encounter
    if icon is None:
        return RuleViolation("no_encounter_icon", "There is no encounter icon in your space.", rule=RULE)
    if not state.encounter_decks.get(icon.kind):
        return RuleViolation("no_encounter_deck", f"There is no {icon.kind} encounter deck (yet).", rule=RULE_ICONS)
    if turn.encountered:
        # Actions: every action may be repeated in a turn "except for the encounter action".
        return RuleViolation("already_encountered", "You already took the encounter action this turn.", rule="Actions")
    if loyalty.blocked(state, seat):
        return RuleViolation("enemy_in_space", "You cannot encounter in a space with a face-up enemy.", rule=RULE)
    return None


def allowed(state: GameState, seat: int) -> bool:
    return problem(state, seat) is None


@RULES.command("encounter", {})
def encounter_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    refused = problem(res.state, seat)
    if refused is not None:
        raise refused
    state = res.state
    space = state.survivor(seat).space
    assert space is not None
    icon = board_of(state).spaces[space].encounter
    assert icon is not None
    card = catalog(state.pack).encounters[state.encounter_decks[icon.kind][0]]
    res.emit(
        "EncounterDrawn", seat=seat, card=card.id, deck=icon.kind, space=space,
        level=conditions.level_at(state, space), read_aloud=read_aloud(card),
    )


def read_aloud(card: EncounterCard) -> dict[str, Any]:
    """What the player to the right reads before the choice: intro and bold lines."""
    return {
        "title": card.title,
        "intro": card.intro,
        "options": [
            {"label": o.label, "forced": o.forced, "condition": o.condition, "tasks": list(o.tasks)}
            for o in card.options
        ],
    }


def choosable(state: GameState, seat: int, card: EncounterCard) -> list[int]:
    """FORCED first: a forced option whose condition holds is the only choice."""
    for i, o in enumerate(card.options):
        if o.forced and conditions.holds(state, seat, o.condition):
            return [i]
    return [i for i, o in enumerate(card.options) if not o.forced and conditions.holds(state, seat, o.condition)]


def step(res: Resolution) -> None:
    enc = res.state.encounter
    assert enc is not None
    card = res.catalog.encounters[enc.card]
    if enc.option is None:
        options = choosable(res.state, enc.seat, card)
        if not options:  # a pack's check forbids this; the card simply goes back
            res.emit("EncounterEnded", seat=enc.seat, deck=enc.kind, trashed=enc.trashed)
            return
        res.request(
            enc.seat, "encounter_option",
            [{"type": "choose_option", "option": i} for i in options],
            read_aloud=read_aloud(card), level=enc.level,
        )
        return
    option = card.options[enc.option]
    if enc.outcome is None:
        a = res.state.attempt
        if a is None:
            tasks.start(res, enc.seat, option.tasks, enc.level)
        elif a.outcome is not None:
            _reveal(res, enc, option, "succeed" if a.outcome else "fail")
        return
    res.emit("EncounterEnded", seat=enc.seat, deck=enc.kind, trashed=enc.trashed)


@RULES.answer("encounter_option", RULE, commands={"choose_option": {"option": integer()}})
def answer(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    enc = res.state.encounter
    assert enc is not None
    index = command["option"]
    option = res.catalog.encounters[enc.card].options[index]
    res.emit("EncounterOptionChosen", seat=enc.seat, option=index, label=option.label)
    if not option.tasks:
        chosen = res.state.encounter
        assert chosen is not None
        _reveal(res, chosen, option, "results")


def _reveal(res: Resolution, enc: Encounter, option: EncounterOption, outcome: str) -> None:
    text, bar = {
        "results": (option.text, option.results),
        "succeed": (option.succeed_text, option.succeed),
        "fail": (option.fail_text, option.fail),
    }[outcome]
    res.emit("EncounterOutcome", seat=enc.seat, option=enc.option, outcome=outcome, text=text, results=list(bar))
    results.push(res, enc.seat, enc.card, "encounter", enc.level, bar)


def view(state: GameState) -> dict[str, Any] | None:
    """The encounter in progress as the table knows it: no card id, no unread outcome."""
    enc = state.encounter
    if enc is None:
        return None
    card = catalog(state.pack).encounters[enc.card]
    out: dict[str, Any] = {
        "seat": enc.seat, "deck": enc.kind, "space": enc.space, "level": enc.level,
        "read_aloud": read_aloud(card), "option": enc.option, "outcome": enc.outcome,
    }
    if enc.option is not None and enc.outcome is not None:
        o = card.options[enc.option]
        out["outcome_text"] = {"results": o.text, "succeed": o.succeed_text, "fail": o.fail_text}[enc.outcome]
        out["results"] = list({"results": o.results, "succeed": o.succeed, "fail": o.fail}[enc.outcome])
    return out


# -- folds -------------------------------------------------------------------


@RULES.fold(
    "EncounterDrawn",
    {
        "card": string(nullable=True),
        "deck": string(),
        "level": integer(),
        "read_aloud": record(),
        "seat": integer(),
        "space": string(),
    },
)
def _drawn(state: GameState, data: dict) -> GameState:
    kind = data["deck"]
    deck = state.encounter_decks.get(kind, ())
    turn = state.turn
    if turn is not None:
        turn = replace(turn, actions=turn.actions - 1, encountered=turn.encountered + (data["space"],))
    return replace(
        state,
        turn=turn,
        encounter_decks={**state.encounter_decks, kind: tuple(c for c in deck if c != data["card"])},
        encounter=Encounter(data["seat"], data["card"], kind, data["space"], data["level"]),
    )


@RULES.fold("EncounterOptionChosen", {"label": string(), "option": integer(), "seat": integer()})
def _chosen(state: GameState, data: dict) -> GameState:
    enc = state.encounter
    return state if enc is None else replace(state, encounter=replace(enc, option=data["option"]))


@RULES.fold(
    "EncounterOutcome",
    {
        "option": integer(),
        "outcome": string(),
        "results": mixed(),
        "seat": integer(),
        "text": string(),
    },
)
def _outcome(state: GameState, data: dict) -> GameState:
    enc = state.encounter
    if enc is None:
        return state
    return replace(state, encounter=replace(enc, outcome=data["outcome"]), attempt=None)


@RULES.fold("EncounterEnded", {"deck": string(), "seat": integer(), "trashed": boolean()})
def _ended(state: GameState, data: dict) -> GameState:
    enc = state.encounter
    if enc is None:
        return state
    changes: dict[str, Any] = {"encounter": None}
    if not enc.trashed:
        kind = enc.kind
        changes["encounter_decks"] = {**state.encounter_decks, kind: state.encounter_decks.get(kind, ()) + (enc.card,)}
    return replaced(state, changes)
