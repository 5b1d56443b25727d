"""Property test: seeded games of random legal play never break the rules' invariants.

Each game picks among the commands ``legal_actions`` offers (ending the turn
only now and then while something else is possible, so games get somewhere),
and runs ``system_command`` whenever it is due. After every event the state
must be sane (Caps never negative, one card per equipment slot); after every
command nobody may be stuck, the living must have remaining HP, no survivor
may hold more than four agenda cards or three inventory cards unless they are
being asked to discard down, the shop must hold four cards once settled (while
the assets last), every event emitted (the setup's, each command's and each
probe's) must validate against its declared schema, and no seat's view may show another seat's hidden agenda
cards; every so often a sampled other legal command must be accepted and the
snapshot must round-trip; at the end the whole log must fold to the live
state. The full test pack's games must between them use every command.

The bundled pack's scenarios are played to their end, 120 games each. To keep
that cheap their random player leans toward progress (``toward_progress``:
quests first, then heading for a quest marker) and the checks run after each
command rather than each event, with a seat's view, a probe and a snapshot
round trip less often (``sparse``).

The 200-game and 120-game tests are slow (``make test``; ``make test-fast``
leaves them out) and run in four parts that xdist spreads over its workers.
Every game is played once per session (``tests/shared_games.py``): the tests
over all the games of a kind (both endings met, every command used) read what
the parts recorded, and the quick tests of the fast lane play the first 20 of
them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable

import pytest

from domain.fallout import effects as fx
from domain.fallout.board import board_of
from domain.fallout.content import catalog, pack_named
from domain.fallout.game import FALLOUT
from domain.fallout.model import SPECIAL
from domain.fallout.state import FACE_DOWN, MAX_HP, SHOP_SIZE, GameState, face_down_node
from domain.game import SYSTEM
from domain.rng import Rng
from tests.contract.schemas import schemas_of
from tests.domain.fallout.bundled_pack import SCENARIOS
from tests.domain.fallout.fixtures import FULL, MINI

MAX_ROUNDS = 30
#: Every event the games emit validates against its declared schema, as the service checks it.
SCHEMAS = schemas_of(FALLOUT)


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
    cards = catalog(state.pack).cards
    for s in state.survivors:
        assert s.caps >= 0, s
        kinds = [cards[c].kind for c in s.equipped]
        assert len(kinds) == len(set(kinds)), ("one card per equipment slot", s.equipped)
    now = (state.enemies, state.places, state.placing)
    if _ENEMIES_CHECKED and all(a is b for a, b in zip(_ENEMIES_CHECKED[0], now, strict=True)):
        return  # the same enemies on the same map: checked already
    for e in state.enemies:
        if e.id in placing:
            continue
        assert board.node_exists(e.space, faceup), (e, faceup)
        if e.space.startswith(FACE_DOWN):
            assert e.space[len(FACE_DOWN):] not in faceup
    _ENEMIES_CHECKED[:] = [now]


#: The enemies, map and placement last checked (they stay the same through most events).
_ENEMIES_CHECKED: list[tuple] = []


def check_command_invariants(state: GameState, viewer: int = 0, views: bool = True) -> None:
    if state.over:
        return
    # Loot Cards: draw them all, then discard down; meanwhile a card drawn may wait to be equipped.
    discarding = state.pending is not None and state.pending.kind in ("discard_card", "discard_agenda", "equip_gained")
    for s in state.survivors:
        assert discarding or len(s.inventory) <= 3, ("inventory of three", s)
        assert discarding or len(s.agendas) <= 4, ("four agenda cards", s)
    if state.pending is None and (state.asset_deck or state.asset_discard):
        assert len(state.shop) == SHOP_SIZE, ("the shop holds four cards", state.shop)
    if not views:
        return
    # One seat's view at a time, in turn (every seat's, every command, is slow).
    seat = viewer % state.players
    texts = {a.id: a.text for a in catalog(state.pack).pack.agendas if a.text}
    seen = json.dumps(FALLOUT.view(state, seat))
    for other in state.survivors:
        if other.seat != seat:
            for agenda in set(other.agendas) - {other.loyalty}:
                assert agenda not in texts or texts[agenda] not in seen, ("another seat's agenda text", seat, agenda)
    for s in state.survivors:
        if not s.eliminated and s.space is not None:
            assert s.remaining_hp > 0, s
    seats_with_actions = [seat for seat in range(state.players) if FALLOUT.legal_actions(state, seat)]
    assert seats_with_actions or FALLOUT.system_command(state) is not None, "the game is stuck"
    assert FALLOUT.waiting_for(state) == seats_with_actions or FALLOUT.system_command(state) is not None


#: Command types the bot picks less often, so games move on: ending the turn,
#: and opening yet another trade.
RARELY = {"end_turn": 8, "trade": 6, "trade_cancel": 3}


def bot_pick(pick: Rng, options: list[dict]) -> dict:
    """A command type first, uniformly but for the rare ones, then one command of that type."""
    by_type: dict[str, list[dict]] = {}
    for command in options:
        by_type.setdefault(command["type"], []).append(command)
    kinds = sorted(by_type)
    while True:
        kind = pick.choice(kinds)
        if len(kinds) == 1 or kind not in RARELY or pick.below(RARELY[kind]) == 0:
            return pick.choice(by_type[kind])


def _moves_on(state: GameState, command: dict) -> bool:
    objective = catalog(state.pack).quests[command["quest"]].objectives[command["objective"]]
    return any(isinstance(r, (fx.Trash, fx.Stage, fx.Add, fx.Power)) for r in fx.parse_results(objective.results))


def toward_progress(pick: Rng, state: GameState, seat: int, options: list[dict]) -> dict:
    """A random legal command, biased toward what ends a game: a quest action when one is offered, and
    otherwise, most of the time, heading for a quest marker (Quest Cards): exploring the tile it lies on,
    stepping closer to it; else ``bot_pick``. Every command is still one ``legal_actions`` offers, so the
    games are as legal as any."""
    by_type: dict[str, list[dict]] = {}
    for command in options:
        by_type.setdefault(command["type"], []).append(command)
    if "quest" in by_type:
        # An objective that moves the story on (it trashes its card, stages or adds one, or moves a faction)
        # before one that can be done again and again.
        forward = [c for c in by_type["quest"] if _moves_on(state, c)]
        if forward:
            return pick.choice(forward)
        if pick.below(3) == 0:
            return pick.choice(by_type["quest"])
    if state.markers and pick.below(4) != 0:
        board, faceup = board_of(state), state.faceup_places()
        places = {board.place_of[space] for _, space in state.markers if space in board.place_of}
        # A marker on a face-down tile is reached by exploring that tile (the enemy graph's node for it).
        targets = {space if board.place_of[space] in faceup else face_down_node(board.place_of[space])
                   for _, space in state.markers if space in board.place_of}
        explore = [c for c in by_type.get("explore", []) if c["place"] in places]
        if explore:
            return pick.choice(explore)
        if "step" in by_type:

            def away(space: str | None) -> int:
                found = board.distances(space, faceup) if space else {}
                return min((found[t] for t in targets if t in found), default=len(board.spaces))

            now = away(state.survivor(seat).space)
            closer = [c for c in by_type["step"] if away(c["to"]) < now]
            if closer:
                return pick.choice(closer)
        if "move" in by_type:
            return by_type["move"][0]
    return bot_pick(pick, options)


def play_one(
    seed: int, pack: str = "mini", scenario: str = "test", used: Counter | None = None, rounds: int = MAX_ROUNDS,
    progress: bool = False, sparse: bool = False,
) -> tuple[GameState, int]:
    """One seeded game. ``sparse`` (the long games to their end): the state invariants after each command
    rather than each event, and a seat's view, a probe, a snapshot round trip less often."""
    views_every, probe_every, snapshot_every = (40, 25, 200) if sparse else (3, 7, 25)
    players = seed % 4 + 1
    options = {"pack": pack, "scenario": scenario, "players": players}
    if seed % 3 == 0:
        options["survivors"] = sorted(pack_named(pack).survivors)[:players]
    log = FALLOUT.setup(options, Rng(f"setup-{seed}"))
    SCHEMAS.check(log, f"{pack}/{scenario} seed {seed} setup")
    state = FALLOUT.initial_state()
    for event in log:
        state = FALLOUT.evolve(state, event)
        check_event_invariants(state)
    pick = Rng(f"bot-{seed}")
    n = 0
    while not FALLOUT.is_over(state) and state.round <= rounds:
        n += 1
        command = FALLOUT.system_command(state)
        if command is not None:
            seat: int | str = SYSTEM
        else:
            seat = FALLOUT.waiting_for(state)[0]
            options_now = FALLOUT.legal_actions(state, seat)
            command = toward_progress(pick, state, seat, options_now) if progress else bot_pick(pick, options_now)
            if n % probe_every == 0 and len(options_now) > 1:
                # Every listed command must be accepted (the events are thrown away).
                other = pick.choice(options_now)
                probed = FALLOUT.decide(state, seat, other, Rng(f"probe-{seed}-{n}"))
                assert probed
                SCHEMAS.check(probed, f"{pack}/{scenario} seed {seed} v{len(log)} probe by seat", seat, other)
        before = FALLOUT.dump_state(state) if n % (2 * snapshot_every) == 0 else None
        rng = Rng(f"game-{seed}", f"v{len(log)}")
        if sparse:
            # The state the resolution folded as it went; the replay at the end folds the log again.
            events, after = FALLOUT.decide_and_fold(state, seat, command, rng)
        else:
            events, after = FALLOUT.decide(state, seat, command, rng), None
        assert events, (seat, command)
        SCHEMAS.check(events, f"{pack}/{scenario} seed {seed} v{len(log)} seat", seat, command)
        if used is not None:
            used[command["type"]] += 1
        if before is not None:
            assert FALLOUT.dump_state(state) == before, "decide changed its input"
        if after is not None:
            state = after
            check_event_invariants(state)
        else:
            for event in events:
                state = FALLOUT.evolve(state, event)
                check_event_invariants(state)
        log += events
        check_command_invariants(state, n, views=n % views_every == 0)
        if n % snapshot_every == 0:
            assert FALLOUT.load_state(FALLOUT.dump_state(state)) == state
    replayed = FALLOUT.initial_state()
    for event in log:
        replayed = FALLOUT.evolve(replayed, event)
    assert replayed == state
    assert FALLOUT.load_state(FALLOUT.dump_state(state)) == state
    return state, len(log)


