"""Fallout's quests whose reward is a random unique asset, completed through the service.

The service checks every event a game emits against its declared schema before appending it
(``record.game_event``), so a reward the engine resolves but the schema refuses is a failed
command at the server, however well the domain plays it. Each game here is set up by the
service, arranged through the log's own events (the quest staged, the survivor placed where its
objective is done, an enemy standing there taken off) and then played by commands: the quest
action or the exploration, then each decision it asks for, until the reward is appended.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.fallout import effects as fx
from domain.fallout.board import board_of
from domain.fallout.content import pack_named
from domain.fallout.game import FALLOUT
from domain.game import Event
from service.usecases.games import Games
from service.usecases.record import game_event

PACK = pack_named("base")
#: Every quest of the bundled pack with a ``unique: random`` reward, and the scenario whose map
#: holds the spaces its objective needs.
RANDOM_UNIQUE_QUESTS = {233: "sulphur_flats", 255: "sulphur_flats", 333: "thornwood_hollow",
                        355: "thornwood_hollow", 435: "vesper_heights", 455: "vesper_heights"}
#: Games (seeds) tried per quest: the objectives' fights and tests are rolled, and some fail.
ATTEMPTS = 40


def _random_unique_objectives() -> dict[int, tuple[str, int]]:
    """Library number -> (quest id, objective) of every objective rewarding a random unique."""
    found = {}
    for quest in PACK.quests.values():
        for n, objective in enumerate(quest.objectives):
            rewards = [r for r in fx.parse_results(objective.results) if isinstance(r, fx.GainUnique)]
            if any(r.card is None for r in rewards):
                found[quest.number] = (quest.id, n)
    return found


def test_the_bundled_pack_rewards_a_random_unique_in_these_quests() -> None:
    assert sorted(_random_unique_objectives()) == sorted(RANDOM_UNIQUE_QUESTS)


def _create(games: Games, scenario: str, seed: str) -> str:
    options = {"pack": PACK.id, "scenario": scenario, "survivors": [sorted(PACK.survivors)[0]]}
    seats = [{"seat": 0, "kind": "human", "name": "p0", "bot": None}]
    return games.create("fallout", options, seats, seed=seed).game_id


def _arrange(games: Games, game_id: str, events: list[Event]) -> None:
    """Append ``events`` as the game's own (checked as the service checks what a game decides)."""
    version, tip = games.store.head(game_id)
    games.store.append(game_id, version, [game_event("fallout", e) for e in events], prev_hash=tip)


def _state(games: Games, game_id: str) -> Any:
    return games.load(game_id).state.state


def _placed(state: Any, space: str) -> list[Event]:
    """The survivor set down on ``space`` (as a result places one) and any enemy there taken off."""
    here = state.survivor(0).space
    moved = Event("SurvivorMoved", {"seat": 0, "from": here, "to": space, "cost": 0, "rads": 0, "attackers": []})
    return [moved, *(Event("EnemyDiscarded", {"enemy": e.id, "reason": "arranged"})
                     for e in state.enemies if e.space == space)]


def _setting_out(state: Any, quest: str, objective: int) -> tuple[list[Event], dict[str, Any]]:
    """Where to stand and the command that does ``objective``: the quest action at its space, or
    exploring a deadly tile from a face-up space beside one."""
    wanted = PACK.quests[quest].objectives[objective]
    if wanted.requirement is not None:
        return _placed(state, wanted.requirement["space"]), {"type": "quest", "quest": quest, "objective": objective}
    assert wanted.trigger == {"explore": "deadly"}, wanted.trigger
    board = board_of(state)
    for space in sorted(s for s in board.spaces if board.place_of[s] in state.faceup_places()):
        arranged = _placed(state, space)
        there = state
        for event in arranged:
            there = FALLOUT.evolve(there, event)
        for command in FALLOUT.legal_actions(there, 0):
            if command["type"] == "explore" and there.place(command["place"]).back == "deadly":
                return arranged, command
    raise AssertionError(f"no face-up space of {state.scenario} is beside a deadly tile")


def _complete(games: Games, number: int, seed: str) -> list[dict[str, Any]]:
    """One game: the quest staged, the survivor set out, the objective done; the UniqueGained appended."""
    quest, objective = _random_unique_objectives()[number]
    game_id = _create(games, RANDOM_UNIQUE_QUESTS[number], seed)
    _arrange(games, game_id, [Event("QuestStaged", {"number": number, "quest": quest})])
    arranged, command = _setting_out(_state(games, game_id), quest, objective)
    _arrange(games, game_id, arranged)
    assert command in FALLOUT.legal_actions(_state(games, game_id), 0), (number, command)
    games.act(game_id, 0, command, follow_up=False)
    # The fight's and the test's rerolls, a tie where the drawn enemy goes: keep the dice, take the first.
    for _ in range(30):
        state = _state(games, game_id)
        if state.pending is None or state.pending.seat != 0 or state.over:
            break
        offered = FALLOUT.legal_actions(state, 0)
        games.act(game_id, 0, next((c for c in offered if c["type"] == "keep_dice"), offered[0]), follow_up=False)
    return [e.data for e in games.store.read(game_id) if e.type == "UniqueGained"]


@pytest.mark.parametrize("number", sorted(RANDOM_UNIQUE_QUESTS))
def test_a_quest_rewarding_a_random_unique_is_completed_through_the_service(games: Games, number: int) -> None:
    """Quest Cards, Quest Action, Unique Asset Cards: the objective's results (left to right) give the
    survivor a random unique asset; its UniqueGained, which names no card asked for, passes the service's
    schema check and is appended."""
    for attempt in range(ATTEMPTS):
        gained = _complete(games, number, f"random-unique-{number}-{attempt}")
        if gained:
            assert gained == [{"seat": 0, "card": gained[0]["card"], "asked": None}]
            assert gained[0]["card"] in {c.id for c in PACK.cards.values() if c.deck == "unique"}
            return
    pytest.fail(f"quest {number}: none of {ATTEMPTS} games completed the objective")
