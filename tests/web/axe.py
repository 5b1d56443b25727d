"""axe-core, the accessibility checker, run in the test's pages: 0 serious or critical violations allowed.

axe-core comes from the npm registry (``npm pack axe-core@AXE_VERSION``, which
checks the tarball against the registry's integrity hash) into ``.holotape/``
(ignored by git) the first time it is needed: ``make browser`` fetches it
beside the browser, so a test run only reads it. The page gets it from its own
origin (a route the test serves, ``/__axe.js``), never from a CDN, so the
pages' Content-Security-Policy holds while axe runs.
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
AXE_VERSION = "4.14.1"
AXE_FILE = ROOT / ".holotape" / f"axe-core-{AXE_VERSION}" / "axe.min.js"

#: The impacts a page may not have at all.
FORBIDDEN = ("serious", "critical")


def ensure_axe() -> Path:
    """axe.min.js at AXE_VERSION, fetched from the npm registry the first time."""
    if AXE_FILE.exists():
        return AXE_FILE
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is needed once to fetch axe-core from the npm registry: apt-get install -y npm")
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([npm, "pack", f"axe-core@{AXE_VERSION}", "--pack-destination", folder, "--silent"],
                       check=True, stdout=subprocess.DEVNULL)  # fmt: skip
        with tarfile.open(Path(folder) / f"axe-core-{AXE_VERSION}.tgz") as packed:
            member = packed.extractfile("package/axe.min.js")
            assert member is not None, "axe-core's package has no axe.min.js"
            source = member.read()
    AXE_FILE.parent.mkdir(parents=True, exist_ok=True)
    written = AXE_FILE.with_suffix(".tmp")
    written.write_bytes(source)
    written.replace(AXE_FILE)
    return AXE_FILE


def serve_axe(page: Page) -> None:
    """Let ``page`` load axe from its own origin (before it navigates)."""
    source = ensure_axe().read_bytes()
    page.route("**/__axe.js", lambda route: route.fulfill(body=source, content_type="text/javascript"))


def violations(page: Page) -> list[dict]:
    """axe's serious and critical violations of the page as it stands (WCAG 2.x A and AA, and best practice)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(url="/__axe.js")
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"
    )
    return [v for v in found if v["impact"] in FORBIDDEN]


def assert_accessible(page: Page, what: str) -> None:
    found = violations(page)
    assert found == [], f"axe finds serious or critical violations on {what}: {found}"
