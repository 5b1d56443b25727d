"""People at the table in real browsers: the lobby, a first round of Fallout, live updates, the timeline,
undo, rewind and fork (the longer games: tests/web/test_games_in_browser.py).

Headless Chromium (Debian's package, tests/web/browser.py) against the
stack `make run` starts. Everything is done the way a person does it:
typing in the lobby, clicking the buttons the page shows. The test reads
the API only to judge the pages (which round it is; what seat B's view holds
that seat A's page must never show).
"""

from __future__ import annotations

import re
import time
import urllib.error
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.conftest import wait_until
from tests.contract.driver import leaves
from tests.web.axe import assert_accessible, serve_axe
from tests.web.pages import assert_no_ids_in_buttons, banner_says, create_in_lobby, shown_version, token_of
from tests.web.stack import Stack

# One stack and one browser per session (tests/web/conftest.py): every browser test on one xdist worker.
pytestmark = pytest.mark.xdist_group("browser")

#: What a player clicks, by preference: a survivor first; one move with one
#: step, to be seen by the other; then the end of the turn. Anything else the
#: game asks (a die to keep, an enemy's space) takes the first button offered.
PREFERENCE = ["choose_survivor", "step", "move", "end_turn"]


class SeatSecrets:
    """What seat B was shown and seat A never was: the strings A's page must not hold.

    As tests/contract/test_hidden.py judges the log: B's strings, less every
    string the API has shown A so far (its views, its log, its actions, the
    game's summary) or a spectator, since a page may lag a version behind and
    a card once shown may be named again.
    """

    def __init__(self, stack: Stack, game_id: str, token_a: str, token_b: str):
        self.stack, self.game_id, self.token_a, self.token_b = stack, game_id, token_a, token_b
        self.seen_by_b: set[str] = set()
        self.shown_to_a: set[str] = set()

    def look(self) -> set[str]:
        game, stack = f"/games/{self.game_id}", self.stack
        self.seen_by_b |= leaves(stack.get(f"{game}/state", self.token_b)["view"])
        self.shown_to_a |= (
            leaves(stack.get(f"{game}/state", self.token_a)["view"])
            | leaves(stack.get(f"{game}/state")["view"])
            | leaves(stack.get(f"{game}/events?limit=1000", self.token_a)["events"])
            | leaves(stack.get(f"{game}/actions", self.token_a)["actions"])
            | leaves(stack.get(game))
        )
        return self.seen_by_b - self.shown_to_a


def spellings(secret: str) -> set[str]:
    """The ways a page could write an id: as is, with spaces, without its kind's prefix (agenda_…)."""
    words = secret.replace("_", " ").replace(".", " ").lower()
    found = {secret.lower(), words}
    if " " in words:
        found.add(words.split(" ", 1)[1])
    return {s for s in found if len(s) >= 5}


def assert_page_hides(page: Page, secrets: set[str], public: set[str] = frozenset()) -> None:
    """No spelling of a secret on the page, once the longer public strings that merely contain one are set
    aside (seat B's agenda "The Ghost Ship" inside the unique "The Ghost Ship's Log" that A may read), as
    tests/contract/test_hidden.py judges the log."""
    text = (page.content() + "\n" + page.inner_text("body")).lower()
    text = re.sub(r"\s+", " ", text)
    wanted = {s for secret in secrets for s in spellings(secret)}
    for shown in sorted((re.sub(r"\s+", " ", p.lower()) for p in public), key=len, reverse=True):
        if any(s in shown and s != shown for s in wanted):
            text = text.replace(shown, " ")
    leaked = sorted(s for s in wanted if s in text)
    assert leaked == [], f"seat A's page shows seat B's hidden {leaked}"


