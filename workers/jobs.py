"""rq job functions. Thin on purpose: each calls the application layer."""

from __future__ import annotations

import logging
import os
import time
from functools import cache

from service import wiring
from service.adapters.followups import RqFollowUps
from service.adapters.mail import RqMailer
from service.adapters.sweeper import sweep as sweep_games
from service.usecases import notifications
from service.usecases.services import Services


@cache
def follow_ups() -> RqFollowUps:
    return wiring.rq_follow_ups()


@cache
def services() -> Services:
    return wiring.build(follow_ups=follow_ups())


def mailer() -> RqMailer:
    found = services().mailer
    assert isinstance(found, RqMailer)  # what wiring.build plugs in
    return found


def step_pause() -> float:
    """Seconds to wait after each step of a job: 0, except to slow a worker down on purpose
    (the crash tests kill it between two steps of one job)."""
    return float(os.environ.get("HOLOTAPE_STEP_PAUSE_SECONDS") or 0)


def run_system(game_id: str) -> int:
    """Carry out a game's automatic work (the round end); returns the version reached."""
    done = services().automation.run_system(game_id, pause=step_pause())
    return done[-1].version if done else 0


def run_bots(game_id: str, version: int) -> int:
    """Let the bots whose seats the game waits on play, from ``version``; returns the version reached."""
    done = services().automation.run_bots(game_id, version, pause=step_pause())
    return done[-1].version if done else 0


def deadline(game_id: str, seat: int, since: int) -> int:
    """A play-by-post deadline fires (``PlayByPost.deadline``); returns the version reached."""
    done = services().play_by_post.deadline(game_id, seat, since)
    return done[-1].version if done else 0


def remind(game_id: str, seat: int, since: int) -> bool:
    """The reminder at 80% of a seat's time."""
    return services().play_by_post.remind(game_id, seat, since)


def notify(game_id: str, kind: str, message_id: str, seats: list[int], data: dict) -> int:
    """Fan a notification out to each webhook of ``seats`` that wants ``kind`` (one delivery job each), and to
    the players bound to those seats (their mail and webhook: ``PlayerNotices``)."""
    queue = follow_ups()
    hooks = queue.webhooks.targets(game_id, seats, kind)
    bound = [seat for seat in seats if seat in services().players.store.holders(game_id)]
    version = notifications.about(kind, data)
    readers = sorted({h["seat"] for h in hooks} | set(bound))
    # The events the message is about, in the words each seat reads them in everywhere else.
    told = services().queries.batch(game_id, version, readers) if readers and version else {}
    for hook in hooks:
        message = notifications.message(game_id, kind, message_id, hook["seat"], data, told.get(hook["seat"]))
        queue.deliver(game_id, hook["id"], message)
    told_bound = {seat: told.get(seat, []) for seat in bound if seat is not None}
    title = services().games.load(game_id).state.module.title
    return len(hooks) + services().player_notices.tell(game_id, kind, message_id, bound, data, told_bound, title)


def send_mail(player_id: str, mail_id: str, attempt: int = 1) -> bool:
    """One attempt at one player's mail (``service.adapters.mail``): sent once, however often this runs."""
    return mailer().send(player_id, mail_id, attempt)


def send_digest(player_id: str, bucket: int) -> bool:
    """The player's digest of one period: the notices it gathered, in one mail."""
    lines = mailer().digest_lines(player_id, bucket)
    mail = services().player_notices.digest_mail(player_id, f"digest-{bucket}", lines) if lines else None
    return mail is not None and mailer().queue(player_id, mail)


def deliver_to_player(player_id: str, message: dict, attempt: int = 1) -> bool:
    """One attempt at a player's webhook, signed with its secret."""
    player = services().players.store.by_id(player_id)
    hook = (player.settings.get("webhook") if player is not None else None) or None
    if hook is None:
        return False  # removed meanwhile
    return mailer().deliver_webhook(player_id, hook["url"], hook["secret"], message, attempt)


def deliver(game_id: str, webhook_id: str, message: dict, attempt: int = 1) -> bool:
    """One attempt at one webhook; a failure schedules the next attempt (exponential backoff, 24 h)."""
    queue = follow_ups()
    delay = queue.webhooks.deliver(game_id, webhook_id, message, attempt)
    if delay is not None:
        queue.deliver(game_id, webhook_id, message, attempt + 1, at=time.time() + delay)
    return delay is None


def sweep() -> int:
    """Enqueue again the work of games that stalled (``service.adapters.sweeper``); returns how many jobs."""
    swept = sweep_games(services().games, follow_ups())
    swept.rescued.extend(mailer().rescue())
    if swept.rescued:
        logging.getLogger("workers.sweep").warning("stalled work enqueued again: %s", ", ".join(swept.rescued))
    return len(swept.rescued)
