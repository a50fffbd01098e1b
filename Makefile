# doko_ledger: `make demo` sets up and runs the main job, `make test` runs the tests (`make test-fast` the quick ones).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEMO_DB ?= demo.sqlite
SERVE_DB ?= table.sqlite
SAMPLES := sample_games/*.yaml sample_games/sessions/*.yaml sample_games/doudizhu/*.yaml sample_games/doudizhu/sessions/*.yaml
GAMES ?= 10000
CATALOGS := $(patsubst %.po,%.mo,$(wildcard doko_ledger/locale/*/LC_MESSAGES/*.po))
NATIVE := doko_ledger/doppelkopf/analysis/native
NATIVE_LIB := $(if $(wildcard $(NATIVE)/solver.c),$(NATIVE)/libsolver.so)
CORE := build/core
CORE_BUILT := $(if $(wildcard tools/compiled_core.py),$(CORE)/.built)

.PHONY: demo serve test test-fast system-deps lint bench messages native core clean
HOST ?= 0.0.0.0
PORT ?= 8000

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

%.mo: %.po | $(STAMP)  # a catalog changed since the install compiled it (the package build compiles them too)
	$(BIN)/pybabel compile --statistics -i $< -o $@

native: $(NATIVE_LIB)  ## the double-dummy solver's compiled search, where a C compiler is (else the solver runs in pure Python)

$(NATIVE)/libsolver.so: $(NATIVE)/solver.c $(NATIVE)/specials.c $(NATIVE)/bits.h $(NATIVE)/build.py | $(STAMP)  # the package build compiles it too
	$(BIN)/python $(NATIVE)/build.py

core: $(CORE_BUILT)  ## the game core compiled with mypyc into build/core, which the core's tests run against (the wheel carries it; the sources run in pure Python)

$(CORE)/.built: tools/compiled_core.py $(shell find doko_ledger -name "*.py") $(CATALOGS) | $(STAMP)
	$(BIN)/python tools/compiled_core.py $(CORE)
	touch $@

messages: $(STAMP)  ## the texts of the code and the templates into each language's catalog (.po), to be translated
	$(BIN)/pybabel -q extract -F babel.cfg -k msg -k plural:1,2 -k helped -k described --no-wrap --sort-by-file -o doko_ledger/locale/doko.pot .
	$(BIN)/pybabel -q update --no-wrap -i doko_ledger/locale/doko.pot -d doko_ledger/locale -D doko -l de
	$(BIN)/pybabel -q update --no-wrap -i doko_ledger/locale/doko.pot -d doko_ledger/locale -D doko -l fr
	rm doko_ledger/locale/doko.pot

demo: $(STAMP) $(CATALOGS)  ## import sample_games/ (games and card nights) into a fresh ledger, replay and score a game
	rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	$(BIN)/doko --db $(DEMO_DB) import $(SAMPLES)
	$(BIN)/doko --db $(DEMO_DB) games
	$(BIN)/doko --db $(DEMO_DB) replay '#1'
	$(BIN)/doko --db $(DEMO_DB) score '#1'
	$(BIN)/doko --db $(DEMO_DB) standings --session 2026-11-28-kitchen
	$(BIN)/doko --db $(DEMO_DB) replay ddz-2026-11-29-05
	$(BIN)/doko --db $(DEMO_DB) standings --session 2026-11-29-dorm
	$(BIN)/doko --db $(DEMO_DB) verify

serve: $(STAMP) $(CATALOGS) | $(SERVE_DB)  ## the table's ledger (the samples the first time) served to the phones on the local network (`make serve HOST=127.0.0.1` for this machine only); never deleted
	$(BIN)/doko --db $(SERVE_DB) serve --host $(HOST) --port $(PORT)

$(SERVE_DB): | $(STAMP)  # only when missing: deals recorded from the phones stay
	$(BIN)/doko --db $(SERVE_DB) import $(SAMPLES)

.PRECIOUS: $(SERVE_DB)

test: system-deps $(STAMP) $(CATALOGS) native core  ## the whole test suite (as root it first installs the Debian packages it needs)
	$(BIN)/pytest

test-fast: $(STAMP) $(CATALOGS) native  ## the tests that need no browser, no PostgreSQL and are not marked slow: a quick check while developing
	exec $(BIN)/pytest -m "not postgres and not browser and not slow"  # exec: no sh between make and pytest (a completion test looks at its parents)

system-deps:  ## the Debian packages the tests need (Chromium for the browser tests), when missing
	tools/install-system-deps

lint: $(STAMP)  ## ruff, mypy --strict, and the import layers (import-linter contracts in pyproject.toml)
	$(BIN)/ruff check doko_ledger tests bench
	$(BIN)/ruff format --check doko_ledger tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(STAMP)  ## speed benchmarks (not tests); `make bench GAMES=100000` for the large ledger; SQLite beside PostgreSQL (a throwaway cluster); the server beside its floor app
	$(BIN)/python bench/bench_ledger.py --games $(GAMES)
	$(BIN)/python bench/bench_session_file.py
	$(BIN)/python bench/bench_serve.py
	$(BIN)/python bench/bench_postgres.py --games $(GAMES)

clean:
	rm -f $(NATIVE)/libsolver.so
	rm -rf build  # build/core and the wheel's compiled core
	rm -rf $(VENV) $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm .pytest_cache .mypy_cache .ruff_cache