def take_a_turn(page: Page, done: set[tuple[str, str]], who: str) -> bool:
    """Click one of the page's action buttons, if it offers any; wait until the page moved on."""
    buttons = page.locator("#actions button:not([disabled])")
    if buttons.count() == 0:
        return False
    offered = buttons.evaluate_all("bs => bs.map(b => b.dataset.type)")
    choice = next((t for t in PREFERENCE if t in offered and (who, t) not in done), None)
    button = buttons.nth(offered.index(choice)) if choice else buttons.first
    if who == "bob" and choice == "step":
        # Bob steps by tapping a space on the map rather than a button.
        targets = page.locator("#board .target")
        assert targets.count() > 0, "the map offers no space to step to"
        button = targets.first
    if choice in ("move", "step"):
        done.add((who, choice))  # once a turn is enough to be seen
    before = shown_version(page)
    asked: list[str] = []

    def count(request) -> None:
        asked.append(f"{request.method} {request.url.split('?')[0].rsplit('/', 1)[-1]}")

    page.on("request", count)
    if who == "alice":
        # Alice plays by keyboard: her buttons are buttons, reachable and pressed with Enter.
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.tap()
    if choice == "end_turn" and page.locator("#confirm-yes").count():
        # Ending a turn with actions left is asked about first; the answer "Yes" has the focus.
        assert "action" in page.inner_text("#confirm-question")
        done.add((who, "confirmed"))
        if who == "alice":
            page.keyboard.press("Enter")
        else:
            page.locator("#confirm-yes").tap()
    try:
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=10_000)
    except PlaywrightError:  # a 412 (someone moved first) refreshes the page without a new version of ours
        pass
    if who == "alice" and not any(w == "alice-focus" for w, _ in done):
        # After her move the next decision's first button has the keyboard's focus (docs/web.md), and stays so
        # through the redraws the stream brings; the move cost one post and one refresh, not two.
        page.wait_for_timeout(400)
        if page.locator("#actions button:not([disabled])").count():
            assert page.evaluate("() => !!document.activeElement.closest('#actions')"), "focus left the decision"
            assert asked.count("GET state") == 1 and asked.count("POST actions") == 1, asked
            done.add(("alice-focus", "checked"))
    page.remove_listener("request", count)
    if who == "alice" and choice == "move" and ("alice", "undo") not in done:
        undo_a_move(page)
        done.add(("alice", "undo"))
        done.discard(("alice", "move"))  # taken back: she moves again, and steps this time
    return True


