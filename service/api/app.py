"""The Flask app factory.

The OpenAPI document is generated from the code (flask-smorest + marshmallow),
served at ``/openapi.json`` with interactive docs at ``/docs``, and committed
as ``openapi.yaml`` by ``make openapi``; a test fails when they drift.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from inspect import iscoroutinefunction
from types import FunctionType
from typing import Any

from flask import Flask, Request, Response, g, request, send_from_directory
from flask.globals import request_ctx
from flask_smorest import Api
from swagger_ui_bundle import swagger_ui_path
from werkzeug.exceptions import HTTPException

from domain import registry
from domain.game import RuleViolation
from events.log import Allowances, AllowanceSpent, ConcurrencyError, IdempotencyConflict
from service.api import audit, health, inputs, invitations, lobby, log, mail, notify, players, rewind, stream
from service.api import games as games_api
from service.api.callers import bearer
from service.api.compression import register_compression
from service.api.errordocs import ProblemResponses, publish_rule_codes, register_responses
from service.api.gameschemas import publish_game_schemas
from service.api.problems import (
    STATUS_OF,
    ProblemSchema,
    StaleVersionSchema,
    from_http_exception,
    problem_response,
    unavailable_response,
)
from service.api.routing import RememberingMap
from service.api.settings import api_settings
from service.usecases.errors import GameNotFound
from service.usecases.ports import ADDRESS_BUCKET, REFUSED_BUCKET, TOKEN_BUCKET, Verdict
from service.usecases.services import Services
from service.web import blp as pages

logger = logging.getLogger(__name__)

API_TITLE = "Holotape"
API_DESCRIPTION = """An event-sourced board-game server. Each hosted game's options, view,
commands and events are described below (`FalloutOptions`, `FalloutView`,
`FalloutCommandMove`, `FalloutDiceRolledEvent`…). Each game's commands are a
union discriminated by `type` (`FalloutCommand`), its events too
(`FalloutEvent`); the state, the actions, the answer to an action, a page of
the log and the create body are unions of one schema per game,
discriminated by `game`.

Every error is `application/problem+json` (RFC 9457) with a stable `code`:
each error response lists its codes, and `ProblemCode` all of them.

**Tokens.** Creating a game returns a creator token and a token for each
seat taken then; joining an open seat returns that seat's token. Each is
shown once: send it as `Authorization: Bearer <token>`. A seat's token acts
for and sees as that seat; no token (or the creator's) sees as a spectator.
A player token (`POST /players`) acts for the seats bound to its player
across games (`Holotape-Seat: <n>` names one when it holds two in a game)
and reads the player's inbox, `GET /players/me/games` (docs/players.md).

**Playing.** `GET /games/{id}/state` gives your view and its version as the
`ETag`; `GET /games/{id}/actions` lists every command you may post now;
post one with `If-Match: "<version>"` (412 if the game moved on) and an
`Idempotency-Key` to retry safely. Follow the game live on
`GET /games/{id}/stream` (Server-Sent Events, resumable with
`Last-Event-ID`).

**Fairness.** Every random outcome is derived from a seed fixed when the
game starts: the server's secret, whose sha256 is published when the game
is created, mixed with each seat's contribution (given when joining or with
`PUT /games/{id}/seats/{seat}/contribution`, before the start). The secret
is revealed when the game ends; `GET /games/{id}/audit` checks it, derives
the seed and re-derives every outcome, and docs/audit.md tells how to do it
yourself.

