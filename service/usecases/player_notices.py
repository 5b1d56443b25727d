"""What a player is told, on which channel, and in which words (docs/players.md, "Notifications").

The game's notifications (your turn, the reminder at 80% of the deadline, a
rewind proposal, the game's end) reach the seat's webhooks as before, and,
for a seat bound to a player, the player's channels:

- **email**, to a confirmed address only (nothing but the confirmation goes
  to an address before it is confirmed), for the kinds the player keeps on,
  one mail per event, or a digest; each mail in plain text and HTML with the
  prompt in words, a link to the table, and a one-click unsubscribe;
- **a player webhook**, signed like a seat's (Standard Webhooks).

Which mails exist and what they say is decided here; sending them once is the
mail adapter's job, behind the ``Mailer`` port.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import json
import os
import secrets
from typing import Any

from service.usecases.errors import Refused
from service.usecases.notifications import KINDS, is_signing_secret, new_signing_secret
from service.usecases.ports import Mail, Mailer, Player, PlayerStore

SUBJECTS = {
    "your_turn": "Your turn",
    "reminder": "Reminder: your time is running out",
    "rewind_proposed": "A rewind is proposed",
    "game_over": "The game is over",
    "confirm": "Confirm your address",
}
#: Seconds a digest gathers notices before it is sent (HOLOTAPE_DIGEST_SECONDS; an hour by default).
DIGEST_SECONDS = int(os.environ.get("HOLOTAPE_DIGEST_SECONDS") or 3600)


def public_url() -> str:
    """Where people reach this server, for the links in mails (``HOLOTAPE_PUBLIC_URL``)."""
    return (os.environ.get("HOLOTAPE_PUBLIC_URL") or "http://127.0.0.1:8000").rstrip("/")


def default_settings() -> dict[str, Any]:
    return {"email": list(KINDS), "webhook": None, "digest": False}


def settings_of(player: Player) -> dict[str, Any]:
    return {**default_settings(), **player.settings}


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _render(player: Player, subject: str, lines: list[str], link: str | None, unsubscribe: str | None) -> tuple[str, str]:
    """The text and the HTML of a mail: the same words in both.

    ``unsubscribe`` is the one-click URL (List-Unsubscribe's, answering a POST); the body links to the
    lobby's page for it instead, which asks before it POSTs: a GET never unsubscribes, since mail scanners
    follow every link they see.
    """
    if unsubscribe:
        unsubscribe = f"{public_url()}/lobby#unsubscribe={unsubscribe.rsplit('/', 1)[1]}"
    text = [f"Hello {player.name},", "", *lines]
    body = [f"<p>Hello {html.escape(player.name)},</p>", *(f"<p>{html.escape(line)}</p>" for line in lines)]
    if link:
        text += ["", f"Open the table: {link}"]
        body.append(f'<p><a href="{html.escape(link)}">Open the table</a></p>')
    if unsubscribe:
        text += ["", "--", f"No more mail from this server: {unsubscribe}"]
        body.append(f'<p style="font-size:small"><a href="{html.escape(unsubscribe)}">Unsubscribe</a> from all mail</p>')
    return "\n".join(text) + "\n", f"<!doctype html><html><body><h1>{html.escape(subject)}</h1>{''.join(body)}</body></html>"


class PlayerNotices:
    def __init__(self, store: PlayerStore, mailer: Mailer):
        self.store = store
        self.mailer = mailer

    # -- the player's address and settings -------------------------------------------

    def set_email(self, player: Player, email: str | None) -> None:
        """A new address (or none): unconfirmed until the code mailed to it comes back."""
        code = secrets.token_urlsafe(16)
        fields = {"email": email or "", "email_confirmed": "", "confirm": _digest(code) if email else ""}
        self.store.update(player.player_id, fields)
        if email:
            self._send_confirmation(player, email, code)

    def _send_confirmation(self, player: Player, email: str, code: str) -> None:
        token = f"{player.player_id}.{code}"
        link = f"{public_url()}/lobby#confirm={token}"
        lines = [f"Someone (we hope you) gave this address to Holotape as {player.name}'s.",
                 f"To confirm it, open: {link}", f"or send this code to POST /players/confirm: {token}",
                 "Until then no other mail goes to it; if it was not you, ignore this mail."]  # fmt: skip
        text, page = _render(player, SUBJECTS["confirm"], lines, None, None)
        self.mailer.queue(player.player_id, Mail(f"confirm-{_digest(code)[:16]}", email, SUBJECTS["confirm"], text, page))

    def confirm(self, token: str) -> Player:
        player_id, _, code = token.partition(".")
        player = self.store.by_id(player_id) if player_id and code else None
        stored = self.store.field(player_id, "confirm") if player is not None else None
        if player is None or not stored or not hmac.compare_digest(stored.encode(), _digest(code).encode()):
            raise Refused("bad_confirmation", "no address waits for this code", Refused.NOT_FOUND)
        self.store.update(player_id, {"email_confirmed": "1", "confirm": ""})
        return self.store.by_id(player_id) or player

    def update_settings(self, player: Player, changes: dict[str, Any]) -> dict[str, Any]:
        """Change the player's channels; a new webhook URL gets a new signing secret, shown once."""
        settings = settings_of(player)
        shown: dict[str, Any] = {}
        if "email" in changes:
            settings["email"] = [k for k in KINDS if k in changes["email"]]
        if "digest" in changes:
            settings["digest"] = bool(changes["digest"])
        if "webhook" in changes:
            hook = changes["webhook"]
            if hook is None:
                settings["webhook"] = None
            else:
                old = settings.get("webhook") or {}
                secret = old.get("secret") if old.get("url") == hook["url"] else None
                # Secrets made before 2026-11-28 were URL-safe base64, which one in eighteen times no verifier
                # can decode: saving the webhook again replaces such a one.
                if not is_signing_secret(secret):
                    secret = new_signing_secret()
                    shown["secret"] = secret
                settings["webhook"] = {"url": hook["url"], "kinds": list(hook.get("kinds") or KINDS), "secret": secret}
        self.store.update(player.player_id, {"settings": json.dumps(settings, sort_keys=True)})
        return {**public_settings(settings), **({"webhook_secret": shown["secret"]} if shown else {})}

    def unsubscribe(self, token: str) -> None:
        """One click: no more mail of any kind to this player (RFC 8058)."""
        player_id, _, secret = token.partition(".")
        player = self.store.by_id(player_id) if player_id and secret else None
        if player is None or not hmac.compare_digest(self._unsubscribe_secret(player).encode(), secret.encode()):
            raise Refused("bad_unsubscribe_link", "this unsubscribe link is not one we sent", Refused.NOT_FOUND)
        settings = settings_of(player)
        settings["email"] = []
        self.store.update(player_id, {"settings": json.dumps(settings, sort_keys=True)})

    def _unsubscribe_secret(self, player: Player) -> str:
        """The player's unsubscribe secret, made once; it can do nothing but unsubscribe, so it is kept as is."""
        found = self.store.field(player.player_id, "unsubscribe")
        if not found:
            found = secrets.token_urlsafe(16)
            self.store.update(player.player_id, {"unsubscribe": found})
        return found

    # -- the game's notices, for the players of its seats ------------------------------

    def tell(self, game_id: str, kind: str, message_id: str, seats: list[int], data: dict[str, Any],
             told: dict[int, list[dict[str, Any]]], title: str) -> int:  # fmt: skip
        """Queue each bound seat's player's mail and webhook for ``kind``; returns how many were queued."""
        holders = self.store.holders(game_id)
        queued = 0
        for seat in seats:
            player = self.store.by_id(holders[seat]) if seat in holders else None
            if player is None:
                continue
            settings = settings_of(player)
            words = data.get("text") or SUBJECTS[kind]
            lines = [words, *(e["text"] for e in told.get(seat, []) if e.get("text"))]
            if player.email and player.email_confirmed and kind in settings["email"] and self.mailer.enabled():
                if settings["digest"]:
                    self.mailer.hold_for_digest(player.player_id, f"{title} (seat {seat}): {words}", DIGEST_SECONDS)
                else:
                    queued += self._mail(player, kind, f"{message_id}-to{seat}", game_id, seat, lines, title)
            hook = settings.get("webhook")
            if hook and kind in hook["kinds"]:
                payload = {"type": kind, "game_id": game_id, "seat": seat, "player_id": player.player_id, **data}
                self.mailer.webhook(player.player_id, {"id": f"msg_{message_id}-to{seat}-p", "payload": payload})
                queued += 1
        return queued

    def _mail(self, player: Player, kind: str, mail_id: str, game_id: str, seat: int, lines: list[str], title: str) -> int:
        link = f"{public_url()}/lobby#open={game_id}:{seat}"
        unsubscribe = f"{public_url()}/players/unsubscribe/{player.player_id}.{self._unsubscribe_secret(player)}"
        subject = f"{SUBJECTS[kind]} — {title}"
        text, page = _render(player, subject, lines, link, unsubscribe)
        return int(self.mailer.queue(player.player_id, Mail(mail_id, player.email or "", subject, text, page, unsubscribe)))

    def digest_mail(self, player_id: str, digest_id: str, lines: list[str]) -> Mail | None:
        """The one mail that gathers ``lines`` (None if the player may not be mailed now)."""
        player = self.store.by_id(player_id)
        if player is None or not player.email or not player.email_confirmed or not settings_of(player)["email"]:
            return None
        unsubscribe = f"{public_url()}/players/unsubscribe/{player.player_id}.{self._unsubscribe_secret(player)}"
        subject = f"Your games: {len(lines)} notice{'s' if len(lines) != 1 else ''}"
        text, page = _render(player, subject, lines, f"{public_url()}/lobby", unsubscribe)
        return Mail(digest_id, player.email, subject, text, page, unsubscribe)


def public_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The settings as shown to the player: the webhook without its secret."""
    hook = settings.get("webhook")
    return {**settings, "webhook": {k: v for k, v in hook.items() if k != "secret"} if hook else None}
