"""Enemy tokens: the stacks by type, levels, placing and replacing.

Each type's stack is shuffled at setup and drawn from the top; an empty stack
reshuffles its discards first (Component Limitations), and that shuffle is an
event. A killed enemy's replacement goes face down on the nearest space with a
matching enemy icon; face-down tiles count as one space on the way, and ties
are the first player's decision (Enemies, Killed).
"""

from __future__ import annotations

import functools
from typing import Any

from domain.engine.records import built
from domain.engine.shapes import boolean, integer, string, strings
from domain.fallout import effects as fx
from domain.fallout import results
from domain.fallout.content import catalog
from domain.fallout.model import EnemyToken
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import Decision, EnemyState, GameState, Resolving, replace, replaced

RULE = "Enemies"


def token_of(state: GameState, enemy: EnemyState) -> EnemyToken:
    cat = catalog(state.pack)
    if enemy.faction is not None:
        for faction in cat.pack.scenarios[state.scenario].factions:
            if faction.key == enemy.faction and faction.token_enemy is not None:
                return faction.token_enemy
    return cat.enemies[enemy.token]


def level(state: GameState, token: EnemyToken) -> int:
    """A letter level (X/Y) is read off the power track for the faction showing it."""
    if isinstance(token.level, int):
        return token.level
    scenario = catalog(state.pack).pack.scenarios[state.scenario]
    for i, faction in enumerate(scenario.factions):
        if faction.letter == token.level:
            step = scenario.power_track[min(state.power[i], len(scenario.power_track) - 1)]
            return int(getattr(step, token.level))
    raise ValueError(f"no faction shows level {token.level!r}")


def has(state: GameState, enemy: EnemyState, ability: str) -> bool:
    return ability in token_of(state, enemy).abilities


def shown_by(icon: str, enemy_type: str, faction: str | None) -> bool:
    """Whether an agenda card's activation icon names this enemy: a faction icon
    its faction's tokens, an enemy type the type's tokens that are not faction
    tokens (Faction Tokens: they activate on their faction's icon)."""
    return faction == icon if faction is not None else enemy_type == icon


@functools.lru_cache(maxsize=4096)
def enemy_sort_key(enemy_id: str) -> tuple[int, str]:
    digits = "".join(ch for ch in enemy_id if ch.isdigit())
    return (int(digits) if digits else 0, enemy_id)


def top_token(res: Resolution, enemy_type: str) -> str | None:
    """The token a draw of ``enemy_type`` would take, reshuffling the discards if needed."""
    state = res.state
    if not state.enemy_stacks.get(enemy_type):
        discards = state.enemy_discards.get(enemy_type, ())
        if not discards:
            return None
        res.emit("EnemyStackReshuffled", type=enemy_type, order=res.rng.shuffled(list(discards)))
    return res.state.enemy_stacks[enemy_type][0]


def place_drawn(res: Resolution, enemy_type: str, space: str, active: bool, reason: str) -> str | None:
    token = top_token(res, enemy_type)
    if token is None:
        return None
    enemy_id = f"e{res.state.next_enemy}"
    res.emit(
        "EnemyPlaced", enemy=enemy_id, type=enemy_type, token=token, space=space, active=active, reason=reason
    )
    return enemy_id


@results.about_game(fx.PlaceEnemy)
def _place_result(res: Resolution, entry: Resolving, r: fx.PlaceEnemy) -> None:
    """In the space the result names; without one, in the space of the survivor resolving it."""
    space = r.space
    if space is None:
        seat = results.resolver(res, entry)
        space = None if seat is None else res.state.survivor(seat).space
    if space is not None:
        place_drawn(res, r.type, space, r.active, reason="result")


# -- replacing a killed enemy --------------------------------------------------


def replacement_spaces(res: Resolution, enemy_type: str, source: str) -> tuple[str, ...]:
    faceup = res.state.faceup_places()
    board = res.board
    icons = board.enemy_icon_spaces(enemy_type, faceup)
    if not board.node_exists(source, faceup):
        # The tile the enemy died on was flipped meanwhile: measure from anywhere on it.
        return icons
    return board.nearest(source, icons, faceup)


