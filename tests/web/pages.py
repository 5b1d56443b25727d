"""What the browser tests do to a page and read from it, as a person would: shared by tests/web's modules."""

from __future__ import annotations

import re

from playwright.sync_api import Page

from tests.web.stack import Stack


def token_of(page: Page, game_id: str) -> str:
    token = page.evaluate(f"localStorage.getItem('holotape.seat.{game_id}')")
    assert token, "the page kept no seat token"
    return token


def create_in_lobby(
    page: Page, stack: Stack, game: str, seats: int, name: str, bots: str | None = None, options: dict | None = None
) -> str:
    """Create a game in the lobby's form as a person does, taking the first seat; the id of the game the
    page then shows. ``options``: a choice for each of these options' fields, drawn from the game's schema."""
    page.goto(f"{stack.base}/lobby")
    page.select_option("#create-game", game)
    for name_, value in (options or {}).items():
        page.select_option(f"#option-{name_}", value)
    page.fill("#create-seats", str(seats))
    page.fill("#create-name", name)
    if bots is not None:
        page.select_option("#create-bots", bots)
    page.click("#create button[type=submit]")
    page.wait_for_url(re.compile(r"/play/[0-9a-f]+$"))
    return page.url.rsplit("/", 1)[1]


def shown_version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version || 0"))


#: What an internal id looks like in a label: a copy's owner (@), a numbered option, a snake_case word.
INTERNAL_ID = re.compile(r"@|Option: \d|\b[a-z]+_[a-z_]+\b")


def assert_no_ids_in_buttons(page: Page) -> None:
    """No button the page shows names an internal id: the words are the game's, not its data's."""
    labels = page.locator("button").evaluate_all("bs => bs.map(b => b.innerText)")
    leaking = [label for label in labels if INTERNAL_ID.search(label)]
    assert leaking == [], f"buttons that show ids: {leaking}"


def banner_says(page: Page) -> str:
    """The page's banner, checked against whose turn the same page says it is: "Your turn" exactly when the game
    waits on the page's seat, else "Waiting for seat N (…)" naming each seat waited on."""
    shown = page.evaluate(
        "() => ({banner: document.getElementById('turn-banner').textContent, seat: document.body.dataset.seat,"
        " waiting: document.body.dataset.waiting, status: document.body.dataset.status})"
    )
    waiting = [w for w in (shown["waiting"] or "").split(",") if w]
    if shown["status"] != "running":
        return shown["banner"]
    if shown["seat"] in waiting:
        assert shown["banner"] == "Your turn", shown
    elif waiting:
        for seat in waiting:
            assert f"seat {seat} (" in shown["banner"] and shown["banner"].startswith("Waiting for"), shown
    return shown["banner"]
