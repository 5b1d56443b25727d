"""Every problem code the service can answer is in docs/api.md's table of codes."""

from __future__ import annotations

import re
from pathlib import Path

from service.api.problems import CODES
from service.gunicorn_conf import SERVER_CODES

ROOT = Path(__file__).resolve().parents[2]
#: Where a code is named: a problem raised or answered with its status, a
#: refusal of the application layer or of the shared game contract, a JSON check.
RAISED = re.compile(
    r"(?:Problem|problem_response)\(\s*\d{3},\s*\"(\w+)\"|(?:Refused|BadJson|malformed)\(\s*\"(\w+)\""
)


def codes_in_source() -> set[str]:
    sources = [*(ROOT / "service").rglob("*.py"), ROOT / "domain" / "game.py"]
    found = {code for path in sources for match in RAISED.findall(path.read_text()) for code in match if code}
    return found | set(CODES.values()) | set(SERVER_CODES.values())


def documented_codes() -> set[str]:
    text = (ROOT / "docs" / "api.md").read_text()
    table = text[text.index("## Error codes"):]
    rows = "\n".join(re.findall(r"^\|.*$", table, re.M))
    return set(re.findall(r"`([a-z_]+)`", rows))


def test_every_code_raised_is_documented():
    found = codes_in_source()
    assert len(found) > 40  # the pattern still finds them
    assert sorted(found - documented_codes()) == []
