"""Webhooks as a use case: a seat registers URLs to be told of its turn, reminders,
the game's end and rewind proposals (docs/webhooks.md).

Which messages exist and what they say is decided here; keeping the
registrations and delivering them signed is the webhooks adapter's job
(``service.adapters.webhooks``), behind the ``Webhooks`` port.
"""

from __future__ import annotations

import base64
import binascii
import secrets
from datetime import UTC, datetime
from typing import Any

from service.usecases.errors import Refused, Rejection
from service.usecases.ports import Webhooks
from service.usecases.record import Record
from service.usecases.words import player, prompt

KINDS = ("your_turn", "reminder", "game_over", "rewind_proposed")
MAX_PER_SEAT = 5


class RefusedUrl(ValueError):
    """A URL we will not deliver to; the message says why."""


class TooManyWebhooks(Exception):
    pass


def new_signing_secret() -> str:
    """A Standard Webhooks signing secret: ``whsec_`` and the base64 of 24 random bytes, in the standard
    alphabet, which every implementation's verifier decodes (a URL-safe one's ``-`` and ``_`` are not in it)."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def is_signing_secret(secret: str | None) -> bool:
    """Whether ``secret`` is one ``new_signing_secret`` could have made (a key in strict base64)."""
    if not secret or not secret.startswith("whsec_"):
        return False
    try:
        return len(base64.b64decode(secret[6:], validate=True)) == 24
    except binascii.Error:
        return False


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def message(
    game_id: str, kind: str, message_id: str, seat: int, data: dict[str, Any], events: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The message one seat gets: its id (``webhook-id``) and the JSON body; ``events``: what it is about, told to the seat."""
    payload = {"type": kind, "game_id": game_id, "seat": seat, "timestamp": now_iso(), **data}
    if events is not None:
        payload["events"] = [{"version": e["version"], "type": e["type"], "text": e["text"]} for e in events]
    return {"id": f"msg_{message_id}-to{seat}", "payload": payload}


def about(kind: str, data: dict[str, Any]) -> int | None:
    """A version of the batch a message is about, whose events it tells in words: the one that
    began the seat's wait (``your_turn``), ended the game (``game_over``) or made the proposal
    (``rewind_proposed``); None for a reminder, which is about time."""
    if kind == "your_turn":
        return int(data["since"])
    if kind == "game_over":
        return int(data["version"])
    if kind == "rewind_proposed":
        return int(data["proposal"]["id"])
    return None


# -- what each message says, in words (its ``text``) ------------------------------------


def your_turn_text(record: Record, seat: int) -> str:
    said = prompt(record, seat) or "the game waits for you."
    # The prompt addresses the seat ("You must choose…"), after a colon in lower case.
    return f"Your turn: {'you' + said[3:] if said.startswith('You ') else said}"


def reminder_text(record: Record, seat: int, deadline: str) -> str:
    return f"Reminder: your time runs out at {deadline}. {prompt(record, seat) or ''}".strip()


def game_over_text(record: Record, winners: list[int]) -> str:
    if not winners:
        return "The game is over: nobody won."
    names = [player(record, seat) for seat in winners]
    won = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"The game is over: {won} won."


def rewind_text(record: Record, proposal: dict[str, Any]) -> str:
    by = player(record, proposal["by"])
    return f"{by[:1].upper()}{by[1:]} proposes to rewind the game to version {proposal['to_version']}; accept or decline."


class Notifications:
    def __init__(self, webhooks: Webhooks):
        self.webhooks = webhooks

    def register(self, game_id: str, seat: int, url: str, kinds: list[str] | None = None) -> dict[str, Any]:
        """A new webhook for ``seat``; the answer holds its signing secret, shown once."""
        try:
            return self.webhooks.register(game_id, seat, url, kinds)
        except RefusedUrl as refused:
            raise Refused("webhook_url_refused", str(refused), kind=Refused.MALFORMED) from refused
        except TooManyWebhooks:
            raise Refused("too_many_webhooks", f"a seat may have {MAX_PER_SEAT} webhooks") from None

    def of_seat(self, game_id: str, seat: int) -> list[dict[str, Any]]:
        """The seat's webhooks, without their secrets."""
        return [{k: v for k, v in h.items() if k != "secret"} for h in self.webhooks.of_seat(game_id, seat)]

    def remove(self, game_id: str, seat: int, webhook_id: str) -> None:
        if not self.webhooks.remove(game_id, seat, webhook_id):
            raise Refused("no_such_webhook", f"your seat has no webhook {webhook_id}", kind=Rejection.NOT_FOUND)

    def log(self, game_id: str, seat: int) -> list[dict[str, Any]]:
        return self.webhooks.log(game_id, seat)
