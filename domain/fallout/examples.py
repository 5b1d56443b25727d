"""Real examples for the API document, computed from a real game on first use.

The options a creator might send, the view the seat on turn has at the start
of a game of the bundled pack, and the commands it may send there. They are
played out rather than written by hand, so they never drift from the rules,
and a test validates them against the schemas.
"""

from __future__ import annotations

from typing import Any

from domain.game import Game
from domain.rng import Rng

#: What a creator sends: everything else has a default.
OPTIONS = {"pack": "base"}
PLAYERS = 2


def play_example(game: Game) -> dict[str, Any]:
    """Set a game up and let each seat take its first listed choice until a turn begins."""
    options = game.resolve_options(OPTIONS)
    rng = Rng("holotape-example")
    state = game.initial_state()
    for event in game.setup({**options, "players": PLAYERS}, rng):
        state = game.evolve(state, event)
    for step in range(PLAYERS):
        waiting = game.waiting_for(state)
        if not waiting or game.view(state, waiting[0]).get("pending") is None:
            break
        _, state = game.decide_and_fold(state, waiting[0], game.legal_actions(state, waiting[0])[0], Rng("holotape-example", f"choice-{step}"))
    seat = game.waiting_for(state)[0]
    actions = game.legal_actions(state, seat)
    return {"options": OPTIONS, "view": game.view(state, seat), "actions": actions,
            "texts": [game.describe_command(state, seat, a) for a in actions],
            "prompt": game.describe_decision(state, seat), "events": [{"type": t, "data": d} for t, d in EVENTS]}  # fmt: skip


#: Events a few hundred random decisions seldom reach, each as the log holds it, so that
#: every event type is shown described (``tests/contract/test_words.py``).
EVENTS: list[tuple[str, dict[str, Any]]] = [
    ("AgendaDrawn", {"seat": 0, "card": "agenda_hold_the_sluices"}),
    ("AgendaDiscardedFromHand", {"seat": 1, "card": "agenda_wardens_ledger"}),
    ("LootDeckReshuffled", {"order": ["boathook_spear", "flare_pistol"]}),
    ("AssetDeckReshuffled", {"order": ["harpoon_gun", "scrap_scattergun"]}),
    ("AttacksEnded", {"seat": 0}),
    ("CardSold", {"seat": 0, "card": "harpoon_gun", "caps": 3}),
    ("CardDiscarded", {"seat": 0, "card": "flare_pistol", "reason": "full"}),
    ("CapsPaid", {"seat": 0, "amount": 2, "reason": "result"}),
    ("CardEquipped", {"seat": 0, "card": "harpoon_gun", "unequipped": None}),
    ("EnemyDiscarded", {"enemy": "e3", "reason": "drawn"}),
    ("EnemyIdle", {"enemy": "e3"}),
    ("EnemyNotReplaced", {"type": "robot", "space": "tollbridge.causeway"}),
    ("FightBoosted", {"seat": 0, "card": "harpoon_gun", "hits": 1, "armor": 0, "rerolls": 0, "more": False}),
    ("FightDiceRolling", {"seat": 0}),
    ("GameEnded", {"result": "won", "reason": "victory declared", "winners": [0]}),
    ("GameEnded", {"result": "lost", "reason": "a faction took over the wasteland", "factions": ["spade"]}),
    ("MarkersRemoved", {"quest": "q_sluice_keys"}),
    ("QuestActionTaken", {"seat": 1, "quest": "q_sluice_keys", "objective": 0, "level": 1}),
    ("QuestActionResolved", {"seat": 1, "quest": "q_sluice_keys", "objective": 0, "success": True}),
    ("SurvivorHurt", {"seat": 0, "damage": 2, "rads": 1}),
    ("TaskFightStarted", {"seat": 0, "enemy": "e3"}),
    ("TaskDone", {"seat": 0, "success": True}),
    ("TraitLost", {"seat": 0, "token": "condition", "trait": "well_rested"}),
    ("TriggerLapsed", {"seat": 1, "quest": "q_high_tide_at_tollbridge", "objective": 1}),
    ("UniqueGained", {"seat": 0, "card": "floodlock_harpoon", "asked": "floodlock_harpoon"}),
]
