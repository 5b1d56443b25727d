"""`make run` starts everything on a machine with no Redis, and Ctrl-C stops all of it, quietly."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import urllib.request
from pathlib import Path

import pytest

from service.adapters.embedded_redis import free_port
from tests.conftest import wait_until

ROOT = Path(__file__).resolve().parents[2]


def _descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _health(port: int):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as response:
            return json.load(response)
    except OSError:
        return None


@pytest.mark.slow
def test_make_run_serves_health_and_ctrl_c_leaves_no_process(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    run = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"PORT={port}", f"DATA={tmp_path / 'data'}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        text=True,
    )
    try:
        health = wait_until(lambda: _health(port), timeout=60, message="/healthz")
        assert health["redis"] is True
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/lobby", timeout=5) as lobby:
            assert b'id="create"' in lobby.read(), "the lobby page is served"
        started = _descendants(run.pid)
        names = {Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ") for p in started if _alive(p)}
        assert any(b"gunicorn" in n for n in names), names
        assert any(b"workers.main" in n for n in names), names
        assert any(b"-server" in n for n in names), names
        assert (tmp_path / "data" / "appendonlydir").exists() or any(
            p.name.startswith("appendonly") for p in (tmp_path / "data").iterdir()
        )
        # Ctrl-C in a terminal signals the whole foreground process group.
        os.killpg(run.pid, signal.SIGINT)
        output, _ = run.communicate(timeout=60)
        assert "docs at http://127.0.0.1" in output
        assert f"http://127.0.0.1:{port}/lobby" in output, "make run prints where to play"
        # Stopped in order (API, worker, then Redis): nobody meets a part already gone.
        assert "Traceback" not in output, output[-3000:]
        # Each part has exited or is exiting (its parent reaps it a moment after make returns): wait for
        # that, not for a fixed time; one still running after 10 s was left behind.
        with contextlib.suppress(AssertionError):
            wait_until(lambda: not any(_alive(p) for p in started), timeout=10)
        left = [p for p in started if _alive(p)]
        assert left == [], f"processes left behind: {left}\n{output}"
        assert _health(port) is None
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