Every caller is rate limited, per client address and per token, and an
address whose tokens hold nothing is soon refused: past a limit the answer
is 429 with `Retry-After`.
"""


#: Where the interactive API docs' own files are served from.
DOCS_ASSETS = "/docs/assets"


def _docs_asset(name: str) -> Response:
    return send_from_directory(swagger_ui_path, name, max_age=86400)


class HolotapeApi(Api):
    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        # Every error response as problem+json, as it is served, with the codes of its status.
        self.spec.components.schema("Problem", schema=self.ERROR_SCHEMA)
        self.spec.components.schema("StaleVersion", schema=StaleVersionSchema)
        register_responses(self.spec)

    def handle_http_exception(self, error: HTTPException) -> Response:
        return from_http_exception(error)


class HolotapeFlask(Flask):
    """Flask, remembering which of its hooks and views are plain functions.

    Flask asks ``inspect`` whether each hook and the view is a coroutine
    function on every request (eight times for an action); the answer for
    a function never changes. Bound methods are asked each time, as Flask
    does: they are made anew per call and would only fill the memo.
    Its URL map remembers the paths it matched (``service.api.routing``).
    """

    url_map_class = RememberingMap

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plain_functions: set[FunctionType] = set()

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if func in self._plain_functions:
            return func
        if type(func) is FunctionType and not iscoroutinefunction(func):
            self._plain_functions.add(func)
            return func
        return super().ensure_sync(func)


def create_app(
    services_: Services, config: dict[str, Any] | None = None, *, games: list[str] | None = None
) -> Flask:
    """The API on ``services_`` (``service.wiring.build``); ``config`` overrides the environment's settings.

    ``games``: whose schemas the API document describes (default: every game hosted now).
    """
    app = HolotapeFlask("holotape")
    # First, so that it runs after every other after_request hook (Flask runs them in reverse).
    register_compression(app)
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

    api = HolotapeApi(app, spec_kwargs={"extra_plugins": [ProblemResponses()]})
    api.spec.components.security_scheme(
        "token", {"type": "http", "scheme": "bearer", "description": "A seat's, the creator's or a player's token"}
    )
    # A token is optional on reads (no token: a spectator's view) and needed
    # to act; the problem says which when it is missing.
    api.spec.options["security"] = [{"token": []}, {}]
    for module in (health, lobby, games_api, log, stream, rewind, audit, notify, players, invitations, mail):
        api.register_blueprint(module.blp)
    # The lobby and the table: pages on the API above, outside its document.
    app.register_blueprint(pages)
    hosted = registry.names() if games is None else games
    games_hosted = [registry.game_module(name) for name in hosted]
    publish_game_schemas(api.spec, games_hosted)
    publish_rule_codes(api.spec, games_hosted)
    _register_rate_limit(app, services_)
    inputs.register(app)
    _register_idempotency(app, services_)
    _register_problem_handlers(app, services_.unavailable)
    return app


#: (endpoint, method) of the requests whose append judges their rate limits in its own round trip.
CHECKED_BY_APPEND = {("games.GameActions", "POST")}


def _refused(verdict: Verdict | None) -> Response | None:
    if verdict is None or verdict.allowed:
        return None
    return problem_response(
        429,
        "rate_limited",
        f"too many requests; try again in {verdict.retry_after} s",
        headers={"Retry-After": str(verdict.retry_after)},
    )


def _register_rate_limit(app: Flask, services_: Services) -> None:
    """Three allowances (service.api.settings), each answered past its end with 429 and Retry-After.

    Every request to /games… counts against its client address. A token is
    judged before the request (without counting) and counted after it, and
    only if it held something in the game it named: a token that holds
    nothing counts instead as a failed authentication against the address,
    whose small allowance then refuses that address for the rest of the
    window. So guessing tokens is slow, and a random token writes no key.

    An action hands the same checks to its append (``CHECKED_BY_APPEND``),
    which judges them, and counts the token, in the round trip that writes:
    a spent allowance refuses the append and nothing changes. An action that
    ends before its append (a stale version, a refused move, a replay) is
    judged after it, as it would have been before: past a limit, its answer
    becomes the 429.

    The hooks read the request once (``request_ctx.request``) rather than
    through Flask's ``request`` proxy, which costs a context lookup (about
    a microsecond) on every attribute: they run on every request.
    """

    def checks(asking: Request, token: str | None) -> tuple[tuple[str, str], list[tuple[str, str]]]:
        address = str(asking.remote_addr)
        return (ADDRESS_BUCKET, address), [(REFUSED_BUCKET, address), *([(TOKEN_BUCKET, token)] if token else [])]

    @app.before_request
    def rate_limit() -> Response | None:
        limiter = services_.rate_limits
        asking = request_ctx.request
        if limiter is None or not asking.path.startswith(("/games", "/players", "/invitations")):
            return None
        token = bearer(asking)
        hit, peeks = checks(asking, token)
        if (asking.endpoint, asking.method) in CHECKED_BY_APPEND:
            known = _refused(limiter.known_refusal([hit, *peeks]))
            if known is not None:
                return known
            allowances = limiter.for_append(hit, peeks, TOKEN_BUCKET if token else None)
            if allowances is not None:
                g.allowances = allowances  # judged by the append (games.GameActions.post)
                return None
        # One round trip for the three: the address counted, the failures and the token judged.
        for verdict in limiter.hit_and_peek(hit, peeks):
            answer = _refused(verdict)
            if answer is not None:
                return answer
        return None

    @app.after_request
    def count_token(response: Response) -> Response:
        limiter = services_.rate_limits
        allowances: Allowances | None = g.pop("allowances", None)
        authenticated = g.pop("authenticated", None)
        if limiter is None or (allowances is not None and allowances.judged):
            return response  # judged and counted by the append
        try:
            if allowances is not None:
                for verdict in limiter.hit_and_peek(*checks(request_ctx.request, bearer())):
                    answer = _refused(verdict)
                    if answer is not None:
                        return answer
            if authenticated is None:
                return response
            if authenticated:
                limiter.hit(TOKEN_BUCKET, bearer() or "")
            else:
                limiter.hit(REFUSED_BUCKET, str(request.remote_addr))
        except services_.unavailable as lost:
            if allowances is not None:
                return unavailable_response()  # not judged at all: as if the check before had failed
            logger.warning("could not count a request against its rate limit: %s", lost)
        return response

    @app.errorhandler(AllowanceSpent)
    def spent(error: AllowanceSpent) -> Response:
        limiter = services_.rate_limits
        allowances: Allowances | None = g.get("allowances")
        verdict = Verdict(False, 0, error.retry_after)
        if limiter is not None and allowances is not None:
            verdict = limiter.spent(allowances, error.index, error.retry_after)
        answer = _refused(verdict)
        assert answer is not None, "a spent allowance is a refusal"
        return answer


def _register_idempotency(app: Flask, services_: Services) -> None:
    """Keep the answer to a request that took an Idempotency-Key (service.idempotency)."""

    @app.after_request
    def keep_answer(response: Response) -> Response:
        pending: tuple[str, str] | None = g.pop("idempotent_request", None)  # set by games._begin_idempotent
        if pending is not None:
            requests = services_.requests
            try:
                if 200 <= response.status_code < 300:
                    headers = {k: v for k, v in response.headers.items() if k in ("Content-Type", "ETag")}
                    requests.finish(*pending, response.status_code, headers, response.get_data(as_text=True))
                else:
                    requests.release(*pending)
            except services_.unavailable as lost:
                # The action is done and answered; only its replay is not kept
                # (the key's in-flight mark expires by itself).
                logger.warning("could not keep the answer for an Idempotency-Key: %s", lost)
        return response

    @app.teardown_request
    def release_key(error: BaseException | None) -> None:
        pending: tuple[str, str] | None = g.pop("idempotent_request", None)  # set by games._begin_idempotent
        if pending is not None:
            try:
                services_.requests.release(*pending)
            except services_.unavailable as lost:
                logger.warning("could not release an Idempotency-Key: %s", lost)


def _register_problem_handlers(app: Flask, unavailable: tuple[type[Exception], ...]) -> None:
    def store_unavailable(error: Exception) -> Response:
        logger.warning("Redis is unavailable: %s: %s", type(error).__name__, error)
        return unavailable_response()

    for exception in unavailable:
        app.register_error_handler(exception, store_unavailable)

    @app.errorhandler(RuleViolation)
    def rule_violation(error: RuleViolation) -> Response:
        return problem_response(STATUS_OF[error.kind], error.code, error.message, rule=error.rule)

    @app.errorhandler(GameNotFound)
    def game_not_found(error: GameNotFound) -> Response:
        return problem_response(404, "game_not_found", f"no game {error.game_id}")

    @app.errorhandler(ConcurrencyError)
    def concurrency(error: ConcurrencyError) -> Response:
        return problem_response(
            409,
            "version_conflict",
            f"the game moved on to version {error.current}",
            headers={"ETag": f'"{error.current}"'},
            current_version=error.current,
        )

    @app.errorhandler(IdempotencyConflict)
    def idempotency(error: IdempotencyConflict) -> Response:
        return problem_response(422, "idempotency_key_reused", str(error))
