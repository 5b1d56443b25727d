# Two commands for a newcomer: `make run` and `make test`. Both create .venv
# and install the project on first use; neither needs root or a Redis.
# `make test-fast` is the lane to run on every change: all but the tests
# marked slow.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 8000
DATA   ?= .holotape
PYTEST_ARGS ?=
# Both lanes run on every core with pytest-xdist; each worker starts its own
# embedded Redis, and tests marked xdist_group (the Redis Cluster's, the
# browser's) stay on one worker (tests/conftest.py). XDIST= runs in one process.
XDIST ?= -n auto --dist loadgroup

.PHONY: run test test-fast browser screenshots worker openapi bench lint lint-imports fuzz soak golden golden-legacy lock clean

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Holotape needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[server,test]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/holotape run --host $(HOST) --port $(PORT) --data $(DATA)

# The full lane, what CI runs (.ci/run): every test, the slow ones too.
test: $(STAMP) lint browser
	$(BIN)/python -m pytest $(XDIST) $(PYTEST_ARGS)

# The fast lane: everything not marked slow (whole-game random play, whole
# games over HTTP, the browser's first round, make run itself).
test-fast: $(STAMP) lint browser
	$(BIN)/python -m pytest $(XDIST) -m "not slow" $(PYTEST_ARGS)

# The browser tests (tests/web) drive Debian's chromium: installed here with
# apt-get when it is missing (CI runs as root), at once when it is there.
browser: $(STAMP)
	$(BIN)/python -m tests.web.browser

# The README's pictures of the lobby, a game, a replay, Zona's map, a game against a bot and a card's text,
# taken by the browser tests.
screenshots: $(STAMP) browser
	HOLOTAPE_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest tests/web -k "two_seats or solo_stalker or three_rounds" $(PYTEST_ARGS)

# The layer contracts, types over domain/, bots/, events/, service/ and workers/, and ruff over everything
# (configured in pyproject.toml).
lint: $(STAMP) lint-imports
	$(BIN)/mypy
	$(BIN)/ruff check .

lint-imports: $(STAMP)
	$(BIN)/lint-imports

worker: $(STAMP)
	$(BIN)/python -m workers.main

openapi: $(STAMP)
	$(BIN)/holotape openapi openapi.yaml

# Every figure of issue 13 next to its baseline, ratio and target; also
# written to bench.json (tests/bench). A few minutes.
bench: $(STAMP)
	$(BIN)/python -m tests.bench

# 200 games played over HTTP at once with 500 open streams, for ten minutes;
# prints errors, p99 latency and Redis memory per game (tests/soak.py). `make
# test` runs a short one (tests/service/test_soak.py).
SOAK_ARGS ?= --games 200 --streams 500 --seconds 600
soak: $(STAMP)
	$(BIN)/python -m tests.soak $(SOAK_ARGS)

# schemathesis with at least 300 generated requests per operation, plus the
# stateful run over the document's links; `make test` runs a few of each.
FUZZ_EXAMPLES ?= 300
fuzz: $(STAMP)
	HOLOTAPE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest tests/service/test_fuzz_api.py $(PYTEST_ARGS)

# Golden logs (tests/golden/README.md): whole games played over HTTP on a server
# of this tree (started on free ports, stopped at the end), each saved as its
# export and metadata in tests/golden/logs/. Three to four minutes.
GOLDEN_ARGS ?=
golden: $(STAMP)
	$(BIN)/python -m tests.golden.record $(GOLDEN_ARGS)

# The same with old commits of main, each run from a scratch worktree, and the
# RDB one of them leaves (tests/golden/legacy/).
golden-legacy: $(STAMP)
	$(BIN)/python -m tests.golden.record_legacy

# constraints.txt from the newest releases pyproject.toml allows, resolved in a
# fresh venv; then run `make test` and commit it with what it changed.
LOCK_VENV := .lock-venv
lock:
	rm -rf $(LOCK_VENV)
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(LOCK_VENV)/bin/python -m pip install --quiet '.[server,test]'
	{ sed -n '1,2p' constraints.txt; $(LOCK_VENV)/bin/python -m pip freeze --exclude holotape --exclude pip; } > constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf $(LOCK_VENV)
	@touch pyproject.toml  # the next make reinstalls .venv within the new set

clean:
	rm -rf $(VENV) $(LOCK_VENV) .pytest_cache .hypothesis
