"""An action leaves nothing for the garbage collector: what it makes is freed as it ends.

A reference cycle made on every request is freed only by a collection, and
each collection stops every request the worker holds; enough of them put a
collection inside the action's p99 (``tests/bench/http.py``). Werkzeug's
URL matching made one per request (``service.api.routing``).
"""

from __future__ import annotations

import gc
import json
from collections import Counter

from werkzeug.routing import Rule
from werkzeug.test import create_environ

from service import wiring
from service.api import create_app
from service.api.routing import MATCHES, RememberingMap
from tests.service.tables import act, new_table, state


def _garbage_of(run) -> Counter[str]:
    """The kinds of object ``run()`` left in reference cycles (collected, never freed by their counts)."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        run()
        gc.collect()
        return Counter(type(found).__name__ for found in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_twenty_actions_over_http_leave_no_reference_cycle(redis_client):
    app = create_app(wiring.build(redis_client))
    client = app.test_client()
    table = new_table(client, seats=1)
    version = act(client, table, 0, {"type": "redraw"}, state(client, table)["version"]).get_json()["version"]

    def actions() -> None:
        # Called as a WSGI server calls the app: werkzeug's test client makes cycles of its own.
        nonlocal version
        answered: list[str] = []

        def start(status: str, headers: object, *_: object) -> None:
            answered.append(status)

        for _ in range(20):
            answered.clear()
            environ = create_environ(
                table.url("/actions"), method="POST", data=b'{"type": "redraw"}', content_type="application/json",
                headers={**table.seats[0], "If-Match": f'"{version}"'},
            )  # fmt: skip
            body = b"".join(app(environ, start))
            assert answered == ["200 OK"], body
            version = json.loads(body)["version"]

    assert _garbage_of(actions) == Counter()


def test_a_path_matched_again_gets_the_same_rule_and_values_in_a_dict_of_its_own():
    routes = RememberingMap([Rule("/games/<game_id>/actions", endpoint="actions", methods=["GET", "POST"])])
    adapter = routes.bind("localhost")
    first = adapter.match("/games/g1/actions", "POST")
    again = adapter.match("/games/g1/actions", "POST")
    assert first == again == ("actions", {"game_id": "g1"})
    again[1]["game_id"] = "changed by a view"
    assert adapter.match("/games/g1/actions", "POST") == ("actions", {"game_id": "g1"})
    assert adapter.match("/games/g2/actions", "GET") == ("actions", {"game_id": "g2"})
    assert _garbage_of(lambda: adapter.match("/games/g1/actions", "POST")) == Counter()


def test_the_remembered_matches_start_over_past_their_bound():
    routes = RememberingMap([Rule("/games/<game_id>", endpoint="game")])
    adapter = routes.bind("localhost")
    for n in range(MATCHES + 5):
        assert adapter.match(f"/games/{n}") == ("game", {"game_id": str(n)})
    assert 0 < len(routes._matcher._found) <= MATCHES
