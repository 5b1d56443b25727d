"""Schemas of the components: enemies, dice, tokens, cards, survivors, agendas, perks,
encounter and quest cards, and the pack's manifest.
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from domain.engine.packs import Strict, duplicates
from domain.fallout.model import (
    ABILITIES,
    AREAS,
    CARD_DECKS,
    CARD_KINDS,
    ENCOUNTER_KINDS,
    ENEMY_TYPES,
    FACTIONS,
    SPECIAL,
    TIMINGS,
    AgendaCard,
    Card,
    Die,
    DieFace,
    EncounterCard,
    EncounterOption,
    EnemyToken,
    Perk,
    QuestCard,
    QuestObjective,
    SpecialToken,
    Survivor,
    TraitToken,
)
from domain.fallout.pack.schema_parts import (
    FACES,
    PACK_FORMAT,
    TRAITS,
    LevelField,
    condition_field,
    effects_field,
    id_field,
    library_number,
    one_of,
)


class EnemySchema(Strict):
    id = id_field()
    name = fields.String(required=True)
    type = fields.String(required=True, validate=one_of(ENEMY_TYPES))
    level = LevelField(required=True)
    vulnerable = fields.List(
        fields.String(validate=one_of(AREAS)), required=True, validate=validate.Length(min=1)
    )
    abilities = fields.List(
        fields.String(validate=one_of(ABILITIES)), load_default=list, validate=validate.Length(max=2)
    )

    @validates_schema
    def _check(self, data: dict, **kwargs: Any) -> None:
        problems = [f"vulnerable area {a!r} is listed twice" for a in duplicates(data["vulnerable"])]
        problems += [f"ability {a!r} is listed twice" for a in duplicates(data["abilities"])]
        if problems:
            raise ValidationError(problems)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> EnemyToken:
        return EnemyToken(
            id=data["id"],
            type=data["type"],
            name=data["name"],
            level=data["level"],
            vulnerable=frozenset(data["vulnerable"]),
            abilities=tuple(data["abilities"]),
        )


class DieFaceSchema(Strict):
    hits = fields.Integer(strict=True, required=True, validate=validate.Range(0, 2))
    areas = fields.List(fields.String(validate=one_of(AREAS)), load_default=list)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> DieFace:
        return DieFace(hits=data["hits"], areas=frozenset(data["areas"]))


class DieSchema(Strict):
    id = id_field()
    faces = fields.List(fields.Nested(DieFaceSchema), required=True, validate=validate.Length(equal=FACES))

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Die:
        return Die(id=data["id"], faces=tuple(data["faces"]))


class SpecialTokenSchema(Strict):
    id = id_field()
    letter = fields.String(required=True, validate=one_of(SPECIAL))
    survivor = fields.String(load_default=None)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> SpecialToken:
        return SpecialToken(**data)


class TraitTokenSchema(Strict):
    id = id_field()
    sides = fields.List(fields.String(validate=one_of(TRAITS)), required=True, validate=validate.Length(equal=2))
    locked = fields.List(fields.String(validate=one_of(TRAITS)), load_default=list)

    @validates_schema
    def _check(self, data: dict, **kwargs: Any) -> None:
        problems = []
        if len(set(data["sides"])) != len(data["sides"]):
            problems.append("a token's two sides must be different traits")
        problems += [f"locked side {s!r} is not a side of this token" for s in data["locked"] if s not in data["sides"]]
        if problems:
            raise ValidationError(problems)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> TraitToken:
        return TraitToken(id=data["id"], sides=(data["sides"][0], data["sides"][1]), locked=frozenset(data["locked"]))


def _unexhaust_costs(raw: Any) -> dict[str, int] | None:
    """The Card fields an unexhaust cost fills in; None: not a cost."""
    costs = raw if isinstance(raw, dict) else {"caps": raw}
    if set(costs) - {"caps", "hp", "rads"}:
        return None
    if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in costs.values()):
        return None
    return {
        "unexhaust_cost": costs.get("caps", 0), "unexhaust_hp": costs.get("hp", 0),
        "unexhaust_rads": costs.get("rads", 0),
    }


class CardSchema(Strict):
    id = id_field()
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=one_of(CARD_KINDS))
    text = fields.String(load_default="")
    special = fields.List(fields.String(validate=one_of(SPECIAL)), load_default=list)
    ranged = fields.Boolean(load_default=False)
    armor = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0))
    cost = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=0))
    value = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=0))
    effects = effects_field()
    # Which deck the card comes from and goes back to; a file of one deck
    # (loot.yaml, assets.yaml, uniques.yaml) fills it in. None: a character card.
    deck = fields.String(load_default=None, validate=one_of(CARD_DECKS))
    recruit = condition_field()
    keep_if = condition_field()
    # Caps (a number), or what it costs in Caps, HP and rads: {caps: 1, hp: 2, rads: 1}.
    unexhaust_cost = fields.Raw(load_default=0)
    exhaust = fields.Boolean(load_default=None, allow_none=True)
    passive = effects_field()
    timing = fields.String(load_default=None, validate=one_of(TIMINGS))

    @validates_schema
    def _check(self, data: dict, **kwargs: Any) -> None:
        problems = [f"special letter {s!r} is listed twice" for s in duplicates(data["special"])]
        # Weapons: only a weapon generates rerolls or has the ranged icon.
        if data["kind"] != "weapon" and (data["special"] or data["ranged"]):
            problems.append("only a weapon has special letters or the ranged icon")
        # Apparel: only apparel cancels hits.
        if data["kind"] != "apparel" and data["armor"]:
            problems.append("only apparel has an armor value")
        if _unexhaust_costs(data["unexhaust_cost"]) is None:
            problems.append("unexhaust_cost: a number of Caps, or a mapping of caps, hp and rads (whole numbers)")
        if problems:
            raise ValidationError(problems)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Card:
        return Card(
            **{
                **data, "special": tuple(data["special"]), "effects": tuple(data["effects"]),
                "passive": tuple(data["passive"]), **(_unexhaust_costs(data["unexhaust_cost"]) or {}),
            },
        )


class SurvivorSchema(Strict):
    id = id_field()
    name = fields.String(required=True)
    special = fields.String(required=True, validate=one_of(SPECIAL))
    character_card = fields.String(required=True)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Survivor:
        return Survivor(**data)


class AgendaSchema(Strict):
    id = id_field()
    name = fields.String(required=True)
    players = fields.Integer(strict=True, required=True, validate=validate.Range(1, 4))
    # Enemy types and faction icons (Faction Tokens), left to right.
    activation = fields.List(
        fields.String(validate=one_of(ENEMY_TYPES + FACTIONS)), required=True, validate=validate.Length(1, 4)
    )
    faction = fields.String(load_default=None, validate=one_of(FACTIONS))
    text = fields.String(load_default="")
    influence = fields.List(fields.Dict(keys=fields.String()), load_default=list)

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> AgendaCard:
        return AgendaCard(**{**data, "activation": tuple(data["activation"]), "influence": tuple(data["influence"])})


class PerkSchema(Strict):
    id = id_field()
    name = fields.String(required=True)
    special = fields.String(required=True, validate=one_of(SPECIAL))
    text = fields.String(load_default="")
    effects = effects_field()
    timing = fields.String(load_default=None, validate=one_of(TIMINGS))

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> Perk:
        return Perk(**{**data, "effects": tuple(data["effects"])})


class EncounterOptionSchema(Strict):
    label = fields.String(required=True, validate=validate.Length(min=1))
    condition = condition_field()
    forced = fields.Boolean(load_default=False)
    tasks = effects_field()
    text = fields.String(load_default="")
    results = effects_field()
    succeed_text = fields.String(load_default="")
    succeed = effects_field()
    fail_text = fields.String(load_default="")
    fail = effects_field()

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> EncounterOption:
        bars = ("tasks", "results", "succeed", "fail")
        fields: dict[str, Any] = {key: tuple(value) if key in bars else value for key, value in data.items()}
        return EncounterOption(**fields)


class EncounterSchema(Strict):
    id = id_field()
    deck = fields.String(required=True, validate=one_of(ENCOUNTER_KINDS))
    number = library_number(load_default=None)
    title = fields.String(load_default="")
    intro = fields.String(required=True, validate=validate.Length(min=1))
    options = fields.List(fields.Nested(EncounterOptionSchema), required=True, validate=validate.Length(min=1))

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> EncounterCard:
        return EncounterCard(**{**data, "options": tuple(data["options"])})


class QuestObjectiveSchema(Strict):
    text = fields.String(load_default="")
    trigger = fields.Dict(keys=fields.String(), load_default=None, allow_none=True)
    requirement = condition_field()
    instructions = effects_field()
    results = effects_field()

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> QuestObjective:
        return QuestObjective(
            **{**data, "instructions": tuple(data["instructions"]), "results": tuple(data["results"])}
        )


class QuestSchema(Strict):
    id = id_field()
    number = library_number(required=True)
    title = fields.String(required=True, validate=validate.Length(min=1))
    text = fields.String(load_default="")
    on_stage = effects_field()
    objectives = fields.List(fields.Nested(QuestObjectiveSchema), required=True, validate=validate.Length(min=1))

    @post_load
    def _build(self, data: dict, **kwargs: Any) -> QuestCard:
        return QuestCard(**{**data, "on_stage": tuple(data["on_stage"]), "objectives": tuple(data["objectives"])})


class ManifestSchema(Strict):
    id = id_field()
    format = fields.Integer(strict=True, required=True, validate=validate.Equal(PACK_FORMAT))
