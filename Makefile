# deskworld — two commands: `make demo` (set-up + main job) and `make test` (set-up + tests).
PY       ?= python3
VENV     := .venv
BIN      := $(VENV)/bin
PORT     ?= 8765
WORLD    ?= meridian
PYTEST_ARGS ?=

.PHONY: demo test setup browser office display serve screenshots bench fuzz check-tasks check-variants check-instances check-long clean

# The main job: the oracle agent over the default world's tasks, recorded; prints the table
# and the command that opens the viewer.
demo: setup
	$(BIN)/deskworld run --agent oracle --tasks $(WORLD) --workers 2 --out runs/demo

test: setup
	$(BIN)/python -m pytest $(PYTEST_ARGS)

setup: $(VENV)/.installed browser office display

# The virtualenv and the package with its extras; redone when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml
	@$(PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "deskworld needs Python >= 3.11 (found " + sys.version.split()[0] + ")")'
	@if [ ! -x $(BIN)/python ]; then \
	  $(PY) -m venv $(VENV) 2>/dev/null || { \
	    rm -rf $(VENV); \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	      echo "installing python3-venv with apt-get"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv && $(PY) -m venv $(VENV); \
	    else echo "python3 -m venv failed: run 'sudo apt-get install -y python3-venv' and retry"; exit 1; fi; }; \
	fi
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,models,mcp,ray]'
	@touch $@

# A Chromium for Playwright: its own if installed, else the system one (apt-get when possible).
browser: $(VENV)/.installed
	$(BIN)/python -m harness.env.browser ensure

# LibreOffice headless, the independent spreadsheet engine that recalculates exported workbooks in
# tests/apps/sheets/test_libreoffice.py: Debian's package (apt-get) when it is missing.
office:
	@if command -v soffice >/dev/null && { ! command -v dpkg-query >/dev/null || dpkg-query -W -f='$${Status}\n' \
	    libreoffice-calc-nogui libreoffice-calc 2>/dev/null | grep -q 'ok installed'; }; then :; else \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing LibreOffice Calc (headless) with apt-get"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libreoffice-calc-nogui; \
	  else echo "LibreOffice Calc is missing: run 'sudo apt-get install -y --no-install-recommends libreoffice-calc-nogui' and retry"; exit 1; fi; fi

# A virtual display and real input on it (Xvfb, xdotool) for the test of `deskworld record --direct`,
# which opens a real browser window: Debian's packages (apt-get) when they are missing.
display:
	@if command -v Xvfb >/dev/null && command -v xdotool >/dev/null; then :; else \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Xvfb and xdotool with apt-get"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends xvfb xdotool; \
	  else echo "Xvfb and xdotool are missing: run 'sudo apt-get install -y xvfb xdotool' and retry"; exit 1; fi; fi

serve: setup
	$(BIN)/deskworld serve --world $(WORLD) --port $(PORT)

screenshots: setup
	$(BIN)/deskworld screenshots

# The fuzz test at full length: 5,000 seeded random and malformed actions per world through env.step.
fuzz: setup
	DESKWORLD_FUZZ_STEPS=5000 $(BIN)/python -m pytest -q tests/harness/test_fuzz.py

bench: setup
	$(BIN)/python benchmarks/restore.py
	$(BIN)/python benchmarks/formula.py
	$(BIN)/python benchmarks/variants.py
	$(BIN)/deskworld bench

# Every hand-made task (each family's published instance among them) through the GUI oracle, do-nothing
# and the adversary suite (CI checks the families' half of them by the day: tests/harness/test_runner.py).
check-tasks: setup
	$(BIN)/deskworld check --adversaries --workers 2

# Every hand-made task's oracle on one value of each appearance-variant axis (viewport, scale, zoom,
# theme, density, shuffle, locale; CI checks two tasks a day: tests/harness/test_variants_browser.py).
check-variants: setup
	$(BIN)/deskworld check --variants --workers 2

# Every instance of every task family through the tool solution, do-nothing and the adversary suite
# (the CI sample is in tests/harness/test_instances.py); prints time and throughput.
check-instances: setup
	$(BIN)/deskworld check --tools-only --adversaries --instances all --workers 2

# The long-horizon tier in a browser: every task tagged long-horizon (oracle, do-nothing, the first
# half of the oracle, the adversaries); make test runs one of its composites a day.
check-long: setup
	$(BIN)/deskworld check --adversaries --workers 2 $$($(BIN)/deskworld tasks --json | $(BIN)/python -c "import json,sys; print(','.join(t['id'] for t in json.load(sys.stdin) if 'long-horizon' in t['tags']))")

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
