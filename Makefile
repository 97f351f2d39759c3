# mjscore: `make serve` and `make test` are the two commands a newcomer needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: serve test bench clean chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.runtime: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.testing: pyproject.toml $(VENV)/.runtime
	$(BIN)/pip install -q -e '.[test,train]'
	touch $@

serve: $(VENV)/.runtime
	$(BIN)/uvicorn api.app:app --host $(HOST) --port $(PORT)

# The browser test drives Debian's Chromium through Playwright; install it when it is missing.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian chromium for the browser test"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

test: $(VENV)/.testing chromium
	$(BIN)/python -m pytest -q

bench: $(VENV)/.testing
	$(BIN)/python benchmarks/scoring.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
