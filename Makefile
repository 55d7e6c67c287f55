# Two commands for a newcomer: `make run` (set up and serve on the LAN) and `make test`.
PYTHON ?= $(shell command -v python3.12 >/dev/null 2>&1 && python3.12 -c '' 2>/dev/null && echo python3.12 || echo python3)
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
HOST   ?= 0.0.0.0

.PHONY: run test venv migrate messages clean

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else "mafiagames needs Python 3.12 or newer (Django 6): install python3.12 and run make again")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

venv: $(VENV)/.installed

# Compiles translations when gettext is installed; the compiled .mo files are committed too.
messages: venv
	@if command -v msgfmt >/dev/null; then $(PY) manage.py compilemessages --ignore=.venv >/dev/null; fi

migrate: venv
	$(PY) manage.py migrate --noinput

run: venv messages migrate
	$(PY) manage.py collectstatic --noinput >/dev/null
	$(PY) manage.py clear_presence
	@$(PY) manage.py show_urls_hint --port $(PORT)
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) --websocket_timeout -1 mafiagames.asgi:application

# Four workers (pytest-xdist) on two cores: the browser and server tests run in three groups,
# each group's tests one at a time on one worker (tests/conftest.py), and they spend much of their
# time waiting for the server's clocks; the rest of the suite fills what they leave free.
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE): every
# worker and every server a test starts would otherwise compile the project and rewrite the test
# modules' asserts again (about 4 s of CPU each).
test: venv messages
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -q -n 4 --dist loadgroup --no-loadscope-reorder

clean:
	rm -rf $(VENV) staticfiles test-results
