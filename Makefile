# Two commands (see README): `make console` and `make test`. Both create .venv on first use.
# The lessons: `make lessons` (Voilà pages for class, opening on their index), `make lessons-outputs`
# (their kept outputs).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
SCENARIO ?= maps/continental.toml
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
LESSONS := $(filter-out notebooks/console.ipynb notebooks/team.ipynb notebooks/index.ipynb,$(wildcard notebooks/*.ipynb))
# the lessons' server (tools/lessons.py serve): its root page is the lessons' index
# (notebooks/index.ipynb), each page in the language of STRATEGIA_LANG, through the Voilà template
# tools/jupyter/voila/templates/strategia
# the lessons run as their kept outputs were made: Russian, Agg, nbval against the kept outputs
LESSON_ENV := STRATEGIA_LANG=ru MPLBACKEND=Agg PYTHONHASHSEED=0
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with notebooks/nbval-sanitize.cfg

.PHONY: setup lock console console-app lessons lessons-outputs screenshots casebook test lint typecheck unit bench trials clean

# the environment from the lock file (the versions pinned), then this checkout, editable
$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# the lock file made again from pyproject.toml's dependencies, in a fresh environment
lock:
	rm -rf .venv-lock && $(PYTHON) -m venv .venv-lock
	.venv-lock/bin/python -m pip install --quiet --upgrade pip
	.venv-lock/bin/python -m pip install --quiet -e '.[dev]'
	(sed -n 1,3p requirements.lock; .venv-lock/bin/pip freeze --exclude-editable | grep -v '^strategia') > requirements.lock.new
	mv requirements.lock.new requirements.lock && rm -rf .venv-lock

setup: $(STAMP)

console: $(STAMP)
	STRATEGIA_SCENARIO=$(SCENARIO) $(BIN)/jupyter lab $(ROOT_FLAG) notebooks/console.ipynb

# the console as a page of its own, served as the screens are (strategia/ui/team/server.py), a
# kernel kept ready that opens the game when the page does (strategia/ui/widgets/gate.py)
PREHEAT := --preheat_kernel=True --pool_size=1 --VoilaKernelManager.fill_delay=20
console-app: $(STAMP)
	STRATEGIA_SCENARIO=$(SCENARIO) $(BIN)/python -m strategia.ui.team.server $(PREHEAT) notebooks/console.ipynb

lessons: $(STAMP)
	$(BIN)/python tools/lessons.py serve

lessons-outputs: $(STAMP)
	$(BIN)/python tools/lessons.py outputs

screenshots: $(STAMP)
	$(BIN)/python tools/lessons.py screenshots

# the case book to print, in both languages (docs/casebook-ru.html, docs/casebook-en.html)
casebook: $(STAMP)
	$(BIN)/strategia cases --lang ru --book docs/casebook-ru.html > /dev/null
	$(BIN)/strategia cases --lang en --book docs/casebook-en.html > /dev/null

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	rm -f test-output/browser-tests.txt
	$(LESSON_ENV) $(BIN)/pytest -n 2 --dist loadfile $(NBVAL) tests $(LESSONS)
	$(BIN)/pytest --nbval-lax --nbval-current-env notebooks/console.ipynb

test: lint typecheck unit
	@cat test-output/browser-tests.txt 2>/dev/null || echo "browser tests: none ran"

# each figure with its ratio to a bare baseline measured in the same run (README, Performance):
# run.py, then table.py, which runs turn.py, game_open.py, scale.py and (where Chromium is)
# browser.py one after another and prints issue 25's table; then the computer player's move
# (player.py) and the sweep's 40 games on 1 and 2 Dask workers (sweep.py); about 35 minutes
bench: $(STAMP)
	PYTHONPATH=. $(BIN)/python benchmarks/run.py
	PYTHONPATH=. $(BIN)/python benchmarks/table.py
	PYTHONPATH=. $(BIN)/python benchmarks/player.py
	PYTHONPATH=. $(BIN)/python benchmarks/sweep.py

# the computer player's trials against issue 26's targets (README, The computer player); ~5 min
trials: $(STAMP)
	PYTHONPATH=. $(BIN)/python benchmarks/player_trials.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
