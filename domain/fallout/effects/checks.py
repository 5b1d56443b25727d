"""Checking whole cards against the vocabulary and the pack: every problem, one line each
(for the loader).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from domain.fallout.effects.conditions import (
    AtMarker,
    HasItem,
    HasSpecial,
    HasTrait,
    InSpace,
    conditions_in,
    parse_condition,
)
from domain.fallout.effects.influence import parse_influence
from domain.fallout.effects.modifiers import parse_modifier
from domain.fallout.effects.reading import EffectError
from domain.fallout.effects.results import (
    Add,
    Become,
    GainUnique,
    LoseItem,
    LoseTrait,
    MoveSurvivor,
    PlaceEnemy,
    PlaceFactionToken,
    PlaceMarker,
    Stage,
    parse_result,
)
from domain.fallout.effects.scenario_rules import MOMENTS, parse_scenario_rule
from domain.fallout.effects.tasks import parse_task
from domain.fallout.effects.triggers import EnterTrigger, ExploreTrigger, parse_trigger
from domain.fallout.model import (
    CARD_DECKS,
    ENCOUNTER_KINDS,
    USABLE,
    AgendaCard,
    Card,
    EncounterCard,
    Perk,
    QuestCard,
    Scenario,
)


@dataclass(frozen=True)
class Known:
    """What a pack holds, for cross-references. Empty sets: that reference is not checked."""

    spaces: frozenset[str] = frozenset()
    tiles: frozenset[str] = frozenset()
    traits: frozenset[str] = frozenset()
    cards: frozenset[str] = frozenset()  # ids of Pack.cards
    uniques: frozenset[str] = frozenset()  # ids of unique asset cards
    encounter_numbers: frozenset[int] = frozenset()  # library numbers of encounter cards
    quest_numbers: frozenset[int] = frozenset()
    quests: frozenset[str] = frozenset()  # ids of quest cards
    check_references: bool = True


@dataclass
class _Checker:
    known: Known
    problems: list[str] = field(default_factory=list)

    def _ok(self, where: str, parse: Any, raw: Any) -> Any:
        try:
            return parse(raw)
        except EffectError as exc:
            self.problems.append(f"{where}: {exc}")
            return None

    def _need(self, where: str, ok: bool, message: str, known: frozenset) -> None:
        if self.known.check_references and known and not ok:
            self.problems.append(f"{where}: {message}")

    def condition(self, where: str, raw: Any) -> None:
        if raw is None:
            return
        parsed = self._ok(where, parse_condition, raw)
        for c in conditions_in(parsed):
            if isinstance(c, HasTrait):
                self._need(where, c.trait in self.known.traits, f"no trait {c.trait!r} in the pack", self.known.traits)
            elif isinstance(c, InSpace):
                self._need(where, c.space in self.known.spaces, f"no space {c.space!r}", self.known.spaces)
            elif isinstance(c, HasItem):
                self._need(where, c.card in self.known.cards, f"no card {c.card!r}", self.known.cards)
            elif isinstance(c, AtMarker) and c.number is not None:
                self._need(where, c.number in self.known.quest_numbers, f"no quest card {c.number}", self.known.quest_numbers)

    def tasks(self, where: str, raw: Any) -> None:
        if not isinstance(raw, (list, tuple)):
            self.problems.append(f"{where}: expected a list of tasks")
            return
        for i, t in enumerate(raw):
            self._ok(f"{where}[{i}]", parse_task, t)

    def results(self, where: str, raw: Any) -> None:
        if not isinstance(raw, (list, tuple)):
            self.problems.append(f"{where}: expected a list of results")
            return
        for i, r in enumerate(raw):
            at = f"{where}[{i}]"
            parsed = self._ok(at, parse_result, r)
            k = self.known
            if isinstance(parsed, Add):
                self._need(at, parsed.number in k.encounter_numbers,
                           f"add {parsed.number}: no encounter card with that library number", k.encounter_numbers | k.quest_numbers)
            elif isinstance(parsed, Stage):
                self._need(at, parsed.number in k.quest_numbers,
                           f"stage {parsed.number}: no quest card with that library number", k.encounter_numbers | k.quest_numbers)
            elif isinstance(parsed, (Become, LoseTrait)):
                self._need(at, parsed.trait in k.traits, f"no trait {parsed.trait!r} in the pack", k.traits)
            elif isinstance(parsed, GainUnique) and parsed.card is not None:
                self._need(at, parsed.card in k.uniques, f"no unique asset {parsed.card!r}", k.uniques)
            elif isinstance(parsed, (PlaceMarker, PlaceFactionToken, MoveSurvivor)) or (
                isinstance(parsed, PlaceEnemy) and parsed.space is not None
            ):
                self._need(at, parsed.space in k.spaces, f"no space {parsed.space!r}", k.spaces)
            elif isinstance(parsed, LoseItem):
                self._need(at, parsed.card in k.cards, f"no card {parsed.card!r}", k.cards)

    def modifiers(self, where: str, raw: Any) -> None:
        if not isinstance(raw, (list, tuple)):
            self.problems.append(f"{where}: expected a list of modifiers")
            return
        for i, m in enumerate(raw):
            if self._ok(f"{where}[{i}]", parse_modifier, m) is not None and isinstance(m, dict):
                self.condition(f"{where}[{i}]: if", m.get("if"))

    def effects(self, where: str, raw: Any, timing: str | None) -> None:
        """A timed card's effects are modifiers for one fight; any other's are results."""
        if timing is None:
            self.results(where, raw)
            return
        self.modifiers(where, raw)
        if not raw:
            self.problems.append(f"{where}: a card with a timing has effects (the modifiers it gives the fight)")

    def trigger(self, where: str, raw: Any) -> None:
        parsed = self._ok(where, parse_trigger, raw)
        if isinstance(parsed, EnterTrigger):
            self._need(where, parsed.space in self.known.spaces, f"no space {parsed.space!r}", self.known.spaces)
        elif isinstance(parsed, ExploreTrigger) and parsed.tile is not None:
            self._need(where, parsed.tile in self.known.tiles, f"no tile {parsed.tile!r}", self.known.tiles)


def check_encounter(card: EncounterCard, known: Known = Known()) -> list[str]:
    c = _Checker(known)
    if card.deck not in ENCOUNTER_KINDS:
        c.problems.append(f"deck: unknown encounter deck {card.deck!r}")
    if card.deck in ("vault84", "vault109") and card.number is None:
        c.problems.append("a vault encounter has a library number (vault decks never start in play)")
    if not card.options:
        c.problems.append("an encounter card has at least one option")
    for i, o in enumerate(card.options, 1):
        at = f"option {i}"
        if not o.label.strip():
            c.problems.append(f"{at}: label (the bold text) is required")
        if o.forced and o.condition is None:
            c.problems.append(f"{at}: a FORCED option has a condition")
        c.condition(f"{at}: condition", o.condition)
        c.tasks(f"{at}: tasks", o.tasks)
        if o.tasks:
            if o.results or o.text:
                c.problems.append(f"{at}: an option with tasks has succeed/fail outcomes, not text/results")
        elif o.succeed or o.fail or o.succeed_text or o.fail_text:
            c.problems.append(f"{at}: succeed/fail outcomes need tasks")
        for name in ("results", "succeed", "fail"):
            c.results(f"{at}: {name}", getattr(o, name))
    if card.options and all(o.condition is not None and not o.forced for o in card.options):
        c.problems.append("every option has a condition: a survivor meeting none could not resolve the card")
    return c.problems


def check_quest(card: QuestCard, known: Known = Known()) -> list[str]:
    c = _Checker(known)
    c.results("on_stage", card.on_stage)
    if not card.objectives:
        c.problems.append("a quest card has at least one objective")
    for i, o in enumerate(card.objectives, 1):
        at = f"objective {i}"
        if o.trigger is not None:
            if o.requirement is not None or o.instructions:
                c.problems.append(f"{at}: a triggered objective has no requirement or instructions")
            c.trigger(f"{at}: trigger", o.trigger)
        c.condition(f"{at}: requirement", o.requirement)
        c.tasks(f"{at}: instructions", o.instructions)
        c.results(f"{at}: results", o.results)
    return c.problems


def check_card(card: Card, known: Known = Known()) -> list[str]:
    c = _Checker(known)
    if card.deck is not None and card.deck not in CARD_DECKS:
        c.problems.append(f"deck: unknown deck {card.deck!r} (expected one of: {', '.join(CARD_DECKS)})")
    if card.kind == "event" and card.deck != "loot":
        c.problems.append("a one-time event is a loot card (deck: loot)")
    if card.deck == "asset" and card.kind != "companion" and card.cost is None:
        c.problems.append("an asset item has a cost")
    if card.deck in ("asset", "unique") and card.kind in ("weapon", "apparel") + USABLE and card.value is None:
        c.problems.append("an asset item has a value (sold for value - 1)")
    if card.kind != "companion" and (card.recruit is not None or card.keep_if is not None):
        c.problems.append("only a companion has recruit / keep_if")
    if min(card.unexhaust_cost, card.unexhaust_hp, card.unexhaust_rads) < 0:
        c.problems.append("unexhaust_cost is never negative")
    c.condition("recruit", card.recruit)
    c.condition("keep_if", card.keep_if)
    if card.recruit is not None:
        parsed = c._ok("recruit", parse_condition, card.recruit)
        if parsed is not None and not isinstance(parsed, (HasTrait, HasSpecial)):
            c.problems.append("recruit: a trait (`{trait: idolized}`) or a letter (`{special: C}`)")
    c.effects("effects", card.effects, card.timing)
    c.modifiers("passive", card.passive)
    if card.kind == "event" and not card.effects:
        c.problems.append("a one-time event has effects")
    if card.timing is not None and card.kind in ("event",) + USABLE:
        c.problems.append("a timing is for a card held while fighting: an ability, weapon, apparel or companion")
    # Character Cards: an ability card is never discarded, so using it exhausts it.
    if card.kind == "ability" and card.exhaust is False:
        c.problems.append("an ability card cannot be discarded: using it exhausts it (leave out `exhaust`)")
    return c.problems


def check_agenda(card: AgendaCard, known: Known = Known()) -> list[str]:
    c = _Checker(known)
    for i, raw in enumerate(card.influence):
        parsed = c._ok(f"influence[{i}]", parse_influence, raw)
        if parsed is not None and isinstance(raw, dict) and "if" in raw:
            c.condition(f"influence[{i}]: if", raw["if"])
    return c.problems


def check_perk(perk: Perk, known: Known = Known()) -> list[str]:
    c = _Checker(known)
    c.effects("effects", perk.effects, perk.timing)
    return c.problems


def check_scenario(scenario: Scenario, known: Known = Known()) -> list[str]:
    c = _Checker(known)
    for i, ref in enumerate(scenario.staged_quests):
        if str(ref).isdigit():
            c._need(f"staged_quests[{i}]", int(ref) in known.quest_numbers,
                    f"no quest card with library number {ref}", known.quest_numbers)
        else:
            c._need(f"staged_quests[{i}]", str(ref) in known.quests, f"no quest card {ref!r}", known.quests)
    c.results("setup", scenario.setup)
    c.results("on_deplete", scenario.on_deplete)
    c.modifiers("passive", scenario.passive)
    for moment, about_survivor in MOMENTS.items():
        for i, raw in enumerate(getattr(scenario, moment)):
            at = f"{moment}[{i}]"
            if c._ok(at, partial(parse_scenario_rule, about_survivor=about_survivor), raw) is not None:
                c.condition(f"{at}: if", raw.get("if"))
                c.results(f"{at}: results", raw["results"])
    return c.problems


def check(component: Any, known: Known = Known()) -> list[str]:
    """Every problem in one component's effects (empty: it is whole)."""
    checkers: tuple[tuple[type, Callable[[Any, Known], list[str]]], ...] = (
        (EncounterCard, check_encounter), (QuestCard, check_quest), (Card, check_card),
        (AgendaCard, check_agenda), (Perk, check_perk), (Scenario, check_scenario),
    )
    for kind, checker in checkers:
        if isinstance(component, kind):
            return checker(component, known)
    raise TypeError(f"no effects to check on {type(component).__name__}")
