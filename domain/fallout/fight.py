"""Fights and the fight action.

A fight is five steps: roll, reroll (one reroll per letter on the equipped
weapon that the survivor has), the enemy's hits (times its level, after
apparel armor cancels hits), the survivor's hits (one per die showing a filled
area the enemy has), and XP for a kill. Fighting across a space needs a ranged
weapon (or a ranged enemy activating); whoever fights at range without the
other being ranged inflicts one additional hit.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import boolean, integer, string
from domain.fallout import effects as fx
from domain.fallout import enemies, items, killed, loyalty, modifiers, results, turns, vats, xp
from domain.fallout.board import board_of
from domain.fallout.content import catalog
from domain.fallout.model import Card
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import Attackers, Decision, Fight, GameState, clamp_hp, clamp_rads, replace, replaced
from domain.game import RuleViolation

RULE = "Fight"
RULE_ACTION = "Fight Action"


def equipped(state: GameState, seat: int, kind: str) -> Card | None:
    cards = catalog(state.pack).cards
    for card_id in state.survivor(seat).equipped:
        card = cards.get(card_id)
        if card is not None and card.kind == kind:
            return card
    return None


def has_ranged_weapon(state: GameState, seat: int) -> bool:
    weapon = equipped(state, seat, "weapon")
    return weapon is not None and weapon.ranged


def targets(state: GameState, seat: int) -> list[tuple[str, bool]]:
    """Enemies the fight action may target: (enemy id, at range)."""
    survivor = state.survivor(seat)
    if survivor.space is None:
        return []
    # Loyalty: a survivor cannot fight the tokens of the faction they are loyal to.
    foes = [e for e in state.enemies if e.active and not e.drawn and not loyalty.ignores(state, seat, e)]
    out = [(e.id, False) for e in foes if e.space == survivor.space]
    if has_ranged_weapon(state, seat):
        near = set(board_of(state).adjacent_spaces(survivor.space, state.faceup_places()))
        out += [(e.id, True) for e in foes if e.space in near]
    return sorted(out, key=lambda t: enemies.enemy_sort_key(t[0]))


@RULES.command("fight", {"enemy": string()})
def fight_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    state = res.state
    enemy_id = command.get("enemy")
    enemy = state.enemy(enemy_id) if isinstance(enemy_id, str) else None
    if enemy is None:
        raise RuleViolation("no_such_enemy", f"There is no enemy {enemy_id!r} on the map.", rule=RULE_ACTION)
    turns.need_action(state, RULE_ACTION)
    if not enemy.active:
        raise RuleViolation(
            "enemy_inactive", "Inactive enemies cannot be fought until they activate.", rule="Enemies"
        )
    reach = dict(targets(state, seat))
    if enemy_id not in reach:
        raise RuleViolation(
            "enemy_out_of_reach",
            "Fight an enemy in your space, or in an adjacent space with a ranged weapon.",
            rule=RULE_ACTION,
        )
    start(res, seat, enemy_id, "action", reach[enemy_id])


def start(res: Resolution, seat: int, enemy_id: str, cause: str, at_range: bool) -> None:
    res.emit("FightStarted", seat=seat, enemy=enemy_id, cause=cause, at_range=at_range)
    before_the_roll(res, seat)


def before_the_roll(res: Resolution, seat: int) -> None:
    """Abilities timed "before a fight" are used now or never; then the dice are rolled (step 1)."""
    fight = res.state.fight
    assert fight is not None
    usable = modifiers.abilities(res.state, seat, TIMED)
    if not fight.rolling and any(_timing(res, c["card"]) == modifiers.BEFORE for c in usable):
        res.request(seat, "before_fight", usable + [{"type": "roll_dice"}])
        return
    weapon = equipped(res.state, seat, "weapon")
    letters = res.state.survivor(seat).letters
    rerolls = sum(1 for letter in (weapon.special if weapon else ()) if letter in letters)
    rerolls += modifiers.bonus(res.state, seat, "fight_rerolls") + fight.rerolls
    vats.start_roll(res, seat, rerolls)


TIMED = (modifiers.BEFORE, modifiers.DURING)


def _timing(res: Resolution, card_id: str) -> str | None:
    cat = res.catalog
    return cat.perks[card_id].timing if card_id in cat.perks else cat.cards[card_id].timing


@RULES.answer("before_fight", RULE, commands={"use_in_fight": {"card": string()}, "roll_dice": {}})
def answer_before(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    if command["type"] == "use_in_fight":
        modifiers.use(res, decision.seat, command["card"], TIMED)
    else:
        # Rolling now: the "before a fight" abilities not used are gone for this fight.
        res.emit("FightDiceRolling", seat=decision.seat)
    before_the_roll(res, decision.seat)


def resolve(res: Resolution) -> None:
    """Steps 3 to 5, once the dice are kept."""
    state = res.state
    fight, roll = state.fight, state.roll
    assert fight is not None and roll is not None
    pack = res.catalog.pack
    enemy = state.enemy(fight.enemy)
    if enemy is None:  # cannot happen in a consistent game; end the fight quietly
        res.emit("FightResolved", seat=fight.seat, enemy=fight.enemy, enemy_hits=0, canceled=0, damage=0,
                 rads=0, hits=0, needed=0, enemy_killed=False)
        return
    token = enemies.token_of(state, enemy)
    lvl = enemies.level(state, token)
    ranged_weapon = has_ranged_weapon(state, fight.seat)
    ranged_enemy = "ranged" in token.abilities
    enemy_hits = vats.hits(pack, roll.faces)
    if fight.at_range and ranged_enemy and not ranged_weapon:
        enemy_hits += 1
    apparel = equipped(state, fight.seat, "apparel")
    armor = (apparel.armor if apparel else 0) + modifiers.bonus(state, fight.seat, "armor") + fight.armor
    canceled = min(enemy_hits, armor)
    damage = (enemy_hits - canceled) * lvl
    rads = lvl if damage > 0 and "radiation" in token.abilities else 0
    survivor = state.survivor(fight.seat)
    survives = clamp_hp(survivor.hp - damage) > clamp_rads(survivor.rads + rads)
    hits = needed = 0
    if survives:
        hits = sum(1 for a in vats.areas(pack, roll.faces) if a & token.vulnerable)
        if fight.at_range and ranged_weapon and not ranged_enemy:
            hits += 1
        hits += modifiers.bonus(state, fight.seat, "fight_hits") + fight.hits
        needed = lvl + (1 if "armor" in token.abilities else 0)
    enemy_killed = survives and hits >= needed
    res.emit(
        "FightResolved", seat=fight.seat, enemy=enemy.id, enemy_hits=enemy_hits, canceled=canceled,
        damage=damage, rads=rads, hits=hits, needed=needed, enemy_killed=enemy_killed,
    )
    if not survives:
        # Killed: the fight ends; an enemy not killed stays active where it is.
        killed.check(res, fight.seat)
        return
    if enemy_killed:
        kill(res, fight.seat, enemy.id)
    elif "retreat" in token.abilities and not enemy.drawn:
        # A "draw and fight" enemy is the task's to discard: fleeing is not being killed.
        if enemy.faction is not None:
            res.emit("EnemyDiscarded", enemy=enemy.id, reason="retreat")
        else:
            res.emit("EnemyRetreated", enemy=enemy.id)


def activated(res: Resolution, enemy_id: str, seat: int) -> None:
    """An activating enemy fights the survivor it chose: across a space when it stands in another."""
    enemy = res.state.enemy(enemy_id)
    assert enemy is not None
    at_range = enemy.space != res.state.survivor(seat).space
    start(res, seat, enemy_id, "activation", at_range)


def kill(res: Resolution, seat: int, enemy_id: str) -> None:
    """The survivor killed the enemy, in a fight or outside one (Killed): Loot draws, XP = its level."""
    state = res.state
    enemy = state.enemy(enemy_id)
    assert enemy is not None
    token = enemies.token_of(state, enemy)
    lvl = enemies.level(state, token)
    # Faction tokens and "draw and fight" enemies are never replaced.
    replace_it = enemy.faction is None and not enemy.drawn
    res.emit(
        "EnemyKilled", enemy=enemy.id, seat=seat, token=enemy.token, type=enemy.type, replace=replace_it,
        faction=enemy.faction,
    )
    if "loot" in token.abilities:
        draw_loot(res, seat)
    xp.gain(res, seat, lvl)


def target(res: Resolution, seat: int, enemy_id: str, doing: str) -> None:
    """A result's enemy, outside the fight action: killed at once (Killed), or fought without an action."""
    if doing == "kill":
        kill(res, seat, enemy_id)
    else:
        start(res, seat, enemy_id, "result", at_range=False)


