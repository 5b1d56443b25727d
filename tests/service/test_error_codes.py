"""Every problem code the service can answer is in the catalogue, the API document and docs/api.md.

The source is read as Python (``ast``): each problem raised or answered with
its status, each refusal of the application layer or of the shared game
contract with its kind's status (``STATUS_OF``), each refused JSON body. A code
added without its line in ``service.api.problems.CATALOG`` fails here; the
document's lists (``x-problem-codes`` of each shared error response) are made
from the catalogue, and docs/api.md's table must say the same. A game's own
refusal codes are its declaration's (``Game.refusals``, which the contract
suite keeps to its rules): the document lists each under its status.
"""

from __future__ import annotations

import ast
import http
import re
from pathlib import Path

from domain import registry
from domain.game import Refusal
from service.api.problems import CATALOG, CODES, RULE_STATUSES, STATUS_OF, codes
from service.cli import openapi_document
from service.gunicorn_conf import SERVER_CODES
from service.usecases.errors import Rejection

ROOT = Path(__file__).resolve().parents[2]
KINDS = {kind.name: status for kind, status in STATUS_OF.items()}


def _kind_status(call: ast.Call) -> int:
    kind = call.args[2] if len(call.args) > 2 else next((k.value for k in call.keywords if k.arg == "kind"), None)
    if kind is None:
        return STATUS_OF[Refusal.NOT_NOW]
    assert isinstance(kind, ast.Attribute), ast.dump(kind)
    return KINDS[kind.attr]


def _answered(call: ast.Call) -> tuple[int, str] | None:
    """The (status, code) a call answers with, if it is one that names a problem."""
    name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", None)
    args = [a.value if isinstance(a, ast.Constant) else None for a in call.args]
    if name in ("Problem", "problem_response") and len(args) > 1 and isinstance(args[0], int) and args[1]:
        return args[0], args[1]
    if name in ("Refused", "RuleViolation") and args and isinstance(args[0], str):
        return _kind_status(call), args[0]
    if name == "malformed" and args and isinstance(args[0], str):
        return STATUS_OF[Refusal.MALFORMED], args[0]
    if name == "BadJson" and args and isinstance(args[0], str):
        return 400, args[0]
    return None


def answered_in_source() -> set[tuple[int, str]]:
    sources = [*(ROOT / "service").rglob("*.py"), ROOT / "domain" / "game.py"]
    found = {
        answer
        for path in sources
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call) and (answer := _answered(node))
    }
    return found | set(CODES.items()) | set(SERVER_CODES.items())


def _name(status: int) -> str:
    return http.HTTPStatus(status).name


def catalogued() -> set[tuple[int, str]]:
    return {(status, code) for status, by_code in CATALOG.items() for code in by_code}


def test_every_code_the_source_answers_is_in_the_catalogue_with_its_status():
    found = answered_in_source()
    assert len(found) > 60  # the scan still finds them
    assert {status for status, _ in found} >= {400, 401, 403, 404, 409, 412, 422, 428, 429, 503}
    assert sorted(found - catalogued()) == []


def test_the_catalogue_holds_no_code_nothing_answers():
    assert sorted(catalogued() - answered_in_source()) == []


def test_the_api_document_lists_every_code_of_each_status():
    document = openapi_document()
    responses = document["components"]["responses"]
    listed = {
        (status, code)
        for name, response in responses.items()
        if name != "DEFAULT_ERROR"
        for status in [next(s for s in CATALOG if name == _name(s))]
        for code in response["x-problem-codes"]
    }
    assert listed == catalogued()
    assert set(document["components"]["schemas"]["ProblemCode"]["enum"]) >= set(codes())
    for status, by_code in CATALOG.items():
        description = responses[_name(status)]["description"]
        assert all(f"`{code}`" in description for code in by_code), status


def declared_by_the_games() -> set[tuple[str, int, str]]:
    """(game, status, code) for every refusal code each shipped game declares (``Game.refusals``)."""
    return {
        (name, STATUS_OF[kind], code)
        for name in registry.builtin_names()
        for kind, by_code in registry.game_module(name).refusals.items()
        for code in by_code
    }


def test_the_api_document_lists_every_code_each_game_declares_under_its_status():
    document = openapi_document()
    responses = document["components"]["responses"]
    declared = declared_by_the_games()
    assert {name for name, _, _ in declared} == set(registry.builtin_names()), "every shipped game declares codes"
    assert {status for _, status, _ in declared} <= set(RULE_STATUSES)
    listed = {
        (name, status, code)
        for status in RULE_STATUSES
        for name, game_codes in responses[_name(status)].get("x-rule-codes", {}).items()
        for code in game_codes
    }
    assert sorted(declared ^ listed) == []
    for _, status, code in declared:
        assert f"- `{code}`: " in responses[_name(status)]["description"], (status, code)
    enum = document["components"]["schemas"]["ProblemCode"]["enum"]
    assert enum == sorted(set(codes()) | {code for _, _, code in declared})


def documented_codes() -> set[tuple[int, str]]:
    """The (status, code) pairs of docs/api.md's table: the status column and the codes column."""
    text = (ROOT / "docs" / "api.md").read_text()
    table = text[text.index("## Error codes"):]
    rows = re.findall(r"^\| (\d{3}) \| ([^|]*) \|", table, re.M)
    return {(int(status), code) for status, cell in rows for code in re.findall(r"`([a-z_]+)`", cell)}


def test_docs_api_md_lists_the_catalogue():
    assert sorted(documented_codes() ^ catalogued()) == []


def test_every_refusal_kind_has_a_status():
    assert set(STATUS_OF) == set(Refusal) | set(Rejection)
