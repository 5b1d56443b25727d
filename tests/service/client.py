"""A Python client generated from the API document, as a third party would make it, for our own tests.

``openapi-python-client`` (pinned in the test extras) generates the package
``holotape_client`` at test time, offline, with ``clients/python/config.yaml``,
from the document of every game the tests host (``openapi.yaml``, which a test
keeps equal to the code, plus the test's counter game). The package is kept in
pytest's cache under the document's hash, so it is generated again only when
the document changes.

``Typed`` plays through it: every request is built and every answer parsed by
the generated models, each answer is checked against the document
(``tests.service.conformance``), and each parsed body must give back the JSON
it was read from (``to_dict()``), so a model that drops or misreads a field
fails the test. A schema the generator cannot use fails our own tests.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib
import json
import shutil
import subprocess
import sys
from collections import Counter
from importlib.metadata import version
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import httpx
import pytest
import yaml

from domain import registry
from tests.shared_games import session_folder

if TYPE_CHECKING:
    from tests.service.conformance import Conformance

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "clients" / "python" / "config.yaml"
PACKAGE = "holotape_client"
BASE_URL = "http://holotape.test"


def generate(document: dict[str, Any], into: Path) -> str:
    """Generate the client package from ``document`` into ``into``/holotape_client; the generator's output."""
    into.mkdir(parents=True, exist_ok=True)
    source = into / "openapi.yaml"
    source.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True))
    done = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(source), "--meta", "none",
         "--output-path", str(into / PACKAGE), "--config", str(CONFIG), "--overwrite"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return output


def warnings_of(output: str) -> list[str]:
    """The generator's warnings and errors: each from its line that begins WARNING or ERROR to the next."""
    found: list[str] = []
    for line in output.splitlines():
        if line.startswith(("WARNING", "ERROR")):
            found.append(line)
        elif found and not line.startswith("If you believe this was a mistake"):
            found[-1] += "\n" + line
    return [warning.strip() for warning in found]


def document() -> dict[str, Any]:
    """The document of every game the tests host: openapi.yaml's, and the counter game's schemas."""
    from service.cli import openapi_document  # imported when a test asks: it builds the whole API

    return openapi_document(registry.names())


def _generated(cache: Path) -> ModuleType:
    document_ = document()
    key = hashlib.sha256(
        json.dumps([document_, version("openapi-python-client"), CONFIG.read_text()], sort_keys=True).encode()
    ).hexdigest()[:16]
    home = cache / key
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / "generating.lock", "a") as lock:
        # xdist's workers share the folder: one generates, the others wait for it and import its package.
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (home / PACKAGE / "__init__.py").exists():
            building = cache / f"{key}.building"
            shutil.rmtree(building, ignore_errors=True)
            generate(document_, building)
            shutil.rmtree(home, ignore_errors=True)
            building.rename(home)
            for older in cache.iterdir():  # clients of documents gone by
                if older != home and older.is_dir():
                    shutil.rmtree(older, ignore_errors=True)
    sys.path.insert(0, str(home))
    importlib.import_module(f"{PACKAGE}.models")
    return importlib.import_module(PACKAGE)


