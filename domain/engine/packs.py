"""Reading a game's content pack: YAML files of items, every problem reported at once.

A pack author fixes a whole pack in one round trip: each item (a tile, a
card, a scenario...) is validated on its own by a marshmallow schema, so one
broken item does not hide the problems of the others, and every problem ends
up in one ``PackError``, one line each, naming the file and the item. A
game's loader reads its files through a ``PackReader``, adds the checks that
span items (references, counts, connectivity) as further problems, and
raises ``PackError`` at the end if there are any.

Nothing here knows a game: the files, the schemas and the cross-checks are
the game's own.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from importlib.resources.abc import Traversable
from typing import Any, TypeVar

import yaml
from marshmallow import RAISE, Schema, ValidationError

# libyaml's safe loader reads the same documents several times faster than the
# pure-Python one; a pack of a whole box is thousands of lines, read by every
# process that plays. Without libyaml, the pure-Python loader reads it alike.
_SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

T = TypeVar("T")


class PackError(Exception):
    """A content pack that cannot be loaded; ``problems`` lists every reason."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = list(problems)
        lines = "\n".join(f"  - {problem}" for problem in self.problems)
        super().__init__(f"content pack {source} has {len(self.problems)} problem(s):\n{lines}")


class Strict(Schema):
    """A pack item's schema: a key it does not know is a problem, not ignored."""

    class Meta:
        unknown = RAISE


@functools.cache
def _instance(schema: type[Schema]) -> Schema:
    """One instance a schema class: a marshmallow schema loads item after item alike, and making one deep-copies
    its declared fields and builds its nested schemas, most of what reading a pack cost."""
    return schema()


def duplicates(values: Iterable[Any]) -> list[Any]:
    return [value for value, count in Counter(values).items() if count > 1]


class PackReader:
    """Collects the loaded items, the problems, and which ids were broken."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.broken: set[str] = set()  # ids of items that failed their schema
        # every id seen, with where it was seen, for the pack-wide uniqueness check
        self.owners: dict[str, list[str]] = {}
        # the ids seen of each kind, for the per-kind uniqueness check (``once``)
        self.kinds: dict[str, set[Any]] = {}

    def problem(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def yaml(self, node: Traversable, name: str) -> Any:
        if not node.is_file():
            self.problem(name, "file is missing")
            return None
        try:
            return yaml.load(node.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)
        except yaml.YAMLError as err:
            self.problem(name, f"is not valid YAML: {err}".replace("\n", " "))
            return None

    def folder(self, root: Traversable) -> dict[str, Any]:
        """Every ``*.yaml`` file of ``root`` parsed, by stem (``board.yaml`` as ``board``); a file that
        is not valid YAML is a problem and reads as None."""
        return {node.name[:-5]: self.yaml(node, node.name) for node in root.iterdir() if node.name.endswith(".yaml")}

    def mapping(self, raw: Any, name: str, keys: Iterable[str]) -> dict | None:
        if raw is None:
            return None
        if not isinstance(raw, dict):
            self.problem(name, f"must be a mapping with the key(s) {', '.join(keys)}")
            return None
        for key in raw:
            if key not in keys:
                self.problem(name, f"unknown top-level key {key!r} (expected {', '.join(keys)})")
        return raw

    def items(self, raw: dict | None, name: str, key: str, schema: type[Schema], noun: str) -> list[tuple[str, Any]]:
        """The items that loaded, each with where it is (``file: noun 'id'``)."""
        if raw is None:
            return []
        if key not in raw:
            self.problem(name, f"missing top-level key {key!r}")
            return []
        items = raw[key]
        if not isinstance(items, list):
            self.problem(name, f"{key!r} must be a list of {noun}s")
            return []
        out = []
        for i, item in enumerate(items):
            where = f"{name}: {label(noun, item, i)}"
            obj = self.item(item, where, schema)
            if obj is not None:
                out.append((where, obj))
        return out

    def records(self, raw: Any, key: str, name: str, keys: Collection[str]) -> list[dict[str, Any]]:
        """The mappings listed under ``key`` of ``raw`` (file ``name``), each checked only for keys it
        may have, not by a schema: for a game that builds its records itself (``build``)."""
        listed = raw.get(key) if isinstance(raw, dict) else None
        if not isinstance(listed, list):
            self.problem(name, f"{key} must be a list")
            return []
        out = []
        for record in listed:
            if not isinstance(record, dict):
                self.problem(name, f"not a mapping: {record!r}")
                continue
            unknown = sorted(set(record) - set(keys))
            if unknown:
                self.problem(f"{name} {record.get('id')}", f"unknown keys {unknown}")
            out.append(record)
        return out

    def build(self, where: str, build: Callable[..., T], *args: Any) -> T | None:
        """``build(*args)``, or None and a problem if a field it reads is missing or malformed."""
        try:
            return build(*args)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            self.problem(where, f"missing or malformed field ({err})")
            return None

    def once(self, kind: str, item_id: Any, where: str) -> None:
        """An id names one item of its ``kind``; a second one is a problem (ids unique per kind; ``own``
        checks them across the whole pack)."""
        seen = self.kinds.setdefault(kind, set())
        if item_id in seen:
            self.problem(where, f"{kind} id {item_id!r} used twice")
        seen.add(item_id)

    def item(self, data: Any, where: str, schema: type[Schema]) -> Any:
        try:
            return _instance(schema).load(data)
        except ValidationError as err:
            self.broke(data)
            for path, message in flatten(err.messages, data):
                self.problem(where, f"{path}: {message}" if path else message)
            return None

    def broke(self, data: Any) -> None:
        """Remember an item that failed its schema, so references to it are not reported again."""
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            self.broken.add(data["id"])

    def own(self, item_id: str, where: str) -> None:
        self.owners.setdefault(item_id, []).append(where)

    def files_with_problems(self) -> set[str]:
        # every problem starts with its file name
        return {problem.split(":", 1)[0] for problem in self.problems}

    def finish(self, source: str) -> None:
        """Raise ``PackError`` with every problem found, if there is any."""
        if self.problems:
            raise PackError(source, self.problems)


def label(noun: str, item: Any, index: int) -> str:
    if isinstance(item, dict) and isinstance(item.get("id"), str):
        return f"{noun} {item['id']!r}"
    return f"{noun} #{index + 1}"


def flatten(messages: Any, data: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Turn marshmallow's nested error dict into (path, message) lines.

    List positions are shown by the item's id where it has one, because a pack
    author searches the YAML for ids, not for positions.
    """
    if isinstance(messages, dict):
        for key, sub in messages.items():
            if key == "_schema":
                yield from flatten(sub, data, path)
            elif isinstance(key, int):
                child = data[key] if isinstance(data, list) and 0 <= key < len(data) else None
                name = child["id"] if isinstance(child, dict) and isinstance(child.get("id"), str) else key
                yield from flatten(sub, child, f"{path}[{name}]")
            else:
                child = data.get(key) if isinstance(data, dict) else None
                yield from flatten(sub, child, f"{path}.{key}" if path else str(key))
    elif isinstance(messages, list):
        for message in messages:
            yield from flatten(message, data, path)
    else:
        yield path, str(messages)


def read_folder(root: Traversable, source: str) -> dict[str, Any]:
    """Every ``*.yaml`` file of the folder ``root`` parsed, by stem; ``PackError`` naming every file
    that is not valid YAML."""
    reader = PackReader()
    files = reader.folder(root)
    reader.finish(source)
    return files