def undo_a_move(page: Page) -> None:
    """A move action draws nothing and shows nothing hidden: its seat may take it back alone, within its turn
    (docs/api.md, "Undo"). The page offers it as a button; pressed, the game is as it was before the move."""
    undo = page.locator("#undo")
    expect(undo).to_have_count(1, timeout=10_000)
    assert undo.inner_text().startswith("Take back: ")
    before = shown_version(page)
    undo.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=10_000)
    expect(page.locator('#log li[data-type="MoveUndone"]')).to_have_count(1, timeout=10_000)
    expect(page.locator('#actions button[data-type="move"]')).not_to_have_count(0)


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_two_seats_play_a_first_round_of_fallout_from_the_lobby(stack: Stack, browser: Browser, screenshots: Path):
    started = time.monotonic()
    # bypass_csp: Playwright's waits evaluate strings, which the pages' CSP forbids (rightly).
    desk = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True)
    alice, bob = desk.new_page(), phone.new_page()
    for page in (alice, bob):
        serve_axe(page)
    errors: list[str] = []
    for name, page in (("alice", alice), ("bob", bob)):
        page.on("pageerror", lambda error: errors.append(str(error)))
        # Shown by pytest when the test fails: what each page said to its console.
        page.on("console", lambda message, name=name: print(f"{name}: {message.type}: {message.text}"))

    # Alice creates a two-seat game in the lobby, choosing its scenario among the options the game's schema
    # offers; her seat and the creator's token stay in her browser.
    game_id = create_in_lobby(alice, stack, "fallout", 2, "Alice", options={"scenario": "thornwood_hollow"})
    assert "token" not in alice.url, "the token stays out of the address bar"
    assert stack.get(f"/games/{game_id}")["options"]["scenario"] == "thornwood_hollow"

    # Bob, on a phone, finds it among the open games and joins by name.
    bob.goto(f"{stack.base}/lobby")
    bob.locator(f'li[data-game-id="{game_id}"]').wait_for()
    # In another tab of her browser the lobby knows her seat: "My seats" opens it, and the listing offers her
    # her seat rather than to join it again; the row names the scenario by its name.
    lobby = desk.new_page()
    serve_axe(lobby)
    lobby.goto(f"{stack.base}/lobby")
    lobby.locator(f'#games li[data-game-id="{game_id}"] a[data-mine]').wait_for()
    assert "Thornwood Hollow" in lobby.locator(f'#games li[data-game-id="{game_id}"]').inner_text()
    expect(lobby.locator(f'#my-seats-list li[data-game-id="{game_id}"]')).to_contain_text("seat 0")
    lobby.screenshot(path=str(screenshots / "lobby.png"))
    assert_accessible(lobby, "the lobby")
    lobby.close()
    bob.fill("#join-name", "Bob")
    bob.click(f'li[data-game-id="{game_id}"] button[data-join]')
    bob.wait_for_url(re.compile(rf"/play/{game_id}$"))

    # Alice's page learns of Bob live and lets her start.
    alice.locator("#start:not([disabled])").click(timeout=15_000)
    # The first player is drawn at the start: either page may be the one asked first.
    alice.wait_for_function("document.body.dataset.status === 'running'", timeout=15_000)
    token_a, token_b = token_of(alice, game_id), token_of(bob, game_id)
    assert token_a != token_b
    # The lobby's row of the running game says whose turn it is, by name (the listing's waiting_for).
    watcher = desk.new_page()
    watcher.goto(f"{stack.base}/lobby")
    watcher.select_option("#filter", "running")
    expect(watcher.locator(f'#games li[data-game-id="{game_id}"] .game-progress')).to_contain_text(
        re.compile(r"waiting for (Alice|Bob)$"), timeout=10_000)
    watcher.close()

    # The first full round, clicked through; Bob's page never reloads.
    bob.evaluate("window.holotapeNoReload = true")
    secrets = SeatSecrets(stack, game_id, token_a, token_b)
    ever_hidden: set[str] = set()
    done: set[tuple[str, str]] = set()
    seen_live = False
    clicks = 0
    banners: set[str] = set()
    while stack.get(f"/games/{game_id}/state")["view"]["round"] < 2:
        banners.add(banner_says(alice))
        assert time.monotonic() - started < 80, "the first round took too long"
        acted = False
        for who, page, other in (("alice", alice, bob), ("bob", bob, alice)):
            if take_a_turn(page, done, who):
                acted, clicks = True, clicks + 1
                if who == "alice" and not seen_live:
                    # Alice's move appears in Bob's log by itself, over the stream.
                    version = shown_version(alice)
                    # Attached, not visible: the engine's own steps are folded away in the log.
                    other.locator(f'#log li[data-version="{version}"]').wait_for(state="attached", timeout=10_000)
                    seen_live = True
        hidden = secrets.look()
        assert_page_hides(alice, hidden, secrets.shown_to_a)
        ever_hidden |= hidden
        if not acted:
            time.sleep(0.1)  # the worker is running the round end
    assert seen_live and clicks >= 4
    assert "Your turn" in banners and any(b.startswith("Waiting for seat 1 (") for b in banners), banners
    assert ("alice-focus", "checked") in done, "Alice never had a next decision to focus"
    assert ("alice", "undo") in done, "Alice never took a move back"
    assert {("alice", "confirmed"), ("bob", "confirmed")} & done, "nobody was asked before ending a turn early"
    assert {("alice", "step"), ("bob", "step")} <= done, "each stepped once: Alice by a button, Bob on the map"
    assert bob.evaluate("window.holotapeNoReload") is True, "Bob's page reloaded"
    assert ever_hidden, "seat B held nothing hidden from A: the check above checked nothing"
    with pytest.raises(AssertionError):
        assert_page_hides(bob, ever_hidden)  # the check bites: Bob's own page shows his secrets

    # Both pages catch up with the round end the worker ran.
    live = stack.get(f"/games/{game_id}/state")["version"]
    for page in (alice, bob):
        page.wait_for_function(f"Number(document.body.dataset.version) >= {live}", timeout=15_000)
        # The state and the log arrive apart (a fetch and the stream): the headline may reach a version before
        # the log has its events.
        page.locator(f'#log li[data-version="{live}"]').wait_for(state="attached", timeout=15_000)
    # Whoever did not move last is told what the other and the round end did since: the round end's lines among them.
    told = [page.locator("#since .since-list li").count() for page in (alice, bob)]
    assert max(told) > 0, told
    # Every event reached Bob's page, across the stream's ends and resumptions.
    logged = bob.locator("#log li[data-version]").evaluate_all("items => items.map(i => Number(i.dataset.version))")
    assert sorted(logged) == list(range(1, live + 1))
    # Each seat's card is titled by the survivor's name in the pack, which the view carries (not its id).
    shown = stack.get(f"/games/{game_id}/state")["view"]
    seats_text = alice.locator("#seats").inner_text()
    for survivor in shown["survivors"]:
        assert shown["names"][survivor["survivor"]] in seats_text, (survivor["survivor"], seats_text)
    alice.screenshot(path=str(screenshots / "game.png"), full_page=True)
    bob.screenshot(path=str(screenshots / "game-phone.png"), full_page=True)
    assert_accessible(alice, "Fallout's table")
    assert_accessible(bob, "Fallout's table on a phone")
    for page in (alice, bob):
        assert_no_ids_in_buttons(page)

    # The timeline, by keyboard: back to version 5 (before anyone had a survivor) and back to live.
    slider = alice.locator("#timeline")
    slider.focus()
    slider.press("Home")
    for _ in range(4):
        slider.press("ArrowRight")
    alice.wait_for_function("document.body.dataset.shown === '5'", timeout=10_000)
    assert alice.locator("#board").get_attribute("data-version") == "5"
    assert alice.locator("#seats").inner_text().count("no survivor yet") == 2
    assert alice.locator('#log li[data-version="6"]').is_hidden()
    assert alice.locator("#between li").count() > 0, "the events between are listed"
    assert alice.locator("#actions button").count() == 0, "no acting on the past"
    alice.screenshot(path=str(screenshots / "replay.png"), full_page=True)
    slider.press("End")
    alice.wait_for_function(f"Number(document.body.dataset.shown) >= {live}", timeout=10_000)
    assert "no survivor yet" not in alice.locator("#seats").inner_text()

    assert_page_hides(alice, secrets.look(), secrets.shown_to_a)
    assert errors == []
    desk.close()
    phone.close()


