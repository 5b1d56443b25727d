"""A game as the service folds it: creation facts, seats, proposals, and the rules state.

The log holds two kinds of events. The game module's own (``Added``,
``Moved``…) go to its ``evolve``; the service's own (``META_EVENTS``: the
lobby, the start, the command that caused each batch, the seed, rewinds and
forks) are folded here and never reach the module, which knows nothing of
them.

``GameRewound`` is the one event that does not build on the state before it:
it makes the rules state the state after an earlier version, so folding it
needs a way to get that state (``state_at``). The result is an ordinary fold
at that version, so a snapshot taken after a rewind is as correct as any.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from domain import registry
from domain.game import Event, GameModule
from events.envelope import Envelope

META_EVENTS = frozenset(
    {
        "GameCreated",
        "SeatJoined",
        "SeatLeft",
        "SeatHandedToBot",
        "GameStarted",
        "CommandAccepted",
        "SeedRevealed",
        "ProposalMade",
        "ProposalAccepted",
        "ProposalDeclined",
        "GameRewound",
        "GameForked",
        "ForkedFrom",
        "TurnTimedOut",
        "VacationTaken",
    }
)

#: The kinds of seat: taken by a person, held by a bot, or waiting for a player.
HUMAN, BOT, OPEN = "human", "bot", "open"


class GameNotFound(Exception):
    def __init__(self, game_id: str):
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class StaleSnapshot(Exception):
    pass


@dataclass(frozen=True)
class Record:
    game: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seats: tuple[dict[str, Any], ...] = ()
    seed_commitment: str | None = None
    state: Any = None
    started_at: int | None = None  # the version of GameStarted
    proposal: dict[str, Any] | None = None  # a pending rewind or fork
    seed: str | None = None  # revealed when the game ends
    forked_from: dict[str, Any] | None = None
    # Play-by-post (docs/play-by-post.md). The seats the game waits on, each
    # with the version and time its wait began: a seat's clock runs from there
    # while the game keeps waiting on it, through several commands of a turn.
    waits: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> {"since": v, "at": iso}
    # Seats whose deadline lapsed during their current wait, and what plays them.
    timeouts: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> {"since", "action", "bot"}
    vacations: dict[int, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # seat -> (from, until)...

    @property
    def module(self) -> GameModule:
        if self.game is None:
            raise GameNotFound("(not created)")
        return registry.game_module(self.game)

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def over(self) -> bool:
        return self.started and self.module.is_over(self.state)

    @property
    def status(self) -> str:
        return "ended" if self.over else "running" if self.started else "lobby"

    def seats_of(self, kind: str) -> list[int]:
        return [s["seat"] for s in self.seats if s["kind"] == kind]

    def kind_of(self, seat: int) -> str | None:
        return self.seats[seat]["kind"] if 0 <= seat < len(self.seats) else None


StateAt = Callable[[int], Record]


def _seat(record: Record, seat: int, **changes: Any) -> Record:
    seats = list(record.seats)
    seats[seat] = {**seats[seat], **changes}
    return replace(record, seats=tuple(seats))


def apply(
    record: Record,
    event_type: str,
    data: dict[str, Any],
    version: int = 0,
    state_at: StateAt | None = None,
    timestamp: str | None = None,
) -> Record:
    """The record after one event (``version`` and ``timestamp``: where and when it stands in the log).

    Without a version (deciding what a batch would do before appending it)
    the seats' waits are not followed.
    """
    record = _apply(record, event_type, data, version, state_at)
    if version and record.started:
        record = _track_waits(record, version, timestamp or "")
    return record


def _track_waits(record: Record, version: int, timestamp: str) -> Record:
    """Begin the wait of a seat the game now waits on; end the waits of the others."""
    waiting = () if record.over else record.module.waiting_for(record.state)
    if list(waiting) == list(record.waits):
        return record
    waits = {seat: record.waits.get(seat) or {"since": version, "at": timestamp} for seat in waiting}
    timeouts = {
        seat: t for seat, t in record.timeouts.items() if seat in waits and waits[seat]["since"] == t["since"]
    }
    return replace(record, waits=waits, timeouts=timeouts)


def _apply(
    record: Record, event_type: str, data: dict[str, Any], version: int, state_at: StateAt | None
) -> Record:
    if event_type not in META_EVENTS:
        return replace(record, state=record.module.evolve(record.state, Event(event_type, data)))
    if event_type == "GameCreated":
        return Record(
            game=data["game"],
            options=data["options"],
            seats=tuple(data["seats"]),
            seed_commitment=data["seed_commitment"],
            state=registry.game_module(data["game"]).initial_state(),
        )
    # A change of players drops a pending proposal: who must agree has changed.
    if event_type == "SeatJoined":
        return replace(_seat(record, data["seat"], kind=HUMAN, name=data["name"], bot=None), proposal=None)
    if event_type == "SeatLeft":
        return replace(_seat(record, data["seat"], kind=OPEN, name=None, bot=None), proposal=None)
    if event_type == "SeatHandedToBot":
        return replace(_seat(record, data["seat"], kind=BOT, name=None, bot=data["bot"]), proposal=None)
    if event_type == "GameStarted":
        return replace(record, started_at=version)
    if event_type == "SeedRevealed":
        return replace(record, seed=data["seed"])
    if event_type == "ProposalMade":
        proposal = {"id": version, "kind": data["kind"], "to_version": data["to_version"], "by": data["by"]}
        return replace(record, proposal={**proposal, "accepted": [data["by"]]})
    if event_type == "ProposalAccepted":
        accepted = [*record.proposal["accepted"], data["by"]] if record.proposal else []
        return replace(record, proposal={**record.proposal, "accepted": accepted} if record.proposal else None)
    if event_type in ("ProposalDeclined", "GameForked"):
        return replace(record, proposal=None)
    if event_type == "GameRewound":
        if state_at is None:
            raise ValueError("folding a GameRewound needs the state at its version")
        return replace(record, state=state_at(data["to_version"]).state, proposal=None)
    if event_type == "TurnTimedOut":
        timeout = {"since": data["since"], "action": data["action"], "bot": data.get("bot")}
        return replace(record, timeouts={**record.timeouts, data["seat"]: timeout})
    if event_type == "VacationTaken":
        taken = record.vacations.get(data["seat"], ()) + ((data["from"], data["until"]),)
        return replace(record, vacations={**record.vacations, data["seat"]: taken})
    if event_type == "ForkedFrom":
        return replace(
            record,
            state=record.module.load_state(data["state"]),
            forked_from={k: data[k] for k in ("game_id", "version", "hash")},
        )
    return record  # CommandAccepted: a fact for the auditor, no change of state


class RecordFolder:
    """Folds a game's stream into a ``Record``; ``state_at`` serves rewinds."""

    format = "record/4"  # 4: seats' waits, timeouts and vacations (play-by-post)

    def __init__(self, state_at: Callable[[str, int], Record] | None = None):
        self.state_at = state_at

    def initial(self) -> Record:
        return Record()

    def apply(self, record: Record, envelope: Envelope) -> Record:
        state_at = None
        if self.state_at is not None:
            loader = self.state_at
            state_at = lambda version: loader(envelope.game_id, version)  # noqa: E731
        return apply(record, envelope.type, envelope.data, envelope.version, state_at, envelope.timestamp)

    def dump(self, record: Record) -> dict[str, Any]:
        module = record.module
        return {
            "game": record.game,
            "options": record.options,
            "seats": list(record.seats),
            "seed_commitment": record.seed_commitment,
            "started_at": record.started_at,
            "proposal": record.proposal,
            "seed": record.seed,
            "forked_from": record.forked_from,
            "waits": {str(k): v for k, v in record.waits.items()},
            "timeouts": {str(k): v for k, v in record.timeouts.items()},
            "vacations": {str(k): [list(p) for p in v] for k, v in record.vacations.items()},
            "state_format": getattr(module, "state_format", "1"),
            "state": module.dump_state(record.state),
        }

    def load(self, data: dict[str, Any]) -> Record:
        module = registry.game_module(data["game"])
        if data["state_format"] != getattr(module, "state_format", "1"):
            raise StaleSnapshot(data["state_format"])
        return Record(
            game=data["game"],
            options=data["options"],
            seats=tuple(data["seats"]),
            seed_commitment=data["seed_commitment"],
            started_at=data["started_at"],
            proposal=data["proposal"],
            seed=data["seed"],
            forked_from=data["forked_from"],
            waits={int(k): v for k, v in data["waits"].items()},
            timeouts={int(k): v for k, v in data["timeouts"].items()},
            vacations={int(k): tuple(tuple(p) for p in v) for k, v in data["vacations"].items()},
            state=module.load_state(data["state"]),
        )
