"""The lobby's "My games" in a real browser (docs/players.md): sign in with a player token, see three games,
the one waiting for the player first with its deadline, invite to the one still gathering players, open the
waiting one in the seat's view, and sign out."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.web.stack import Stack

pytestmark = pytest.mark.xdist_group("browser")


def _three_games(stack: Stack) -> tuple[str, dict[str, str], dict[str, str]]:
    """Ada's player token, her three games (one waiting for her, one for Bob, one in its lobby), Bob's seat tokens."""
    ada = stack.call("POST", "/players", {"name": "Ada"})["token"]
    ids, bobs = {}, {}
    for name in ("mine", "theirs"):
        created = stack.call("POST", "/games", {"game": "counter", "seats": 2, "players": ["Ada"], "turn_seconds": 86400},
                             token=ada)  # fmt: skip
        game_id = created["game_id"]
        bob = stack.call("POST", f"/games/{game_id}/seats", {"name": "Bob"})["token"]
        stack.call("POST", f"/games/{game_id}/start", token=ada)
        now = stack.get(f"/games/{game_id}/state")
        wanted = 0 if name == "mine" else 1
        if now["waiting_for"] != [wanted]:
            stack.call("POST", f"/games/{game_id}/actions", {"type": "add", "amount": 1},
                       token=ada if now["waiting_for"] == [0] else bob,
                       headers={"If-Match": f'"{now["version"]}"'})  # fmt: skip
        ids[name], bobs[name] = game_id, bob
    ids["lobby"] = stack.call("POST", "/games", {"game": "counter", "seats": 2, "players": ["Ada"]}, token=ada)["game_id"]
    return ada, ids, bobs


@pytest.mark.timeout(90)
def test_my_games_lists_a_players_three_games_waiting_first_and_opens_the_seats_view(stack: Stack, browser: Browser):
    ada, ids, bobs = _three_games(stack)
    page = browser.new_page()
    page.goto(f"{stack.base}/lobby")
    page.fill("#player-token", ada)
    page.click("#sign-in button[type=submit]")
    expect(page.locator("#player-name")).to_have_text("Ada")
    rows = page.locator("#my-games li")
    expect(rows).to_have_count(3)
    first = rows.first
    expect(first).to_have_attribute("data-game-id", ids["mine"])
    expect(first).to_have_attribute("data-waiting", "yes")
    expect(first.locator(".whose-turn")).to_contain_text("your turn")
    expect(first.locator(".deadline")).to_contain_text("until")
    assert page.locator(f'#my-games li[data-game-id="{ids["theirs"]}"] .whose-turn').inner_text().endswith("Bob's turn")
    lobby_row = page.locator(f'#my-games li[data-game-id="{ids["lobby"]}"]')
    expect(lobby_row.locator(".whose-turn")).to_contain_text("waiting for players")

    # Invite to the game still gathering players: a link to copy.
    lobby_row.locator(".invite-button").click()
    link = lobby_row.locator(".invite-link")
    expect(link).to_have_value(re.compile(r"/lobby#invite=[A-Za-z0-9_-]{22}$"))
    code = link.input_value().rsplit("=", 1)[1]
    assert stack.get(f"/invitations/{code}")["expires_at"]

    # Bo, in a browser of his own, creates a player and follows the link: he sits at the invited seat.
    bo = browser.new_context().new_page()
    bo.goto(f"{stack.base}/lobby")
    bo.fill("#player-new-name", "Bo")
    bo.click("#new-player button[type=submit]")
    expect(bo.locator("#player-name")).to_have_text("Bo")
    bo.goto(link.input_value())
    bo.wait_for_url(re.compile(rf"/play/{ids['lobby']}$"))
    expect(bo.locator("#headline")).to_contain_text("you are seat 1", timeout=10_000)
    assert stack.get(f"/games/{ids['lobby']}")["seats"][1]["name"] == "Bo"
    bo.context.close()

    # Kept in this browser: a new visit is still signed in, and the list follows the games live.
    page.reload()
    expect(page.locator("#my-games li")).to_have_count(3)
    theirs = page.locator(f'#my-games li[data-game-id="{ids["theirs"]}"]')
    expect(theirs).to_have_attribute("data-waiting", "no")
    version = stack.get(f"/games/{ids['theirs']}/state")["version"]
    stack.call("POST", f"/games/{ids['theirs']}/actions", {"type": "add", "amount": 1}, token=bobs["theirs"],
               headers={"If-Match": f'"{version}"'})  # fmt: skip
    expect(theirs).to_have_attribute("data-waiting", "yes", timeout=10_000)  # the long poll brought it

    # Play opens the table in the seat's view.
    page.locator(f'#my-games li[data-game-id="{ids["mine"]}"] .open-game').click()
    page.wait_for_url(re.compile(rf"/play/{ids['mine']}$"))
    expect(page.locator("#headline")).to_contain_text("you are seat 0", timeout=10_000)
    expect(page.locator('#actions button[data-type="add"]').first).to_be_visible(timeout=10_000)

    page.goto(f"{stack.base}/lobby")
    page.click("#sign-out")
    expect(page.locator("#signed-out")).to_be_visible()
    assert page.evaluate("localStorage.getItem('holotape.player')") is None
    page.close()
