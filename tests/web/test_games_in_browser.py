"""Longer games in real browsers: a solo stalker through two rounds on Zona's map, a player and a bot through
three rounds of Fallout, and a 5,000-event game's page weighed and timed (docs/web.md, "Tests and screenshots").

The same stack and browser as tests/web/test_table_in_browser.py (tests/web/conftest.py: one of each per
session, all on one xdist worker). Everything is done by clicking; the API is read only to judge the pages.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import redis
from playwright.sync_api import Browser, expect
from playwright.sync_api import Error as PlaywrightError

from service import wiring
from service.usecases.ports import NoFollowUps
from tests.web.axe import assert_accessible, serve_axe
from tests.web.pages import assert_no_ids_in_buttons, create_in_lobby, shown_version, token_of
from tests.web.stack import Stack
from tests.web.weight import a_long_game, weigh

pytestmark = pytest.mark.xdist_group("browser")


@pytest.mark.timeout(90)
def test_a_solo_stalker_chooses_and_walks_through_the_zone_drawn_from_its_view(
    stack: Stack, browser: Browser, screenshots: Path
):
    """Zona in the browser: the board drawn from the seat's view (every area of the side played, its sector
    and name), the stalker chosen and moved by clicking, the board following each move. Zona §"RUCH"."""
    created = stack.call("POST", "/games", {"game": "zona", "seats": 1, "options": {"pack": "base", "draft": "free"}})
    game_id, token = created["game_id"], created["seats"][0]["token"]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    serve_axe(page)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{stack.base}/play/{game_id}?token={token}")

    choose = page.locator('#actions button[data-type="choose_stalker"]')
    choose.first.wait_for(timeout=10_000)
    view = stack.get(f"/games/{game_id}/state", token)["view"]
    areas = view["board"]["areas"]
    drawn = page.locator("#board g.area")
    expect(drawn).to_have_count(len(areas))
    assert sorted(drawn.evaluate_all("gs => gs.map(g => g.dataset.area)")) == sorted(areas)
    some = next(iter(areas))
    assert areas[some]["name"] in page.locator(f'#board g.area[data-area="{some}"]').text_content()
    assert choose.count() == len(stack.get(f"/games/{game_id}/actions", token)["actions"])

    before = shown_version(page)
    choose.first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=10_000)
    # The stalker stands where its view says, drawn as a counter in that area.
    moves = page.locator('#actions button[data-type="move"]')
    moves.first.wait_for(timeout=10_000)
    start = stack.get(f"/games/{game_id}/state", token)["view"]["stalkers"][0]["area"]
    expect(page.locator(f'#board g.area[data-area="{start}"] circle.stalker')).to_have_count(1)

    listed = stack.get(f"/games/{game_id}/actions", token)["actions"]
    move = next(a for a in listed if a["type"] == "move")
    label = page.locator('#actions button[data-type="move"]').first.inner_text()
    assert areas[move["to"]]["name"] in label, (label, move)
    before = shown_version(page)
    moves.first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=10_000)
    now = stack.get(f"/games/{game_id}/state", token)["view"]["stalkers"][0]["area"]
    assert now != start
    expect(page.locator(f'#board g.area[data-area="{now}"] circle.stalker')).to_have_count(1, timeout=10_000)
    expect(page.locator(f'#board g.area[data-area="{start}"] circle.stalker')).to_have_count(0)
    assert_accessible(page, "Zona's table")

    # Two rounds, by clicking only: each turn one move on the map itself (the area is a button there), then
    # whatever the game asks (first button), ending the turn when nothing else is left; events and the news
    # pass by the same buttons. The board follows the stalker wherever it goes.
    moved_on_map = 0
    started = time.monotonic()
    while stack.get(f"/games/{game_id}/state", token)["view"]["round"] < 3:
        assert time.monotonic() - started < 60, "two rounds of Zona took too long"
        turn = stack.get(f"/games/{game_id}/state", token)["view"].get("turn") or {}
        before = shown_version(page)
        targets = page.locator("#board g.area.target")
        buttons = page.locator("#actions button.action:not([disabled])")
        if turn.get("actions") == 0 and targets.count():
            targets.first.click()
            moved_on_map += 1
        elif buttons.count():
            offered = buttons.evaluate_all("bs => bs.map(b => b.dataset.type)")
            kept = [i for i, t in enumerate(offered) if t not in ("drop", "take_off", "put_on", "move")]
            buttons.nth((kept or [0])[0]).click()
            if page.locator("#confirm-yes").count():
                page.locator("#confirm-yes").click()
        else:
            time.sleep(0.1)  # the worker runs the event and news phases' own steps
            continue
        try:
            page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=10_000)
        except PlaywrightError:
            pass
        where = stack.get(f"/games/{game_id}/state", token)["view"]["stalkers"][0]["area"]
        if where:
            expect(page.locator(f'#board g.area[data-area="{where}"] circle.stalker')).to_have_count(1, timeout=10_000)
    assert moved_on_map >= 1, "round 1's move was by a button, round 2's on the map itself"
    page.screenshot(path=str(screenshots / "zona.png"), full_page=True)

    # On a phone (390 px wide) the decision comes first, and the map's names are legible: zoomed in, 10 px at least.
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{stack.base}/play/{game_id}?token={token}")
    phone.locator("#board g.area text").first.wait_for(timeout=10_000)
    heights = phone.locator("#board g.area text").evaluate_all("ts => ts.map(t => t.getBoundingClientRect().height)")
    assert min(heights) >= 10, f"names {min(heights):.1f} px high at 390 px wide"
    assert phone.locator(".decision-area").bounding_box()["y"] < 300, "the decision is far down the page"
    phone.screenshot(path=str(screenshots / "zona-phone.png"))
    phone.context.close()
    assert_no_ids_in_buttons(page)
    assert errors == []
    context.close()


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_a_five_thousand_event_game_opens_light_and_draws_its_board(stack: Stack, browser: Browser):
    """docs/web.md, "Weight": a long game's page loads its last page of the log, not its history (≤ 300 KB in all,
    compressed), and draws its board; scrolling the log back loads older pages. How soon it draws the board
    (within a second) is a time, the bench's to judge (tests/bench/page.py), not a test's on a loaded machine.

    The game is played in-process by four random bots on the stack's own Redis (the stack's API reads it as any
    game): thousands of moves over HTTP would take minutes."""
    assert stack.redis_url, "the stack did not say where its Redis is"
    services = wiring.build(redis.Redis.from_url(stack.redis_url), follow_ups=NoFollowUps())
    game_id = a_long_game(services, 5000)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    weighed = weigh(page, stack, game_id)
    assert weighed.drawn_ms > 0, "the page marked no board drawn"
    assert weighed.bytes <= 300_000, f"the page loaded {weighed.bytes} bytes"
    versions = weighed.versions
    assert min(versions) > 4000 and max(versions) >= 5000, "the page loaded the newest page of the log only"

    # Scrolled back to its end, the log loads the page before.
    oldest = min(versions)
    page.locator("#log-earlier").scroll_into_view_if_needed()
    expect(page.locator(f'#log li[data-version="{oldest - 1}"]')).to_be_attached(timeout=10_000)
    context.close()


def _words_served(stack: Stack, game_id: str, token: str) -> bool:
    """Whether this server words its actions (`text`) and shows card faces (issue 25, items 1-2)."""
    listed = stack.get(f"/games/{game_id}/actions", token)["actions"]
    return bool(listed) and all("text" in a for a in listed) and "faces" in stack.get(f"/games/{game_id}/state", token)["view"]


@pytest.mark.slow
@pytest.mark.timeout(200)
def test_a_player_and_a_bot_play_three_rounds_of_fallout_reading_cards_and_encounters_from_the_buttons(
    stack: Stack, browser: Browser, screenshots: Path
):
    """Fallout against a bot, by clicking only, through its first three rounds (Round Structure): the banner says
    whose turn it is, "since your last move" tells what the bot and the round end did, an encounter's answers are
    its buttons' words, a card's text shows on a tap, no button names an id, and axe finds nothing serious."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    serve_axe(page)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    game_id = create_in_lobby(page, stack, "fallout", 2, "Dana", bots="random")
    token = token_of(page, game_id)
    expect(page.locator("body")).to_have_attribute("data-status", "running", timeout=15_000)
    # Turn alerts are asked for by a button, never on load: the browser's permission is still unasked here.
    assert page.evaluate("() => Notification.permission") == "default"
    page.locator("#turn-alert-toggle").click()
    expect(page.locator("#turn-alert-toggle")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => localStorage.getItem('holotape.turn-alert')") == "on"

    encounters: list[list[str]] = []
    told = 0
    moved_this_round: set[int] = set()
    started = time.monotonic()
    # Three rounds at least, and on until the survivor has met an encounter (where one is met depends on the
    # seeded map and the bot), within eight.
    while (shown := stack.get(f"/games/{game_id}/state", token))["view"]["round"] < 4 or (
            not encounters and shown["view"]["round"] < 9 and not shown["view"].get("over")):
        assert time.monotonic() - started < 150, "the rounds took too long"
        buttons = page.locator("#actions button.action:not([disabled])")
        if not buttons.count() or 0 not in shown["waiting_for"]:
            time.sleep(0.1)  # the bot's move or the round end, run by the worker
            continue
        told += page.locator("#since .since-list li").count() > 0
        offered = buttons.evaluate_all("bs => bs.map(b => b.dataset.type)")
        if "choose_option" in offered:
            encounters.append(page.locator('#actions button[data-type="choose_option"]').all_inner_texts())
        round_now = shown["view"]["round"]
        # An encounter wherever one is offered (its answers are what the test reads); on the move every turn
        # until one was met, a step a round after that.
        roaming = not encounters or round_now not in moved_this_round
        wanted = ["choose_survivor", "choose_option", "encounter"] + (["move", "step"] if roaming else []) + ["end_turn"]
        choice = next((t for t in wanted if t in offered), None)
        if choice == "step":
            moved_this_round.add(round_now)  # one step a round is enough to be seen
        before = shown_version(page)
        buttons.nth(offered.index(choice) if choice else 0).click()
        if page.locator("#confirm-yes").count():
            page.locator("#confirm-yes").click()
        try:
            page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=10_000)
        except PlaywrightError:
            pass
    assert told > 0, "the bot and the round end passed with no account"
    page.wait_for_function(f"Number(document.body.dataset.version) >= {stack.get(f'/games/{game_id}/state')['version']}",
                           timeout=15_000)  # fmt: skip
    reached = stack.get(f"/games/{game_id}/state", token)["view"]["round"]
    assert reached >= 4
    expect(page.locator("#log .round-title").first).to_have_text(f"Round {reached}", timeout=10_000)  # over the stream
    page.screenshot(path=str(screenshots / "fallout-bot.png"), full_page=True)
    assert_accessible(page, "Fallout's table against a bot")
    assert errors == []

    assert _words_served(stack, game_id, token), "every action carries its words and the view its card faces"
    # A card's text, by a tap on its name.
    face = page.locator("#faces button.face").first
    face.click()
    expect(face).to_have_attribute("aria-expanded", "true")
    shown_text = page.locator("#faces .face-card").first.locator(".face-rules").inner_text()
    assert shown_text.strip(), "the card's face has no text"
    # The card's name and its text, which opens beside it (positioned over the page, outside the name's box).
    boxes = [b for b in (page.locator("#faces .face-card").first.bounding_box(),
                         page.locator("#faces .face-card").first.locator(".face-text").bounding_box()) if b]
    left, top = min(b["x"] for b in boxes) - 8, min(b["y"] for b in boxes) - 8
    clip = {"x": left, "y": top, "width": max(b["x"] + b["width"] for b in boxes) + 8 - left,
            "height": max(b["y"] + b["height"] for b in boxes) + 8 - top}
    page.screenshot(path=str(screenshots / "card-text.png"), clip=clip)
    # A card opened stays open while the table moves on (each update draws the seats and the faces again).
    shown = stack.get(f"/games/{game_id}/state", token)
    first = face.get_attribute("data-card")
    perk = next(card for card, f in shown["view"]["faces"].items() if f["kind"] == "perk" and card != first)
    page.locator(f'#faces button.face[data-card="{perk}"]').click()
    if not shown["view"].get("over"):
        before = shown_version(page)
        if 0 in shown["waiting_for"]:
            page.locator("#actions button.action:not([disabled])").first.click()
            if page.locator("#confirm-yes").count():
                page.locator("#confirm-yes").click()
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=15_000)
    expect(page.locator(f'#faces button.face[data-card="{perk}"]')).to_have_attribute("aria-expanded", "true")
    # An encounter's answers are the words on its buttons, each its own.
    assert encounters, "no encounter was met in three rounds"
    for labels in encounters:
        assert len(set(labels)) == len(labels) and not any(re.search(r"option \d|Option", label) for label in labels), labels
    assert_no_ids_in_buttons(page)
    context.close()
