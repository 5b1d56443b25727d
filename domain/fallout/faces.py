"""Fallout's card faces (``view["faces"]``): each survivor, item, perk, agenda, quest, encounter and
enemy token a view shows, as a player reads it.

Faces are written once per pack and scenario (``pack_faces``) and a view
takes those of the ids it shows (``shown``), so a face tells nothing the view
hides: another seat's agenda cards, a face-down tile, an inactive enemy's
token are not shown, so they have no face. An encounter card's face is what is
read aloud (its intro and its options with their conditions and tasks), never
its outcomes, which no seat sees before choosing. Rules text comes from the
effects (``domain.fallout.rules_words``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from domain.engine.faces import face
from domain.fallout.content import catalog
from domain.fallout.model import AgendaCard, Card, EncounterCard, EnemyToken, Perk, QuestCard, Survivor
from domain.fallout.names import counted, listed, plain
from domain.fallout.rules_words import Rules, amount, sentence

_USED = {
    "aid": "Use from your inventory, then discard it", "drug": "Use from your inventory, then discard it",
    "magazine": "Use from your inventory, then discard it", "event": "When drawn",
}  # fmt: skip
_TIMING = {"before_fight": "Before a fight", "during_fight": "During a fight"}


def shown(state_pack: str, scenario: str, strings: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The faces of the ids among ``strings`` (every string a view shows)."""
    faces = pack_faces(state_pack, scenario)
    # Copies: the pack's faces are cached, a view is the caller's to change.
    return {key: dict(faces[key]) for key in strings if key in faces}


@functools.cache
def pack_faces(pack_id: str, scenario_id: str | None) -> dict[str, dict[str, Any]]:
    """Every face of a pack, by id, once per pack and scenario (the factions' names are the scenario's)."""
    c = catalog(pack_id)
    pack = c.pack
    scenario = pack.scenarios.get(scenario_id) if scenario_id else None
    rules = Rules(pack, {f.key: f.name for f in (scenario.factions if scenario else ())})
    out: dict[str, dict[str, Any]] = {}
    for card in c.cards.values():
        out[card.id] = _card(rules, card)
    for survivor in pack.survivors.values():
        out[survivor.id] = _survivor(rules, survivor, c.cards.get(survivor.character_card))
    for perk in c.perks.values():
        out[perk.id] = _perk(rules, perk)
    for agenda in c.agendas.values():
        out[agenda.id] = _agenda(rules, agenda)
    for quest in c.quests.values():
        out[quest.id] = _quest(rules, quest)
    for encounter in c.encounters.values():
        out[encounter.id] = _encounter(rules, encounter)
    for token in c.enemies.values():
        out[token.id] = _enemy(rules, token)
    return out


def _join(parts: list[str]) -> str:
    return " ".join(sentence(p) for p in parts if p)


def _card_rules(rules: Rules, card: Card) -> list[str]:
    parts = []
    if card.kind == "weapon":
        letters = "".join(card.special)
        parts.append(f"weapon{' (ranged)' if card.ranged else ''}" + (f": a reroll in fights for each of {letters} you have" if letters else ""))
    elif card.kind == "apparel":
        parts.append(f"apparel: armor {card.armor}" if card.armor else "apparel")
    elif card.kind == "ability":
        parts.append("character ability, beside the board all game")
    else:
        parts.append(plain(card.kind))
    if card.kind == "weapon" and card.armor:
        parts.append(f"armor {card.armor}")
    if card.recruit:
        parts.append(f"recruit only if {rules.condition(card.recruit)}")
    parts += [f"while held: {rules.modifier(m)}" for m in card.passive]
    if card.effects:
        if card.timing:
            parts.append(f"{_TIMING.get(card.timing, plain(card.timing))}, exhaust: "
                         + listed([rules.modifier(m) for m in card.effects]) + " in this fight")  # fmt: skip
        else:
            use = _USED.get(card.kind) or ("Exhaust" if card.exhaust is not False else "Discard it")
            parts.append(f"{use}: {rules.results(card.effects)}")
    costs = [counted(card.unexhaust_cost, "Cap")] * bool(card.unexhaust_cost) + [f"{card.unexhaust_hp} damage"] * bool(
        card.unexhaust_hp
    ) + [f"{card.unexhaust_rads} rads"] * bool(card.unexhaust_rads)
    if costs:
        parts.append(f"to unexhaust it, pay {listed(costs)}")
    if card.keep_if and set(card.keep_if) == {"not"}:
        parts.append(f"it leaves you when it unexhausts if {rules.condition(card.keep_if['not'])}")
    elif card.keep_if:
        parts.append(f"it leaves you when it unexhausts unless {rules.condition(card.keep_if)}")
    if card.value is not None:
        parts.append(f"sells for {counted(max(0, card.value - 1), 'Cap')}")
    return parts


