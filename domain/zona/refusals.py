"""Every code Zona's rules refuse a command with, by kind: ``ZonaGame.refusals``.

The API document lists them under their status (NOT_NOW 409, MALFORMED 422);
the contract suite fails a code the rules raise that is not here, and one
here that nothing raises (``tests/contract/test_refusals.py``).
"""

from __future__ import annotations

from domain.game import Refusal

REFUSALS = {
    Refusal.NOT_NOW: {
        "no_game": "the game has not been set up",
        "game_over": "the game is over",
        "not_your_decision": "the game waits for another seat's decision",
        "not_a_choice": "not one of the pending decision's choices",
        "no_decision_pending": "an answer, but no decision is waiting for one",
        "not_your_turn": "it is another seat's turn (or no action phase)",
        "cannot_move": "not a move the stalker may make now",
        "cannot_search": "no such threat token to search in the stalker's area now",
        "cannot_rest": "the stalker may not rest now",
        "cannot_pass": "the stalker may not pass now",
        "cannot_area_action": "the stalker may not take the area's action now",
        "cannot_open_facility": "not a facility the stalker may open now",
        "cannot_open": "not a facility the stalker may open now",
        "no_such_threat": "no such threat token in the stalker's area",
        "area_action_no_action": "the stalker's area has no action",
        "area_action_once_per_turn": "an area's action is taken once a turn",
        "area_action_reputation": "the stalker's reputation does not allow the area's action",
        "area_action_closed_by_news": "a news card closes the area",
        "item_not_usable": "not an item command the stalker may send now",
    },
    Refusal.MALFORMED: {
        "unknown_command": "not a command of Zona",
        "not_a_system_command": "Zona has no automatic work for the system",
        "unknown_seat": "no such seat",
        "bad_options": "`first_voice` names no seat of the game, or `side` none of the pack's board",
    },
}
