"""RFC 9457 problem details for every error the API returns.

Each problem carries a stable, machine-readable ``code`` that clients switch
on; ``title`` and ``detail`` are for people. Nothing here ever shows a stack
trace: an unexpected exception becomes a bare 500 ``internal_error`` (and is
logged), because a 5xx is a bug to fix, not a message to a client.
"""

from __future__ import annotations

import http
import logging
from typing import Any

from flask import Response, json
from marshmallow import Schema, fields
from werkzeug.exceptions import HTTPException

from domain.game import Refusal
from service.usecases.errors import Kind, Rejection

PROBLEM_JSON = "application/problem+json"

log = logging.getLogger(__name__)

# Codes for the errors Flask, werkzeug and webargs raise on their own (every
# other problem names its code where it is raised); docs/api.md lists them all.
CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    500: "internal_error",
}


#: The one table from a refusal's kind (the domain's and the service's) to its status.
STATUS_OF: dict[Kind, int] = {
    Refusal.NOT_NOW: 409,  # legal in general, not now: the problem names the rule
    Refusal.MALFORMED: 422,  # never right for this game: unknown command, field or space
    Rejection.FORBIDDEN: 403,
    Rejection.NOT_FOUND: 404,
    Rejection.BAD_REQUEST: 400,
}


class ProblemSchema(Schema):
    """A problem detail (RFC 9457) with Holotape's ``code`` member."""

    type = fields.String(metadata={"description": "A URI reference naming the problem type"})
    title = fields.String(metadata={"description": "A short summary of the problem type"})
    status = fields.Integer(metadata={"description": "The HTTP status code"})
    detail = fields.String(metadata={"description": "What went wrong this time"})
    code = fields.String(
        required=True, metadata={"description": "Stable machine-readable error code"}
    )
    rule = fields.String(metadata={"description": "The Rules Reference topic that applies"})
    errors = fields.Dict(metadata={"description": "Validation errors by location and field"})
    current_version = fields.Integer(metadata={"description": "The game's version now"})


class Problem(HTTPException):
    """Raise from a view to answer with a problem."""

    def __init__(
        self, status: int, code: str, detail: str | None = None, headers: dict | None = None, **extra: Any
    ):
        super().__init__(description=detail)
        self.code = status
        self.problem_code = code
        self.problem_headers = headers or {}
        self.extra = extra


def problem_response(
    status: int, code: str, detail: str | None = None, headers: dict | None = None, **extra: Any
) -> Response:
    body = {
        "type": f"/problems/{code}",
        "title": http.HTTPStatus(status).phrase,
        "status": status,
        "code": code,
    }
    if detail:
        body["detail"] = detail
    body.update({k: v for k, v in extra.items() if v is not None})
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


#: Seconds a client waits before trying again while Redis is away.
RETRY_AFTER_UNAVAILABLE = 2


def unavailable_response() -> Response:
    """503: the store does not answer now (down, paused, failing over); nothing is lost by trying again."""
    return problem_response(
        503,
        "store_unavailable",
        "the event store does not answer; try again shortly (a write may or may not have been done: "
        "retry it with the same Idempotency-Key or If-Match)",
        headers={"Retry-After": str(RETRY_AFTER_UNAVAILABLE)},
    )


def from_http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    if isinstance(error, Problem):
        return problem_response(
            status, error.problem_code, error.description, error.problem_headers, **error.extra
        )
    if status >= 500:
        original = getattr(error, "original_exception", None)
        if original is not None:
            log.exception("unhandled error", exc_info=original)
        return problem_response(status, "internal_error", "internal error")
    data = getattr(error, "data", None) or {}
    headers = dict(data.get("headers") or {})
    if error.code == 405 and getattr(error, "valid_methods", None):
        headers["Allow"] = ", ".join(error.valid_methods)
    errors = data.get("errors") or data.get("messages")
    detail = data.get("message") or (error.description if error.description else None)
    if errors and status == 422:
        detail = "the request did not validate"
    return problem_response(
        status, CODES.get(status, http.HTTPStatus(status).name.lower()), detail, headers, errors=errors
    )
