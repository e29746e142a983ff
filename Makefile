# Two commands (see README): `make console` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
SCENARIO ?= maps/continental.toml
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: setup console console-app test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

console: $(STAMP)
	STRATEGIA_SCENARIO=$(SCENARIO) $(BIN)/jupyter lab $(ROOT_FLAG) notebooks/console.ipynb

console-app: $(STAMP)
	STRATEGIA_SCENARIO=$(SCENARIO) $(BIN)/voila notebooks/console.ipynb

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n 2 --dist loadfile --nbval-lax --nbval-current-env tests notebooks

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
