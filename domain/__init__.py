"""The rules of each game: pure, deterministic, free of I/O.

Nothing in here imports Redis, Flask, rq or the outer layers; the import-linter
contracts in ``pyproject.toml`` keep it that way.
"""
