"""Settings of the HTTP API, read from the environment (tests pass their own)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from service.usecases.ports import ADDRESS_BUCKET, PLAYER_BUCKET, REFUSED_BUCKET, TOKEN_BUCKET

#: A setting's value: its default's type, which also reads it from the environment.
Setting = str | int | float

#: Settings of the HTTP API: app config key -> (environment variable, default).
#: Tests set them in ``create_app(config=...)``; a deployment in the environment.
API_SETTINGS: dict[str, tuple[str, Setting]] = {
    # Requests per window ("count/seconds"; "0" turns one off): per token that
    # holds something in the game it names; per client address, every request
    # to /games…; failed authentications per address (service.api.app).
    "RATE_LIMIT": ("HOLOTAPE_RATE_LIMIT", "1200/60"),
    "RATE_LIMIT_ADDRESS": ("HOLOTAPE_RATE_LIMIT_ADDRESS", "3000/60"),
    "RATE_LIMIT_REFUSED": ("HOLOTAPE_RATE_LIMIT_REFUSED", "60/60"),
    # Players created per client address (POST /players, an invitation taken by a name).
    "RATE_LIMIT_PLAYERS": ("HOLOTAPE_RATE_LIMIT_PLAYERS", "20/3600"),
    # Who may choose a game's seed at creation: "any" game (shown to every
    # seat as chosen by the creator), or only a "private" one, with no seat
    # left open for someone else to join (a public server's choice).
    "CHOSEN_SEEDS": ("HOLOTAPE_CHOSEN_SEEDS", "any"),
    # An event stream ends after this long, or after this long without an
    # event, so a connection is never held forever; clients reconnect.
    "STREAM_MAX_SECONDS": ("HOLOTAPE_STREAM_MAX_SECONDS", 300.0),
    "STREAM_IDLE_SECONDS": ("HOLOTAPE_STREAM_IDLE_SECONDS", 120.0),
    "STREAM_KEEPALIVE_SECONDS": ("HOLOTAPE_STREAM_KEEPALIVE_SECONDS", 15.0),
    # Streams one API process serves at once, in all and to one caller (a
    # token, or an address without one): service.api.stream.
    "STREAM_MAX_OPEN": ("HOLOTAPE_STREAM_MAX_OPEN", 1000),
    "STREAM_MAX_PER_CALLER": ("HOLOTAPE_STREAM_MAX_PER_CALLER", 8),
}


def api_settings(environ: Mapping[str, str] | None = None) -> dict[str, Setting]:
    source = os.environ if environ is None else environ
    settings: dict[str, Setting] = {}
    for key, (variable, default) in API_SETTINGS.items():
        raw = source.get(variable)
        settings[key] = default if raw is None else type(default)(raw)
    return settings


def parse_limit(text: str | None) -> tuple[int, float] | None:
    """``"300/60"`` → 300 requests per 60 seconds; empty or ``"0"`` → no limit."""
    if not text or text.strip() == "0":
        return None
    count, _, seconds = text.partition("/")
    return int(count), float(seconds or 60)


def rate_limits(settings: Mapping[str, object]) -> dict[str, tuple[int, float]]:
    """Each rate-limit bucket's allowance from ``api_settings()``; a bucket turned off is left out."""
    keys = {TOKEN_BUCKET: "RATE_LIMIT", ADDRESS_BUCKET: "RATE_LIMIT_ADDRESS", REFUSED_BUCKET: "RATE_LIMIT_REFUSED",
            PLAYER_BUCKET: "RATE_LIMIT_PLAYERS"}  # fmt: skip
    parsed = {bucket: parse_limit(str(settings[key])) for bucket, key in keys.items()}
    return {bucket: limit for bucket, limit in parsed.items() if limit is not None}