@pytest.fixture(scope="session")
def generated(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The generated package ``holotape_client``, imported (kept in pytest's cache when it has one)."""
    cache = getattr(request.config, "cache", None)
    # Without pytest's cache (CI), a folder of this run that every xdist worker shares.
    return _generated(Path(cache.mkdir("holotape-client")) if cache else session_folder(tmp_path_factory, "client"))


@pytest.fixture(scope="session")
def conformance() -> Conformance:
    from tests.service.conformance import Conformance

    return Conformance(document())


def _snake(operation_id: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in operation_id)


class Typed:
    """Callers over the generated client, on an app in-process or a server's address."""

    def __init__(self, package: ModuleType, conformance: Conformance, *, app: Any = None, base_url: str = BASE_URL):
        self.package = package
        self.models = importlib.import_module(f"{PACKAGE}.models")
        self.conformance = conformance
        self.base_url = base_url
        self.transport = httpx.WSGITransport(app=app) if app is not None else None
        self.answers = 0
        self.raw: Any = None
        self.text = ""
        self.anonymous = self.caller(None)

    def _check(self, response: httpx.Response) -> None:
        response.read()
        self.conformance.check(response)
        self.answers += 1

    def caller(self, token: str | None) -> Any:
        """A client that sends ``token`` (None: none)."""
        args: dict[str, Any] = {"event_hooks": {"response": [self._check]}}
        if self.transport is not None:
            args["transport"] = self.transport
        if token is None:
            return self.package.Client(base_url=self.base_url, httpx_args=args, raise_on_unexpected_status=True)
        return self.package.AuthenticatedClient(
            base_url=self.base_url, token=token, httpx_args=args, raise_on_unexpected_status=True
        )

    def operation(self, operation_id: str) -> ModuleType:
        """The generated module of an operation (``sync_detailed``…), by its operationId."""
        name = _snake(operation_id)
        for tag in ("lobby", "games", "log", "stream", "rewind", "audit", "notify", "health", "players", "invitations", "mail"):
            try:
                return importlib.import_module(f"{PACKAGE}.api.{tag}.{name}")
            except ModuleNotFoundError:
                continue
        raise LookupError(operation_id)

    def call(self, operation_id: str, caller: Any = None, *args: Any, **kwargs: Any) -> Any:
        """Call ``operation_id`` and return its answer parsed: the model, which gives back the JSON it was read from.

        ``raw`` keeps the JSON as served, keys in the order sent (a bot's tie-breaks follow it).
        """
        answer = self.operation(operation_id).sync_detailed(*args, client=caller or self.anonymous, **kwargs)
        parsed = round_trip(answer)
        self.raw = json.loads(answer.content) if parsed is not None and not isinstance(parsed, str) else None
        self.text = answer.content.decode()
        return parsed

    def model(self, name: str) -> Any:
        return getattr(self.models, name)


def round_trip(answer: Any) -> Any:
    """``answer.parsed``, checked to give back exactly the JSON it was parsed from."""
    kind = answer.headers.get("content-type", "").split(";")[0]
    parsed = answer.parsed
    if kind in ("application/json", "application/problem+json"):
        assert parsed is not None, f"{answer.status_code}: the client parsed nothing from {answer.content[:200]!r}"
        raw = json.loads(answer.content)
        back = parsed.to_dict()
        assert back == raw, f"{type(parsed).__name__} does not give back what it read: {_first_difference(raw, back)}"
    return parsed


def _first_difference(raw: Any, back: Any, at: str = "") -> str:
    if isinstance(raw, dict) and isinstance(back, dict):
        for key in sorted(set(raw) | set(back)):
            if raw.get(key, "<absent>") != back.get(key, "<absent>"):
                return _first_difference(raw.get(key, "<absent>"), back.get(key, "<absent>"), f"{at}/{key}")
    if isinstance(raw, list) and isinstance(back, list) and len(raw) == len(back):
        for i, (a, b) in enumerate(zip(raw, back, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{at}/{i}")
    return f"{at or '/'}: read {json.dumps(raw)[:200]}, gave back {json.dumps(back, default=str)[:200]}"


@pytest.fixture
def typed(generated: ModuleType, conformance: Conformance, services: Any) -> Typed:
    """The generated client on the API in-process (the harness's Redis and use cases), with short streams."""
    from service.api import create_app
    from tests.service.conftest import TEST_CONFIG

    return Typed(generated, conformance, app=create_app(services, TEST_CONFIG))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """How many answers were checked against the document, by operation and status, when any were."""
    from tests.service.conformance import CHECKED

    if not CHECKED:
        return
    by_operation: dict[str, list[str]] = {}
    probes: Counter[int] = Counter()
    for (operation, status), count in sorted(CHECKED.items()):
        if " to " in operation:  # a method the path does not take, sent on purpose
            probes[status] += count
            continue
        by_operation.setdefault(operation, []).append(f"{status}×{count}")
    if probes:
        by_operation["(other methods)"] = [f"{status}×{count}" for status, count in sorted(probes.items())]
    terminalreporter.write_sep("-", f"{CHECKED.total()} answers conform to the API document")
    for operation, statuses in by_operation.items():
        terminalreporter.write_line(f"{operation}: {' '.join(statuses)}")