@pytest.mark.timeout(60)
def test_a_finished_game_shows_a_spectator_its_replay_the_audit_verdict_and_the_seed(stack: Stack, browser: Browser):
    """Read-only: no buttons; the audit's verdict and the revealed seed; the lobby's finished list links to it."""
    created = stack.call("POST", "/games", {"game": "counter", "seats": 1, "options": {"target": 10}})
    game_id, token = created["game_id"], created["seats"][0]["token"]
    deadline = time.monotonic() + 30
    while not (state := stack.get(f"/games/{game_id}/state", token))["over"]:
        assert time.monotonic() < deadline, "the game did not end"
        if not state["waiting_for"]:
            time.sleep(0.05)  # a tick is due: the worker's
            continue
        listed = stack.get(f"/games/{game_id}/actions", token)
        add = max((a for a in listed["actions"] if a["type"] == "add"), key=lambda a: a["amount"])
        stack.call("POST", f"/games/{game_id}/actions", add, token, {"If-Match": f'"{listed["version"]}"'})
    ended = stack.get(f"/games/{game_id}/state")
    assert ended["seed"]

    # Under the pages' own Content-Security-Policy: nothing here evaluates a string.
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(f"{stack.base}/lobby")
    page.select_option("#filter", "ended")
    page.click(f'li[data-game-id="{game_id}"] a')
    page.wait_for_url(re.compile(rf"/play/{game_id}$"))
    verdict = page.locator("#audit-verdict")
    verdict.wait_for(timeout=10_000)
    assert verdict.inner_text() == "Verdict: fair"
    assert ended["seed"] in page.locator("#verdict").inner_text()
    assert "watching" in page.inner_text("#headline")
    assert page.locator("#actions button").count() == 0
    # The replay: the first version's board, then the last again.
    slider = page.locator("#timeline")
    slider.focus()
    slider.press("Home")
    expect(page.locator("body")).to_have_attribute("data-shown", "1", timeout=10_000)
    slider.press("End")
    expect(page.locator("body")).to_have_attribute("data-shown", str(ended["version"]), timeout=10_000)
    assert errors == [], "the page broke its own CSP, or something else"
    context.close()


