# Two commands on a fresh machine: `make run` and `make test`.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run serve test lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Web server and both django-q2 clusters together on SQLite; Ctrl-C stops all three.
# The trap signals the two clusters once, by pid, then waits for them: never `kill 0`,
# whose SIGTERM to the shell itself re-entered the trap and flooded every process with
# signals. The clusters stop cleanly on SIGINT or SIGTERM (config/serving/workers.py).
run: export DEBUG ?= 1
# Every process (web and qcluster workers) writes its histograms here; a scrape of
# /metrics sums them. Emptied on each start: files of past processes would count twice.
run: export PROMETHEUS_MULTIPROC_DIR ?= $(CURDIR)/var/prometheus
run: install
	mkdir -p "$(PROMETHEUS_MULTIPROC_DIR)" && rm -f "$(PROMETHEUS_MULTIPROC_DIR)"/*.db
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py create_signing_cert
	$(BIN)/python manage.py demo_setup
	@echo "Serving on http://$(HOST):$(PORT)/  (admin: http://$(HOST):$(PORT)/admin/)"
	@trap 'trap - INT TERM EXIT; kill -TERM $$q1 $$q2 2>/dev/null; wait' INT TERM EXIT; \
	$(BIN)/python manage.py qcluster & q1=$$!; \
	Q_CLUSTER_NAME=rrq-high $(BIN)/python manage.py qcluster & q2=$$!; \
	$(BIN)/python manage.py runserver --noreload $(HOST):$(PORT)

# Production: gunicorn (config/gunicorn_conf.py: HOST, PORT, WEB_CONCURRENCY) and both
# django-q2 clusters, with config.settings_production (DEBUG off; SECRET_KEY,
# ALLOWED_HOSTS and DATABASE_URL from the environment). See "Production" in the README.
serve: export DJANGO_SETTINGS_MODULE ?= config.settings_production
serve: export PROMETHEUS_MULTIPROC_DIR ?= $(CURDIR)/var/prometheus
serve: export HOST := $(HOST)
serve: export PORT := $(PORT)
serve: install
	mkdir -p "$(PROMETHEUS_MULTIPROC_DIR)" && rm -f "$(PROMETHEUS_MULTIPROC_DIR)"/*.db
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v0
	@trap 'trap - INT TERM EXIT; kill -TERM $$q1 $$q2 2>/dev/null; wait' INT TERM EXIT; \
	$(BIN)/python manage.py qcluster & q1=$$!; \
	Q_CLUSTER_NAME=rrq-high $(BIN)/python manage.py qcluster & q2=$$!; \
	$(BIN)/gunicorn --config config/gunicorn_conf.py config.wsgi:application

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy .
	$(BIN)/python manage.py makemigrations --check --dry-run --settings=config.settings_test

clean:
	rm -rf $(VENV) var
