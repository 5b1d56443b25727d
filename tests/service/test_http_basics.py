"""Health, the API document, and problem+json for every error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import redis
import yaml
from openapi_spec_validator import validate

from service import wiring
from service.api import create_app
from service.cli import openapi_document
from service.usecases.services import Services

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(services: Services):
    return create_app(services).test_client()


def test_healthz_reports_redis_and_the_version(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.get_json()
    assert body["redis"] is True and body["status"] == "ok" and body["version"]


def test_healthz_says_503_when_redis_does_not_answer():
    response = create_app(wiring.build(redis.Redis.from_url("redis://127.0.0.1:1/0"))).test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["redis"] is False


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status", "code"),
    [
        ("get", "/no/such/thing", {}, 404, "not_found"),
        ("delete", "/healthz", {}, 405, "method_not_allowed"),
        ("post", "/healthz", {"data": "x=1", "content_type": "text/plain"}, 415, "unsupported_media_type"),
    ],
)
def test_errors_are_problem_json_with_a_stable_code(client, method, path, kwargs, status, code):
    response = getattr(client, method)(path, **kwargs)
    assert response.status_code == status
    assert response.content_type == "application/problem+json"
    body = response.get_json()
    assert body["code"] == code and body["status"] == status and body["title"]
    assert "Traceback" not in response.get_data(as_text=True)


def test_the_committed_openapi_yaml_matches_the_code():
    """Run `make openapi` when this fails: the API changed without its document."""
    committed = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    assert committed == openapi_document()


def test_the_api_document_is_valid_openapi():
    validate(openapi_document())


def test_openapi_and_docs_are_served(client):
    assert client.get("/openapi.json").get_json()["info"]["title"] == "Holotape"
    assert client.get("/docs").status_code == 200


def test_error_responses_are_documented_as_problem_json():
    responses = openapi_document()["components"]["responses"]
    assert "application/problem+json" in responses["DEFAULT_ERROR"]["content"]


def test_every_operation_documents_examples():
    """Request bodies, successful answers and query or header parameters all carry an example."""
    missing = []
    for path, item in openapi_document()["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            media = [
                (f"{code} answer", m)
                for code, answer in operation["responses"].items()
                if str(code).startswith("2")
                for m in answer.get("content", {}).values()
            ]
            media += [("request body", m) for m in operation.get("requestBody", {}).get("content", {}).values()]
            missing += [f"{method} {path}: {what}" for what, m in media if "example" not in m and "examples" not in m]
            missing += [
                f"{method} {path}: {p['name']}"
                for p in operation.get("parameters", [])
                if p["in"] in ("query", "header") and "example" not in p and "example" not in p.get("schema", {})
            ]
    assert missing == []


def test_the_api_docs_page_loads_everything_from_the_service(client):
    """/docs works offline: its scripts and styles come from the service, never a CDN."""
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert assets and not [a for a in assets if "://" in a]
    for asset in assets:
        served = client.get(asset)
        assert served.status_code == 200 and len(served.get_data()) > 1000, asset
