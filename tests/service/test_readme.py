"""The README's curl walkthrough runs as written, against a real server.

The block is taken from README.md as it stands and run by bash with
``set -euo pipefail``; every ``curl -f`` in it fails the run on an error
answer. Only ``HOLOTAPE_API`` is set, to the test server's address (the
README defaults it to ``make run``'s).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

from tests.service.gunicorn import Server

ROOT = Path(__file__).resolve().parents[2]


def walkthrough() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Playing with curl") :]
    found = re.search(r"```sh\n(.*?)```", section, re.S)
    assert found, "the README has no curl walkthrough"
    return found.group(1)


def test_the_readme_curl_walkthrough_runs_as_written(server: Server, tmp_path: Path):
    script = "set -euo pipefail\n" + walkthrough()
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=tmp_path,
        env={**os.environ, "HOLOTAPE_API": f"http://127.0.0.1:{server.port}"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    created = json.loads((tmp_path / "game.json").read_text())
    move = json.loads((tmp_path / "move.json").read_text())
    # The move the walkthrough posted is the log's one command: its seat reads
    # it there, the other seat reads only that a seat acted.
    seen = []
    for seat in created["seats"]:
        auth = {"Authorization": f"Bearer {seat['token']}"}
        status, _, log = server.request("GET", f"/games/{created['game_id']}/events?after=0&limit=100", headers=auth)
        assert status == 200
        seen += [e["data"]["command"] for e in log["events"] if e["type"] == "CommandAccepted"]
    # Posted as listed, words and all: the log keeps the command without its "text".
    assert move.pop("text", None), move
    assert sorted(seen, key=str) == sorted([move, None], key=str)
    # The walkthrough shows the game in words: the prompt the seat answers, and a sentence per event.
    log = json.loads((tmp_path / "log.json").read_text())["events"]
    assert all(isinstance(e["text"], str) and e["text"] for e in log)
    printed = done.stdout.splitlines()
    assert any(line.startswith("prompt: ") and "must choose" in line for line in printed), done.stdout[-2000:]
    lines = [f"{e['version']} {e['text']}" for e in log]
    # The Fallout game's log in words, line by line (the Zona game's output follows it).
    assert any(printed[i : i + len(lines)] == lines for i in range(len(printed))), done.stdout[-2000:]
    # A player, an invitation and the inbox: Bo took the invited seat, and the inboxes show what waits for whom.
    bo = json.loads((tmp_path / "bo.json").read_text())
    assert bo["seat"] == 1 and bo["player"]["name"] == "Bo"
    inbox = [g for line in (tmp_path / "inbox.ndjson").read_text().splitlines() if line.strip()
             for g in json.loads(line)["games"]]
    assert inbox and all(g["waiting"] and g["prompt"] for g in inbox)  # the game waits for one of them
    assert len([line for line in printed if line.startswith("inbox: ")]) == len(inbox)
    print(done.stdout)
    # The Zona game: solo, the stalker the walkthrough chose is the one its seat plays.
    zona = json.loads((tmp_path / "zona.json").read_text())
    chosen = json.loads((tmp_path / "zona-move.json").read_text())
    assert chosen["type"] == "choose_stalker"
    auth = {"Authorization": f"Bearer {zona['seats'][0]['token']}"}
    status, _, shown = server.request("GET", f"/games/{zona['game_id']}/state", headers=auth)
    assert status == 200 and shown["game"] == "zona"
    assert shown["view"]["stalkers"][0]["character"] == chosen["character"]
    assert shown["view"]["table"]["options"]["random_facilities"] is True
    assert done.stdout.count("choose_stalker") > 1, "the walkthrough shows every board to choose from"
