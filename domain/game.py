"""The contract every game module in ``domain/`` offers.

The service and the workers only ever talk to a game through this surface, so
they never know whether they run Fallout or Zona. Everything here is pure: no
I/O, no clock, no global random source. Randomness arrives as an ``Rng``
argument to ``setup`` and ``decide`` and leaves as data inside the events, so
``evolve`` can replay a stream without ever drawing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from domain.rng import Rng

#: The actor name for commands nobody at the table sends: the round end,
#: a deadline, a worker carrying on after a decision.
SYSTEM = "system"

Seat = int
Command = dict[str, Any]


@dataclass(frozen=True)
class Event:
    """A fact the domain decided. The store wraps it in an envelope."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)


class RuleViolation(Exception):
    """A command the rules do not allow now.

    ``code`` is stable and machine-readable (it becomes the problem+json
    ``code``); ``rule`` names the Rules Reference topic that forbids it, so a
    client can show the player why.
    """

    def __init__(self, code: str, message: str, rule: str | None = None, status: int = 409):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        # 409: legal in general but not now (wrong turn, no movement left);
        # 422: malformed for this game (unknown space, unknown command type).
        self.status = status


@runtime_checkable
class GameModule(Protocol):
    """What ``domain.registry`` hands the application layer."""

    name: str

    def initial_state(self) -> Any:
        """The state before the first event (what ``setup``'s events fold onto)."""

    def setup(self, options: dict[str, Any], rng: Rng) -> list[Event]:
        """Events that create a game; may raise RuleViolation for bad options."""

    def decide(self, state: Any, seat: Seat | str, command: Command, rng: Rng) -> list[Event]:
        """Events for a command by ``seat`` (or ``SYSTEM``); raises RuleViolation."""

    def evolve(self, state: Any, event: Event) -> Any:
        """The state after ``event``. Never draws, never fails on a stored event,
        never mutates ``state``."""

    def legal_actions(self, state: Any, seat: Seat) -> list[Command]:
        """Every command ``seat`` may send now, each complete as ``decide`` takes it."""

    def view(self, state: Any, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator). JSON-ready."""

    def redact(self, event: Event, seat: Seat | None) -> Event:
        """``event`` as ``seat`` may see it."""

    def system_command(self, state: Any) -> Command | None:
        """The command a worker should send as ``SYSTEM`` now (the round end),
        or ``None`` when the game waits for a seat or is over."""

    def waiting_for(self, state: Any) -> list[Seat]:
        """The seats whose decision the game waits on now."""

    def is_over(self, state: Any) -> bool:
        """True once the game has ended; then nothing is hidden any more."""

    def dump_state(self, state: Any) -> dict[str, Any]:
        """A JSON-ready copy of ``state`` (for snapshots)."""

    def load_state(self, data: dict[str, Any]) -> Any:
        """The inverse of ``dump_state``."""


class OptionalGameFunctions(Protocol):
    """What a game module may offer besides ``GameModule``, for bots and deadlines.

    Neither is required: the service looks each one up and does without it
    (``service.bots.contract``). Both are pure, like the rest of the contract.
    """

    def determinize(self, view: dict[str, Any], seat: Seat, rng: Rng) -> Any:
        """A complete state consistent with what ``seat`` sees in ``view``.

        Everything the seat cannot see (other hands, deck orders, face-down
        tiles, hidden faces) is sampled with ``rng``; everything it can see is
        kept, so that ``view(determinize(v, seat, rng), seat) == v`` and the
        seat's legal actions are the same. Bots search over such states and
        never over the real one. Without it, bots can only play at random.
        """

    def timeout_command(self, state: Any, seat: Seat) -> Command | None:
        """The command sent for ``seat`` when its play-by-post deadline lapses
        and the game's option is ``pass``: skip the rest of its turn, or give a
        pending decision its documented default. ``None``: nothing to send.
        Without it, the service sends ``end_turn`` if listed, else the seat's
        first legal action."""
