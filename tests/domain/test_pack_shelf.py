"""Content packs by address (``domain.engine.shelf``): a game plays the pack it was created with, for good.

Every bundled pack must have its frozen copy before it ships, so that when
an author later edits the bundled folder, the games created before still load
their own files (`holotape packs --freeze`, docs/versioning.md).
"""

from __future__ import annotations

import hashlib
import json

import pytest

from domain import registry
from domain.engine.shelf import FROZEN, content_hash, split, yaml_files
from domain.game import Game

SHELVED = [name for name in registry.builtin_names() if registry.game_module(name).shelf is not None]


def _module(name: str) -> Game:
    return registry.game_module(name)


@pytest.mark.parametrize("game", SHELVED)
def test_every_bundled_pack_has_its_frozen_copy_byte_for_byte(game: str) -> None:
    shelf = _module(game).shelf
    assert shelf is not None
    for pack in shelf.names:
        address = shelf.address(pack)
        frozen = shelf.root() / FROZEN / address
        assert frozen.is_dir(), f"{game}: {address} has no frozen copy: run `holotape packs --freeze` and commit it"
        bundled = {path: f.read_bytes() for path, f in yaml_files(shelf.bundled(pack)).items()}
        kept = {path: f.read_bytes() for path, f in yaml_files(frozen).items()}
        assert kept == bundled


@pytest.mark.parametrize("game", SHELVED)
def test_every_frozen_copy_is_named_by_its_content_hash(game: str) -> None:
    shelf = _module(game).shelf
    assert shelf is not None
    assert shelf.frozen(), "no frozen pack at all"
    for address in shelf.frozen():
        name, digest = split(address)
        assert name in shelf.names
        assert digest == content_hash(shelf.root() / FROZEN / address), f"{address} was edited after it was frozen"


@pytest.mark.parametrize("game", SHELVED)
def test_a_new_game_records_its_packs_address_and_a_bare_name_still_loads(game: str) -> None:
    module = _module(game)
    shelf = module.shelf
    assert shelf is not None
    resolved = module.resolve_options({})
    assert resolved["pack"] == shelf.address(shelf.names[0])
    assert split(resolved["pack"])[1] == content_hash(shelf.bundled(shelf.names[0]))
    # Options resolved twice stay the same address (a fork, a replay).
    assert module.resolve_options({**resolved, "pack": shelf.names[0]})["pack"] == resolved["pack"]


def test_the_content_hash_is_over_file_names_and_bytes(tmp_path) -> None:
    """Anyone can compute it from the files: sha256 of the sorted [path, sha256(bytes)] list."""
    (tmp_path / "a.yaml").write_text("a: 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.yaml").write_text("b: 2\n")
    (tmp_path / "notes.txt").write_text("not content")
    listing = [[p, hashlib.sha256(b).hexdigest()] for p, b in (("a.yaml", b"a: 1\n"), ("sub/b.yaml", b"b: 2\n"))]
    expected = hashlib.sha256(json.dumps(listing, separators=(",", ":")).encode()).hexdigest()
    assert content_hash(tmp_path) == expected
    (tmp_path / "sub" / "b.yaml").write_text("b: 3\n")
    assert content_hash(tmp_path) != expected
