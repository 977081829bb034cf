# What the examples' Makefiles share (each starts with `include ../common.mk`): every example has its own
# virtualenv in .venv, built from its requirements.txt, so its packages never touch deskworld's install.
ROOT   := ../..
VENV   := .venv
BIN    := $(VENV)/bin
PY     ?= python3
PYTEST_ARGS ?=
# The first Python 3.12 that runs: python3.12 on PATH (a pyenv shim may exist and fail), then pyenv's.
PY312  ?= $(shell for p in python3.12 /root/.pyenv/versions/3.12.1/bin/python3.12; do \
            $$p -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' >/dev/null 2>&1 && { command -v $$p; break; }; done)

# $(call check-python,VAR,CONDITION,NEED): stop with NEED unless the Python in VAR (PY or PY312) has a
# sys.version_info that meets CONDITION.
check-python = @$(if $($(1)),$($(1)) -c 'import sys; sys.exit(not (sys.version_info$(2)))',false) \
               || { echo "$(3) (not: $(or $($(1)),none found)); pass $(1)=/path/to/python"; exit 1; }

# $(call new-venv,PYTHON): the virtualenv (kept if it exists) with a current pip.
define new-venv
	@test -x $(BIN)/python || $(1) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
endef

# $(call deskworld-deps,EXCLUDED): deskworld's runtime dependencies (no extras) but the EXCLUDED package, in
# $(VENV)/deskworld-deps.txt, for `pip install -r` beside the example's own pins; deskworld itself then goes in
# with `pip install --no-deps -e $(ROOT)`.
deskworld-deps = $(BIN)/python -c 'import re, sys, tomllib; deps = tomllib.load(open("$(ROOT)/pyproject.toml", "rb"))["project"]["dependencies"]; print("\n".join(d for d in deps if re.split(r"[ <>=!~;\[]", d, maxsplit=1)[0].lower() != sys.argv[1]))' "$(1)" > $(VENV)/deskworld-deps.txt

# The tests that start deskworld from the main install need it.
need-main = @test -x $(ROOT)/.venv/bin/deskworld || { echo "run 'make setup' at the repository's root first"; exit 1; }

.PHONY: venv test browser clean

# A Chromium (deskworld's discovery; apt-get when missing and possible), for venvs with deskworld in them.
browser: $(VENV)/.installed
	@$(BIN)/python -m harness.env.browser ensure

clean:
	rm -rf $(VENV)
