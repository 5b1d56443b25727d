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
# Both lanes run on every core with pytest-xdist, one worker more than there
# are cores: many tests wait on a server, a browser, a worker or mail, and the
# extra worker keeps the cores busy meanwhile. Each worker starts its own
# embedded Redis, and tests marked xdist_group (the Redis Cluster's, the
# browser's) stay on one worker (tests/conftest.py). XDIST= runs in one process.
XDIST ?= -n $(shell echo $$(( $$(nproc) + 1 ))) --dist loadgroup

.PHONY: run test test-fast browser screenshots worker openapi bench profile profile-http profile-instructions compiled pure engine lint lint-imports fuzz soak golden golden-legacy lock clean

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Holotape needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
# The venv's own setuptools at the locked version too (a new venv brings an old one; the compiled
# build's setuptools must read pyproject's SPDX license), so the environment is the locked set.
	$(BIN)/python -m pip install --quiet -c constraints.txt setuptools
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[server,test]'
	@touch $(STAMP)

run: $(STAMP) engine
	$(BIN)/holotape run --host $(HOST) --port $(PORT) --data $(DATA)

# The full lane, what CI runs (.ci/run): every test, the slow ones too. A
# compiled copy of domain/ and bots/ builds in the background meanwhile
# (tests/compiled/tree.py, build/compiled-tree/; a minute of CPU, at the
# lowest priority: it fills the moments the workers leave a core idle), and
# tests/compiled waits for it and proves it records the pure build's events.
test: $(STAMP) engine lint browser
ifneq ($(HOLOTAPE_COMPILED),1)
	nice -n 19 $(BIN)/python -m tests.compiled.tree > /dev/null 2>&1 &
endif
	HOLOTAPE_COMPILED_TREE=$(if $(filter 1,$(HOLOTAPE_COMPILED)),,1) $(BIN)/python -m pytest $(XDIST) $(PYTEST_ARGS)

# The fast lane: everything not marked slow (whole-game random play, whole
# games over HTTP, the browser's first round, make run itself).
test-fast: $(STAMP) engine lint browser
	$(BIN)/python -m pytest $(XDIST) -m "not slow" $(PYTEST_ARGS)

# The browser tests (tests/web) drive Debian's chromium: installed here with
# apt-get when it is missing (CI runs as root), at once when it is there.
browser: $(STAMP)
	$(BIN)/python -m tests.web.browser

# The optional compiled build (README, "Compiled build"): domain/ and bots/
# compiled with mypyc into extension modules beside their sources
# (mypyc_build.py says which and why), which Python then imports in their
# place; `make pure` removes them. It needs gcc and Python's headers; the
# default install needs neither and stays the reference (tests/compiled
# proves both record the same events). HOLOTAPE_COMPILED=1 builds it, or
# brings it up to date, before run, test, bench and profile; without it
# they refuse a compiled build older than its sources rather than run stale
# code. A few minutes on two cores.
COMPILED_SOURCES := $(sort $(shell find domain bots -name '*.py')) mypyc_build.py
COMPILED_STAMP := build/compiled-stamp
HOLOTAPE_COMPILED ?=

compiled: $(COMPILED_STAMP)

$(COMPILED_STAMP): $(STAMP) $(COMPILED_SOURCES)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[server,test,compiled]'
	$(BIN)/python mypyc_build.py
	@touch $@

pure:
	find domain bots -name '*.so' -delete
	rm -f *__mypyc.*.so $(COMPILED_STAMP)

engine: $(STAMP)
ifeq ($(HOLOTAPE_COMPILED),1)
	@$(MAKE) --no-print-directory compiled
else
	@if [ -n "$$(find domain bots -name '*.so' -print -quit)" ] && { [ ! -e $(COMPILED_STAMP) ] || \
		[ -n "$$(find $(COMPILED_SOURCES) -newer $(COMPILED_STAMP) -print -quit)" ]; }; then \
		echo "The compiled build is older than its sources: make compiled (or HOLOTAPE_COMPILED=1 make ...), or make pure." >&2; \
		exit 1; fi
endif

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

# Every figure of issues 13 and 24 next to its baseline, ratio and target, as
# the median of BENCH_RUNS whole runs (the issues judge the median of three);
# also written to bench.json with each run's figures (tests/bench). About two
# minutes a run.
BENCH_RUNS ?= 3
bench: $(STAMP) engine browser
	BENCH_RUNS=$(BENCH_RUNS) $(BIN)/python -m tests.bench

# Where self-play spends its time: cProfile of each hosted game's random and
# greedy bots (tests/bench/profile.py), a listing and a .pstats file per game
# and level in $(PROFILE_DIR)/ (gitignored). Half a minute.
PROFILE_DIR ?= .profile
profile: $(STAMP) engine
	PROFILE_DIR=$(PROFILE_DIR) $(BIN)/python -m tests.bench.profile

# Where an action over HTTP spends the API process's time (tests/bench/http_profile.py):
# cProfile of the bench's own-game action called as gunicorn calls the app, its CPU, its
# collections and the reference cycles it leaves, into $(PROFILE_DIR)/http-action.*. Ten seconds.
profile-http: $(STAMP) engine
	PROFILE_DIR=$(PROFILE_DIR) $(BIN)/python -m tests.bench.http_profile

# The instructions of that action, of an append, of the bare XADD, of the bench's bare endpoint and of a greedy
# decision in each game at fixed positions, counted by callgrind
# (tests/bench/instructions.py; UNITS= to choose): figures the machine's load and pace do not move, to
# compare a change by. Needs valgrind; about a minute a unit.
UNITS ?=
profile-instructions: $(STAMP) engine
	$(BIN)/python -m tests.bench.instructions $(UNITS)

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
	$(LOCK_VENV)/bin/python -m pip install --quiet '.[server,test,compiled]'
	{ sed -n '1,2p' constraints.txt; $(LOCK_VENV)/bin/python -m pip freeze --all --exclude holotape --exclude pip; } > constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf $(LOCK_VENV)
	@touch pyproject.toml  # the next make reinstalls .venv within the new set

clean:
	rm -rf $(VENV) $(LOCK_VENV) .pytest_cache .hypothesis
