"""Mail to players through the operator's SMTP relay, sent once per event.

``HOLOTAPE_SMTP_URL`` names the relay: ``smtp://user:password@host:587``
(STARTTLS, required: a relay that does not offer it is refused, so a
password never crosses in clear), ``smtps://…:465`` (TLS from the first
byte), or ``smtp://host:25?starttls=off`` for a relay on a trusted network
(or a test's); ``?cafile=/path/ca.pem`` trusts a private CA for the relay's
certificate. Unset, nothing is sent. ``HOLOTAPE_MAIL_FROM`` is the sender.

**Once per event.** Each mail has an id made from the event it is about and
the player (``turn-<game>-s<seat>-v<since>``…), and an outbox entry on the
queue server (``holotape:mail:<player>:<id>``) that moves ``queued`` →
``sending`` (a lease of ``HOLOTAPE_MAIL_LEASE_SECONDS``) → ``sent``. A job
that finds the entry sent does nothing, so a duplicate job or a retried one
sends nothing twice; a job that finds a live lease leaves the mail to its
holder. A worker killed mid-send leaves the lease to run out and the entry
in ``holotape:mail-attention``, where the sweep finds it and enqueues the
send again. A relay that refuses (a 4xx, a lost connection) gets the mail
again later with a growing delay, for a day; a 5xx for the recipient gives up.
What no SMTP client can close is the instant between the relay's "250 OK"
and the entry marked sent: a worker killed exactly there sends that mail
twice (RFC 1047); the entry is marked in the same breath as the answer.
"""

from __future__ import annotations

import json
import os
import smtplib
import ssl
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any, cast
from urllib.parse import parse_qs, unquote, urlsplit

import redis
from rq import Queue
from rq.job import Job

from service.adapters.config import QUEUE_NAME
from service.adapters.followups import FAILURE_TTL, RESULT_TTL
from service.adapters.webhooks import allow_private_default, signed_post
from service.adapters.webhooks import retry_delay as webhook_retry_delay
from service.usecases.ports import Mail

ATTENTION = "holotape:mail-attention"
#: Seconds a send may take before another worker may take the mail over.
LEASE_SECONDS = float(os.environ.get("HOLOTAPE_MAIL_LEASE_SECONDS") or 60)
#: How long the outbox remembers a mail sent (the longest a duplicate job could come later).
KEEP_SECONDS = 7 * 86400
#: Attempts at a player's webhook (the backoff of the seat webhooks': about a day in all).
MAX_WEBHOOK_ATTEMPTS = 12
#: Retries of a refused mail: the delay grows from a minute to an hour, for a day.
GIVE_UP_AFTER = 86400


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def retry_delay(attempt: int) -> float:
    base = float(os.environ.get("HOLOTAPE_MAIL_BACKOFF_SECONDS") or 60)
    return float(min(3600.0, base * 2 ** (attempt - 1)))


@dataclass(frozen=True)
class Relay:
    host: str
    port: int
    tls: str  # "starttls", "implicit" or "off"
    user: str | None
    password: str | None
    cafile: str | None = None  # a private CA the relay's certificate is signed by (``?cafile=``)


def relay_from_url(url: str | None) -> Relay | None:
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError(f"HOLOTAPE_SMTP_URL: {parts.scheme!r} is not smtp or smtps")
    query = parse_qs(parts.query)
    tls = "implicit" if parts.scheme == "smtps" else ("off" if query.get("starttls") == ["off"] else "starttls")
    return Relay(
        host=parts.hostname or "localhost",
        port=parts.port or (465 if tls == "implicit" else 587),
        tls=tls,
        user=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        cafile=query["cafile"][0] if query.get("cafile") else None,
    )


def sender() -> str:
    return os.environ.get("HOLOTAPE_MAIL_FROM") or "Holotape <holotape@localhost>"


class Refusal(Exception):
    """The relay did not take the mail; ``permanent``: it never will (a 5xx for the recipient)."""

    def __init__(self, message: str, permanent: bool = False):
        super().__init__(message)
        self.permanent = permanent


