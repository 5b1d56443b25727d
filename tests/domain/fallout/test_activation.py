"""Rounds, Activating Enemies, Agenda Cards, Faction Power Track, Solo Play."""

from __future__ import annotations

from dataclasses import replace

from domain.fallout.game import FALLOUT
from domain.game import SYSTEM
from tests.domain.fallout.fixtures import (
    BLANK,
    BODY,
    HIT,
    ScriptedRng,
    add_enemy,
    play,
    quiet_game,
    survivor,
    types,
)


def due(state, card: str):
    """The round end is due and ``card`` is on top of the agenda deck."""
    deck = (card,) + tuple(c for c in state.agenda_deck if c != card)
    return replace(state, turn=None, round_end_due=True, next_seat=state.first_player, agenda_deck=deck)


def data(events, type_):
    return [e.data for e in events if e.type == type_]


def round_end(state, rng=None):
    return play(state, SYSTEM, {"type": "round_end"}, rng)


def test_activating_enemies_move_one_space_toward_the_nearest_survivor() -> None:
    """Activating Enemies: an active enemy moves one space toward the nearest survivor."""
    state = survivor(quiet_game(1), 0, space="camp.a")
    state, rat = add_enemy(state, "rat", "ruins.a")
    state, events = round_end(due(state, "ag1"))
    assert data(events, "EnemyMoved") == [{"enemy": rat, "from": "ruins.a", "to": "ruins.c"}]
    assert [d["type"] for d in data(events, "EnemyTypeActivated")] == ["critter", "human"]  # left to right
    assert data(events, "AgendaDiscarded") == [{"card": "ag1"}]
    assert "ag1" in state.agenda_discard and state.turn.seat == 0


def test_activating_enemies_least_remaining_hp_is_the_target() -> None:
    """Activating Enemies: a tie for nearest goes to least remaining HP, then turn order from the first player."""
    state = quiet_game(2, first=0)
    state = survivor(survivor(state, 0, space="camp.a", hp=12), 1, space="camp.b", hp=9)
    state, rat = add_enemy(state, "rat", "camp.c")
    _, events = round_end(due(state, "ag1"))
    assert data(events, "EnemyMoved")[0]["to"] == "camp.b"
    state = survivor(state, 1, hp=12)
    for first, expected in ((0, "camp.a"), (1, "camp.b")):
        _, events = round_end(due(replace(state, first_player=first), "ag1"))
        assert data(events, "EnemyMoved")[0]["to"] == expected


def test_activating_enemies_first_player_chooses_among_equal_moves() -> None:
    """Activating Enemies: when several spaces bring the enemy equally closer, the first player chooses."""
    state = survivor(quiet_game(1), 0, space="ruins.b")
    state, rat = add_enemy(state, "rat", "camp.c")
    state, events = round_end(due(state, "ag1"))
    assert state.pending.kind == "enemy_move" and state.pending.seat == state.first_player
    assert [c["space"] for c in state.pending.choices] == ["camp.a", "camp.b"]
    assert FALLOUT.system_command(state) is None
    state, events = play(state, 0, {"type": "choose_space", "space": "camp.b"})
    assert state.enemy(rat).space == "camp.b"
    assert FALLOUT.system_command(state) == {"type": "round_end"}  # the worker carries on
    state, events = round_end(state)
    assert "AgendaDiscarded" in types(events)


def test_activating_enemies_face_down_tiles_count_as_one_space() -> None:
    """Activating Enemies: enemies cross face-down tiles, each a single space."""
    state = survivor(quiet_game(1), 0, space="camp.b")
    state, rat = add_enemy(state, "rat", "ruins.b")
    state, events = round_end(due(state, "ag1"))
    assert data(events, "EnemyMoved")[0]["to"] == "place:se"
    state = replace(due(state, "ag3"))
    state, events = round_end(state)
    assert data(events, "EnemyMoved")[0]["to"] == "camp.b"


def test_activating_enemies_fight_instead_of_moving_and_survivor_orders_attacks() -> None:
    """Activating Enemies: enemies in a survivor's space fight it; the survivor orders several attacks."""
    state = survivor(quiet_game(1, ["keeper"]), 0, space="camp.a", special=(("E", "e1"), ("L", "l1")))
    state, a = add_enemy(state, "rat", "camp.a")
    state, b = add_enemy(state, "beetle", "camp.a")
    state, _ = round_end(due(state, "ag1"))
    assert state.pending.kind == "activation_order"  # the first player: which critter acts first
    state, _ = play(state, 0, {"type": "activate_enemy", "enemy": a})
    assert state.pending.kind == "order_attacks" and state.pending.seat == 0  # both would fight seat 0
    state, events = play(state, 0, {"type": "order_attacks", "enemy": b}, ScriptedRng(BLANK, BLANK, BLANK))
    assert data(events, "FightStarted")[0] == {"seat": 0, "enemy": b, "cause": "activation", "at_range": False}
    state, events = round_end(state, ScriptedRng(BLANK, BLANK, BLANK))
    assert data(events, "FightStarted")[0]["enemy"] == a
    assert "EnemyMoved" not in types(events)


