"""Every code Fallout's rules refuse a command with, by kind: ``FalloutGame.refusals``.

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
        "round_end_not_due": "the system's round end is not due now",
        "not_a_seat_command": "only the system runs the round end",
        "not_your_decision": "the game waits for another seat's decision",
        "not_a_choice": "not one of the pending decision's choices",
        "no_decision_pending": "an answer, but no decision is waiting for one",
        "round_end_in_progress": "the round is ending: wait for it",
        "not_your_turn": "it is another seat's turn",
        "trade_in_progress": "propose or cancel the trade being put together first",
        "no_actions_left": "both actions of this turn are spent",
        "no_movement_left": "no movement points: take a move action first",
        "not_enough_movement": "difficult terrain needs another movement point",
        "not_adjacent": "not a face-up space (or tile) next to the survivor's",
        "not_face_down": "that tile is already face up",
        "not_on_map": "the survivor is not on the map",
        "enemy_in_space": "a face-up enemy in the survivor's space forbids it",
        "enemy_inactive": "an inactive enemy cannot be fought until it activates",
        "enemy_out_of_reach": "fight an enemy in the space, or next to it with a ranged weapon",
        "no_such_enemy": "no such enemy on the map",
        "no_encounter_icon": "no encounter icon in the survivor's space",
        "no_encounter_deck": "no encounter deck of that icon (yet)",
        "already_encountered": "the encounter action is taken once a turn",
        "no_such_quest": "no such quest staged",
        "requirement_not_met": "the objective's requirement is not met (or it is no quest action)",
        "cannot_use": "not a card (or an ability) the survivor may use now",
        "cannot_use_perk": "a perk is used in the survivor's turn, between actions",
        "cannot_equip": "equip a weapon, apparel or companion from the inventory at the start of the turn",
        "cannot_declare_loyalty": "reveal a ★ or ♠ agenda card from the hand at the start of the turn",
        "cannot_withdraw_loyalty": "hide the revealed agenda card at the start of the turn",
        "not_a_trade_step": "trade right after camping, with a survivor in reach, one listed step at a time",
    },
    Refusal.MALFORMED: {
        "unknown_command": "not a command of Fallout",
        "not_a_system_command": "a seat's command sent as the system",
        "unknown_seat": "no such seat",
        "unknown_space": "no such space on the map",
        "unknown_place": "no tile at that place",
        "bad_options": "the options are not an object",
        "unknown_pack": "no such content pack",
        "unknown_scenario": "no such scenario in the pack",
        "bad_players": "more players than Fallout (or the pack's survivors) allows",
        "bad_survivors": "give one survivor per seat, or none",
        "unknown_survivor": "not one of the pack's survivors",
        "duplicate_survivor": "each seat plays a different survivor",
        "bad_pack": "the pack has too few tiles for the scenario",
    },
}
