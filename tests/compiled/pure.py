"""``python -m tests.compiled.pure MODULE [ARGS]``: runs ``python -m MODULE [ARGS]`` on the pure build.

Python's import system prefers an extension module to the source beside it,
so with the compiled build (``make compiled``) in place every process runs
it. This one does not: before anything of ``domain/`` or ``bots/`` is
imported, ``SourceFirst`` takes their modules from their ``.py`` files. The
equality test runs its plays so (``tests.compiled.plays``), and
``tests.bench.builds`` its pure figures.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
#: The packages the compiled build compiles (``make compiled``).
COMPILED_PACKAGES = ("domain", "bots")


class SourceFirst(importlib.abc.MetaPathFinder):
    """Imports the compiled packages' modules from their ``.py`` files even where an extension module sits
    beside them (Python's own finder prefers the extension)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.split(".")[0] not in COMPILED_PACKAGES:
            return None
        folder = ROOT.joinpath(*fullname.split("."))
        if (folder / "__init__.py").is_file():
            return importlib.util.spec_from_file_location(
                fullname, folder / "__init__.py", submodule_search_locations=[str(folder)]
            )
        source = folder.with_suffix(".py")
        return importlib.util.spec_from_file_location(fullname, source) if source.is_file() else None


def compiled_modules() -> list[str]:
    """The modules of the compiled packages this process imported from an extension module."""
    return sorted(
        name for name, module in list(sys.modules.items())
        if name.split(".")[0] in COMPILED_PACKAGES and (getattr(module, "__file__", None) or "").endswith(".so")
    )


def stale_builds() -> list[str]:
    """The compiled modules (extension files under the compiled packages) older than their source, or
    with no source left: Python would run them in place of the code beside them."""
    stale = []
    for package in COMPILED_PACKAGES:
        for built in sorted((ROOT / package).rglob("*.so")):
            source = built.with_name(built.name.split(".")[0] + ".py")
            if not source.is_file() or source.stat().st_mtime > built.stat().st_mtime:
                stale.append(str(built.relative_to(ROOT)))
    return stale


if __name__ == "__main__":
    sys.meta_path.insert(0, SourceFirst())
    sys.argv = sys.argv[1:]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
