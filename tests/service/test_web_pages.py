"""The lobby and table pages, and the files they load, as the service serves them (docs/web.md)."""

from __future__ import annotations

import gzip
import json
import re
from html import unescape

import pytest

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


def test_answers_are_compressed_for_a_client_that_accepts_it_and_the_etag_stays_the_games_version(client):
    """docs/web.md, "Weight": JSON, the pages and their scripts go compressed (Brotli or gzip, as accepted);
    the ETag is still the version a client sends back as If-Match; a client that accepts nothing gets it plain."""
    created = client.post("/games", json={"game": "counter", "seats": 1}).get_json()
    state = f"/games/{created['game_id']}/state"
    plain = client.get(state)
    assert "Content-Encoding" not in plain.headers
    for accepted, used in (("gzip", "gzip"), ("gzip, deflate, br, zstd", "br")):
        packed = client.get(state, headers={"Accept-Encoding": accepted})
        assert packed.headers["Content-Encoding"] == used
        assert packed.headers["ETag"] == plain.headers["ETag"] == f'"{plain.get_json()["version"]}"'
        assert "Accept-Encoding" in packed.headers["Vary"]
    script = client.get("/web/play.js", headers={"Accept-Encoding": "gzip, br"})
    assert script.headers["Content-Encoding"] in ("br", "deflate")
    page = client.get("/lobby", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(page.get_data()).decode().startswith("<!doctype html>")


@pytest.mark.parametrize("accepted", [None, "", "identity", "IDENTITY;q=1", "zstd", "compress, identity"])
def test_a_client_accepting_no_encoding_of_ours_gets_what_flask_compress_itself_answers(client, accepted):
    """service.api.compression answers a client whose Accept-Encoding names none of its algorithms without
    Flask-Compress; the headers and the body must be those Flask-Compress's own hook gives the same answer."""
    created = client.post("/games", json={"game": "counter", "seats": 1}).get_json()
    headers = {} if accepted is None else {"Accept-Encoding": accepted}
    for path in (f"/games/{created['game_id']}/state", "/lobby"):
        answer = client.get(path, headers=headers)
        others = [v.strip() for v in answer.headers.get("Vary", "").split(",") if v.strip() not in ("", "Accept-Encoding")]
        with client.application.test_request_context(path, headers=headers):
            bare = client.application.response_class(
                answer.get_data(), status=answer.status_code, headers=[
                    *((name, value) for name, value in answer.headers.items() if name not in ("Vary", "Content-Length")),
                    *([("Vary", ", ".join(others))] if others else []),
                ],
            )  # fmt: skip
            expected = client.application.extensions["compress"].after_request(bare)
            assert expected.headers.get("Content-Encoding") is None, "Flask-Compress would compress: not such a client"
        assert "Content-Encoding" not in answer.headers
        assert answer.headers["Vary"] == expected.headers["Vary"] and "Accept-Encoding" in answer.headers["Vary"]
        assert answer.get_data() == expected.get_data()


def test_a_client_naming_any_encoding_or_only_deflate_still_gets_flask_compress(client):
    """The names that make Flask-Compress choose: "*" (any), and deflate, which it streams files with."""
    created = client.post("/games", json={"game": "counter", "seats": 1}).get_json()
    assert client.get(f"/games/{created['game_id']}/state", headers={"Accept-Encoding": "*"}).headers["Content-Encoding"]
    assert client.get("/web/play.js", headers={"Accept-Encoding": "Deflate"}).headers["Content-Encoding"] == "deflate"


def test_the_event_stream_is_never_compressed(client):
    """Each event reaches its reader as it is written, not when a compressor's buffer fills."""
    created = client.post("/games", json={"game": "counter", "seats": 1}).get_json()
    stream = client.get(f"/games/{created['game_id']}/stream", headers={"Accept-Encoding": "gzip, br"}, buffered=False)
    assert stream.mimetype == "text/event-stream"
    assert "Content-Encoding" not in stream.headers
    stream.close()


def test_the_lobby_form_carries_each_games_options_schema(client):
    """docs/web.md: the create form draws a field per option from the schema the page carries (the same JSON
    Schema as the API document's `…Options`)."""
    html = client.get("/lobby").get_data(as_text=True)
    carried = dict(re.findall(r"<option value=\"([^\"]+)\"[^>]*data-options='([^']*)'", html))
    for name in registry.builtin_names():
        schema = json.loads(unescape(carried[name]))
        assert set(schema["properties"]) == set(registry.game_module(name).options_schema().fields)
