"""Answers the service built itself, serialised once with orjson.

flask-smorest dumps a view's result through its response schema and then
through Flask's JSON encoder: for an answer the service assembled from its
own records that is a second walk over every event that changes nothing
(a test holds that the schema's dump of such an answer is the answer). The
schema is still declared on the view for the API document. As Flask's
encoder did, keys are sorted and the body ends with a newline; text is
UTF-8 rather than \\u escapes, the same JSON.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response

OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE


def json_answer(body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(orjson.dumps(body, option=OPTIONS), status, headers, mimetype="application/json")
