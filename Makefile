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

# Worker clusters: "rrq" runs the schedules (sweeper, outbox relay, reconciliation,
# disposal); one pool per kind of work and lane runs the tasks (settings.WORKER_POOLS,
# routed by review.services.outbox). Q_WORKERS_<POOL>_<LANE> sizes each pool.
CLUSTERS := rrq pii-high pii-default bulk-high bulk-default
# Start every cluster in the background and the web server in front; the trap signals
# the clusters once, by pid, then waits for them: never `kill 0`, whose SIGTERM to the
# shell itself re-entered the trap and flooded every process with signals. The clusters
# stop cleanly on SIGINT or SIGTERM (config/serving/workers.py).
define with_clusters
	@trap 'trap - INT TERM EXIT; kill -TERM $$pids 2>/dev/null; wait' INT TERM EXIT; \
	pids=; for name in $(CLUSTERS); do \
		Q_CLUSTER_NAME=$$name $(BIN)/python manage.py qcluster & pids="$$pids $$!"; \
	done; \
	$(1)
endef

# Web server and the worker clusters together on SQLite (one worker per pool: a demo
# machine runs all five clusters); Ctrl-C stops them all.
run: export DEBUG ?= 1
run: export Q_WORKERS_PII_HIGH ?= 1
run: export Q_WORKERS_PII_DEFAULT ?= 1
run: export Q_WORKERS_BULK_HIGH ?= 1
run: export Q_WORKERS_BULK_DEFAULT ?= 1
# Every process (web and qcluster workers) writes its histograms here; a scrape of
# /metrics sums them. Emptied on each start: files of past processes would count twice.
run: export PROMETHEUS_MULTIPROC_DIR ?= $(CURDIR)/var/prometheus
run: install
	mkdir -p "$(PROMETHEUS_MULTIPROC_DIR)" && rm -f "$(PROMETHEUS_MULTIPROC_DIR)"/*.db
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py create_signing_cert
	$(BIN)/python manage.py demo_setup
	@echo "Serving on http://$(HOST):$(PORT)/  (admin: http://$(HOST):$(PORT)/admin/)"
	$(call with_clusters,$(BIN)/python manage.py runserver --noreload $(HOST):$(PORT))

# Production: gunicorn (config/gunicorn_conf.py: HOST, PORT, WEB_CONCURRENCY) and the
# worker clusters (two workers per pool unless Q_WORKERS_<POOL>_<LANE> says otherwise),
# with config.settings_production (DEBUG off; SECRET_KEY,
# ALLOWED_HOSTS and DATABASE_URL from the environment). See "Production" in the README.
serve: export DJANGO_SETTINGS_MODULE ?= config.settings_production
serve: export PROMETHEUS_MULTIPROC_DIR ?= $(CURDIR)/var/prometheus
serve: export HOST := $(HOST)
serve: export PORT := $(PORT)
serve: install
	mkdir -p "$(PROMETHEUS_MULTIPROC_DIR)" && rm -f "$(PROMETHEUS_MULTIPROC_DIR)"/*.db
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v0
	$(call with_clusters,$(BIN)/gunicorn --config config/gunicorn_conf.py config.wsgi:application)

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
