"""rq job functions. Thin on purpose: each calls the application layer."""

from __future__ import annotations

from functools import lru_cache

from service.application import Games
from service.config import redis_client
from service.followups import RqFollowUps


@lru_cache(maxsize=1)
def games() -> Games:
    client = redis_client()
    return Games(client, follow_ups=RqFollowUps(client))


def run_system(game_id: str) -> int:
    """Carry out a game's automatic work (the round end); returns the version reached."""
    done = games().run_system(game_id)
    return done[-1].version if done else 0


def run_bots(game_id: str, version: int) -> int:
    """Let the bots whose seats the game waits on play, from ``version``; returns the version reached."""
    done = games().run_bots(game_id, version)
    return done[-1].version if done else 0
