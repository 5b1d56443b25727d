"""The lobby and table pages, and the files they load, as the service serves them (docs/web.md)."""

from __future__ import annotations

import re

from domain import registry


def test_the_home_page_is_the_lobby_listing_the_shipped_games_first(client):
    assert client.get("/").headers["Location"].endswith("/lobby")
    page = client.get("/lobby")
    assert page.status_code == 200 and page.mimetype == "text/html"
    offered = re.findall(r'<option value="([^"]+)" data-min', page.get_data(as_text=True))
    shipped = registry.builtin_names()
    assert offered[: len(shipped)] == shipped, "the default game is the first the server ships"


def test_the_table_page_names_its_game_and_loads_only_its_own_origin(client):
    page = client.get("/play/abc123")
    assert page.status_code == 200
    assert 'data-game-id="abc123"' in page.get_data(as_text=True)
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    html = page.get_data(as_text=True)
    assert not re.search(r'(src|href)="(https?:)?//', html), "nothing is loaded from another site"


def test_a_game_id_in_the_path_is_escaped_into_the_page(client):
    page = client.get('/play/"><script>alert(1)</script>')
    assert "<script>alert(1)" not in page.get_data(as_text=True)


def test_each_game_board_is_its_own_module_and_a_game_without_one_gets_the_plain_board(client):
    for name in registry.builtin_names():
        board = client.get(f"/web/boards/{name}.js")
        assert board.status_code == 200 and board.mimetype == "text/javascript"
        assert "export function draw" in board.get_data(as_text=True)
        assert "plain-board.js" in board.get_data(as_text=True), "it builds on the plain board's words"
    plain = client.get("/web/boards/counter.js")  # the tests' game brings no drawing
    assert plain.status_code == 200
    assert plain.get_data(as_text=True) == client.get("/web/plain-board.js").get_data(as_text=True)
    missing = client.get("/web/boards/no_such_game.js")
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"


def test_the_pages_scripts_and_styles_are_served(client):
    for name, kind in [("api.js", "text/javascript"), ("play.js", "text/javascript"), ("lobby.js", "text/javascript"),
                       ("svg.js", "text/javascript"), ("table.css", "text/css")]:  # fmt: skip
        answer = client.get(f"/web/{name}")
        assert answer.status_code == 200 and answer.mimetype == kind, name
    assert client.get("/web/../pages.py").status_code == 404
