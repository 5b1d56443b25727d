"""`make bench`, the page part: a 5,000-event game's page on first load, in a real browser.

``holotape run`` (the stack `make run` starts) serves a Fallout game two
random bots played to 5,000 events in-process on its own Redis; Debian's
Chromium (`make browser`) opens its page as a spectator, and every response
until the network is quiet is weighed as sent (compressed where the server
compresses: tests/web/weight.py). Targets: at most 300 KB, and the board
drawn within a second of navigating (docs/web.md, "Weight"): a time, judged
here on the median of the bench's runs rather than in a test, where a loaded
CI machine once took 1,015 ms.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import redis
from playwright.sync_api import sync_playwright

from service import wiring
from service.usecases.ports import NoFollowUps
from tests.bench.report import Report, run
from tests.web.browser import LAUNCH_ARGS, MISSING, ensure_chromium
from tests.web.stack import running_stack
from tests.web.weight import a_long_game, weigh

EVENTS = 5_000


def main(report: Report) -> None:
    chromium = ensure_chromium()
    if chromium is None:
        raise SystemExit(MISSING)
    with tempfile.TemporaryDirectory() as data, running_stack(Path(data)) as stack:
        assert stack.redis_url, "the stack did not say where its Redis is"
        services = wiring.build(redis.Redis.from_url(stack.redis_url), follow_ups=NoFollowUps())
        game_id = a_long_game(services, EVENTS)
        events = services.games.load(game_id).version
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(chromium), args=LAUNCH_ARGS)
            weighed = weigh(browser.new_context(viewport={"width": 1280, "height": 900}).new_page(), stack, game_id)
            browser.close()
    report.add(
        f"the web game page on first load, a {EVENTS:,}-event game", weighed.bytes / 1000, "KB",
        target="value <= 300", events=events, log_items_shown=len(weighed.versions),
    )  # fmt: skip
    report.add(
        f"the board drawn on opening a {EVENTS:,}-event game's page", weighed.drawn_ms, "ms", target="value <= 1000",
    )  # fmt: skip


if __name__ == "__main__":
    run([main])
