"""Whole games of random play, played once per test session and read by every test that needs them.

The random-play property tests play hundreds of whole games. Several tests read the same games: a
quick test in the fast lane plays the first few seeds of a slow test's two hundred, and each slow
test is split into parts that xdist hands to different workers, while a last test reads what the
parts found over all two hundred (both endings met, every command used). So each game is played
once, by whichever test asks first, under a lock, and what the tests need of it (a small summary,
never the state) is kept for the rest of the session.

The record lives in the session's temporary folder, which every xdist worker of one run shares
(``tmp_path_factory``'s base folder's parent under xdist) and no later run sees: nothing is kept
between runs, so CI on a fresh clone (``-p no:cacheprovider``) plays every game. A key names the
game's rules version (``Game.rules``) along with its seed and settings, so a summary is never read
for rules it was not played under.
"""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


class SharedGames:
    """Summaries of played games by key, shared by the tests and xdist workers of one session."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def _path(self, key: str) -> Path:
        return self.folder / (key.replace("/", "_") + ".pickle")

    def each(self, games: Mapping[str, T], play: Callable[[T], Any]) -> Iterator[tuple[str, Any]]:
        """(key, summary) for every game of ``games`` (key: what ``play`` is given to play it), calling
        ``play`` for those no test has played yet.

        A game another worker is playing right now is left for later and the next one taken, so two
        workers asking for overlapping games both keep busy and neither plays one twice; what is
        yielded is therefore not always in the order of ``games``. An exception from ``play`` (a
        broken invariant) propagates and records nothing: the next test to ask plays it again."""
        pending = list(games)
        while pending:
            busy = []
            for key in pending:
                found = self._take(key, lambda key=key: play(games[key]), wait=False)
                if found is _BUSY:
                    busy.append(key)
                else:
                    yield key, found
            if busy == pending:
                # Every game left is being played elsewhere: wait for the first of them.
                key = busy.pop(0)
                yield key, self._take(key, lambda key=key: play(games[key]), wait=True)
            pending = busy

    def _take(self, key: str, play: Callable[[], Any], wait: bool) -> Any:
        path = self._path(key)
        with open(path.with_suffix(".lock"), "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                return _BUSY
            if path.exists():
                return pickle.loads(path.read_bytes())
            summary = play()
            written = path.with_suffix(f".{os.getpid()}.tmp")
            written.write_bytes(pickle.dumps(summary))
            written.replace(path)
            return summary


_BUSY = object()


def session_folder(tmp_path_factory: Any, name: str = "shared-games") -> Path:
    """A folder of this run that every xdist worker shares (under the base temp folder's parent under
    xdist, the base temp folder itself without), and no other run sees."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name
