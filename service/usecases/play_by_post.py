"""Play by post: deadlines, reminders and vacations (docs/play-by-post.md).

A seat's clock runs from the version its wait began (``Record.waits``) while
the game keeps waiting on it; its deadline and its reminder are rq jobs
scheduled by the follow-ups, and land here.
"""

from __future__ import annotations

import time
from typing import Any

from events.envelope import NewEvent
from service.usecases import clock, notifications
from service.usecases.automation import Automation
from service.usecases.errors import Refused
from service.usecases.games import Acted, Games
from service.usecases.record import HUMAN, Record


class _NotDue(Exception):
    """The deadline has nothing to do: the wait ended, timed out already, or moved later."""


class PlayByPost:
    def __init__(self, games: Games, automation: Automation):
        self.games = games
        self.automation = automation

    def deadline(self, game_id: str, seat: int, since: int, now: float | None = None) -> list[Acted]:
        """The deadline of ``seat``'s wait that began at ``since`` fires.

        Does nothing if the seat has acted meanwhile (its wait ended), if this
        wait already timed out (a second firing), or if a vacation moved the
        deadline later (a new job fires then). Otherwise appends
        ``TurnTimedOut`` through the one write path for the service's own
        events (``Games.transact``: decided on the version it appends on, so
        two firings append it once) and plays the seat to the end of its wait.
        """
        moment = now if now is not None else time.time()

        def decide(record: Record, version: int) -> list[NewEvent]:
            running = clock.clock_of(record, seat)
            if running is None or running.since != since or moment < running.due - clock.EARLY:
                raise _NotDue
            timeout: dict[str, Any] = {"seat": seat, "since": since, "action": record.options.get("on_timeout", clock.PASS)}
            if timeout["action"] == clock.BOT:
                timeout["bot"] = record.options.get("timeout_bot", "greedy")
            return [NewEvent("TurnTimedOut", timeout)]

        try:
            result, _ = self.games.transact(game_id, decide)
        except _NotDue:
            return []
        return self.automation.run_bots(game_id, result.last_version)

    def remind(self, game_id: str, seat: int, since: int, now: float | None = None) -> bool:
        """The 80% reminder of ``seat``'s wait since ``since``: sent once, if the seat is still to act."""
        record = self.games.load(game_id).state
        running = clock.clock_of(record, seat)
        if running is None or running.since != since or running.remind is None:
            return False
        if (now if now is not None else time.time()) < running.remind - clock.EARLY:
            return False
        self.games.follow_ups.notify(
            game_id, "reminder", f"reminder-{game_id}-s{seat}-v{since}", [seat],
            {"seat": seat, "since": since, "deadline": clock.iso(running.due),
             "text": notifications.reminder_text(record, seat, clock.iso(running.due))},
        )  # fmt: skip
        return True

    def take_vacation(
        self, game_id: str, seat: int, days: int, now: float | None = None
    ) -> tuple[int, dict[str, Any], int]:
        """``seat`` pauses its clock for ``days`` days (from now, or from the end of its last vacation).

        Returns the version, the vacation taken and the days the seat has left.
        """

        def decide(record: Record, version: int) -> list[NewEvent]:
            if not clock.timed(record):
                raise Refused("no_turn_timer", "this game has no time per turn")
            if record.over:
                raise Refused("game_over", "the game is over")
            if record.kind_of(seat) != HUMAN:
                raise Refused("not_a_player", "only a player's seat takes a vacation", Refused.FORBIDDEN)
            left = clock.vacation_left(record, seat)
            if days > left:
                raise Refused("no_vacation_left", f"{left} vacation days left")
            start, until = clock.vacation_period(record, seat, days, now if now is not None else time.time())
            return [NewEvent("VacationTaken", {"seat": seat, "days": days, "from": start, "until": until})]

        result, _ = self.games.transact(game_id, decide, actor=f"seat:{seat}")
        self.games.follow_up(game_id)  # the clock's new deadline
        record = self.games.load(game_id).state
        return result.last_version, result.envelopes[0].data, clock.vacation_left(record, seat)
