"""A long game's page, weighed: what the browser loads on opening it, and how soon it draws the board.

The browser test holds it to its bounds (docs/web.md, "Weight"); ``make bench`` prints the same figures.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Page, expect

from tests.web.stack import Stack

#: Seats and tries of ``a_long_game``: of random bots' games of Fallout on the base pack (measured 2026-11-27),
#: 1 in 16 two-seat games reached 5,000 events and 7 in 10 four-seat ones; eight four-seat tries all fall short
#: about once in 15,000.
SEATS, TRIES = 4, 8


def a_long_game(services, events: int) -> str:
    """A running game of Fallout between four random bots, `events` long at least. The bots' choices depend on
    the game's id, so a game may end first: then another is played."""
    seats = [{"seat": s, "kind": "bot", "bot": "random", "name": None} for s in range(SEATS)]
    for attempt in range(TRIES):
        game_id = services.games.create("fallout", {}, seats, seed=f"a-long-game-{attempt}").game_id
        while (loaded := services.games.load(game_id)).version < events and not loaded.state.over:
            moved = services.automation.run_system(game_id) + services.automation.run_bots(game_id, slice_seconds=60)
            assert moved or services.games.load(game_id).version > loaded.version, "the bots stopped"
        if not loaded.state.over:
            return game_id
    raise AssertionError(f"{TRIES} games of random bots ended before {events} events")


@dataclass(frozen=True)
class Weighed:
    bytes: int  # every response's body and headers, as sent (compressed where the server compresses)
    drawn_ms: float  # from navigating to the board drawn (the page's own "board-drawn" mark)
    versions: list[int]  # the events the log shows on opening


def weigh(page: Page, stack: Stack, game_id: str) -> Weighed:
    """Open ``game_id``'s page as a spectator and weigh everything it loads until the network is quiet."""
    stack.get(f"/games/{game_id}/state")  # the API has read the game once: what is timed is the page, not a cold fold
    weights: list[int] = []
    page.on("requestfinished", lambda request: weights.append(request.sizes()["responseBodySize"]
                                                                + request.sizes()["responseHeadersSize"]))
    page.goto(f"{stack.base}/play/{game_id}")
    page.locator("#board svg").wait_for(timeout=10_000)
    expect(page.locator("#log li[data-version]").first).to_be_attached(timeout=10_000)
    page.wait_for_load_state("networkidle")
    drawn = page.evaluate("() => performance.getEntriesByName('board-drawn')[0].startTime")
    versions = page.locator("#log li[data-version]").evaluate_all("items => items.map(i => Number(i.dataset.version))")
    return Weighed(sum(weights), drawn, versions)
