"""Fallout's pending decisions in words: what the game waits for, as one seat may read it.

A decision another seat makes in private (``PRIVATE_DECISIONS``: its choices
are redacted from the others) is told by its kind only.
"""

from __future__ import annotations

from typing import Any

from domain.engine.addressing import addressed
from domain.fallout.content import catalog
from domain.fallout.model import DIRECTIONS
from domain.fallout.names import Names, capital, counted, listed, plain
from domain.fallout.state import GameState
from domain.fallout.view import PRIVATE_DECISIONS

#: Choices a prompt lists before it says how many more there are.
LISTED = 6

#: What each kind of decision asks, for readers who may not see its choices.
KINDS = {
    "choose_survivor": "which survivor to play and where to start",
    "choose_special": "which S.P.E.C.I.A.L. token to keep",
    "choose_perk": "which perk to take",
    "answer_trade": "whether to accept a trade",
    "target_enemy": "which enemy to target",
    "shop": "what to buy",
    "before_fight": "what to use before the fight",
    "reroll": "which dice to reroll",
    "enemy_move": "where an enemy moves",
    "respawn": "where to return to play",
    "activation_order": "which enemy activates first",
    "order_attacks": "which enemy attacks first",
    "place_enemy": "where to place an enemy",
    "replacement_space": "where a replacement enemy goes",
    "encounter_option": "how to answer an encounter",
    "equip_gained": "whether to equip a new card",
    "discard_card": "which card to discard",
    "discard_agenda": "which agenda card to discard",
}

_VERBS = {
    "buy": "buy", "sell": "sell", "recruit": "recruit", "equip": "equip", "stow": "stow", "discard": "discard",
    "use": "use", "use_in_fight": "use", "use_perk": "use", "discard_agenda": "discard", "declare_loyalty": "declare loyalty with",
    "trade_give": "give", "trade_take": "take", "choose_perk": "take", "fight": "fight", "order_attacks": "be attacked first by",
    "activate_enemy": "activate", "choose_enemy": "target",
}  # fmt: skip
PLAIN = {
    "withdraw_loyalty": "withdraw loyalty", "done_shopping": "stop shopping", "end_turn": "end the turn",
    "keep_dice": "keep the dice", "give_up_well_rested": "give up being well rested to reroll", "roll_dice": "roll the dice",
    "camp": "camp", "encounter": "have an encounter", "move": "take a move action", "trade_give_caps": "give caps",
    "trade_take_caps": "take caps", "trade_take_agenda": "ask for an agenda card", "trade_propose": "propose the trade",
    "trade_cancel": "cancel the trade", "accept_trade": "accept the trade", "decline_trade": "decline the trade",
    "round_end": "end the round",
}  # fmt: skip


def command_words(command: dict[str, Any], n: Names, context: dict[str, Any] | None = None) -> str:
    """A command as the verb phrase a prompt lists: "fight the Glowgull", "move to Kettle Harbor"."""
    kind = command.get("type")
    if kind in PLAIN:
        return PLAIN[kind]
    if kind in _VERBS:
        thing = command.get("card") or command.get("perk") or command.get("agenda")
        named = n.enemy(command["enemy"]) if "enemy" in command else n.card(thing)
        return f"{_VERBS[kind]} {named}"
    if kind in ("choose_space", "respawn"):
        return f"go to {n.space(command.get('space'))}"
    if kind == "step":
        return f"step to {n.space(command.get('to'))}"
    if kind == "choose_special":
        return f"keep the {command.get('letter')} token"
    if kind == "reroll":
        return f"reroll {listed([f'die {d + 1}' for d in command.get('dice') or []])}"
    if kind == "choose_option":
        option = int(command.get("option", 0))
        labels = [o.get("label") for o in ((context or {}).get("read_aloud") or {}).get("options") or []]
        return f"“{labels[option]}”" if option < len(labels) and labels[option] else f"take option {option + 1}"
    if kind == "explore":
        return "explore a face-down tile"
    if kind == "place_enemy":
        return f"place {n.enemy(command.get('enemy'))} at {n.space(command.get('space'))}"
    if kind == "quest":
        return f"work on {n.quest(command.get('quest'))}"
    if kind == "choose_survivor":
        return f"play {n.survivor(str(command.get('survivor')))} from {n.space(command.get('space'))}"
    if kind == "trade":
        return f"trade with {n.seat(command.get('with'))}"
    return plain(kind)


