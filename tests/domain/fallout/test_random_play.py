"""Property test: seeded games of random legal play never break the rules' invariants.

Each game picks uniformly among the commands ``legal_actions`` offers (and
runs ``system_command`` whenever it is due). After every event the state must
be sane; after every command nobody may be stuck and the living must have
remaining HP; every so often a sampled other legal command must be accepted
and the snapshot must round-trip; at the end the whole log must fold to the
live state.
"""

from __future__ import annotations

import pytest

from domain.fallout.board import board_of
from domain.fallout.content import pack_named
from domain.fallout.game import FALLOUT
from domain.fallout.model import SPECIAL
from domain.fallout.state import FACE_DOWN, MAX_HP, GameState
from domain.game import SYSTEM
from domain.rng import Rng
from tests.domain.fallout.fixtures import MINI

MAX_ROUNDS = 30


def _base_pack_available() -> bool:
    try:
        pack_named("base")
    except Exception:  # noqa: BLE001 - the bundled pack may not exist yet
        return False
    return True


def check_event_invariants(state: GameState) -> None:
    faceup = state.faceup_places()
    board = board_of(state)
    placing = set(state.placing.enemies) if state.placing else set()
    for s in state.survivors:
        assert 0 <= s.rads <= MAX_HP and 0 <= s.hp <= MAX_HP
        letters = s.letters
        assert len(letters) == len(set(letters)), letters
        assert all(letter in SPECIAL for letter in letters)
        if s.eliminated or state.phase == "choosing" and s.survivor is None:
            continue
        if s.space is None:
            # Off the map only between being killed and choosing where to stand again.
            assert s.seat in state.respawning or (state.pending and state.pending.kind == "respawn")
        else:
            assert s.space in board.spaces, s.space
            assert board.place_of[s.space] in faceup, "survivor on a face-down tile"
    for e in state.enemies:
        if e.id in placing:
            continue
        assert board.node_exists(e.space, faceup), (e, faceup)
        if e.space.startswith(FACE_DOWN):
            assert e.space[len(FACE_DOWN):] not in faceup


def check_command_invariants(state: GameState) -> None:
    if state.over:
        return
    for s in state.survivors:
        if not s.eliminated and s.space is not None:
            assert s.remaining_hp > 0, s
    seats_with_actions = [seat for seat in range(state.players) if FALLOUT.legal_actions(state, seat)]
    assert seats_with_actions or FALLOUT.system_command(state) is not None, "the game is stuck"
    assert FALLOUT.waiting_for(state) == seats_with_actions or FALLOUT.system_command(state) is not None


def play_one(seed: int, pack: str = "mini", scenario: str = "test") -> tuple[GameState, int]:
    players = seed % 4 + 1
    options = {"pack": pack, "scenario": scenario, "players": players}
    if seed % 3 == 0:
        options["survivors"] = sorted(pack_named(pack).survivors)[:players]
    log = FALLOUT.setup(options, Rng(f"setup-{seed}"))
    state = FALLOUT.initial_state()
    for event in log:
        state = FALLOUT.evolve(state, event)
        check_event_invariants(state)
    pick = Rng(f"bot-{seed}")
    n = 0
    while not FALLOUT.is_over(state) and state.round <= MAX_ROUNDS:
        n += 1
        command = FALLOUT.system_command(state)
        if command is not None:
            seat: int | str = SYSTEM
        else:
            seat = FALLOUT.waiting_for(state)[0]
            options_now = FALLOUT.legal_actions(state, seat)
            command = pick.choice(options_now)
            if n % 7 == 0 and len(options_now) > 1:
                # Every listed command must be accepted (the events are thrown away).
                other = pick.choice(options_now)
                assert FALLOUT.decide(state, seat, other, Rng(f"probe-{seed}-{n}"))
        before = FALLOUT.dump_state(state) if n % 50 == 0 else None
        events = FALLOUT.decide(state, seat, command, Rng(f"game-{seed}", f"v{len(log)}"))
        assert events, (seat, command)
        if before is not None:
            assert FALLOUT.dump_state(state) == before, "decide changed its input"
        for event in events:
            state = FALLOUT.evolve(state, event)
            check_event_invariants(state)
        log += events
        check_command_invariants(state)
        if n % 25 == 0:
            assert FALLOUT.load_state(FALLOUT.dump_state(state)) == state
    replayed = FALLOUT.initial_state()
    for event in log:
        replayed = FALLOUT.evolve(replayed, event)
    assert replayed == state
    assert FALLOUT.load_state(FALLOUT.dump_state(state)) == state
    return state, len(log)


def test_twenty_random_games_keep_the_invariants() -> None:
    """Actions and Turns, Rounds, Activating Enemies: 20 quick random games."""
    for seed in range(20):
        play_one(seed)


@pytest.mark.slow
def test_two_hundred_random_games_keep_the_invariants() -> None:
    """Actions and Turns, Rounds, Activating Enemies: 200 random games, 1-4 players."""
    for seed in range(200):
        play_one(1000 + seed)


@pytest.mark.slow
@pytest.mark.skipif(not _base_pack_available(), reason="the bundled pack is not there yet")
def test_two_hundred_random_games_with_the_bundled_pack() -> None:
    """Complete Setup with the bundled pack: 200 random games keep the invariants."""
    scenario = next(iter(pack_named("base").scenarios))
    for seed in range(200):
        play_one(2000 + seed, pack="base", scenario=scenario)


def test_mini_pack_is_registered() -> None:
    assert MINI.id == "mini"