def _card(rules: Rules, card: Card) -> dict[str, Any]:
    return face(card.name, card.kind, card.cost, _join(_card_rules(rules, card)))


def _survivor(rules: Rules, survivor: Survivor, character: Card | None) -> dict[str, Any]:
    parts = [f"starts with the {survivor.special} token"]
    if character is not None:
        parts.append(f"character card {character.name}: " + "; ".join(_card_rules(rules, character)))
    return face(survivor.name, "survivor", None, _join(parts))


def _perk(rules: Rules, perk: Perk) -> dict[str, Any]:
    if perk.timing:
        use = f"{_TIMING.get(perk.timing, plain(perk.timing))}: " + listed([rules.modifier(m) for m in perk.effects])
    else:
        use = f"use on your turn, then return it to the perk deck: {rules.results(perk.effects)}"
    return face(perk.name, "perk", None, _join([f"perk of {perk.special}", use]))


def _agenda(rules: Rules, agenda: AgendaCard) -> dict[str, Any]:
    parts = [f"loyalty to {rules.faction(agenda.faction)}" if agenda.faction else "neutral agenda",
             f"activates {listed([rules.faction(a) if a in ('star', 'spade') else plain(a) for a in agenda.activation])}",
             "1 influence"]  # fmt: skip
    parts += [rules.influence(i) for i in agenda.influence]
    if agenda.players > 1:
        parts.append(f"used with {agenda.players} or more players")
    return face(agenda.name, "agenda", None, _join(parts))


def _quest(rules: Rules, quest: QuestCard) -> dict[str, Any]:
    parts = [f"quest {quest.number}"]
    if quest.on_stage:
        parts.append(f"when staged: {rules.results(quest.on_stage)}")
    for n, o in enumerate(quest.objectives, 1):
        if o.trigger:
            how = rules.trigger(o.trigger)
        else:
            where = f"if {rules.condition(o.requirement)}, " if o.requirement else ""
            how = f"{where}quest action: {rules.tasks(o.instructions)}"
        aim = f" ({o.text.strip().rstrip('.')})" if o.text else ""
        parts.append(f"objective {n}{aim}: {how}; then {rules.results(o.results)}")
    return face(quest.title, "quest", None, _join(parts))


def _encounter(rules: Rules, card: EncounterCard) -> dict[str, Any]:
    parts = [f"{plain(card.deck)} encounter", card.intro]
    for o in card.options:
        needs = [f"{'forced if' if o.forced else 'only if'} {rules.condition(o.condition)}"] * bool(o.condition)
        needs += [rules.tasks(o.tasks)] * bool(o.tasks)
        parts.append(f"{o.label.strip().rstrip('.')}" + (f" ({'; '.join(needs)})" if needs else ""))
    return face(card.title or "Encounter", "encounter", None, _join(parts))


def _enemy(rules: Rules, token: EnemyToken) -> dict[str, Any]:
    parts = [f"{plain(token.type)} enemy, level {amount(token.level)}",
             f"vulnerable in the {listed(sorted(token.vulnerable))}" if token.vulnerable else "",
             f"abilities: {listed([plain(a) for a in token.abilities])}" if token.abilities else ""]  # fmt: skip
    return face(token.name, "enemy", None, _join(parts))
