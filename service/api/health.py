"""GET /healthz: does Redis answer, and which version is this."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Any

from flask_smorest import Blueprint
from marshmallow import Schema, fields

from service.api.callers import services
from service.api.problems import RETRY_AFTER_UNAVAILABLE

blp = Blueprint("health", __name__, description="Liveness and readiness")


def holotape_version() -> str:
    try:
        return version("holotape")
    except PackageNotFoundError:
        return "0+unknown"


class HealthSchema(Schema):
    status = fields.String(required=True, metadata={"example": "ok"})
    redis = fields.Boolean(required=True, metadata={"description": "Redis answered a PING"})
    version = fields.String(required=True, metadata={"example": "0.1.0"})


@blp.route("/healthz")
@blp.response(200, HealthSchema, example={"status": "ok", "redis": True, "version": "0.1.0"})
@blp.alt_response(
    503,
    schema=HealthSchema,
    description="Redis does not answer",
    headers={"Retry-After": {"description": "Seconds to wait before trying again", "schema": {"type": "integer"}}},
)
def healthz() -> tuple[dict[str, Any], int] | tuple[dict[str, Any], int, dict[str, str]]:
    """Whether the service and its Redis answer."""
    alive = services().health.alive()
    body = {"status": "ok" if alive else "unavailable", "redis": alive, "version": holotape_version()}
    return (body, 200) if alive else (body, 503, {"Retry-After": str(RETRY_AFTER_UNAVAILABLE)})
