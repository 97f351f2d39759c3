# mjscore: `make serve` and `make test` are the two commands a newcomer needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: serve test bench clean

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

test: $(VENV)/.testing
	$(BIN)/python -m pytest -q

bench: $(VENV)/.testing
	$(BIN)/python benchmarks/scoring.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