#: Buttons that say more than a prompt's list of choices does.
_BUTTONS = {
    "trade_give_caps": "Offer one more cap", "trade_take_caps": "Ask for one more cap",
    "encounter": "Draw an encounter card here", "move": "Take a move action",
}  # fmt: skip
#: The compass point of each of ``model.DIRECTIONS`` as the board draws it (pointy-topped hexes).
_COMPASS = ("north-east", "east", "south-east", "south-west", "west", "north-west")


def command_text(state: GameState, seat: int, command: dict[str, Any]) -> str:
    """A legal action of ``seat`` as its button says it (``Game.describe_command``): the prompt's
    phrase for it, and what tells one button from another where the phrase does not (which tile,
    which objective, which answer to an encounter)."""
    pending = state.pending
    context = pending.context if pending is not None and pending.seat == seat else {}
    n = Names(state)
    kind = command.get("type")
    if kind in _BUTTONS:
        return _BUTTONS[kind]
    if kind == "choose_option":
        read = context.get("read_aloud") or {}
        options = read.get("options") or []
        option = command.get("option")
        if isinstance(option, int) and 0 <= option < len(options) and options[option].get("label"):
            label = str(options[option]["label"]).strip().rstrip(".")
            return f"Answer {read['title']}: {label}" if read.get("title") else capital(label)
    if kind == "explore":
        return f"Explore the {_explored(state, seat, command.get('place'))}"
    if kind == "quest":
        return _quest_text(n, command)
    return capital(command_words(command, n, context))


def _explored(state: GameState, seat: int, place_id: object) -> str:
    """A face-down place as the survivor sees it from their tile: its back and its compass point."""
    place = state.place(place_id) if isinstance(place_id, str) else None
    if place is None:
        return "face-down tile"
    back = f"face-down {place.back} tile" if place.back else "face-down tile"
    space = state.survivor(seat).space
    here = next((p for p in state.places if space and p.faceup and p.tile and space.startswith(f"{p.tile}.")), None)
    coords = {p.id: (p.q, p.r) for p in catalog(state.pack).pack.scenarios[state.scenario].places}
    if here is None or here.id not in coords or place.id not in coords:
        return back
    step = (coords[place.id][0] - coords[here.id][0], coords[place.id][1] - coords[here.id][1])
    return f"{back} to the {_COMPASS[DIRECTIONS.index(step)]}" if step in DIRECTIONS else back


def _quest_text(n: Names, command: dict[str, Any]) -> str:
    quest = n.catalog.quests.get(command.get("quest")) if n.catalog else None
    objective = command.get("objective")
    title = n.quest(command.get("quest"))
    if quest is None or not isinstance(objective, int) or not 0 <= objective < len(quest.objectives):
        return f"Work on {title}"
    aim = quest.objectives[objective].text.strip().rstrip(".")
    return f"Work on {title}: {aim}" if aim else f"Work on {title} (objective {objective + 1})"


def decision(state: GameState, seat: int | None) -> str | None:
    """What the game waits for, as ``seat`` may read it; None while it waits on nobody."""
    said = _decision(state, seat)
    return addressed(said) if said is not None else None


def _decision(state: GameState, seat: int | None) -> str | None:
    if state.over or state.phase == "new":
        return None
    n = Names(state, seat)
    pending = state.pending
    if pending is not None:
        who = n.seat(pending.seat)
        if pending.kind in PRIVATE_DECISIONS and seat != pending.seat:
            return f"{who} must decide {KINDS.get(pending.kind, plain(pending.kind))}."
        return f"{who} must choose {_asked(pending.kind, pending.context, n)}: {_choices([command_words(c, n, pending.context) for c in pending.choices])}."
    if state.round_end_due or state.round_end is not None or state.turn is None:
        return None
    turn = state.turn
    left = f"{counted(turn.actions, 'action')} left"
    moving = f", {counted(turn.movement, 'movement point')}" if turn.movement else ""
    return f"It is {n.seat(turn.seat)}'s turn ({left}{moving})."


def _asked(kind: str, context: dict[str, Any], n: Names) -> str:
    """What a decision is about, naming the enemy or card its context names."""
    if kind == "enemy_move" and context.get("enemy"):
        return f"where {n.enemy(context['enemy'])} moves"
    if kind == "equip_gained" and context.get("card"):
        return f"whether to equip {n.card(context['card'])}"
    if kind == "encounter_option" and (context.get("read_aloud") or {}).get("title"):
        return f"how to answer {context['read_aloud']['title']}"
    return KINDS.get(kind, plain(kind))


def _choices(phrases: list[str]) -> str:
    unique = list(dict.fromkeys(phrases))
    if len(unique) > LISTED + 1:
        return f"{', '.join(unique[:LISTED])} or one of {len(unique) - LISTED} more"
    return listed(unique, "or")
