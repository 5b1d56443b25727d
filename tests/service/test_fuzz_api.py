"""schemathesis against the app, from the document it serves: no 5xx, nothing off the document.

The document is the committed openapi.yaml (a test checks they match) plus
the schemas of the test's own counter game, which the targets below play.

Every operation gets generated requests (``HOLOTAPE_FUZZ_EXAMPLES`` each: a
few in ``make test``, 100 in ``make fuzz``), and the stateful run follows the
links the document declares (create a game, then look at it, join it, act,
propose…). Random game ids would only ever meet 404s, so each request is
aimed, in turn, at one of a few real games (in the lobby, running, over) and
sent with one of their tokens or none: the generated part is everything else.
"""

from __future__ import annotations

import itertools
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    status_code_conformance,
)

from domain import registry
from service.api import create_app
from service.cli import openapi_document
from tests.service.conformance import Conformance
from tests.service.tables import finish, new_table

EXAMPLES = int(os.environ.get("HOLOTAPE_FUZZ_EXAMPLES", "4"))
DOCUMENT = openapi_document(registry.names())
#: Every answer the fuzzing gets, checked as strictly as the end-to-end games' (tests/service/conformance.py).
CONFORMANCE = Conformance(DOCUMENT)


@schemathesis.check
def conforms_strictly(ctx, response, case):
    """Every body documented for its status and media type, and valid; a stream's messages each valid.

    Stands in for schemathesis's response_schema_conformance, which passes a
    body the document does not declare and reads an event stream's schema as
    one message's (the document declares the stream a string).
    """
    CONFORMANCE.check_operation(case.operation, response)
    return None


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    conforms_strictly,
]
#: Answers uncompressed: the WSGI transport hands back the bytes as the service sent them and, unlike an HTTP
#: client, decodes no Content-Encoding (service/api/compression.py compresses for clients that accept it).
PLAIN = {"Accept-Encoding": "identity"}

FUZZ_CONFIG = {
    "RATE_LIMIT": "0",
    "STREAM_MAX_SECONDS": 0.2,
    "STREAM_IDLE_SECONDS": 0.1,
    "STREAM_KEEPALIVE_SECONDS": 0.05,
}
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    database=None,
)


class Targets:
    """Real games and tokens to aim generated requests at, taken in turn."""

    def __init__(self, services):
        games = services.games
        app = create_app(services, FUZZ_CONFIG)
        client = app.test_client()
        lobby = new_table(client, seed="fuzz-lobby", players=["Ann"])
        running = new_table(client, seed="fuzz-running")
        ended = new_table(client, seed="fuzz-ended")
        finish(client, ended, games)
        # A player holding seat 0 of the running game, for /players/me…; invitations to the lobby's open seat.
        player = client.post("/players", json={"name": "Pat"}).get_json()["token"]
        seat_token = running.seats[0]["Authorization"].split()[1]
        client.post("/players/me/seats", json={"game_id": running.game_id, "token": seat_token},
                    headers={"Authorization": f"Bearer {player}"})  # fmt: skip
        self.player = {"Authorization": f"Bearer {player}"}
        codes = [client.post(lobby.url("/invitations"), json={}, headers=lobby.creator).get_json()["code"] for _ in range(3)]
        self.codes = itertools.cycle([*codes, "not-a-code"])
        self.app = app
        self.tokens = {
            table.game_id: [table.seats[0], table.creator, {}, table.seats.get(1, {})]
            for table in (lobby, running, ended)
        }
        self.tokens[running.game_id].append(self.player)
        self.turns = itertools.count()
        self.aims = itertools.cycle([(game_id, h) for game_id, held in self.tokens.items() for h in held])

    def aim(self, case) -> None:
        game_id, headers = next(self.aims)
        if "game_id" in (case.path_parameters or {}):
            case.path_parameters["game_id"] = game_id
        if "code" in (case.path_parameters or {}):
            case.path_parameters["code"] = next(self.codes)
        if case.operation.path.startswith("/players/me") and headers is not self.player:
            headers = self.player if next(self.turns) % 4 else headers  # mostly as the player
        case.headers = {**(case.headers or {}), **headers, **PLAIN}


@pytest.fixture
def targets(services) -> Targets:
    return Targets(services)


schema = schemathesis.openapi.from_dict(DOCUMENT)


@schema.parametrize()
@FUZZ_SETTINGS
def test_every_operation_answers_within_the_document(case, targets):
    targets.aim(case)
    case.call_and_validate(app=targets.app, checks=CHECKS)


def test_the_documented_links_hold_up_statefully(services, redis_client):
    base = schemathesis.openapi.from_dict(DOCUMENT).as_state_machine()
    # Each scenario starts from the same server state, so the same choices
    # meet the same answers: hypothesis replays a scenario to shrink it and
    # refuses one whose links changed under it (FlakyStrategyDefinition).
    run: dict = {}

    class Machine(base):
        def setup(self):
            redis_client.flushdb()
            run["targets"] = Targets(services)
            run["tokens"] = dict(run["targets"].tokens)  # and those of every game the machine creates
            run["turns"] = itertools.count()

        def call(self, case, **kwargs):
            if case.operation.method.upper() == "POST" and case.operation.path == "/games" and isinstance(case.body, dict):
                # A game set up from the server's random seed would answer the
                # same choices differently from one scenario to the next.
                case.body.setdefault("seed", "fuzz")
            # Links carry the game id; the tokens its creation answered ride along.
            known = run["tokens"].get((case.path_parameters or {}).get("game_id", ""))
            if known:
                case.headers = {**(case.headers or {}), **known[next(run["turns"]) % len(known)]}
            case.headers = {**(case.headers or {}), **PLAIN}
            return case.call(app=run["targets"].app, **kwargs)

        def after_call(self, response, case):
            try:
                body = response.json() if response.status_code == 201 else None
            except ValueError:
                body = None
            if isinstance(body, dict) and "creator_token" in body:
                held = [body["creator_token"], *(s["token"] for s in body["seats"])]
                run["tokens"][body["game_id"]] = [{"Authorization": f"Bearer {t}"} for t in held] + [{}]

        def validate_response(self, response, case, **kwargs):
            case.validate_response(response, checks=CHECKS)

    Machine.run(
        settings=settings(
            max_examples=max(EXAMPLES, 2), stateful_step_count=6, deadline=None,
            suppress_health_check=list(HealthCheck), derandomize=True, database=None,
        )
    )  # fmt: skip
