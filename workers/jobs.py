"""rq job functions. Thin on purpose: each calls the application layer."""

from __future__ import annotations

import logging
import os
import time
from functools import lru_cache

from service import webhooks
from service.application import Games
from service.config import redis_client
from service.followups import RqFollowUps


@lru_cache(maxsize=1)
def games() -> Games:
    client = redis_client()
    return Games(client, follow_ups=RqFollowUps(client))


def step_pause() -> float:
    """Seconds to wait after each step of a job: 0, except to slow a worker down on purpose
    (the crash tests kill it between two steps of one job)."""
    return float(os.environ.get("HOLOTAPE_STEP_PAUSE_SECONDS") or 0)


def run_system(game_id: str) -> int:
    """Carry out a game's automatic work (the round end); returns the version reached."""
    done = games().run_system(game_id, pause=step_pause())
    return done[-1].version if done else 0


def run_bots(game_id: str, version: int) -> int:
    """Let the bots whose seats the game waits on play, from ``version``; returns the version reached."""
    done = games().run_bots(game_id, version, pause=step_pause())
    return done[-1].version if done else 0


def deadline(game_id: str, seat: int, since: int) -> int:
    """A play-by-post deadline fires (``Games.deadline``); returns the version reached."""
    done = games().deadline(game_id, seat, since)
    return done[-1].version if done else 0


def remind(game_id: str, seat: int, since: int) -> bool:
    """The reminder at 80% of a seat's time."""
    return games().remind(game_id, seat, since)


def notify(game_id: str, kind: str, message_id: str, seats: list[int], data: dict) -> int:
    """Fan a notification out to each webhook of ``seats`` that wants ``kind``: one delivery job each."""
    follow_ups = games().follow_ups
    hooks = follow_ups.webhooks.targets(game_id, seats, kind)
    for hook in hooks:
        follow_ups.deliver(game_id, hook["id"], webhooks.message(game_id, kind, message_id, hook["seat"], data))
    return len(hooks)


def deliver(game_id: str, webhook_id: str, message: dict, attempt: int = 1) -> bool:
    """One attempt at one webhook; a failure schedules the next attempt (exponential backoff, 24 h)."""
    follow_ups = games().follow_ups
    delay = follow_ups.webhooks.deliver(game_id, webhook_id, message, attempt)
    if delay is not None:
        follow_ups.deliver(game_id, webhook_id, message, attempt + 1, at=time.time() + delay)
    return delay is None


def sweep() -> int:
    """Enqueue again the work of games that stalled (``service.sweeper``); returns how many jobs."""
    from service.sweeper import sweep as sweep_games

    swept = sweep_games(games(), games().follow_ups)
    if swept.rescued:
        logging.getLogger("workers.sweep").warning("stalled work enqueued again: %s", ", ".join(swept.rescued))
    return len(swept.rescued)
