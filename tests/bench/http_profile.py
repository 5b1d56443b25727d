"""`make profile-http`: where an action over HTTP spends the API process's time, and what it leaves to the collector.

The app as ``service.wsgi`` builds it (its rate limits as the bench sets
them, its start frozen), on an embedded Redis, called the way a WSGI server calls it (no
test client, which makes garbage of its own), for the bench's own-game
request: a one-seat counter game, ``redraw`` with ``If-Match``, over and
over. Writes into ``PROFILE_DIR`` (default ``.profile/``, gitignored):
``http-action.txt``, the top functions by own and cumulative time, and
``http-action.pstats``; prints the CPU per action without the profiler,
the young and older collections per 1,000 actions, and the objects left
in reference cycles per action (none, since ``service.api.routing``).

The gunicorn worker adds its own parsing and writing (about 0.4 ms an
action here, the bare endpoint's too): ``make bench`` measures the whole.
"""

from __future__ import annotations

import cProfile
import gc
import io
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson

from service import wiring
from service.adapters.embedded_redis import EmbeddedRedis
from service.api import create_app
from service.api.settings import api_settings, rate_limits

ACTIONS = int(os.environ.get("PROFILE_ACTIONS", "3000"))
OUTPUT = Path(os.environ.get("PROFILE_DIR", ".profile"))
#: How many functions each listing shows.
TOP = 45

App = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def call(app: App, method: str, path: str, body: bytes, headers: dict[str, str]) -> tuple[str, dict[str, str], bytes]:
    """One request as gunicorn hands it over: the status, headers and body of the answer."""
    environ = {
        "REQUEST_METHOD": method, "SCRIPT_NAME": "", "PATH_INFO": path, "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "REMOTE_PORT": "50000", "HTTP_HOST": "127.0.0.1:8000",
        "wsgi.version": (1, 0), "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr,
        "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.input_terminated": True,
        "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
        **{"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()},
    }  # fmt: skip
    answered: dict[str, Any] = {}

    def start_response(status: str, answer_headers: list[tuple[str, str]], *_: Any) -> None:
        answered.update(status=status, headers=dict(answer_headers))

    chunks = app(environ, start_response)
    data = b"".join(chunks)
    getattr(chunks, "close", lambda: None)()
    return answered["status"], answered["headers"], data


def _actions(app: App) -> Callable[[], None]:
    """One action of a new one-seat game per call, each on the version the last answered."""
    status, _, body = call(app, "POST", "/games", orjson.dumps({"game": "counter", "seats": 1}), {})
    created = orjson.loads(body)
    assert status.startswith("201"), created
    path, version = f"/games/{created['game_id']}/actions", created["version"]
    token = f"Bearer {created['seats'][0]['token']}"

    def act() -> None:
        nonlocal version
        status, headers, body = call(
            app, "POST", path, b'{"type": "redraw"}', {"Authorization": token, "If-Match": f'"{version}"'}
        )
        assert status.startswith("200"), body
        version = int(headers["ETag"].strip('"'))

    return act


@contextmanager
def acting() -> Iterator[Callable[[], None]]:
    """One action per call, on the app as ``service.wsgi`` builds it (its start frozen) on an embedded Redis,
    after 200 of them: its scripts loaded, its caches warm."""
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, durable=False) as server:
        os.environ.update(
            REDIS_URL=server.url, HOLOTAPE_GAMES="tests.games.counter:COUNTER", HOLOTAPE_RATE_LIMIT="0",
            HOLOTAPE_RATE_LIMIT_ADDRESS="0", HOLOTAPE_RATE_LIMIT_REFUSED="0",
        )  # fmt: skip
        settings = api_settings()
        app = create_app(wiring.build(rate_limits=rate_limits(settings)), settings)
        wiring.freeze_start_up()
        act = _actions(app)
        for _ in range(200):
            act()
        yield act


def main() -> None:
    with acting() as act:
        collections = [0, 0, 0]

        def count(phase: str, info: dict[str, int]) -> None:
            collections[info["generation"]] += phase == "start"

        gc.callbacks.append(count)
        started = time.process_time()
        for _ in range(ACTIONS):
            act()
        cpu = (time.process_time() - started) / ACTIONS
        gc.callbacks.remove(count)

        gc.collect()
        gc.disable()
        try:
            for _ in range(200):
                act()
            cycles = gc.collect() / 200
        finally:
            gc.enable()

        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(ACTIONS):
            act()
        profiler.disable()

    summary = (
        f"an action over WSGI, in-process (no gunicorn): {cpu * 1000:.3f} ms CPU each over {ACTIONS}; collections "
        f"per 1,000 actions: young {collections[0] * 1000 / ACTIONS:.1f}, older {collections[1] * 1000 / ACTIONS:.1f}, "
        f"full {collections[2] * 1000 / ACTIONS:.1f}; objects left in reference cycles per action: {cycles:.1f}; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    OUTPUT.mkdir(exist_ok=True)
    stem = OUTPUT / "http-action"
    profiler.dump_stats(f"{stem}.pstats")
    text = io.StringIO()
    text.write(summary + "\n\n")
    stats = pstats.Stats(profiler, stream=text)
    stats.sort_stats("tottime").print_stats(TOP)
    stats.sort_stats("cumulative").print_stats(TOP)
    Path(f"{stem}.txt").write_text(text.getvalue())
    print(f"{summary}\n{stem}.txt, {stem}.pstats", flush=True)


if __name__ == "__main__":
    main()
