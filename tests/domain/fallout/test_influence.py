"""Agenda Cards, Influence, Factions, Faction Power Track, Faction Tokens, Loyalty, Perk Cards, Solo Play."""

from __future__ import annotations

from dataclasses import replace

from domain.fallout import influence
from domain.fallout.game import FALLOUT
from domain.game import SYSTEM
from tests.domain.fallout.fixtures import (
    BLANK,
    BODY,
    ScriptedRng,
    add_enemy,
    data,
    full_game,
    play,
    refused,
    survivor,
    types,
)
from tests.domain.fallout.test_items import resolve


def test_influence_one_per_agenda_plus_its_conditions_on_the_live_game() -> None:
    """Influence, Agenda Cards: each agenda gives 1, plus its conditions (Idolized; 1 per 5 Caps, at most 2)."""
    state = full_game(1, agendas=("ag3", "ag7"), caps=12)
    assert influence.of(state, 0) == 1 + 1 + 2
    state = survivor(state, 0, traits=(("reputation", "idolized"),), caps=30)
    assert influence.of(state, 0) == 2 + 1 + 2


def test_influence_declaring_victory_and_shared_victories() -> None:
    """Influence: reaching the mark (10 with two players) wins; everyone at the mark shares the victory."""
    state = full_game(2, ["scout", "keeper"], agendas=("ag1", "ag3", "ag7"), caps=10)
    state = survivor(state, 1, agendas=("ag9",), caps=0)
    state = replace(state, power=(6, 0))  # ag1: 1 + 6
    assert influence.of(state, 0) == 1 + 6 + 1 + 1 + 2 == 11 and influence.winners(state) == [0]
    state, events = play(state, 0, {"type": "move"})
    assert state.over and state.result == "won" and state.winners == (0,)
    both = survivor(replace(full_game(2, ["scout", "keeper"], agendas=("ag1", "ag3", "ag7"), caps=10), power=(6, 0)),
                    1, agendas=("ag1", "ag3", "ag7"), caps=10)
    both, _ = play(both, 0, {"type": "move"})
    assert both.winners == (0, 1)


def test_winning_the_game_the_mark_depends_on_the_player_count_and_ends_the_game_at_once() -> None:
    """Winning the Game, Influence: 11 influence with 1 player, 10 with 2, 9 with 3, 8 with 4; one short plays
    on; reaching it ends the game with that survivor's victory, the others lose, and the hands are revealed."""
    for players, mark in ((1, 11), (2, 10), (3, 9), (4, 8)):
        # ag1 pays 1 + star's lead; the lead is set so that seat 0 has exactly the mark, then one less.
        for lead, wins in ((mark - 1, True), (mark - 2, False)):
            state = replace(full_game(players, agendas=("ag1",)), power=(lead, 0))
            for other in range(1, players):
                state = survivor(state, other, agendas=("ag3",))
            assert influence.of(state, 0) == 1 + lead
            state, _ = play(state, 0, {"type": "move"})
            assert state.over is wins
            if wins:
                outcome = FALLOUT.outcome(state)
                assert outcome.winners == (0,) and outcome.progress["result"] == "won"
                assert FALLOUT.view(state, (1 % players))["survivors"][0]["agendas"] == ["ag1"]


def test_faction_power_track_end_of_the_game_everyone_loses_or_the_influential_win() -> None:
    """Faction Power Track: a faction reaching the final space ends the game; survivors with enough influence
    (the excess counted) still win, otherwise all lose."""
    state = replace(full_game(1, agendas=("ag3",)), power=(6, 6))
    state, events = resolve(state, 0, ["★++"])
    assert state.over and state.result == "lost" and data(events, "GameEnded")[0]["factions"] == ["star"]
    state = replace(full_game(1, agendas=("ag2",)), power=(0, 6))
    # The spaces past the final one count: ag2 gives 1 + (9 - 0) = 10 < 11.
    state, _ = resolve(state, 0, [{"spade": 3}])
    assert state.power == (0, 9) and state.result == "lost"
    state = replace(full_game(1, agendas=("ag2", "ag3"), traits=(("reputation", "idolized"),)), power=(0, 6))
    state, _ = resolve(state, 0, [{"spade": 3}])
    assert state.result == "won" and state.winners == (0,)


def test_solo_play_only_the_weaker_faction_advances_when_the_agenda_deck_runs_out() -> None:
    """Solo Play, Agenda Cards: drawing the last agenda card depletes the deck; solo, only the weaker advances."""
    state = replace(full_game(1), agenda_deck=("ag9",), agenda_discard=("ag7", "ag3"), power=(2, 1))
    state, events = resolve(state, 0, [{"agenda": 1}])
    assert "AgendaDeckReshuffled" in types(events) and state.power == (2, 2)
    assert set(state.agenda_deck) == {"ag7", "ag3"}


def test_agenda_cards_a_draw_from_a_deck_left_empty_rebuilds_it_without_a_second_depletion() -> None:
    """Rules Reference "Agenda Cards", "Component Limitations": a depletion that found every card in hands left
    the deck empty; a result drawing from it shuffles the discards into a new deck and deals from it, and the
    deck is not depleted again (the factions stay, the first player keeps the deck) until its final card."""
    state = full_game(2, ["scout", "keeper"], agendas=())
    state = replace(state, agenda_deck=(), agenda_discard=("ag7", "ag3"), power=(2, 1))
    first = state.first_player
    state, events = resolve(state, 0, [{"agenda": 1}])
    assert types(events).count("AgendaDeckReshuffled") == 1 and "FactionsAdvanced" not in types(events)
    assert "FirstPlayerPassed" not in types(events) and state.first_player == first and state.power == (2, 1)
    assert len(state.survivor(0).agendas) == 1 and state.agenda_discard == ()
    assert set(state.survivor(0).agendas + state.agenda_deck) == {"ag7", "ag3"}
    # The rebuilt deck's final card is a depletion as any other: the factions advance then.
    state, events = resolve(state, 0, [{"agenda": 1}])
    assert len(state.survivor(0).agendas) == 2 and types(events).count("FactionsAdvanced") == 1
    assert state.power == (3, 2)


