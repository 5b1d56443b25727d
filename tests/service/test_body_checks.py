"""The request body's checks take orjson's shortcut only where it cannot change an answer.

``check_json`` parses with orjson first and keeps the result when nothing in
it is left to question; otherwise ``checked_json`` (the reference) answers.
Both must give the same value, or the same refusal code, for every body. And
the actions' hot path tells a well-formed command apart without marshmallow
exactly as ``CommandSchema`` would.
"""

from __future__ import annotations

import pytest
from marshmallow import ValidationError

from service.api.games import COMMAND_SCHEMA, _well_formed
from service.api.inputs import MAX_JSON_DEPTH, BadJson, check_json, checked_json

BODIES = [
    b'{"type": "add", "amount": 2}',
    b'{"type": "redraw", "text": "Redraw your secret"}',
    b"[]",
    b'"plain"',
    b"true",
    b"null",
    b'{"a": 1, "a": 2}',
    b'{"n": 9007199254740991}',
    b'{"n": -9007199254740991}',
    b'{"n": 9007199254740992}',  # one past the safe integers
    b'{"n": 18446744073709551616}',  # past 64 bits: orjson reads it as a float
    b'{"n": ' + b"9" * 5000 + b"}",
    b'{"x": 1.5}',
    b'{"x": 1e400}',
    b'{"x": -1e400}',
    b'{"x": NaN}',
    b'{"x": Infinity}',
    b'{"s": "\\ud800"}',
    b'{"\\udc00": 1}',
    b'{"s": "\\ud83d\\ude00"}',
    b'{"s": "caf\xc3\xa9"}',
    b'{"s": "\xff"}',
    b"\xef\xbb\xbf{}",
    b'{"s": "a\nb"}',
    b"[1,]",
    b'{"game": ',
    b"[]x",
    b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH,
    b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1),
    b'{"a": ' * MAX_JSON_DEPTH + b"1" + b"}" * MAX_JSON_DEPTH,
    b'{"a": ' * (MAX_JSON_DEPTH + 1) + b"1" + b"}" * (MAX_JSON_DEPTH + 1),
    b"[" * 30000 + b"]" * 30000,
    b"-0",
    b" {} ",
]


def _answer(check, raw: bytes) -> tuple[str, object]:
    try:
        return "parsed", check(raw)
    except BadJson as refused:
        return "refused", refused.code


@pytest.mark.parametrize("raw", BODIES)
def test_orjson_shortcut_answers_as_the_reference_checks(raw):
    assert _answer(check_json, raw) == _answer(checked_json, raw)


def test_the_reference_refuses_what_it_should():
    """A control on the list above: the shortcut is compared against refusals, not only against successes."""
    codes = {_answer(checked_json, raw)[1] for raw in BODIES if _answer(checked_json, raw)[0] == "refused"}
    assert {"malformed_json", "json_too_deep", "number_out_of_range", "invalid_string"} <= codes


COMMANDS = [
    {"type": "add", "amount": 2},
    {"type": "redraw", "text": "Redraw your secret"},
    {"type": "x" * 64},
    {"type": "x" * 65},
    {"type": ""},
    {"type": 3},
    {"type": None},
    {"type": "add", "text": None},
    {"type": "add", "text": 7},
    {"amount": 2},
    {},
]


@pytest.mark.parametrize("body", COMMANDS)
def test_a_command_is_well_formed_exactly_when_its_schema_loads_it_unchanged(body):
    try:
        loaded = COMMAND_SCHEMA.load(body)
    except ValidationError:
        loaded = None
    assert _well_formed(body) == (loaded is not None)
    if loaded is not None:
        assert loaded == body