@pytest.mark.timeout(60)
def test_a_move_decided_on_a_version_gone_by_gets_412_and_the_page_shows_the_game_as_it_is(
    stack: Stack, browser: Browser
):
    """If-Match: the page posts the version its buttons were listed at; a 412 refreshes them."""
    created = stack.call("POST", "/games", {"game": "counter", "seats": 1})
    game_id, token = created["game_id"], created["seats"][0]["token"]
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    # No live updates for this page, so it cannot learn of the change below by itself.
    page.route("**/stream*", lambda route: route.abort())
    page.goto(f"{stack.base}/play/{game_id}?token={token}")
    page.locator('#actions button[data-type="add"]').first.wait_for(timeout=10_000)
    assert "token" not in page.url, "the token is taken out of the address"
    listed_at = shown_version(page)

    # The same seat acts elsewhere (another tab, a script): the game moves on.
    listed = stack.get(f"/games/{game_id}/actions", token)
    redraw = next(a for a in listed["actions"] if a["type"] == "redraw")
    stack.call("POST", f"/games/{game_id}/actions", redraw, token, {"If-Match": f'"{listed["version"]}"'})

    page.locator('#actions button[data-type="add"]').first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {listed_at}", timeout=10_000)
    assert "moved on" in page.inner_text("#message")
    assert stack.get(f"/games/{game_id}/state")["view"]["total"] == 0, "the stale move did nothing"
    # Decided again on the version shown now, it goes through.
    refreshed = shown_version(page)
    page.locator('#actions button[data-type="add"]').first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {refreshed}", timeout=10_000)
    assert stack.get(f"/games/{game_id}/state")["view"]["total"] > 0
    context.close()


@pytest.mark.timeout(60)
def test_a_game_created_in_the_lobby_with_bots_starts_at_once_and_the_bots_moves_arrive_live(
    stack: Stack, browser: Browser
):
    context = browser.new_context()
    page = context.new_page()
    game_id = create_in_lobby(page, stack, "counter", 2, "Carol", bots="random")
    seats = stack.get(f"/games/{game_id}")["seats"]
    assert [(s["kind"], s["bot"]) for s in seats] == [("human", None), ("bot", "random")]
    expect(page.locator("body")).to_have_attribute("data-status", "running", timeout=10_000)
    # Carol adds; the bot (a worker's job) answers, and its move shows in her log by itself. The first
    # seat is drawn at setup: when it is the bot's, its opening move is in the log before Carol's turn.
    add = page.locator('#actions button[data-type="add"]').first
    add.wait_for(timeout=10_000)
    added = page.locator('#log li[data-type="Added"]')
    opened = stack.get(f"/games/{game_id}/state")["view"]["total"] > 0
    expect(added).to_have_count(1 if opened else 0, timeout=10_000)
    add.click()
    expect(added).to_have_count(3 if opened else 2, timeout=15_000)

    # Back in the lobby (another tab): the bot's seat is a bot's, not open; "My seats" says whose turn it is in
    # Carol's game, and forgetting it there leaves this browser without her token.
    lobby = context.new_page()
    lobby.goto(f"{stack.base}/lobby")
    lobby.select_option("#filter", "running")
    row = lobby.locator(f'#games li[data-game-id="{game_id}"]')
    expect(row).to_contain_text("Carol, bot", timeout=10_000)
    assert "open" not in row.locator(".game-seats").inner_text()
    mine = lobby.locator(f'#my-seats-list li[data-game-id="{game_id}"]')
    expect(mine.locator(".game-turn")).to_have_text(re.compile(r"^(Your turn|Waiting for seat 1 \(a bot\))$"))
    mine.locator("button[data-forget]").click()
    expect(mine).to_have_count(0)
    assert lobby.evaluate(f"localStorage.getItem('holotape.seat.{game_id}')") is None
    expect(row.locator("button[data-join], a")).to_have_text(["Watch"])
    context.close()