def test_enemy_abilities_ranged_enemy_attacks_adjacent_with_an_extra_hit() -> None:
    """Enemy Abilities (ranged): it fights an adjacent survivor; without a ranged weapon, one extra hit."""
    state = survivor(quiet_game(1, ["keeper"]), 0, space="camp.a", special=(("E", "e1"), ("L", "l1")))
    state, sniper = add_enemy(state, "sniper", "ruins.c")
    state, events = round_end(due(state, "ag2"), ScriptedRng(BLANK, BLANK, HIT))
    started = data(events, "FightStarted")[0]
    assert started["at_range"] and started["cause"] == "activation"
    resolved = data(events, "FightResolved")[0]
    assert resolved["enemy_hits"] == 2 and resolved["canceled"] == 1 and resolved["damage"] == 1


def test_enemy_abilities_aggressive_enemy_moving_in_fights_least_remaining_hp() -> None:
    """Enemy Abilities (aggressive): moving into a survivor's space it fights the one with least remaining HP."""
    state = quiet_game(2)
    state = survivor(survivor(state, 0, space="camp.a", hp=12), 1, space="camp.a", hp=8)
    state, roach = add_enemy(state, "roach", "ruins.c")
    state, events = round_end(due(state, "ag1"), ScriptedRng(BLANK, BLANK, BLANK))
    assert data(events, "EnemyMoved")[0]["to"] == "camp.a"
    assert data(events, "FightStarted")[0]["seat"] == 1 and data(events, "FightStarted")[0]["cause"] == "aggressive"


def test_activating_enemies_inactive_flip_without_acting_but_not_newly_placed() -> None:
    """Activating Enemies, Enemies: inactive ones flip face up without acting; one placed face down
    during its type's activation is not flipped."""
    state = survivor(quiet_game(1, ["keeper"]), 0, space="camp.a", special=(("E", "e1"), ("L", "l1")))
    state, sleeper = add_enemy(state, "beetle", "camp.c", active=False)
    state, rat = add_enemy(state, "rat", "camp.a")
    state, events = round_end(due(state, "ag1"), ScriptedRng(BODY, BLANK, BLANK))
    placed = data(events, "EnemyPlaced")[0]
    assert placed["space"] == "ruins.a" and not placed["active"]
    flipped = data(events, "EnemiesFlipped")[0]
    assert flipped["type"] == "critter" and flipped["enemies"] == [{"enemy": sleeper, "token": "beetle"}]
    assert state.enemy(sleeper).active and state.enemy(sleeper).space == "camp.c"
    assert not state.enemy(placed["enemy"]).active


def test_rounds_the_first_player_orders_enemies_of_the_activated_type() -> None:
    """Rounds, Activating Enemies: when several enemies of the activated type act, the first player decides the
    order, one enemy at a time, while two or more are left."""
    state = survivor(quiet_game(2, first=1), 0, space="camp.a")
    state = survivor(state, 1, space="camp.b")
    state, near = add_enemy(state, "rat", "ruins.a")
    state, far = add_enemy(state, "beetle", "ruins.b")
    state, _ = round_end(due(state, "ag8"))  # critters
    assert state.pending.kind == "activation_order" and state.pending.seat == 1
    assert {c["enemy"] for c in state.pending.choices} == {near, far}
    assert FALLOUT.legal_actions(state, 1) == list(state.pending.choices)
    state, events = play(state, 1, {"type": "activate_enemy", "enemy": far})
    while FALLOUT.system_command(state) is not None:
        assert state.pending is None  # the last one acts without a question
        state, more = round_end(state)
        events += more
    assert [m["enemy"] for m in data(events, "EnemyMoved")] == [far, near]


def test_enemy_abilities_retreat_during_its_own_activation_stays_face_down() -> None:
    """Enemy Abilities (Retreat), Activating Enemies: an enemy that flees face down while its own type activates
    is not flipped face up with the type's inactive enemies at the end of that activation."""
    state = survivor(quiet_game(1, ["keeper"]), 0, space="camp.a", special=(("E", "e1"), ("L", "l1")))
    state, runner = add_enemy(state, "runner", "camp.a")
    state, sleeper = add_enemy(state, "raider", "camp.c", active=False)
    state, events = round_end(due(state, "ag2"), ScriptedRng(BLANK, BLANK, BLANK))  # humans
    assert data(events, "FightStarted")[0]["enemy"] == runner
    while FALLOUT.system_command(state) is not None or state.pending is not None:
        state, more = round_end(state) if state.pending is None else play(state, 0, {"type": "keep_dice"})
        events += more
    assert data(events, "EnemyRetreated") == [{"enemy": runner}]
    assert data(events, "EnemiesFlipped")[0]["enemies"] == [{"enemy": sleeper, "token": "raider"}]
    assert not state.enemy(runner).active and state.enemy(sleeper).active


