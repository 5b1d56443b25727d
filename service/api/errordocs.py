"""Every error answer in the API document, from the catalogue the service answers from.

``service.api.problems.CATALOG`` lists each status's problem codes; here each
becomes a shared response (``#/components/responses/CONFLICT``…) whose
description and ``x-problem-codes`` list them, and every operation's error
responses declare ``application/problem+json`` with the ``Problem`` schema
(``StaleVersion``, with its required ``current_version``, on a 412), whether
the operation names them itself or they are among those any request of its
kind may meet. A game's rules refuse with codes of their own, which each game
declares by kind (``Game.refusals``): the shared response of the kind's status
(409, 422) lists each hosted game's in its description and as
``x-rule-codes`` (``{game: [code, ...]}``). ``ProblemCode`` enumerates every
code, the service's and the hosted games', for clients to compare against. A
test fails when a code is raised that the catalogue lacks, and the contract
suite when a game raises one it does not declare.
"""

from __future__ import annotations

import http
from collections.abc import Sequence
from typing import Any

from apispec import APISpec, BasePlugin

from domain.game import Game, Refusal
from service.api.problems import CATALOG, PROBLEM_JSON, RULE_STATUSES, STATUS_OF, codes

RETRY_AFTER_HEADER = {
    "description": "Seconds to wait before trying again",
    "schema": {"type": "integer", "minimum": 1},
}
WWW_AUTHENTICATE = {"description": '`Bearer realm="holotape"`', "schema": {"type": "string"}}
#: The response of a status no operation lists: any status past those, as problem+json.
DEFAULT_ERROR = "DEFAULT_ERROR"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def problem_content(status: int | None) -> dict[str, Any]:
    """The body of an error answer of ``status``: a problem, with ``current_version`` required on a 412."""
    return {PROBLEM_JSON: {"schema": _ref("StaleVersion" if status == 412 else "Problem")}}


def describe(status: int) -> str:
    """What an answer of ``status`` means, code by code."""
    lines = [f"{http.HTTPStatus(status).phrase}; `code` is one of:", ""]
    lines += [f"- `{code}`: {meaning}" for code, meaning in CATALOG.get(status, {}).items()]
    if status in RULE_STATUSES:
        lines.append("- or the code of a game's own rule that refuses the command, with `rule` naming its topic")
    return "\n".join(lines)


def rule_codes(games: Sequence[Game], status: int) -> dict[str, dict[str, str]]:
    """Each game's own refusal codes answered with ``status``, with their meanings (``Game.refusals``)."""
    kinds = [kind for kind in Refusal if STATUS_OF[kind] == status]
    found = {game.name: {code: meaning for kind in kinds for code, meaning in game.refusals.get(kind, {}).items()}
             for game in games}  # fmt: skip
    return {name: dict(sorted(by_code.items())) for name, by_code in found.items() if by_code}


def publish_rule_codes(spec: APISpec, games: Sequence[Game]) -> None:
    """List the hosted games' refusal codes in the shared 409 and 422 responses, and in ``ProblemCode``."""
    every = set(codes())
    for status in RULE_STATUSES:
        by_game = rule_codes(games, status)
        if not by_game:
            continue
        response = spec.components.responses[response_name(status)]
        response["x-rule-codes"] = {name: list(by_code) for name, by_code in by_game.items()}
        lines = [response["description"], "", "The codes of each game's rules (`x-rule-codes`):"]
        for name, by_code in by_game.items():
            lines += ["", f"**{name}**", "", *(f"- `{code}`: {meaning}" for code, meaning in by_code.items())]
        response["description"] = "\n".join(lines)
        every.update(code for by_code in by_game.values() for code in by_code)
    spec.components.schemas["ProblemCode"]["enum"] = sorted(every)


def response_name(status: int) -> str:
    return http.HTTPStatus(status).name


def _headers(status: int) -> dict[str, Any]:
    if status in (429, 503):
        return {"Retry-After": RETRY_AFTER_HEADER}
    if status == 401:
        return {"WWW-Authenticate": WWW_AUTHENTICATE}
    return {}


def register_responses(spec: APISpec) -> None:
    """One shared response per status of the catalogue, and the default one, each problem+json."""
    for status, by_code in CATALOG.items():
        response: dict[str, Any] = {
            "description": describe(status),
            "content": problem_content(status),
            "x-problem-codes": sorted(by_code),
        }
        if _headers(status):
            response["headers"] = _headers(status)
        spec.components.response(response_name(status), response)
    spec.components.response(
        DEFAULT_ERROR,
        {
            "description": "Any other error, as problem+json: the codes of each status are listed in "
            "`#/components/responses` (`x-problem-codes`)",
            "content": problem_content(None),
        },
    )
    spec.components.schema(
        "ProblemCode",
        {
            "type": "string",
            "enum": codes(),
            "description": "Every `code` the service answers: its own (each error response's "
            "`x-problem-codes`) and those of each hosted game's rules, with `rule` (the 409 and 422 responses' "
            "`x-rule-codes`): compare a problem's `code` against these",
        },
    )


def _statuses(path: str, method: str, operation: dict[str, Any]) -> set[int]:
    """The errors any request of this operation's kind may meet, besides those it names itself."""
    found = {503}
    if not path.startswith("/games"):
        return found
    found |= {400, 429}
    if method in ("post", "put", "patch", "delete"):
        found |= {408, 413, 415, 422}
    if any(p.get("in") == "query" for p in operation.get("parameters", []) if isinstance(p, dict)):
        found.add(422)  # a query parameter out of its range
    if "{game_id}" in path:
        found |= {401, 403, 404}
        if method != "get":
            found.add(409)
    return found


class ProblemResponses(BasePlugin):
    """List among each operation's responses the errors it may meet, each as problem+json.

    Whatever the operation: a malformed request (400), too many requests
    (429), Redis away (503); with a body, 408, 413, 415 and 422; on a game,
    401, 403 and 404, and 409 on a change. Each refers to the shared response
    of its status; an error the operation describes itself keeps its
    description and gets the problem's body.
    """

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        for method, operation in (operations or {}).items():
            responses = operation.setdefault("responses", {})
            for met in _statuses(path or "", method, operation):
                # flask-smorest keys some responses by int, some by str.
                if met not in responses and str(met) not in responses:
                    responses[str(met)] = response_name(met)
            for key, response in responses.items():
                status = int(key) if str(key).isdigit() else None
                if status is None or status < 400 or not isinstance(response, dict):
                    continue
                if "content" not in response and "$ref" not in response:
                    response["content"] = problem_content(status)
                    if status in CATALOG:
                        response["description"] += f" (the codes: `#/components/responses/{response_name(status)}`)"
                    if _headers(status):
                        response.setdefault("headers", _headers(status))
