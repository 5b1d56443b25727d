"""Limits on what a request may carry, checked before any work, so a hostile
request costs little, answers a 4xx problem and changes nothing.

Bodies are capped by ``MAX_CONTENT_LENGTH`` (413). A JSON body must be
I-JSON (RFC 7493): well-formed UTF-8, no lone surrogate in a string or a
member name, numbers a double holds exactly (integers within ±(2^53 - 1), no
NaN or Infinity), and here nested at most ``MAX_JSON_DEPTH`` deep. Those are
checked on the raw body before webargs reads it, so a 30,000-deep array or
an integer of ten thousand digits never reaches a parser that would fail on
it with a 500, and a string Redis cannot encode never reaches a write.
Query parameters carry their own ranges in each operation's schema.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson
from flask import Flask, Response, g
from flask.globals import request_ctx
from werkzeug.exceptions import ClientDisconnected

from service.api.problems import problem_response

#: Deeper than any body the API takes (a game's command is a few levels).
MAX_JSON_DEPTH = 32
#: The integers JSON numbers hold exactly in every client (RFC 7493 §2.2).
MAX_SAFE_INTEGER = 2**53 - 1
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class BadJson(ValueError):
    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail


def _depth(text: str) -> int:
    deepest = depth = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _integer(literal: str) -> int:
    # Compared as text first: int() of ten thousand digits is itself the attack.
    if len(literal.lstrip("-")) > 16 or abs(int(literal)) > MAX_SAFE_INTEGER:
        raise BadJson("number_out_of_range", f"integers in JSON go up to ±{MAX_SAFE_INTEGER}")
    return int(literal)


def _float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise BadJson("number_out_of_range", "a number too large for a double")
    return value


def _constant(name: str) -> Any:
    raise BadJson("malformed_json", f"{name} is not JSON")


def _check_strings(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            texts = [item]
        elif isinstance(item, dict):
            texts = list(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            texts = []
            stack.extend(item)
        else:
            continue
        if any(_SURROGATE.search(text) for text in texts):
            raise BadJson("invalid_string", "a string holds a lone UTF-16 surrogate (\\ud800-\\udfff)")


def _plain(value: Any) -> bool:
    """Whether ``value``, as orjson parsed it, is what the checks below would take as it is.

    orjson refuses malformed UTF-8, lone surrogates, NaN and Infinity, and
    numbers a double overflows, as the checks do. It reads an integer past
    64 bits as a float, so a value holding any float is left to the checks,
    as are an integer past ±(2^53 - 1) and nesting past ``MAX_JSON_DEPTH``:
    they then answer it with their own code.
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind is dict or kind is list:
            if depth > MAX_JSON_DEPTH:
                return False
            stack.extend((inner, depth + 1) for inner in (item.values() if kind is dict else item))
        elif kind is float or (kind is int and not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER):
            return False
    return True


def check_json(raw: bytes) -> Any:
    """The body parsed, or BadJson saying what about it is refused."""
    # Most bodies: orjson's one pass in C, when it leaves nothing to question.
    try:
        parsed = orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    else:
        if _plain(parsed):
            return parsed
    return checked_json(raw)


def checked_json(raw: bytes) -> Any:
    """``check_json`` without orjson's shortcut: what each refusal's code comes from."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadJson("malformed_json", "the body is not UTF-8") from None
    if _depth(text) > MAX_JSON_DEPTH:
        raise BadJson("json_too_deep", f"JSON nests at most {MAX_JSON_DEPTH} levels deep here")
    try:
        parsed = json.loads(text, parse_int=_integer, parse_float=_float, parse_constant=_constant)
    except BadJson:
        raise
    except (ValueError, RecursionError) as failed:
        raise BadJson("malformed_json", f"the body is not JSON: {failed}"[:200]) from None
    _check_strings(parsed)
    return parsed


#: Paths whose body is a form a mail client sends, not JSON: the one-click unsubscribe (RFC 8058
#: ``List-Unsubscribe=One-Click``), whose handler reads nothing from it.
FORM_POSTS = ("/players/unsubscribe/",)


def register(app: Flask) -> None:
    @app.before_request
    def check_body() -> Response | None:
        asking = request_ctx.request  # the request itself: each read of Flask's proxy looks it up again
        if asking.method not in ("POST", "PUT", "PATCH", "DELETE"):
            return None
        try:
            raw = asking.get_data(cache=True)  # 413 past MAX_CONTENT_LENGTH, chunked or not
        except (TimeoutError, ClientDisconnected):  # the server's socket timeout on a body sent too slowly
            # No Connection header: an app may not send one (PEP 3333); the
            # server closes the connection itself, the rest of the body unread.
            return problem_response(408, "body_timeout", "the body did not arrive in time")
        if not raw or asking.path.startswith(FORM_POSTS):
            return None
        if not asking.is_json:
            return problem_response(415, "unsupported_media_type", "send the request body as application/json")
        try:
            g.json_body = check_json(raw)  # read by the actions' hot path (games.GameActions)
        except BadJson as refused:
            return problem_response(400, refused.code, refused.detail)
        return None