@results.about_survivor(fx.KillEnemy, fx.FightEnemy)
def _enemy_result(res: Resolution, seat: int, level: int, r: fx.KillEnemy | fx.FightEnemy) -> None:
    """An active enemy of the type in the survivor's space (never one of the faction they are loyal to);
    with several, the survivor picks."""
    doing = "kill" if isinstance(r, fx.KillEnemy) else "fight"
    survivor = res.state.survivor(seat)
    found = [
        e.id for e in sorted(res.state.enemies, key=lambda e: enemies.enemy_sort_key(e.id))
        if e.active and not e.drawn and e.space == survivor.space and survivor.space is not None
        and r.type in ("any", e.type) and not loyalty.ignores(res.state, seat, e)
    ]
    if len(found) == 1:
        target(res, seat, found[0], doing)
    elif found:
        res.request(seat, "target_enemy", [{"type": "choose_enemy", "enemy": e} for e in found], doing=doing)


@RULES.answer("target_enemy", results.RULE, commands={"choose_enemy": {"enemy": string()}})
def answer_target(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    target(res, decision.seat, command["enemy"], decision.context["doing"])


def draw_loot(res: Resolution, seat: int) -> None:
    """Loot: draw one loot card (an empty loot deck and discard pile: the draw is recorded empty)."""
    if not res.state.loot_deck and not res.state.loot_discard:
        res.emit("LootDrawn", seat=seat, card=None)
        return
    items.draw(res, seat, "loot", 1)


def next_attacker(res: Resolution) -> None:
    """The survivor fights the enemies that must fight it, in the order it picks."""
    attackers = res.state.attackers
    assert attackers is not None
    state = res.state
    survivor = state.survivor(attackers.seat)
    valid = [
        e for e in attackers.enemies
        if (enemy := state.enemy(e)) is not None and enemy.active and enemy.space == survivor.space
    ]
    if not valid or not survivor.on_map:
        res.emit("AttacksEnded", seat=attackers.seat)
    elif len(valid) == 1:
        start(res, attackers.seat, valid[0], attackers.cause, at_range=False)
    else:
        res.request(
            attackers.seat, "order_attacks", [{"type": "order_attacks", "enemy": e} for e in valid],
            cause=attackers.cause,
        )


@RULES.answer("order_attacks", "Activating Enemies", commands={"order_attacks": {"enemy": string()}})
def answer_order(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    if decision.context.get("cause") == "activation":
        # The survivor an activation's enemies would all fight orders them (Activating Enemies).
        activated(res, command["enemy"], decision.seat)
        return
    attackers = res.state.attackers
    assert attackers is not None
    start(res, attackers.seat, command["enemy"], attackers.cause, at_range=False)


# -- folds -------------------------------------------------------------------


@RULES.fold("FightStarted", {"at_range": boolean(), "cause": string(), "enemy": string(), "seat": integer()})
def _started(state: GameState, data: dict) -> GameState:
    changes: dict[str, Any] = dict(
        fight=Fight(data["seat"], data["enemy"], data["cause"], data["at_range"])
    )
    if data["cause"] == "action" and state.turn is not None:
        changes["turn"] = replace(state.turn, actions=state.turn.actions - 1)
    attackers = state.attackers
    if attackers is not None and attackers.seat == data["seat"] and data["enemy"] in attackers.enemies:
        rest = tuple(e for e in attackers.enemies if e != data["enemy"])
        changes["attackers"] = replace(attackers, enemies=rest) if rest else None
    re = state.round_end
    if re is not None and re.acting is not None and data["enemy"] in re.acting:
        changes["round_end"] = replace(re, acting=tuple(e for e in re.acting if e != data["enemy"]))
    return replaced(state, changes)


@RULES.fold(
    "FightResolved",
    {
        "canceled": integer(),
        "damage": integer(),
        "enemy": string(),
        "enemy_hits": integer(),
        "enemy_killed": boolean(),
        "hits": integer(),
        "needed": integer(),
        "rads": integer(),
        "seat": integer(),
    },
)
def _resolved(state: GameState, data: dict) -> GameState:
    seat = data["seat"]
    survivor = state.survivor(seat)
    state = state.with_survivor(
        seat,
        hp=clamp_hp(survivor.hp - data["damage"]),
        rads=clamp_rads(survivor.rads + data["rads"]),
    )
    return replace(state, fight=None, roll=None)


@RULES.fold("FightDiceRolling", {"seat": integer()})
def _rolling(state: GameState, data: dict) -> GameState:
    return state if state.fight is None else replace(state, fight=replace(state.fight, rolling=True))


@RULES.fold("AttacksEnded", {"seat": integer()})
def _attacks_ended(state: GameState, data: dict) -> GameState:
    return replace(state, attackers=None)


def aggressive_attackers(seat: int, enemy_ids: list[str]) -> Attackers:
    return Attackers(seat, tuple(enemy_ids), "aggressive")
