"""The stack `make run` starts (API, worker, embedded Redis), and a browser to visit it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.web.browser import LAUNCH_ARGS, MISSING, ensure_chromium
from tests.web.stack import ROOT, Stack, running_stack


# One stack and one browser for the whole session: every browser test runs on one xdist worker (the "browser"
# group), so starting them once saves a stack's start (8 s) and a browser's launch for each module after the first.
@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """``holotape run`` (what `make run` runs) on a free port, with its own embedded Redis."""
    with running_stack(tmp_path_factory.mktemp("run")) as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    chromium = ensure_chromium()
    if chromium is None:
        pytest.skip(MISSING)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(chromium), args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    """Where the test saves its screenshots: HOLOTAPE_SCREENSHOTS (`make screenshots`: docs/screenshots), else a temp folder."""
    chosen = os.environ.get("HOLOTAPE_SCREENSHOTS")
    folder = (ROOT / chosen) if chosen else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder
