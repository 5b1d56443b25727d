"""docs/audit.md's "Verifying an export offline" runs as written: `holotape verify` on a real export.

The game is played to its end on the harness's Redis; the doc's commands then
run in a shell with only ``api`` and ``game`` set, fetching the export from a
real server with curl. ``holotape verify`` itself needs no Redis and no
server: the second and third commands run with neither in reach.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from service.cli import main
from tests.service.gunicorn import Server
from tests.service.tables import finish, new_table

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "audit.md").read_text()
SECTION = GUIDE[GUIDE.index("## Verifying an export offline") :]
BLOCKS = re.findall(r"```sh\n(.*?)```", SECTION, re.S)


def _shell(script: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    # No REDIS_URL: the verifier must not need one.
    clean = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    return subprocess.run(["bash", "-c", script], cwd=cwd, env={**clean, "PATH": path, **env},
                          capture_output=True, text=True, timeout=120)  # fmt: skip


def test_the_offline_walkthrough_passes_a_real_export_and_fails_two_tampered_ones(
    client, games, server: Server, tmp_path: Path
) -> None:
    assert len(BLOCKS) == 3, "the walkthrough's three commands"
    table = new_table(client, seed=None)
    finish(client, table, games)
    api = f"http://127.0.0.1:{server.port}"
    # The counter is a test's own game: the auditor's install hosts it as the server does.
    hosting = {"HOLOTAPE_GAMES": "tests.games.counter:COUNTER", "PYTHONPATH": str(ROOT)}
    fetched = _shell(BLOCKS[0], tmp_path, api=api, game=table.game_id, **hosting)
    assert fetched.returncode == 0, fetched.stderr
    assert "fair" in fetched.stdout.splitlines()[0]
    tampered = _shell(BLOCKS[1], tmp_path, **hosting)
    assert "chain: broken" in tampered.stdout and tampered.stdout.rstrip().endswith("exit 1"), tampered.stdout
    rehashed = _shell(BLOCKS[2], tmp_path, **hosting)
    assert ": unfair" in rehashed.stdout and rehashed.stdout.rstrip().endswith("exit 1"), rehashed.stdout
    assert "chain: intact" in rehashed.stdout


def test_verify_reads_an_export_of_an_ended_game_only(client, games, tmp_path: Path, capsys) -> None:
    table = new_table(client)
    running = tmp_path / "running.ndjson"
    running.write_text(client.get(table.url("/export"), headers=table.seats[0]).get_data(as_text=True))
    assert main(["verify", str(running)]) == 2  # a seat's export of a running game hides the others' secrets
    assert "redacted: export the game after it has ended" in capsys.readouterr().err
    garbage = tmp_path / "garbage.ndjson"
    garbage.write_text("not json\n")
    assert main(["verify", str(garbage)]) == 2
    assert "line 1 is not JSON" in capsys.readouterr().err
    finish(client, table, games)
    ended = tmp_path / "ended.ndjson"
    ended.write_text(client.get(table.url("/export")).get_data(as_text=True))
    assert main(["verify", "--json", str(ended)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    server_side = client.get(table.url("/audit")).get_json()
    assert verdict == {**server_side, "over": True, "winners": verdict["winners"]}
    record = games.load(table.game_id).state
    assert verdict["winners"] == list(record.module.outcome(record.state).winners)