def test_faction_tokens_activate_on_their_faction_icon_not_their_enemy_type() -> None:
    """Faction Tokens, Agenda Cards: a faction token follows the enemy rules but activates when an agenda card
    shows its faction's icon; an icon of its enemy type activates only the ordinary enemies of that type."""
    state = survivor(quiet_game(1), 0, space="camp.a")
    state, token = add_enemy(state, "star_guard", "ruins.a", faction="star")  # a robot
    state, bot = add_enemy(state, "bot", "ruins.b")
    state, events = round_end(due(state, "ag9"))  # robot, ♠, critter
    assert data(events, "EnemyTypeActivated")[0] == {"type": "robot", "enemies": [bot]}
    while FALLOUT.system_command(state) is not None:
        state, more = round_end(state)
        events += more
    assert [m["enemy"] for m in data(events, "EnemyMoved")] == [bot]
    state = replace(state, turn=None, round_end_due=True, next_seat=state.first_player)
    state, events = round_end(due(state, "ag4"))  # ★
    assert data(events, "EnemyTypeActivated")[0] == {"type": "star", "enemies": [token]}
    assert [m["enemy"] for m in data(events, "EnemyMoved")] == [token]


def test_agenda_cards_deck_runs_out_reshuffle_pass_right_factions_advance() -> None:
    """Agenda Cards: when the final card is drawn, the discards are shuffled into a new deck at once, which passes
    right (a new first player), and the factions advance, before that card activates; it is then discarded."""
    state = survivor(quiet_game(2, first=1), 0, space="camp.a")
    state, rat = add_enemy(state, "rat", "ruins.a")
    state = replace(due(state, "ag1"), agenda_deck=("ag1",), agenda_discard=("ag2", "ag3"))
    state, events = round_end(state)
    happened = types(events)
    assert happened.index("AgendaRevealed") < happened.index("AgendaDeckReshuffled") < happened.index("FactionsAdvanced")
    assert happened.index("FactionsAdvanced") < happened.index("EnemyTypeActivated")
    assert sorted(data(events, "AgendaDeckReshuffled")[0]["order"]) == ["ag2", "ag3"]  # not the card drawn
    assert state.first_player == 0 and state.power == (1, 1)
    while FALLOUT.system_command(state) is not None:
        state, _ = round_end(state)
    assert state.agenda_discard == ("ag1",) and sorted(state.agenda_deck) == ["ag2", "ag3"]
    assert state.enemy(rat).space == "ruins.c"  # the drawn card still moved its critter one space


def test_component_limitations_an_agenda_deck_left_empty_is_rebuilt_without_a_second_advance() -> None:
    """Component Limitations, Agenda Cards: a depletion that found no discards leaves the deck empty; the next
    draw shuffles the discards into a deck first, and the factions do not advance again."""
    state = replace(due(quiet_game(2), "ag1"), agenda_deck=("ag1",), agenda_discard=())
    state, events = round_end(state)
    assert data(events, "AgendaDeckReshuffled")[0]["order"] == [] and state.power == (1, 1)
    while FALLOUT.system_command(state) is not None:
        state, _ = round_end(state)
    assert state.agenda_deck == () and state.agenda_discard == ("ag1",)
    # Meanwhile a survivor over four agenda cards discards one.
    state = replace(state, turn=None, round_end_due=True, next_seat=state.first_player, agenda_discard=("ag1", "ag2"))
    state, events = round_end(state)
    assert types(events)[:2] == ["AgendaDeckReshuffled", "AgendaRevealed"]
    assert "FactionsAdvanced" not in types(events) and state.power == (1, 1)


def test_solo_play_only_the_weaker_faction_advances() -> None:
    """Solo Play: when the agenda deck is depleted only the faction with less power advances, unless tied."""
    state = replace(due(quiet_game(1), "ag1"), agenda_deck=("ag1",), power=(1, 0))
    state, _ = round_end(state)
    assert state.power == (1, 1)
    state = replace(due(state, "ag1"), agenda_deck=("ag1",))
    state, _ = round_end(state)
    assert state.power == (2, 2)


def test_faction_power_track_final_space_ends_the_game() -> None:
    """Faction Power Track: a faction reaching the final space ends the game (nobody is loyal to it: everyone loses)."""
    state = replace(due(quiet_game(2), "ag1"), agenda_deck=("ag1",), power=(2, 1))
    state, events = round_end(state)
    assert FALLOUT.is_over(state) and state.result == "lost"
    assert data(events, "GameEnded")[0]["factions"] == ["star"]
    assert FALLOUT.system_command(state) is None and FALLOUT.waiting_for(state) == []
