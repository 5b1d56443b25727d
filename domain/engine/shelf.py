"""Content packs by content address: a game plays its own pack for good.

A pack is a folder of YAML files. Its **content hash** is the sha256 of the
canonical JSON list ``[[path, sha256 of the file's bytes], ...]`` over its
``.yaml`` files (paths relative to the folder, ``/``-separated, sorted), so
anyone can compute it from the files alone. Its **address** is
``<name>@<hash>``.

Authors edit the bundled folder (``<package>/<name>/``); every version of a
pack that ever shipped is kept, byte for byte, as a frozen copy in
``<package>/frozen/<name>@<hash>/`` (``holotape packs --freeze`` writes it,
and a test fails while the bundled pack has none). An address whose hash is
the bundled folder's reads that folder: the same bytes. A game records the address
when it is created (its resolved options' ``pack``), so it loads the files it
was created with in every later release, whatever the bundled folder holds by
then; a bare name (games from before addresses, and tests) means the bundled
folder as it is now.

Only reading happens here: the domain stays free of writes.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

#: Between a pack's name and its content hash in an address.
AT = "@"
FROZEN = "frozen"


class UnknownPack(KeyError):
    """No pack by that name, or no frozen copy of that address in this install."""


def yaml_files(root: Traversable, prefix: str = "") -> dict[str, Traversable]:
    """Every ``.yaml`` file below ``root`` by its relative path."""
    found: dict[str, Traversable] = {}
    for entry in root.iterdir():
        if entry.is_dir():
            if not entry.name.startswith(("_", ".")):
                found.update(yaml_files(entry, f"{prefix}{entry.name}/"))
        elif entry.name.endswith(".yaml"):
            found[prefix + entry.name] = entry
    return found


def content_hash(root: Traversable) -> str:
    """The pack's content hash (module docstring): the same files hash the same anywhere."""
    listing = [[path, hashlib.sha256(f.read_bytes()).hexdigest()] for path, f in sorted(yaml_files(root).items())]
    return hashlib.sha256(json.dumps(listing, separators=(",", ":")).encode()).hexdigest()


def split(pack: str) -> tuple[str, str | None]:
    """``("base", hash)`` for an address, ``("base", None)`` for a bare name."""
    name, _, digest = pack.partition(AT)
    return name, digest or None


@dataclass(frozen=True)
class Shelf:
    """A game's packs: the bundled folders under ``package`` and their frozen copies."""

    package: str  # e.g. "domain.fallout.packs"
    names: tuple[str, ...]  # the bundled packs, the default first

    def root(self) -> Traversable:
        return resources.files(self.package)

    def bundled(self, name: str) -> Traversable:
        if name not in self.names:
            raise UnknownPack(name)
        return self.root() / name

    def address(self, pack: str) -> str:
        """The address of ``pack``: an address stays itself, a bare name is the bundled folder's now."""
        name, digest = split(pack)
        if digest is not None:
            return pack
        return _address(self, name)

    def open(self, pack: str) -> Traversable:
        """The folder of ``pack``: a frozen copy for an address, the bundled folder for a bare name."""
        name, digest = split(pack)
        if digest is None or (name in self.names and _address(self, name) == pack):
            return self.bundled(name)  # the same bytes as its frozen copy, by its hash
        folder = self.root() / FROZEN / pack
        if not folder.is_dir():
            raise UnknownPack(pack)
        return folder

    def frozen(self) -> list[str]:
        """The addresses of every frozen copy this install holds."""
        folder = self.root() / FROZEN
        return sorted(entry.name for entry in folder.iterdir() if AT in entry.name) if folder.is_dir() else []


@functools.cache
def _address(shelf: Shelf, name: str) -> str:
    # Hashing reads the whole pack: once per process and pack.
    return f"{name}{AT}{content_hash(shelf.bundled(name))}"
