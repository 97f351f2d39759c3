# mjscore: `make serve` and `make test` are the two commands a newcomer needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# the path prefix a web server in front serves mjscore under (README: Behind a club's web server)
ROOT_PATH ?=

.PHONY: serve test bench clean chromium art lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# Every install takes the versions pinned in constraints.txt (`make lock` writes it anew from
# .venv after an upgrade has been measured).
CONSTRAINTS := constraints.txt

$(VENV)/.runtime: pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(BIN)/pip install -q -c $(CONSTRAINTS) -e .
	touch $@

$(VENV)/.testing: pyproject.toml $(CONSTRAINTS) $(VENV)/.runtime
	$(BIN)/pip install -q -c $(CONSTRAINTS) -e '.[test,train]'
	touch $@

# make serve runs the rules engine compiled by mypyc (setup.py; about twice as fast) when this
# machine can build it: scoring/ alone is built into $(COMPILED), first on the server's path, once
# and again whenever scoring/ or setup.py changes; everything else runs from the source.  Without
# a C compiler (or mypy) it holds pure Python and says so; /healthz names the engine serving.
COMPILED := $(VENV)/compiled
SCORING_SOURCES := $(shell find scoring -name '*.py') setup.py

$(COMPILED)/.built: $(SCORING_SOURCES) | $(VENV)/.runtime
	@rm -rf $(COMPILED) $(COMPILED).new
	@echo "mjscore: compiling the rules engine with mypyc into $(COMPILED) (half a minute, once)"
	@$(BIN)/pip install -q -c $(CONSTRAINTS) 'mypy>=1.11' 'setuptools>=77' && \
	  MJSCORE_COMPILE=1 $(BIN)/pip install -q --no-build-isolation --no-deps --target $(COMPILED).new . \
	  || echo "mjscore: the compiled build failed (above); serving the pure-Python rules engine"
	@mkdir -p $(COMPILED)
	@for f in $(COMPILED).new/scoring $(COMPILED).new/*.so; do if [ -e "$$f" ]; then mv "$$f" $(COMPILED)/; fi; done
	@rm -rf $(COMPILED).new
	@touch $@

# ROOT_PATH reaches the shell through the environment, never pasted into its source (a quote or
# a $ in it is the path's own)
serve: export MJSCORE_ROOT_PATH = $(value ROOT_PATH)
serve: $(VENV)/.runtime $(COMPILED)/.built
	@root="$$MJSCORE_ROOT_PATH"; while [ "$${root%/}" != "$$root" ]; do root="$${root%/}"; done; \
	case "$$root" in ""|/*) ;; *) echo "make serve: ROOT_PATH must start with '/' (e.g. /mahjong), got '$$root'" >&2; exit 2;; esac; \
	echo "$(BIN)/uvicorn api.app:app --app-dir $(COMPILED) --host $(HOST) --port $(PORT) --root-path '$$root'"; \
	exec $(BIN)/uvicorn api.app:app --app-dir $(COMPILED) --host $(HOST) --port $(PORT) --root-path "$$root"

# The browser test drives Debian's Chromium through Playwright; install it when it is missing.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian chromium for the browser test"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# The tests draw synthetic tables in packaged tile art (the held-out xmahjongg `real` set,
# KMahjongg's jade, ...): datasets.fetch_art installs what is missing (Debian packages, two
# PyPI source distributions) and names the styles it has; a style a test asks for that is still
# missing fails that test with tile_art.ArtMissingError, never quietly procedural.
art: $(VENV)/.testing
	@$(BIN)/python -m datasets.fetch_art

test: $(VENV)/.testing chromium art
	$(BIN)/python -m pytest -q

bench: $(VENV)/.testing
	$(BIN)/python benchmarks/scoring.py

lock: $(VENV)/.testing
	@{ sed -n '1,3p' $(CONSTRAINTS); $(BIN)/pip freeze --exclude-editable | sed 's/^torch==\([0-9.]*\)+cpu$$/torch==\1/' | sort -f; } > $(CONSTRAINTS).new
	@mv $(CONSTRAINTS).new $(CONSTRAINTS) && echo "mjscore: $(CONSTRAINTS) written from .venv"

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