#: Each slow test's 200 games run as four tests of 50 (``part``), which xdist hands to different
#: workers; a last test reads what the parts found over all 200 (tests/shared_games.py).
GAMES, PARTS = 200, 4
#: A scenario's whole games are longer: 120 of each (four parts of 30) keep ``make test`` under its eight
#: minutes; greedy self-play ends each scenario both ways over 400 games (docs/content-pack.md).
SCENARIO_GAMES = 120


def games_of(kind: str, first: int, part: int | None = None, count: int = GAMES) -> dict[str, int]:
    """The seeds of one test's games (or of one ``part`` of them) by their key in the session's record:
    the rules version, the kind of game and the seed."""
    seeds = range(first, first + count)
    if part is not None:
        size = count // PARTS
        seeds = seeds[part * size:(part + 1) * size]
    return {f"{FALLOUT.rules}/{kind}/{seed}": seed for seed in seeds}


def mini_game(seed: int) -> str:
    """A game of the mini pack, 30 rounds at most; its result ("" while it runs) for the record."""
    state, _ = play_one(seed)
    return state.result or ""


def test_twenty_random_games_keep_the_invariants(shared_games) -> None:
    """Actions and Turns, Rounds, Activating Enemies: 20 quick random games (the slow test's first 20)."""
    list(shared_games.each(games_of("mini", 1000, count=20), mini_game))


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS), ids=[f"part{n + 1}of{PARTS}" for n in range(PARTS)])
def test_two_hundred_random_games_keep_the_invariants(shared_games, part: int) -> None:
    """Actions and Turns, Rounds, Activating Enemies: 200 random games, 1-4 players."""
    list(shared_games.each(games_of("mini", 1000, part), mini_game))