def replace_next(res: Resolution) -> None:
    enemy_type, source = res.state.replacing[0]
    spaces = replacement_spaces(res, enemy_type, source)
    has_token = bool(res.state.enemy_stacks.get(enemy_type) or res.state.enemy_discards.get(enemy_type))
    if not spaces or not has_token:
        res.emit("EnemyNotReplaced", type=enemy_type, space=source)
    elif len(spaces) == 1:
        place_drawn(res, enemy_type, spaces[0], active=False, reason="replacement")
    else:
        res.request(
            res.state.first_player,
            "replacement_space",
            [{"type": "choose_space", "space": s} for s in spaces],
            enemy_type=enemy_type,
            killed_in=source,
        )


@RULES.answer("replacement_space", RULE, commands={"choose_space": {"space": string()}})
def answer_replacement(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    place_drawn(res, decision.context["enemy_type"], command["space"], active=False, reason="replacement")


# -- folds -------------------------------------------------------------------


def _without_token(stack: tuple[str, ...], token: str) -> tuple[str, ...]:
    if token not in stack:
        return stack
    i = stack.index(token)
    return stack[:i] + stack[i + 1:]


@RULES.fold(
    "EnemyPlaced",
    {
        "active": boolean(),
        "drawn": boolean(optional=True),
        "enemy": string(),
        "faction": string(optional=True),
        "reason": string(),
        "space": string(),
        "token": string(nullable=True),
        "type": string(),
    },
)
def _placed(state: GameState, data: dict) -> GameState:
    t = data["type"]
    stacks = {**state.enemy_stacks, t: _without_token(state.enemy_stacks.get(t, ()), data["token"])}
    enemy = built(EnemyState, {
        "id": data["enemy"], "type": t, "token": data["token"], "space": data["space"], "active": data["active"],
        "faction": data.get("faction"), "drawn": bool(data.get("drawn")),
    })  # fmt: skip
    digits = int("".join(ch for ch in data["enemy"] if ch.isdigit()) or 0)
    changes: dict[str, Any] = dict(
        enemies=state.enemies + (enemy,), enemy_stacks=stacks, next_enemy=max(state.next_enemy, digits + 1)
    )
    if data.get("reason") == "replacement" and state.replacing:
        changes["replacing"] = state.replacing[1:]
    re = state.round_end
    if re is not None and re.types and re.acting is not None and not data["active"]:
        if shown_by(re.types[0], t, data.get("faction")):
            changes["round_end"] = replace(re, placed=re.placed + (data["enemy"],))
    return replaced(state, changes)


@RULES.fold("EnemyNotReplaced", {"type": string(), "space": string()})
def _not_replaced(state: GameState, data: dict) -> GameState:
    return replace(state, replacing=state.replacing[1:])


@RULES.fold("EnemyStackReshuffled", {"order": strings(hidden=True), "type": string()})
def _reshuffled(state: GameState, data: dict) -> GameState:
    t = data["type"]
    return replace(
        state,
        enemy_stacks={**state.enemy_stacks, t: tuple(data["order"])},
        enemy_discards={**state.enemy_discards, t: ()},
    )


def discard(state: GameState, enemy_id: str) -> GameState:
    enemy = state.enemy(enemy_id)
    if enemy is None:
        return state
    state = state.without_enemy(enemy_id)
    if enemy.faction is None:
        pile = state.enemy_discards.get(enemy.type, ()) + (enemy.token,)
        state = replace(state, enemy_discards={**state.enemy_discards, enemy.type: pile})
    return state


@RULES.fold(
    "EnemyKilled",
    {
        "enemy": string(),
        "faction": string(nullable=True),
        "replace": boolean(),
        "seat": integer(),
        "token": string(),
        "type": string(),
    },
)
def _killed(state: GameState, data: dict) -> GameState:
    enemy = state.enemy(data["enemy"])
    if enemy is None:
        return state
    state = discard(state, data["enemy"])
    if data.get("replace"):
        state = replace(state, replacing=state.replacing + ((enemy.type, enemy.space),))
    return state


@RULES.fold("EnemyDiscarded", {"enemy": string(), "reason": string()})
def _discarded(state: GameState, data: dict) -> GameState:
    return discard(state, data["enemy"])


@RULES.fold("EnemyRetreated", {"enemy": string()})
def _retreated(state: GameState, data: dict) -> GameState:
    state = state.with_enemy(data["enemy"], active=False)
    enemy, re = state.enemy(data["enemy"]), state.round_end
    # Fled during its own icon's activation: it stays face down when the rest flip.
    if enemy is not None and re is not None and re.types and re.acting is not None:
        if shown_by(re.types[0], enemy.type, enemy.faction):
            state = replace(state, round_end=replace(re, placed=re.placed + (enemy.id,)))
    return state
