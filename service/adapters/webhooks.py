"""Webhooks: a seat's URLs told of its turn, reminders, the game's end and rewind proposals.

Registering (``Webhooks.register``) checks the URL and returns a signing
secret, once. Each notification is a message with a stable id
(``turn-<game>-s<seat>-v<since>``, ``reminder-…``, ``over-<game>``,
``rewind-<game>-p<proposal>``); it is delivered to each of the seat's
webhooks by a job of its own, POSTed as JSON and signed by the Standard
Webhooks scheme (``webhook-id``: the message id, the same on every retry;
``webhook-timestamp``; ``webhook-signature``: ``v1,<base64 HMAC-SHA256 of
"id.timestamp.body">``) with the ``standardwebhooks`` package. Any answer but
2xx, or no answer in 10 s, is retried with exponential backoff (base ×
3^(attempt-1): 5 s, 15 s, 45 s … capped at 2 h a wait) until 24 hours have
passed since the first attempt. Every attempt goes into the seat's delivery
log (the latest 200).

Only http and https URLs, and never to an address that is not global unicast
(loopback, private, link-local, site-local, multicast, reserved), judged on the
address as a whole: an IPv6 address that carries an IPv4 one (IPv4-mapped,
IPv4-compatible, NAT64, 6to4, Teredo) must be global and carry a global one,
so ``[64:ff9b::a9fe:a9fe]`` is the metadata address it wraps. Unless the
server allows them
(``HOLOTAPE_WEBHOOKS_ALLOW_PRIVATE=1``, for tests and closed networks): the
host is resolved when the webhook is registered and again at each delivery,
and the connection goes to the address that was checked, so a DNS answer that
changes in between cannot point a delivery inside.

Keys (all behind the game's hash tag): ``game:{id}:webhooks`` (hash: webhook
id -> JSON with its seat, URL, kinds and secret), ``game:{id}:deliveries:<seat>``
(list, newest first), ``game:{id}:sent:<message>:<webhook>`` (the first
attempt's time, 48 h: a message is delivered once per webhook).
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import os
import socket
import ssl
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import redis
from standardwebhooks.webhooks import Webhook

from service.usecases.notifications import KINDS, MAX_PER_SEAT, RefusedUrl, TooManyWebhooks, new_signing_secret, now_iso

LOG_LENGTH = 200
TIMEOUT_SECONDS = 10.0
GIVE_UP_AFTER = 24 * 3600
MAX_WAIT = 2 * 3600
ALLOW_PRIVATE_ENV = "HOLOTAPE_WEBHOOKS_ALLOW_PRIVATE"
BACKOFF_ENV = "HOLOTAPE_WEBHOOK_BACKOFF_SECONDS"


def allow_private_default() -> bool:
    return os.environ.get(ALLOW_PRIVATE_ENV, "") in ("1", "true", "yes")


def backoff_base() -> float:
    return float(os.environ.get(BACKOFF_ENV) or 5.0)


def retry_delay(attempt: int, base: float | None = None) -> float:
    """The wait after failed attempt number ``attempt`` (1, 2, …)."""
    base = backoff_base() if base is None else base
    return min(MAX_WAIT, base * 3 ** (attempt - 1))


def _key(game_id: str, tail: str) -> str:
    return f"game:{{{game_id}}}:{tail}"


def webhooks_key(game_id: str) -> str:
    """The game's webhooks (a hash): present while any seat has one."""
    return _key(game_id, "webhooks")


#: IPv6 prefixes that carry an IPv4 address in their last 32 bits (RFC 6052's
#: well-known and local-use NAT64 prefixes) and the IPv4-compatible form (::/96).
_CARRY_IPV4_IN_LOW_BITS = (
    ipaddress.IPv6Network("64:ff9b::/96"),
    ipaddress.IPv6Network("64:ff9b:1::/48"),
    ipaddress.IPv6Network("::/96"),
)