#: Rounds after which a game of the bundled pack has certainly gone wrong: the agenda deck runs
#: out every 13 to 23 rounds and then advances the power track, which is at most ten steps long.
ENDLESS = 400


def scenario_game(scenario: str) -> Callable[[int], str]:
    def play(seed: int) -> str:
        """A whole game of the bundled pack's ``scenario``, played to its end; how it ended."""
        state, _ = play_one(seed, pack="base", scenario=scenario, rounds=ENDLESS, progress=True, sparse=True)
        assert state.over, (scenario, seed, state.round)
        return state.result

    return play


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS), ids=[f"part{n + 1}of{PARTS}" for n in range(PARTS)])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_random_games_of_each_scenario_to_their_end(shared_games, scenario: str, part: int) -> None:
    """Complete Setup with each scenario, Winning the Game / Faction Power Track: 120 random-legal games of
    1-4 players, each played to its end, keep the invariants and end by the rules, never by running on. The
    random player leans toward progress (quests, and steps toward their markers: ``toward_progress``) so that
    whole games stay cheap."""
    list(shared_games.each(games_of(scenario, 2000, part, SCENARIO_GAMES), scenario_game(scenario)))


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_random_games_of_each_scenario_end_in_victories_and_takeovers(shared_games, scenario: str) -> None:
    """Winning the Game / Faction Power Track: over each scenario's 120 games (the parts' above), by a
    survivor's victory and by a faction's takeover."""
    games = games_of(scenario, 2000, count=SCENARIO_GAMES)
    ends = Counter(result for _, result in shared_games.each(games, scenario_game(scenario)))
    assert set(ends) == {"won", "lost"}, ends


