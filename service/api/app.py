"""The Flask app factory.

The OpenAPI document is generated from the code (flask-smorest + marshmallow),
served at ``/openapi.json`` with interactive docs at ``/docs``, and committed
as ``openapi.yaml`` by ``make openapi``; a test fails when they drift.
"""

from __future__ import annotations

import http
from typing import Any

from flask import Flask, request
from flask_smorest import Api
from flask_smorest.spec import prepare_response
from werkzeug.exceptions import HTTPException

from domain.game import RuleViolation
from events.store import ConcurrencyError, IdempotencyConflict
from service.api import games as games_api
from service.api import health
from service.api.problems import PROBLEM_JSON, ProblemSchema, from_http_exception, problem_response
from service.application import GameNotFound, Games
from service.config import redis_client, redis_url
from service.followups import RqFollowUps

API_TITLE = "Holotape"
API_DESCRIPTION = """An event-sourced board-game server for *Fallout: The Board Game*.

Every error is `application/problem+json` (RFC 9457) with a stable `code`.
"""


class HolotapeApi(Api):
    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        # Document every error response as problem+json, as it is served.
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_JSON)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)

    def handle_http_exception(self, error: HTTPException):
        return from_http_exception(error)


def create_app(
    redis_url_: str | None = None, *, games: Games | None = None, config: dict | None = None
) -> Flask:
    app = Flask("holotape")
    app.config.update(
        API_TITLE=API_TITLE,
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="https://cdn.jsdelivr.net/npm/swagger-ui-dist/",
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION}},
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    app.config.update(config or {})
    if games is None:
        client = redis_client(redis_url_ or redis_url())
        games = Games(client, follow_ups=RqFollowUps(client))
    app.extensions["holotape.games"] = games
    app.extensions["holotape.redis"] = games.redis

    api = HolotapeApi(app)
    api.register_blueprint(health.blp)
    api.register_blueprint(games_api.blp)
    _register_problem_handlers(app)
    return app


def _register_problem_handlers(app: Flask) -> None:
    @app.before_request
    def require_json_bodies():
        if request.method in ("POST", "PUT", "PATCH") and request.content_length:
            if not request.is_json:
                return problem_response(
                    415, "unsupported_media_type", "send the request body as application/json"
                )
        return None

    @app.errorhandler(RuleViolation)
    def rule_violation(error: RuleViolation):
        return problem_response(error.status, error.code, error.message, rule=error.rule)

    @app.errorhandler(GameNotFound)
    def game_not_found(error: GameNotFound):
        return problem_response(404, "game_not_found", f"no game {error.game_id}")

    @app.errorhandler(ConcurrencyError)
    def concurrency(error: ConcurrencyError):
        return problem_response(
            409,
            "version_conflict",
            f"the game moved on to version {error.current}",
            headers={"ETag": f'"{error.current}"'},
            current_version=error.current,
        )

    @app.errorhandler(IdempotencyConflict)
    def idempotency(error: IdempotencyConflict):
        return problem_response(422, "idempotency_key_reused", str(error))