def _addresses_within(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """``ip`` and every IPv4 address it carries (a connection to it may reach any of them)."""
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = [ip]
    if isinstance(ip, ipaddress.IPv6Address):
        carried = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
        if any(ip in net for net in _CARRY_IPV4_IN_LOW_BITS) and ip != ipaddress.IPv6Address("::"):
            carried.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        found += [c for c in carried if c is not None]
    return found


def refusal(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """Why a webhook may not go to ``ip`` (None: it may): only global unicast, as a whole."""
    for address in _addresses_within(ip):
        if address.is_multicast:
            return f"{ip} is a multicast address"
        site_local = isinstance(address, ipaddress.IPv6Address) and address.is_site_local
        if not address.is_global or site_local:
            return f"{ip} is a loopback, private or reserved address"
    return None


def resolve(url: str, allow_private: bool) -> tuple[str, str, int, str]:
    """(scheme, host, port, address to connect to) for ``url``, or RefusedUrl."""
    try:
        parts = urlsplit(url)
        hostname = parts.hostname
    except ValueError:  # an unclosed IPv6 bracket, say
        raise RefusedUrl("not a URL") from None
    if parts.scheme not in ("http", "https"):
        raise RefusedUrl("only http and https URLs")
    if not hostname:
        raise RefusedUrl("the URL names no host")
    if parts.username or parts.password:
        raise RefusedUrl("no credentials in the URL")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise RefusedUrl("a bad port") from None
    try:
        infos = socket.getaddrinfo(hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, ValueError):  # ValueError: a NUL in the name
        raise RefusedUrl(f"cannot resolve {hostname}") from None
    # An address of the INET families a host name resolves to is a string (typeshed allows others' ints).
    addresses = [str(info[4][0]) for info in infos]
    for address in addresses:
        why = refusal(ipaddress.ip_address(address.split("%")[0]))
        if why and not allow_private:
            raise RefusedUrl(f"{hostname}: {why}")
    return parts.scheme, hostname, port, addresses[0]


@dataclass(frozen=True)
class Attempt:
    status: int | None
    error: str | None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def post(url: str, body: bytes, headers: dict[str, str], allow_private: bool) -> Attempt:
    """POST ``body`` to ``url``, connecting to the address just checked."""
    try:
        scheme, host, port, address = resolve(url, allow_private)
    except RefusedUrl as refused:
        return Attempt(None, f"refused: {refused}")
    parts = urlsplit(url)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    if scheme == "https":
        connection: http.client.HTTPConnection = _PinnedHTTPS(address, port, host, timeout=TIMEOUT_SECONDS)
    else:
        connection = http.client.HTTPConnection(address, port, timeout=TIMEOUT_SECONDS)
    try:
        connection.request("POST", path, body=body, headers={**headers, "Host": parts.netloc.rpartition("@")[2]})
        response = connection.getresponse()
        response.read(64 * 1024)
        return Attempt(response.status, None)
    except (OSError, http.client.HTTPException) as failed:
        return Attempt(None, f"{type(failed).__name__}: {failed}"[:200])
    finally:
        connection.close()


def signed_post(url: str, secret: str, message: dict[str, Any], allow_private: bool) -> Attempt:
    """POST ``message`` (its ``id`` and ``payload``) to ``url`` signed by the Standard Webhooks scheme with ``secret``."""
    body = json.dumps(message["payload"], separators=(",", ":"), sort_keys=True)
    stamp = datetime.now(UTC)
    signature = Webhook(secret).sign(message["id"], stamp, body)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "holotape-webhooks",
        "webhook-id": message["id"],
        "webhook-timestamp": str(int(stamp.timestamp())),
        "webhook-signature": signature,
    }
    return post(url, body.encode(), headers, allow_private)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a checked address, with the certificate checked for the URL's host."""

    def __init__(self, address: str, port: int, host: str, timeout: float):
        self._tls = ssl.create_default_context()
        super().__init__(address, port, timeout=timeout, context=self._tls)
        self._server_name = host

    def connect(self) -> None:
        sock = socket.create_connection((self.host, self.port), self.timeout)
        self.sock = self._tls.wrap_socket(sock, server_hostname=self._server_name)


class Webhooks:
    def __init__(self, client: redis.Redis, allow_private: bool | None = None):
        self.redis = client
        self.allow_private = allow_private_default() if allow_private is None else allow_private

    # -- registering ------------------------------------------------------------

    def register(self, game_id: str, seat: int, url: str, kinds: list[str] | None = None) -> dict[str, Any]:
        resolve(url, self.allow_private)  # RefusedUrl
        if len(self.of_seat(game_id, seat)) >= MAX_PER_SEAT:
            raise TooManyWebhooks(f"a seat may have {MAX_PER_SEAT} webhooks")
        hook: dict[str, Any] = {
            "id": f"wh_{uuid.uuid4().hex[:16]}",
            "seat": seat,
            "url": url,
            "kinds": list(kinds or KINDS),
            "secret": new_signing_secret(),
            "created_at": now_iso(),
        }
        self.redis.hset(_key(game_id, "webhooks"), hook["id"], json.dumps(hook))
        return hook

    def all(self, game_id: str) -> list[dict[str, Any]]:
        raw = self.redis.hgetall(_key(game_id, "webhooks"))
        return sorted((json.loads(v) for v in raw.values()), key=lambda h: h["created_at"])

    def of_seat(self, game_id: str, seat: int) -> list[dict[str, Any]]:
        return [h for h in self.all(game_id) if h["seat"] == seat]

    def get(self, game_id: str, webhook_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(_key(game_id, "webhooks"), webhook_id)
        return json.loads(raw) if raw else None

    def remove(self, game_id: str, seat: int, webhook_id: str) -> bool:
        hook = self.get(game_id, webhook_id)
        if hook is None or hook["seat"] != seat:
            return False
        return bool(self.redis.hdel(_key(game_id, "webhooks"), webhook_id))

    def any(self, game_id: str) -> bool:
        return bool(self.redis.exists(webhooks_key(game_id)))

    def targets(self, game_id: str, seats: list[int], kind: str) -> list[dict[str, Any]]:
        return [h for h in self.all(game_id) if h["seat"] in seats and kind in h["kinds"]]

    # -- delivering -------------------------------------------------------------

    def deliver(self, game_id: str, webhook_id: str, message: dict[str, Any], attempt: int = 1) -> float | None:
        """One attempt at one webhook; returns the delay before the next attempt, or None (done or given up)."""
        hook = self.get(game_id, webhook_id)
        if hook is None:
            return None  # removed meanwhile
        sent_key = _key(game_id, f"sent:{message['id']}:{webhook_id}")
        if attempt == 1:
            if not self.redis.set(sent_key, str(time.time()), nx=True, ex=48 * 3600):
                return None  # this message went to this webhook already (a duplicate job)
            first = time.time()
        else:
            first = float(self.redis.get(sent_key) or time.time())
        outcome = signed_post(hook["url"], hook["secret"], message, self.allow_private)
        delay = None
        if not outcome.ok:
            wait = retry_delay(attempt)
            if time.time() + wait - first <= GIVE_UP_AFTER and not (outcome.error or "").startswith("refused"):
                delay = wait
        entry = {
            "message_id": message["id"],
            "kind": message["payload"]["type"],
            "webhook_id": webhook_id,
            "url": hook["url"],
            "attempt": attempt,
            "at": now_iso(),
            "status": outcome.status,
            "error": outcome.error,
            "ok": outcome.ok,
            "next_attempt_in": delay,
        }
        log_key = _key(game_id, f"deliveries:{hook['seat']}")
        pipe = self.redis.pipeline()
        pipe.lpush(log_key, json.dumps(entry))
        pipe.ltrim(log_key, 0, LOG_LENGTH - 1)
        pipe.execute()
        return delay

    def log(self, game_id: str, seat: int, limit: int = 50) -> list[dict[str, Any]]:
        return [json.loads(e) for e in self.redis.lrange(_key(game_id, f"deliveries:{seat}"), 0, limit - 1)]
