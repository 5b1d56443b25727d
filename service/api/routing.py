"""URL matching that remembers what it matched: the same rule and values for the same path and method.

Werkzeug matches a request's path by walking its rules' state machine in a
nested function that refers to itself, so every match leaves a reference
cycle (the function, its five cells, a set and a tuple) that only the
garbage collector frees. Those eight objects were most of what an action
left behind it: with them a young collection (0.2-0.7 ms, every greenlet of
the worker waiting) came every 70 requests or so, inside the action's p99.
A path already matched is answered from a table instead, which makes
nothing to collect and skips the walk; a client plays one game, so its
paths repeat.

What is remembered depends only on the rules, which are all added at the
start (adding one forgets everything). A path that matches nothing, or
asks for a redirect, raises as before and is not remembered; nor is a path
past ``LONGEST`` characters. Past ``MATCHES`` entries the table starts over:
a bound on memory that costs one walk per path afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from typing import Any

from werkzeug.routing import Map, Rule, RuleFactory
from werkzeug.routing.matcher import StateMachineMatcher

#: Matches each process remembers before it starts over.
MATCHES = 4096
#: Paths longer than this (no route of the API comes near) are matched every time.
LONGEST = 256


class RememberingMatcher(StateMachineMatcher):
    def __init__(self, merge_slashes: bool):
        super().__init__(merge_slashes)
        self._found: dict[tuple[str, str, str, bool], tuple[Rule, dict[str, Any]]] = {}

    def add(self, rule: Rule) -> None:
        self._found.clear()
        super().add(rule)

    def update(self) -> None:
        self._found.clear()
        super().update()

    def match(self, domain: str, path: str, method: str, websocket: bool) -> tuple[Rule, MutableMapping[str, Any]]:
        key = (domain, path, method, websocket)
        found = self._found.get(key)
        if found is None:
            rule, values = super().match(domain, path, method, websocket)
            found = (rule, dict(values))
            if len(path) <= LONGEST:
                if len(self._found) >= MATCHES:
                    self._found.clear()
                self._found[key] = found
        # A copy: Flask hands the values to the view as its keyword arguments.
        return found[0], dict(found[1])


class RememberingMap(Map):
    """werkzeug's ``Map``, matching with ``RememberingMatcher`` (Flask's ``url_map_class``)."""

    def __init__(self, rules: Iterable[RuleFactory] | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(None, *args, **kwargs)  # the rules go to the matcher below
        self._matcher = RememberingMatcher(self.merge_slashes)
        for rule in rules or ():
            self.add(rule)