def _add_as_whoever_plays(stack: Stack, game_id: str, tokens: list[str]) -> tuple[int, int]:
    """One move of the counter game by the seat it waits on: the version the move ended at, and the total."""
    seat = stack.get(f"/games/{game_id}/state")["waiting_for"][0]
    listed = stack.get(f"/games/{game_id}/actions", tokens[seat])
    add = next(a for a in listed["actions"] if a["type"] == "add")
    stack.call("POST", f"/games/{game_id}/actions", add, tokens[seat], {"If-Match": f'"{listed["version"]}"'})
    state = stack.get(f"/games/{game_id}/state")
    return state["version"], state["view"]["total"]


def _total_or_none(stack: Stack, game_id: str) -> int | None:
    try:
        return stack.get(f"/games/{game_id}/state")["view"]["total"]
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return None
        raise


@pytest.mark.timeout(90)
def test_the_timeline_ends_where_the_reader_left_it_when_an_earlier_version_answers_late(stack: Stack, browser: Browser):
    """On a slow line a version asked for while the slider moved answers after the next step was taken: the
    page must not put the slider back there, nor forget the step (seen once under load: the slider came to
    rest one version short). Each step waits longer than the line's delay but less than it and the slider's
    pause (120 ms) together, so every earlier answer lands while the next step is still pending."""
    created = stack.call("POST", "/games", {"game": "counter", "seats": 2})
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    for _ in range(3):
        _add_as_whoever_plays(stack, game_id, tokens)
    version = stack.get(f"/games/{game_id}/state")["version"]
    page = browser.new_context(bypass_csp=True).new_page()
    page.goto(f"{stack.base}/play/{game_id}?token={tokens[0]}")
    expect(page.locator("#log li[data-version]")).to_have_count(version, timeout=10_000)
    delay_ms = 400
    line = page.context.new_cdp_session(page)
    line.send("Network.enable")
    line.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": delay_ms, "downloadThroughput": -1, "uploadThroughput": -1,
    })  # fmt: skip
    slider = page.locator("#timeline")
    slider.focus()
    slider.press("Home")
    steps = 3
    for _ in range(steps):
        page.wait_for_timeout(delay_ms + 60)
        slider.press("ArrowRight")
    page.wait_for_function(f"document.body.dataset.shown === '{1 + steps}'", timeout=10_000)
    assert slider.input_value() == str(1 + steps)
    page.wait_for_timeout(2 * delay_ms + 200)  # nothing still on the line moves it after
    assert page.evaluate("document.body.dataset.shown") == str(1 + steps) and slider.input_value() == str(1 + steps)
    page.context.close()


def test_a_move_whose_events_the_stream_brings_before_its_answer_costs_one_refresh(stack: Stack, browser: Browser):
    """The server commits a move and its stream carries the events before the post's answer arrives (seen under
    load): the page fetches the state those events left once, and does not fetch it again for the answer (it
    did: two refreshes for one move). The answer is held here until the stream has had a second and a half."""
    created = stack.call("POST", "/games", {"game": "counter", "seats": 2})
    game_id, token = created["game_id"], created["seats"][0]["token"]
    page = browser.new_context(bypass_csp=True).new_page()
    page.goto(f"{stack.base}/play/{game_id}?token={token}")
    redraw = page.locator('#actions button[data-type="redraw"]:not([disabled])')
    expect(redraw).to_have_count(1, timeout=10_000)
    before = shown_version(page)
    page.wait_for_timeout(300)  # the stream's first message has come and gone

    def answer_late(route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        answer = route.fetch()  # the move is made and on the stream
        time.sleep(1.5)
        route.fulfill(response=answer)

    page.route(lambda url: url.endswith("/actions"), answer_late)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(f"{r.method} {r.url.split('?')[0].rsplit('/', 1)[-1]}"))
    redraw.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=10_000)
    expect(redraw).to_have_count(1, timeout=10_000)  # the answer came, and the page offers the next move
    page.wait_for_timeout(500)
    assert asked.count("POST actions") == 1 and asked.count("GET state") == 1, asked
    page.context.close()