def test_agenda_cards_at_most_four_and_the_cards_stay_secret() -> None:
    """Agenda Cards: a fifth card means discarding down to four; only the holder sees which."""
    state = full_game(2, ["scout", "keeper"], agendas=("ag1", "ag2", "ag3", "ag7"))
    state = replace(state, agenda_deck=("ag9",) + state.agenda_deck)
    state, events = resolve(state, 0, [{"agenda": 1}])
    assert state.pending.kind == "discard_agenda" and len(state.pending.choices) == 5
    assert FALLOUT.view(state, 1)["pending"]["choices"] == [None] * 5
    assert FALLOUT.redact(next(e for e in events if e.type == "AgendaDrawn"), 1).data["card"] is None
    state, events = play(state, 0, {"type": "discard_agenda", "agenda": "ag2"})
    assert len(state.survivor(0).agendas) == 4 and state.agenda_discard[-1] == "ag2"
    assert FALLOUT.redact(events[-1], 1).data.get("card") is None
    assert FALLOUT.view(state, 1)["survivors"][0]["agenda_count"] == 4


def test_loyalty_declared_at_the_start_of_the_turn_with_its_three_effects() -> None:
    """Loyalty, Factions, Faction Tokens: reveal a ★/♠ agenda at the start of the turn; the faction's tokens do not
    stop actions, cannot be fought and ignore the survivor when they activate; withdrawing hides it again."""
    state = full_game(1, agendas=("ag2", "ag3"))
    assert {"type": "declare_loyalty", "agenda": "ag2"} in FALLOUT.legal_actions(state, 0)
    assert {"type": "declare_loyalty", "agenda": "ag3"} not in FALLOUT.legal_actions(state, 0)  # neutral
    state, _ = add_enemy(state, "raider", "camp.a", faction="spade")
    assert refused(state, 0, {"type": "camp"}).code == "enemy_in_space"
    state, _ = play(state, 0, {"type": "declare_loyalty", "agenda": "ag2"})
    assert FALLOUT.view(state, None)["survivors"][0]["loyalty"] == "ag2"
    assert not [c for c in FALLOUT.legal_actions(state, 0) if c["type"] == "fight"]
    assert {"type": "camp"} in FALLOUT.legal_actions(state, 0)
    state, _ = play(state, 0, {"type": "move"})
    assert refused(state, 0, {"type": "withdraw_loyalty"}).code == "cannot_withdraw_loyalty"  # not at the start


def test_faction_tokens_discarded_instead_of_retreating_and_never_replaced() -> None:
    """Faction Tokens, Faction Power Track: the ★ token (robot, level X from the track, retreat) is discarded when
    it would become inactive, and not replaced when killed."""
    state, guard = add_enemy(full_game(1, special=(("P", "p1"), ("L", "l1"))), "star_guard", "camp.a", faction="star")
    state, events = play(state, 0, {"type": "fight", "enemy": guard}, ScriptedRng(BLANK, BLANK, BLANK))
    state, events = play(state, 0, {"type": "keep_dice"})
    assert data(events, "EnemyDiscarded")[0]["reason"] == "retreat" and not state.enemies
    state, guard = add_enemy(full_game(1, special=(("P", "p1"), ("L", "l1"))), "star_guard", "camp.a", faction="star")
    state, events = play(state, 0, {"type": "fight", "enemy": guard}, ScriptedRng(BODY, BLANK, BLANK))
    state, events = play(state, 0, {"type": "keep_dice"})
    killed = data(events, "EnemyKilled")[0]
    assert killed["replace"] is False and killed["faction"] == "star"


def test_perk_cards_used_during_ones_turn_and_returned_to_the_perk_deck() -> None:
    """Perk Cards: discard a perk during your turn for its effect; it returns to the perk deck; not during an action."""
    state = full_game(1, perks=("perk_l",), caps=0)
    state = replace(state, perk_deck=tuple(p for p in state.perk_deck if p != "perk_l"))
    state, _ = play(state, 0, {"type": "use_perk", "perk": "perk_l"})
    assert state.survivor(0).caps == 2 and state.perk_deck[-1] == "perk_l" and state.survivor(0).perks == ()
    busy = full_game(1, perks=("perk_l",), space="ruins.c")
    busy, _ = play(busy, 0, {"type": "encounter"})
    assert {"type": "use_perk", "perk": "perk_l"} not in FALLOUT.legal_actions(busy, 0)
    assert refused(busy, 0, {"type": "use_perk", "perk": "perk_l"}).code == "not_a_choice"
    assert refused(busy, SYSTEM, {"type": "round_end"}).code == "round_end_not_due"


def test_loyalty_faction_enemies_ignore_the_loyal_when_they_activate() -> None:
    """Loyalty, Activating Enemies: enemies of the loyal faction neither fight nor move toward the survivor."""
    state = full_game(1, agendas=("ag2",), loyalty="ag2")
    state, token = add_enemy(state, "raider", "camp.a", faction="spade")
    # (ag9 shows robot, ♠, critter.)
    state = replace(state, turn=None, round_end_due=True, agenda_deck=("ag9",) + state.agenda_deck)
    seen = []
    for _ in range(6):
        if FALLOUT.system_command(state) is None:
            break
        state, events = play(state, SYSTEM, {"type": "round_end"})
        seen += events
    assert "FightStarted" not in types(seen) and {"enemy": token} in data(seen, "EnemyIdle")
