"""What is due after a change to a game: the follow-up work, enqueued through a port.

After every append the service asks: is automatic work due (the round end)?
does the game wait on a seat a bot plays, or on one whose deadline lapsed?
is a play-by-post clock running? should a seat be told (webhooks)? The
answers depend only on the record, so they are computed here, once, for the
create, act, lobby, proposal and deadline paths alike.
"""

from __future__ import annotations

from typing import Any

from service.usecases import clock, notifications
from service.usecases.ports import FollowUps
from service.usecases.record import BOT, HUMAN, Record


def bot_level(level: str | None) -> str:
    """A seat's bot level; ``standard`` (what the lobby said before levels existed) is ``greedy``."""
    return "greedy" if level in (None, "standard") else level


def autoplayed(record: Record) -> tuple[int, str] | None:
    """The first seat the game waits on that a bot plays now, and the bot's level.

    A player's seat whose deadline lapsed in its current wait is played too,
    to the end of that wait: by a bot, or (``pass``) by the game's
    ``timeout_command``.
    """
    for seat in record.module.waiting_for(record.state):
        if record.kind_of(seat) == BOT:
            return seat, bot_level(record.seats[seat].get("bot"))
        timeout = record.timeouts.get(seat)
        if timeout is not None:
            return seat, clock.PASS if timeout["action"] == clock.PASS else bot_level(timeout.get("bot"))
    return None


def follow_up(
    follow_ups: FollowUps, game_id: str, version: int, record: Record, notifying: bool | None = None
) -> None:
    """Enqueue what ``record`` (the game at ``version``) makes due.

    ``notifying``: whether the game notifies, when the caller already knows
    (an action's append read it, ``FollowUps.notice_marks``); else it is read.
    """
    if not record.started:
        return
    if notifying is None:
        notifying = follow_ups.notifying(game_id)
    if record.over:
        if notifying:
            outcome = record.module.outcome(record.state)
            follow_ups.notify(
                game_id, "game_over", f"over-{game_id}", record.seats_of(HUMAN),
                {"version": version, "winners": list(outcome.winners),
                 "text": notifications.game_over_text(record, list(outcome.winners))},
            )  # fmt: skip
        return
    if record.module.system_command(record.state) is not None:
        follow_ups.system_due(game_id, version)
    elif autoplayed(record) is not None:
        follow_ups.bots_due(game_id, version)
    running = {c.seat: c for c in clock.clocks(record)}
    for c in running.values():
        follow_ups.clock_running(game_id, c)
    if notifying:
        for seat, wait in record.waits.items():
            if record.kind_of(seat) != HUMAN or seat in record.timeouts:
                continue
            data: dict[str, Any] = {"seat": seat, "since": wait["since"], "version": version,
                                    "text": notifications.your_turn_text(record, seat)}
            if seat in running:
                data["deadline"] = clock.iso(running[seat].due)
            follow_ups.notify(game_id, "your_turn", f"turn-{game_id}-s{seat}-v{wait['since']}", [seat], data)
