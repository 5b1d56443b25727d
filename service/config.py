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


#: Settings of the HTTP API: app config key -> (environment variable, default).
#: Tests set them in ``create_app(config=...)``; a deployment in the environment.
API_SETTINGS: dict[str, tuple[str, object]] = {
    # Requests per window, per token (per address without one); "0" turns it off.
    "RATE_LIMIT": ("HOLOTAPE_RATE_LIMIT", "1200/60"),
    # An event stream ends after this long, or after this long without an
    # event, so a worker thread is never held forever; clients reconnect.
    "STREAM_MAX_SECONDS": ("HOLOTAPE_STREAM_MAX_SECONDS", 300.0),
    "STREAM_IDLE_SECONDS": ("HOLOTAPE_STREAM_IDLE_SECONDS", 120.0),
    "STREAM_KEEPALIVE_SECONDS": ("HOLOTAPE_STREAM_KEEPALIVE_SECONDS", 15.0),
    # "1": webhooks may point at loopback and private addresses (tests, closed networks).
    "WEBHOOKS_ALLOW_PRIVATE": ("HOLOTAPE_WEBHOOKS_ALLOW_PRIVATE", "0"),
}


def api_settings(environ: dict[str, str] | None = None) -> dict[str, object]:
    environ = os.environ if environ is None else environ
    settings: dict[str, object] = {}
    for key, (variable, default) in API_SETTINGS.items():
        raw = environ.get(variable)
        settings[key] = default if raw is None else type(default)(raw)
    return settings