@pytest.mark.timeout(90)
def test_a_seat_proposes_going_back_from_the_timeline_and_the_other_agrees_on_its_page(stack: Stack, browser: Browser):
    """Rewind and fork by agreement (docs/api.md, "Rewind and fork"): a seat looking at an earlier version on
    the timeline proposes to go back there; the other seat's page shows the proposal live and agrees; the game
    is at that version's state again, both pages follow it live, and the log keeps everything. Then a fork from
    a later version: both pages link to the new game, where the other seat is itself."""
    created = stack.call("POST", "/games", {"game": "counter", "seats": 2})
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    back_to, total_then = _add_as_whoever_plays(stack, game_id, tokens)
    for _ in range(2):
        _add_as_whoever_plays(stack, game_id, tokens)
    pages = []
    for token in tokens:
        page = browser.new_context(bypass_csp=True).new_page()
        page.goto(f"{stack.base}/play/{game_id}?token={token}")
        expect(page.locator("#log li[data-version]")).to_have_count(stack.get(f"/games/{game_id}/state")["version"], timeout=10_000)
        pages.append(page)
    first, second = pages

    # The first seat takes the timeline back to the end of the first move, by keyboard, and proposes.
    slider = first.locator("#timeline")
    slider.focus()
    slider.press("Home")
    for _ in range(back_to - 1):
        slider.press("ArrowRight")
    first.wait_for_function(f"document.body.dataset.shown === '{back_to}'", timeout=10_000)
    expect(second.locator("#propose-rewind")).to_have_count(0)  # only a page looking at the past offers it
    first.locator("#propose-rewind").click()
    # Asked first, in the page: going back takes moves back, which the question counts.
    expect(first.locator("#confirm-question")).to_contain_text("It takes back 2 moves")
    first.locator("#confirm-yes").click()

    # The other seat's page learns of it from the stream and agrees.
    expect(second.locator("#proposal-text")).to_contain_text(f"version {back_to}", timeout=10_000)
    expect(first.locator("#accept-proposal")).to_have_count(0)  # the proposer has agreed already
    second.locator("#accept-proposal").click()

    # The click returns before its request does: the pages' logs say when the rewind is in.
    for page in pages:
        expect(page.locator('#log li[data-type="GameRewound"]')).to_have_count(1, timeout=10_000)
    now = stack.get(f"/games/{game_id}/state")
    assert now["view"]["total"] == total_then and now["proposal"] is None
    for page in pages:
        expect(page.locator("body")).to_have_attribute("data-shown", str(now["version"]), timeout=10_000)
        expect(page.locator("#proposal-text")).to_have_count(0)
    assert "went back to version" in second.inner_text("#message")

    # A fork, likewise: from the end of a later move, a new game with the same seats; each page links to it,
    # and the other seat follows the link into the new game as itself.
    fork_at, total_at_fork = _add_as_whoever_plays(stack, game_id, tokens)
    latest, _ = _add_as_whoever_plays(stack, game_id, tokens)
    # The page has both moves (over the stream) before its timeline is moved: the slider ends at the version shown.
    first.wait_for_function(f"Number(document.body.dataset.version) >= {latest}", timeout=10_000)
    slider.focus()
    slider.press("Home")
    for _ in range(fork_at - 1):
        slider.press("ArrowRight")
    first.wait_for_function(f"document.body.dataset.shown === '{fork_at}'", timeout=10_000)
    first.locator("#propose-fork").click()
    first.locator("#confirm-yes").click()
    expect(second.locator("#proposal-text")).to_contain_text(f"new game from version {fork_at}", timeout=10_000)
    second.locator("#accept-proposal").click()
    for page in pages:
        expect(page.locator("#fork-link")).to_have_count(1, timeout=10_000)
    fork_id = second.locator("#fork-link").inner_text()
    # GameForked is appended first and the new game created after it: a moment may pass before it answers.
    wait_until(lambda: _total_or_none(stack, fork_id) is not None, timeout=10, message="the fork to exist")
    assert _total_or_none(stack, fork_id) == total_at_fork
    second.locator("#fork-link").click()
    second.wait_for_url(f"**/play/{fork_id}")
    expect(second.locator("#headline")).to_contain_text("you are seat 1", timeout=10_000)
    for page in pages:
        page.context.close()

