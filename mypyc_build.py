"""The optional compiled build: ``domain/`` and ``bots/`` compiled with mypyc, beside their sources.

``make compiled`` runs this (``python mypyc_build.py``): mypyc turns each
module below into C, gcc builds the C into extension modules, and
``build_ext --inplace`` puts each next to the ``.py`` it came from
(``domain/fallout/advance.cpython-311-x86_64-linux-gnu.so``), with the
shared runtime in ``holotape__mypyc.*.so`` at the top. Python's import
system prefers an extension module to a source file of the same name, so
every process started from this tree then runs the compiled code;
``make pure`` deletes the ``.so`` files and with them the compiled build.

The pure-Python sources stay the reference: nothing in them knows whether
it is compiled, and ``tests/compiled`` proves both builds record the same
events. Left out (``SKIPPED``, each with why) are the modules mypyc refuses
or crashes on, and those that only read content packs, once per process.

Where ``ccache`` is installed the C goes through it, so a rebuild compiles
only the C files that changed. ``MYPYC_OPT_LEVEL`` (default 3) is gcc's optimisation level; ``BUILD_JOBS``
(default 1: the machine is shared) how many C files gcc compiles at once.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

from mypyc.build import mypycify
from setuptools import setup

ROOT = Path(__file__).resolve().parent
PACKAGES = ("domain", "bots")

#: Modules kept pure, and why.
SKIPPED = {
    # Classes that code outside the build subclasses (a deployment's own game, the tests' games and AIs):
    # Python cannot subclass a compiled class unless the class allows it (``allow_interpreted_subclasses``: the
    # Rng does, for the tests' scripted dice, ZonaAI, for the bots' tests' knobs, Effects and RulebookGame, for every
    # game's own; all are compiled).
    "domain/game.py": "Game, GameAI, RuleViolation: every game subclasses them",
    # Subclasses of KeyError: mypyc cannot compile a class inheriting from most builtin types.
    "domain/registry.py": "UnknownGame(KeyError)",
    "domain/engine/shelf.py": "UnknownPack(KeyError)",
    # Marshmallow schema classes: their fields are class-body statements mypyc does not support (and
    # marshmallow's metaclass reads them at run time).
    "domain/engine/packs.py": "pack component schemas",
    "domain/fallout/options.py": "the options schema",
    "domain/fallout/view_schema.py": "the view schema",
    "domain/zona/schemas.py": "the options and view schemas",
    "domain/engine/faces.py": "the card face's schema",
    # mypyc 2.4 crashes on them (an internal AssertionError), on code mypy accepts.
    "domain/fallout/turns.py": "reversed() over a value typed Any",
    "domain/zona/vocabulary.py": "an internal error",
    # The service's quick loads of commands and events: closures around marshmallow's fields, never in self-play.
    "domain/schema_loads.py": "marshmallow schemas walked at run time, by the service only",
    # Content packs: read and checked once per process, never in play.
    "domain/zona/pack.py": "Zona's pack loader (also an internal mypyc error)",
    "domain/fallout/pack": "Fallout's pack loader and checks (also an internal mypyc error)",
}


def sources() -> list[str]:
    """Every module of the compiled packages that is not ``SKIPPED``, as paths from the root."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if path.name == "__init__.py":
                # A package stays a folder with an __init__.py that tools find (grimp, import-linter): its
                # __init__ only imports.
                continue
            if not any(relative == skip or relative.startswith(skip + "/") for skip in SKIPPED):
                found.append(relative)
    return found


def _remove_leftovers(kept: list[str]) -> None:
    """Extension modules of an earlier build that this one does not make: a module since left out (it
    would shadow its source) and shared libraries by another name."""
    wanted = {Path(source).with_suffix("") for source in kept}
    for package in PACKAGES:
        for built in (ROOT / package).rglob("*.so"):
            if built.relative_to(ROOT).with_name(built.name.split(".")[0]) not in wanted:
                built.unlink()
    for library in ROOT.glob("*__mypyc.*.so"):
        if not library.name.startswith("holotape__mypyc."):
            library.unlink()


def main() -> None:
    os.chdir(ROOT)
    _remove_leftovers(sources())
    if "CC" not in os.environ and shutil.which("ccache"):
        # A rebuild after a small change then compiles only the C that changed.
        os.environ["CC"] = f"ccache {sysconfig.get_config_var('CC')}"
    modules = mypycify(
        sources(),
        opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
        # One C file per module: gcc builds a few small files in the memory one huge one would take, and
        # BUILD_JOBS can build them side by side.
        multi_file=True,
        group_name="holotape",
    )
    setup(
        name="holotape-compiled",
        ext_modules=modules,
        script_args=["build_ext", "--inplace", f"--parallel={os.environ.get('BUILD_JOBS', '1')}"],
    )
    # mypyc leaves an extension module in place when its bytes did not change (each module's own is a
    # small stub loading the shared library), so its time can be older than a source it was just built
    # from: every one is stamped now, and a source newer than its extension means a stale build
    # (tests/compiled/pure.py, `make engine`).
    for built in [*ROOT.glob("holotape__mypyc.*.so"), *(p for package in PACKAGES for p in (ROOT / package).rglob("*.so"))]:
        built.touch()
    print(f"compiled {len(sources())} modules of {', '.join(PACKAGES)}", file=sys.stderr)


if __name__ == "__main__":
    main()
