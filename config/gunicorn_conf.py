"""gunicorn's configuration for `make serve` (`gunicorn -c config/gunicorn_conf.py`).

HOST, PORT            where to listen (default 127.0.0.1:8000)
WEB_CONCURRENCY       worker processes (default 2: the reference machine has two cores)
GUNICORN_TIMEOUT      seconds a request may take before its worker is replaced (default
                      120: a 100 MiB admission is hashed, opened and stored in one request)
FORWARDED_ALLOW_IPS   addresses of the TLS-terminating proxy whose X-Forwarded-* headers
                      are trusted (default 127.0.0.1)
GUNICORN_CERTFILE / GUNICORN_KEYFILE   serve TLS directly instead of behind a proxy
"""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Sync workers: every request is a short database transaction or a streamed upload;
# nothing here holds a connection open (the heartbeat is a plain POST).
worker_class = "sync"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "120"))
# Workers finish the request in hand on SIGTERM, within this bound.
graceful_timeout = 10
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = "-"
errorlog = "-"
# The heartbeat file of each worker lives in memory, not on a possibly slow disk.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # noqa: S108
# gunicorn's control socket (one fixed path in $HOME) is not used: several servers on one
# machine would fight over it.
control_socket_disable = True
certfile = os.environ.get("GUNICORN_CERTFILE") or None
keyfile = os.environ.get("GUNICORN_KEYFILE") or None


def child_exit(server, worker):  # noqa: ARG001 - gunicorn's hook signature
    """A worker's Prometheus gauges die with it (review.metrics reads the folder)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def post_worker_init(worker):  # noqa: ARG001 - gunicorn's hook signature
    from config.serving.startup import freeze_start_up_objects

    freeze_start_up_objects()
