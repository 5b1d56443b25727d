"""Where the service finds Redis, read once from the environment."""

from __future__ import annotations

import os

import redis

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
QUEUE_NAME = "holotape"


def redis_url() -> str:
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def redis_client(url: str | None = None) -> redis.Redis:
    return redis.Redis.from_url(url or redis_url(), health_check_interval=30)