def _message(mail: Mail) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender()
    message["To"] = mail.to
    message["Subject"] = mail.subject
    message["Message-ID"] = make_msgid(idstring=mail.mail_id[:60], domain="holotape")
    message["X-Holotape-Mail"] = mail.mail_id
    if mail.unsubscribe_url:
        # RFC 2369 and RFC 8058: mail clients offer a one-click unsubscribe that POSTs there.
        message["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(mail.text)
    message.add_alternative(mail.html, subtype="html")
    return message


def smtp_send(relay: Relay, mail: Mail, timeout: float = 20.0) -> None:
    """Hand ``mail`` to the relay; raises ``Refusal``."""
    try:
        if relay.tls == "implicit":
            connection: smtplib.SMTP = smtplib.SMTP_SSL(relay.host, relay.port, timeout=timeout,
                                                        context=ssl.create_default_context(cafile=relay.cafile))
        else:
            connection = smtplib.SMTP(relay.host, relay.port, timeout=timeout)
        with connection:
            connection.ehlo()
            if relay.tls == "starttls":
                if not connection.has_extn("starttls"):
                    raise Refusal("the relay does not offer STARTTLS (set ?starttls=off for a trusted one)")
                connection.starttls(context=ssl.create_default_context(cafile=relay.cafile))
                connection.ehlo()
            if relay.user:
                connection.login(relay.user, relay.password or "")
            connection.send_message(_message(mail))
    except smtplib.SMTPRecipientsRefused as refused:
        codes = [code for code, _ in refused.recipients.values()]
        raise Refusal(f"recipient refused: {refused.recipients}", permanent=all(c >= 500 for c in codes)) from refused
    except smtplib.SMTPResponseException as refused:
        raise Refusal(f"{refused.smtp_code} {refused.smtp_error!r}", permanent=False) from refused
    except (smtplib.SMTPException, OSError) as lost:
        raise Refusal(f"{type(lost).__name__}: {lost}") from lost


# Take the mail if it is not sent and nobody holds a live lease on it.
_CLAIM = """
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'sent' then return 0 end
if state == 'sending' and tonumber(redis.call('HGET', KEYS[1], 'lease')) > tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'state', 'sending', 'lease', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
return 1
"""


class Outbox:
    """The mails to send, on the queue server beside their jobs."""

    def __init__(self, queue_client: redis.Redis, relay: Relay | None):
        self.redis = queue_client
        self.relay = relay
        self._claim = queue_client.register_script(_CLAIM)

    @staticmethod
    def key(player_id: str, mail_id: str) -> str:
        return f"holotape:mail:{player_id}:{mail_id}"

    def put(self, player_id: str, mail: Mail) -> bool:
        """Keep ``mail`` to send; False if it is there already (this event's mail was made before)."""
        key = self.key(player_id, mail.mail_id)
        fresh = self.redis.hsetnx(key, "mail", json.dumps(mail.__dict__))
        if fresh:
            pipe = self.redis.pipeline()
            pipe.hset(key, mapping={"state": "queued", "first": time.time(), "player": player_id})
            pipe.expire(key, KEEP_SECONDS)
            pipe.zadd(ATTENTION, {f"{player_id}|{mail.mail_id}": time.time() + LEASE_SECONDS})
            pipe.execute()
        return bool(fresh)

    def send(self, player_id: str, mail_id: str, attempt: int = 1) -> float | None:
        """One attempt; returns the delay before the next one, or None (sent, given up, or someone else's)."""
        key = self.key(player_id, mail_id)
        raw = self.redis.hget(key, "mail")
        if raw is None or self.relay is None:
            return None
        now = time.time()
        member = f"{player_id}|{mail_id}"
        claimed = self._claim(keys=[key, ATTENTION], args=[now, now + LEASE_SECONDS, member])
        if claimed != 1:
            return None  # sent already, or another worker holds it
        mail = Mail(**json.loads(raw))
        try:
            smtp_send(self.relay, mail)
        except Refusal as refusal:
            first = float(self.redis.hget(key, "first") or now)
            delay = retry_delay(attempt)
            if refusal.permanent or now + delay - first > GIVE_UP_AFTER:
                self._finish(key, member, "given_up", str(refusal))
                return None
            self.redis.hset(key, mapping={"state": "queued", "error": str(refusal), "attempts": attempt})
            self.redis.zadd(ATTENTION, {member: now + delay + LEASE_SECONDS})
            return delay
        self._finish(key, member, "sent", "")
        return None

    def _finish(self, key: str, member: str, state: str, error: str) -> None:
        pipe = self.redis.pipeline()
        pipe.hset(key, mapping={"state": state, "error": error, "done": time.time()})
        pipe.zrem(ATTENTION, member)
        pipe.execute()

    def stalled(self, now: float | None = None) -> list[tuple[str, str]]:
        """Mails whose lease or retry time ran out without being sent: (player, mail id)."""
        members = cast(list[bytes], self.redis.zrangebyscore(ATTENTION, 0, now if now is not None else time.time()))
        found = []
        for member in members:
            player_id, _, mail_id = member.decode().partition("|")
            found.append((player_id, mail_id))
        return found

    def state(self, player_id: str, mail_id: str) -> dict[str, Any]:
        raw = self.redis.hgetall(self.key(player_id, mail_id))
        return {_text(k): _text(v) for k, v in raw.items()}


class RqMailer:
    """The ``Mailer`` port: the outbox above, its sends as rq jobs, and player webhooks."""

    def __init__(self, queue_client: redis.Redis, relay: Relay | None, allow_private: bool | None = None):
        self.outbox = Outbox(queue_client, relay)
        self.redis = queue_client
        self.jobs = Queue(QUEUE_NAME, connection=queue_client)
        self.allow_private = allow_private_default() if allow_private is None else allow_private

    def _enqueue(self, function: str, job_id: str, *args: Any, at: float | None = None) -> None:
        if Job.exists(job_id, connection=self.redis):
            return
        options = {"job_id": job_id, "result_ttl": RESULT_TTL, "failure_ttl": FAILURE_TTL}
        if at is not None and at > time.time():
            self.jobs.enqueue_at(datetime.fromtimestamp(at, tz=UTC), function, *args, **options)
        else:
            self.jobs.enqueue(function, *args, **options)

    def enabled(self) -> bool:
        return self.outbox.relay is not None

    def queue(self, player_id: str, mail: Mail) -> bool:
        if not self.enabled():
            return False
        fresh = self.outbox.put(player_id, mail)
        if fresh:
            self._enqueue("workers.jobs.send_mail", f"mail-{player_id}-{mail.mail_id}-a1", player_id, mail.mail_id, 1)
        return fresh

    def send(self, player_id: str, mail_id: str, attempt: int) -> bool:
        """One attempt (a job); a refusal enqueues the next one later. True: sent now."""
        delay = self.outbox.send(player_id, mail_id, attempt)
        if delay is not None:
            self._enqueue("workers.jobs.send_mail", f"mail-{player_id}-{mail_id}-a{attempt + 1}",
                          player_id, mail_id, attempt + 1, at=time.time() + delay)  # fmt: skip
        return self.outbox.state(player_id, mail_id).get("state") == "sent"

    def rescue(self, now: float | None = None) -> list[str]:
        """Enqueue again the mails a dead worker left (their lease ran out unsent); the sweep calls it."""
        rescued = []
        for player_id, mail_id in self.outbox.stalled(now):
            stamp = int(time.time())
            self._enqueue("workers.jobs.send_mail", f"mail-{player_id}-{mail_id}-r{stamp}", player_id, mail_id, 1)
            rescued.append(mail_id)
        return rescued

    def hold_for_digest(self, player_id: str, line: str, seconds: int) -> None:
        bucket = int(time.time() // seconds)
        key = f"holotape:digest:{player_id}:{bucket}"
        pipe = self.redis.pipeline()
        pipe.rpush(key, line)
        pipe.expire(key, seconds * 4)
        pipe.execute()
        self._enqueue("workers.jobs.send_digest", f"digest-{player_id}-{bucket}", player_id, bucket,
                      at=(bucket + 1) * seconds)  # fmt: skip

    def digest_lines(self, player_id: str, bucket: int) -> list[str]:
        key = f"holotape:digest:{player_id}:{bucket}"
        return [line.decode() for line in cast(list[bytes], self.redis.lrange(key, 0, -1))]

    def webhook(self, player_id: str, message: dict[str, Any]) -> None:
        self._enqueue("workers.jobs.deliver_to_player", f"phook-{message['id']}-a1", player_id, message, 1)

    def deliver_webhook(self, player_id: str, url: str, secret: str, message: dict[str, Any], attempt: int) -> bool:
        """One attempt at the player's webhook, once per message; a failure enqueues the next attempt."""
        sent_key = f"holotape:phook-sent:{player_id}:{message['id']}"
        if attempt == 1 and not self.redis.set(sent_key, str(time.time()), nx=True, ex=48 * 3600):
            return False  # delivered (or being delivered) by an earlier job
        outcome = signed_post(url, secret, message, self.allow_private)
        if not outcome.ok and attempt < MAX_WEBHOOK_ATTEMPTS and not (outcome.error or "").startswith("refused"):
            self._enqueue("workers.jobs.deliver_to_player", f"phook-{message['id']}-a{attempt + 1}",
                          player_id, message, attempt + 1, at=time.time() + webhook_retry_delay(attempt))  # fmt: skip
        return outcome.ok
