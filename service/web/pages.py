"""GET /, /lobby, /play/{game_id} and the files those pages load.

The HTML is a template only for what the page cannot ask the API for: which
games this server hosts (for the lobby's form) and the game id in the path.
Everything else — listings, states, logs, actions, the live stream — the
page's JavaScript fetches from the REST API with the seat's bearer token.

Each game may draw its own board: ``web/board.js`` in the game's package
(next to its rules, since only domain/ names a game) is served at
``/web/boards/<game>.js``; a game without one is drawn by the plain board,
which lists its view. Every board module exports the same few functions
(``service/web/static/plain-board.js`` documents them).
"""

from __future__ import annotations

import sys
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, Response, abort, redirect, render_template, send_from_directory
from werkzeug.wrappers import Response as WerkzeugResponse

from domain import registry

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"

blp = Blueprint("web", __name__, template_folder="templates")

#: The pages change with the service: a day's cache for the assets, none for the HTML.
ASSET_MAX_AGE = 3600

#: Where a game keeps its board module, inside its own package.
BOARD_FILE = "web/board.js"


def _game_package(name: str) -> str | None:
    try:
        module = registry.game_module(name)
    except registry.UnknownGame:
        return None
    # The game object's class lives in the game's package (domain.<game>.game);
    # its package holds the board next to the rules.
    return sys.modules[type(module).__module__].__package__


def _page(template: str, **context: Any) -> Response:
    response = Response(render_template(template, **context))
    # The page holds no secret (tokens stay in the browser), but a stale page
    # after an upgrade would speak to the API in an old way.
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    )
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@blp.get("/")
def home() -> WerkzeugResponse:
    return redirect("/lobby", code=302)


@cache
def options_schema(name: str) -> dict[str, Any]:
    """``name``'s options as JSON Schema, converted as the API document converts them (its `…Options`), for the
    lobby's form: the page builds a field for each, so a game's new option shows there without a change here."""
    spec = APISpec("options", "1", "3.0.3", plugins=[MarshmallowPlugin()])
    spec.components.schema("Options", schema=registry.game_module(name).options_schema)
    converted: dict[str, Any] = spec.to_dict()["components"]["schemas"]["Options"]
    return converted


@blp.get("/lobby")
def lobby() -> Response:
    hosted = []
    # The games this server ships first, in their order (the first is the default), then any added.
    shipped = registry.builtin_names()
    for name in shipped + [n for n in registry.names() if n not in shipped]:
        module = registry.game_module(name)
        hosted.append({"name": name, "title": module.title, "min": module.seats.min, "max": module.seats.max,
                       "options": options_schema(name)})
    return _page("lobby.html", games=hosted)


@blp.get("/play/<game_id>")
def play(game_id: str) -> Response:
    return _page("play.html", game_id=game_id)


@blp.get("/web/<path:name>")
def asset(name: str) -> Response:
    return send_from_directory(STATIC, name, max_age=ASSET_MAX_AGE)


@blp.get("/web/boards/<game>.js")
def board(game: str) -> Response:
    package = _game_package(game)
    if package is not None:
        drawn = files(package).joinpath(BOARD_FILE)
        if drawn.is_file():
            response = Response(drawn.read_text(encoding="utf-8"), mimetype="text/javascript")
            response.headers["Cache-Control"] = f"max-age={ASSET_MAX_AGE}"
            return response
    if game not in registry.names():
        abort(404)
    return send_from_directory(STATIC, "plain-board.js", max_age=ASSET_MAX_AGE)


@blp.get("/favicon.ico")
def favicon() -> Response:
    # Browsers ask for it on every page; an empty answer keeps their consoles quiet.
    return Response(status=204)
