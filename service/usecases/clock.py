"""Play-by-post clocks: when a seat's time runs out, and when to remind it.

Pure arithmetic over the game's record (no Redis, no clock of its own: the
caller says what time it is). A seat's clock starts when the game begins to
wait on it (``Record.waits``) and runs while the game keeps waiting on it;
vacation periods (``Record.vacations``) pause it. Options, set at creation:

- ``turn_seconds``: the time per turn (from a minute to days; shorter is
  allowed, for tests);
- ``on_timeout``: ``pass`` (default) or ``bot``; ``timeout_bot``: the bot's
  level for ``bot`` (default ``greedy``);
- ``reminder``: remind the seat at 80% of its time (default true);
- ``vacation_days``: days each seat may spend pausing its clock (default 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from service.usecases.record import HUMAN, Record

REMINDER_AT = 0.8
#: rq's scheduler keeps times to the second: a deadline job may run this early.
EARLY = 1.5
PASS, BOT = "pass", "bot"
TIMEOUT_ACTIONS = (PASS, BOT)


def parse(timestamp: str) -> float:
    return datetime.fromisoformat(timestamp.replace("Z", "+00:00")).timestamp()


def iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, tz=UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def timed(record: Record) -> bool:
    return bool(record.options.get("turn_seconds"))


def after(start: float, budget: float, pauses: list[tuple[float, float]]) -> float:
    """When ``budget`` seconds of running clock have passed since ``start``, pauses skipped."""
    t, left = start, budget
    for a, b in sorted(pauses):
        if b <= t:
            continue
        if a > t:
            if a - t >= left:
                return t + left
            left -= a - t
        t = b
    return t + left


@dataclass(frozen=True)
class Clock:
    seat: int
    since: int  # the version the wait began at: names the deadline
    started: float
    due: float
    remind: float | None
    pauses: int  # vacations taken so far: a new one makes a new deadline job

    def job_suffix(self) -> str:
        return f"s{self.seat}-v{self.since}-p{self.pauses}"


def clocks(record: Record) -> list[Clock]:
    """The running clock of each human seat the game waits on, in a timed game."""
    if not timed(record) or not record.started or record.over:
        return []
    budget = float(record.options["turn_seconds"])
    out = []
    for seat, wait in record.waits.items():
        if record.kind_of(seat) != HUMAN or seat in record.timeouts or not wait.get("at"):
            continue
        pauses = [(parse(a), parse(b)) for a, b in record.vacations.get(seat, ())]
        start = parse(wait["at"])
        remind = after(start, budget * REMINDER_AT, pauses) if record.options.get("reminder", True) else None
        out.append(Clock(seat, wait["since"], start, after(start, budget, pauses), remind, len(pauses)))
    return out


def clock_of(record: Record, seat: int) -> Clock | None:
    return next((c for c in clocks(record) if c.seat == seat), None)


def vacation_left(record: Record, seat: int) -> int:
    allowed = int(record.options.get("vacation_days") or 0)
    used = sum(round((parse(b) - parse(a)) / 86400) for a, b in record.vacations.get(seat, ()))
    return max(0, allowed - used)


def vacation_period(record: Record, seat: int, days: int, now: float) -> tuple[str, str]:
    """A new vacation starts now, or when the seat's last one ends."""
    taken = record.vacations.get(seat, ())
    start = max([now, *(parse(b) for _, b in taken)])
    return iso(start), iso(start + timedelta(days=days).total_seconds())
