"""The Flask app factory.

The OpenAPI document is generated from the code (flask-smorest + marshmallow),
served at ``/openapi.json`` with interactive docs at ``/docs``, and committed
as ``openapi.yaml`` by ``make openapi``; a test fails when they drift.
"""

from __future__ import annotations

import http
from typing import Any

from flask import Flask, Response, g, request, send_from_directory
from flask_smorest import Api
from flask_smorest.spec import prepare_response
from swagger_ui_bundle import swagger_ui_path
from werkzeug.exceptions import HTTPException

from domain import registry
from domain.game import RuleViolation
from events.log import ConcurrencyError, IdempotencyConflict
from service.api import audit, health, lobby, log, notify, rewind, stream
from service.api import games as games_api
from service.api.callers import bearer, services
from service.api.gameschemas import publish_game_schemas
from service.api.problems import PROBLEM_JSON, STATUS_OF, ProblemSchema, from_http_exception, problem_response
from service.api.settings import api_settings
from service.usecases.errors import GameNotFound
from service.usecases.services import Services

API_TITLE = "Holotape"
API_DESCRIPTION = """An event-sourced board-game server. Each hosted game's options, view and
commands are described below (`GameOptions…`, `GameView…`, `Command…`).

Every error is `application/problem+json` (RFC 9457) with a stable `code`.

**Tokens.** Creating a game returns a creator token and a token for each
seat taken then; joining an open seat returns that seat's token. Each is
shown once: send it as `Authorization: Bearer <token>`. A seat's token acts
for and sees as that seat; no token (or the creator's) sees as a spectator.

**Playing.** `GET /games/{id}/state` gives your view and its version as the
`ETag`; `GET /games/{id}/actions` lists every command you may post now;
post one with `If-Match: "<version>"` (412 if the game moved on) and an
`Idempotency-Key` to retry safely. Follow the game live on
`GET /games/{id}/stream` (Server-Sent Events, resumable with
`Last-Event-ID`).

**Fairness.** Every random outcome is derived from a secret seed whose
sha256 is published when the game is created, and the seed is revealed
when it ends; `GET /games/{id}/audit` re-derives every outcome, and
docs/audit.md tells how to do it yourself.

Every caller is rate limited (per token, or per address without one):
past the limit the answer is 429 with `Retry-After`.
"""


#: Where the interactive API docs' own files are served from.
DOCS_ASSETS = "/docs/assets"


def _docs_asset(name: str) -> Response:
    return send_from_directory(swagger_ui_path, name, max_age=86400)


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
    services_: Services, config: dict[str, Any] | None = None, *, games: list[str] | None = None
) -> Flask:
    """The API on ``services_`` (``service.wiring.build``); ``config`` overrides the environment's settings.

    ``games``: whose schemas the API document describes (default: every game hosted now).
    """
    app = Flask("holotape")
    app.config.update(
        API_TITLE=API_TITLE,
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        # Served by the service itself (swagger-ui-bundle), so /docs works offline.
        OPENAPI_SWAGGER_UI_URL=f"{DOCS_ASSETS}/",
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION}},
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    app.config.update(api_settings())
    app.config.update(config or {})
    app.extensions["holotape.services"] = services_
    app.add_url_rule(f"{DOCS_ASSETS}/<path:name>", "docs_asset", _docs_asset)

    api = HolotapeApi(app)
    api.spec.components.security_scheme(
        "token", {"type": "http", "scheme": "bearer", "description": "A seat's or the creator's token"}
    )
    # A token is optional on reads (no token: a spectator's view) and needed
    # to act; the problem says which when it is missing.
    api.spec.options["security"] = [{"token": []}, {}]
    for module in (health, lobby, games_api, log, stream, rewind, audit, notify):
        api.register_blueprint(module.blp)
    hosted = registry.names() if games is None else games
    publish_game_schemas(api.spec, [registry.game_module(name) for name in hosted])
    _register_rate_limit(app)
    _register_idempotency(app)
    _register_problem_handlers(app)
    for away in services_.unavailable:
        app.register_error_handler(away, _unavailable)
    return app


#: Seconds a client waits before trying again when a server is away.
RETRY_AFTER_UNAVAILABLE = 1


def _unavailable(error: Exception):
    # Nothing was acknowledged: the client may retry (with its Idempotency-Key).
    return problem_response(
        503,
        "unavailable",
        "a server the service needs is away for now; try again shortly",
        headers={"Retry-After": str(RETRY_AFTER_UNAVAILABLE)},
    )


def _register_rate_limit(app: Flask) -> None:
    @app.before_request
    def rate_limit():
        limiter = services().rate_limits
        if limiter is None or not request.path.startswith("/games"):
            return None
        token = bearer()
        verdict = limiter.hit(f"token:{token}" if token else f"addr:{request.remote_addr}")
        if verdict.allowed:
            return None
        return problem_response(
            429,
            "rate_limited",
            f"too many requests; try again in {verdict.retry_after} s",
            headers={"Retry-After": str(verdict.retry_after)},
        )


def _register_idempotency(app: Flask) -> None:
    """Keep the answer to a request that took an Idempotency-Key (service.idempotency)."""

    @app.after_request
    def keep_answer(response):
        pending = g.pop("idempotent_request", None)
        if pending is not None:
            requests = services().requests
            if 200 <= response.status_code < 300:
                headers = {k: v for k, v in response.headers.items() if k in ("Content-Type", "ETag")}
                requests.finish(*pending, response.status_code, headers, response.get_data(as_text=True))
            else:
                requests.release(*pending)
        return response

    @app.teardown_request
    def release_key(error):
        pending = g.pop("idempotent_request", None)
        if pending is not None:
            services().requests.release(*pending)


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
        return problem_response(STATUS_OF[error.kind], error.code, error.message, rule=error.rule)

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
