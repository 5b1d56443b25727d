"""Every answer against the API document: the body of each status, success and error, and each stream message.

``Conformance.check`` takes an answer (httpx's, werkzeug's or schemathesis's)
and fails it unless:

- its operation and status are in the document (or the operation's
  ``default``);
- a body comes with a media type the document declares for that status, with
  a schema: an undocumented body is a mismatch, not a pass;
- the body validates against that schema (schemathesis's validator, the same
  the fuzz suite uses);
- for a stream (``text/event-stream``, a string in the document), each
  message validates as the document says it does: the ``state`` message as
  ``GET …/state`` answers, each ``event`` message as an event of the game's
  ``…Event`` union (checked as a page of the log).

It counts what it checked by operation and status, so a suite can say it saw
the statuses it meant to.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import requests
import schemathesis
from schemathesis.core.transport import Response

EVENT_STREAM = "text/event-stream"


class Mismatch(AssertionError):
    pass


def _media(value: str | None) -> str:
    return (value or "").split(";")[0].strip().lower()


def sse_messages(text: str) -> list[dict[str, str]]:
    """The messages of an event stream, each as its fields (comments and ``retry`` left out)."""
    messages = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value
        if "event" in fields or "data" in fields:
            messages.append(fields)
    return messages


#: What every Conformance of this test session checked, by operation and status (printed at the end).
CHECKED: Counter[tuple[str, int]] = Counter()


class Conformance:
    def __init__(self, document: dict[str, Any]):
        self.schema = schemathesis.openapi.from_dict(document)
        self.checked: Counter[tuple[str, int]] = Counter()
        self.messages: Counter[str] = Counter()

    def check(self, answer: Any, method: str | None = None, path: str | None = None) -> None:
        """Fail unless ``answer`` (to ``method`` ``path``, default: its request's) is as documented."""
        response = Response.from_any(answer)
        method = method or response.request.method or "GET"
        path = path or requests.utils.urlparse(response.request.url).path
        operation = self.schema.find_operation_by_path(method, path)
        if operation is None:
            raise Mismatch(f"{method} {path}: no such operation in the document")
        self.check_operation(operation, response)

    def check_operation(self, operation: Any, response: Response) -> None:
        label = operation.definition.raw.get("operationId") or operation.label
        sent = (response.request.method or "").upper()
        if sent and sent != operation.method.upper():
            label = f"{sent} to {label}"  # a method the path does not take (405), or OPTIONS
        status = response.status_code
        definition = operation.responses.find_by_status_code(status)
        if definition is None:
            raise Mismatch(f"{label}: status {status} is not in the document")
        media = _media((response.headers.get("content-type") or [None])[0])
        content = definition.definition.get("content") or {}
        if response.content:
            if media not in content or "schema" not in content[media]:
                raise Mismatch(f"{label} {status}: a {media or 'typeless'} body the document does not declare "
                               f"(it declares {sorted(content) or 'no body'})")  # fmt: skip
        if media == EVENT_STREAM:
            self._check_stream(label, response)
        else:
            try:
                self.schema.validate_response(operation, response)
            except Exception as failed:
                raise Mismatch(f"{label} {status}: {failed}") from failed
        self.checked[(label, status)] += 1
        CHECKED[(label, status)] += 1

    def _as_answer(self, operation_id: str, body: Any) -> None:
        operation = self.schema.find_operation_by_id(operation_id)
        request = requests.Request("GET", "http://localhost/").prepare()
        response = Response(
            200, {"content-type": ["application/json"]}, json.dumps(body).encode(), request, 0.0, False
        )
        self.schema.validate_response(operation, response)

    def _check_stream(self, label: str, response: Response) -> None:
        messages = sse_messages(response.text)
        first = messages[0] if messages else {}
        if first.get("event") != "state" or "id" in first:
            raise Mismatch(f"{label}: a stream opens with its state message, without an id; got {first}")
        state = json.loads(first["data"])
        try:
            self._as_answer("getState", state)
            events = []
            for message in messages[1:]:
                if message.get("event") != "event" or message.get("id") is None:
                    raise Mismatch(f"{label}: a message that is no event: {message}")
                event = json.loads(message["data"])
                if str(event["version"]) != message["id"]:
                    raise Mismatch(f"{label}: event {event['version']} sent with id {message['id']}")
                events.append(event)
            page = {"game_id": state["game_id"], "game": state["game"], "version": state["version"],
                    "events": events, "next_after": None}  # fmt: skip
            self._as_answer("getEvents", page)
        except Mismatch:
            raise
        except Exception as failed:
            raise Mismatch(f"{label}: a stream message off the document: {failed}") from failed
        self.messages.update(m["event"] for m in messages)