#: Commands a game of the full test pack can never send (no such situation in it).
# The full test pack has no card with a fight timing nor a kill_enemy / fight_enemy result, so these
# answers never arise in it; test_modifiers.py and test_results_vocabulary.py play each of them.
NEVER_IN_FULL: frozenset[str] = frozenset({"use_in_fight", "roll_dice", "choose_enemy"})


def full_game(seed: int) -> tuple[str, Counter]:
    """A game of the full test pack, 30 rounds at most: its result and the commands it sent."""
    used: Counter = Counter()
    state, _ = play_one(seed, pack=FULL.id, used=used)
    return state.result or "", used


def test_twenty_random_games_of_the_full_pack(shared_games) -> None:
    """Encounter Action, Quest Action, Shopping: 20 quick random games of the full test pack (the slow
    test's first 20)."""
    list(shared_games.each(games_of("full", 3100, count=20), full_game))


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS), ids=[f"part{n + 1}of{PARTS}" for n in range(PARTS)])
def test_two_hundred_random_games_with_encounters_quests_items_and_influence(shared_games, part: int) -> None:
    """Encounter Action, Quest Action, Shopping, Camp Action (trading), Perk Cards, Loyalty, Influence,
    Inventory, Agenda Cards: 200 random games of the full test pack keep the invariants."""
    list(shared_games.each(games_of("full", 3100, part), full_game))


@pytest.mark.slow
def test_the_two_hundred_games_of_the_full_pack_use_every_command_and_end_both_ways(shared_games) -> None:
    """Over the 200 games above, every command is used, and games are lost and won. A random victory is
    rare (4 of the 800 games from seed 3000, at 3250, 3463, 3538 and 3751), so the 200 are taken where one
    is."""
    used: Counter = Counter()
    ends: Counter = Counter()
    for _, (result, commands) in shared_games.each(games_of("full", 3100), full_game):
        ends[result] += 1
        used.update(commands)
    every = set(FALLOUT.command_schemas)
    assert every - NEVER_IN_FULL - set(used) == set(), sorted(every - set(used))
    assert ends["lost"] and ends["won"], ends


def test_mini_pack_is_registered() -> None:
    assert MINI.id == "mini"
