"""Claim-next throughput and p99 latency under 16 concurrent reviewers, against a bare
SKIP LOCKED UPDATE loop; and page-image render time against bare PyMuPDF.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/claim.py [--items 10000 --workers 16] [--profile]

PostgreSQL only (SKIP LOCKED is the point). The script creates a throwaway database
`rrq_bench_claim_<pid>` next to the one DATABASE_URL names, migrates it, and drops it at
the end; the named database itself is only used to find the server.

1. Domain: each worker thread (own Django connection, own reviewer) calls
   `review.services.claim_next` until the pool is empty: claim row, transition, audit event.
2. Baseline: each worker thread (own psycopg connection, autocommit) runs the bare
   `UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED LIMIT 1)` over a fresh pool.
3. Render: `render_page_png` vs bare `get_pixmap(dpi=100).tobytes("png")`, best of 3.

Targets: throughput ratio >= 0.5, p99 ratio <= 2, render time ratio <= 1.3. When a claim
target is missed (or with --profile) it also prints where the domain claim spends its time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import re
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pymupdf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.pgdb import create_database, drop_database, migrate, with_database  # noqa: E402

THROUGHPUT_TARGET = 0.5
P99_TARGET = 2.0
RENDER_TARGET = 1.3
RENDER_DPI = 100

BASELINE_SQL = """
UPDATE review_reviewitem SET state = 'in_review'
WHERE id = (
    SELECT id FROM review_reviewitem
    WHERE state = 'proposed' AND hold = 'none' AND queue = 'review'
    ORDER BY priority, deadline, id
    FOR UPDATE SKIP LOCKED
    LIMIT 1
)
RETURNING id
"""


# --- data --------------------------------------------------------------------------------


def seed_pool(count: int, *, batch: str) -> None:
    """`count` proposed items in the review queue, under one new submission.

    Volume setup only: rows go straight into `proposed` with bulk_create, because admitting
    and detecting 10,000 PDFs is not what is measured. Both runs get a pool built this way.
    """
    from testkit.builders import bulk_proposed_items

    bulk_proposed_items(count, seed=batch)
    _vacuum()


def _vacuum() -> None:
    """Each run starts from the same physical state: the previous run's updates leave dead
    tuples and stale entries in the partial pool index that the next run would wade through.
    Every table the claim reads gets statistics, as autovacuum gives a database in service
    (left to autovacuum, whether the documents had any depended on when it came by)."""
    from django.db import connection

    with connection.cursor() as cursor:
        for table in (
            "review_reviewitem",
            "review_claim",
            "audit_auditevent",
            "intake_document",
            "intake_submission",
        ):
            cursor.execute(f"VACUUM ANALYZE {table}")


def _user(username: str, role: str | None = None):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    # No password: hashing 16 of them would only slow the setup down.
    user = get_user_model().objects.create_user(username=username, password=None)
    if role:
        user.groups.add(Group.objects.get(name=role))
    return user


def raise_claim_limit(limit: int) -> None:
    """Each reviewer keeps every claim open, so the per-reviewer limit (default 1) has to
    allow it. Releasing would return items to the pool and approving would measure
    proposal work, not claiming; a published policy version is how an officer would do it."""
    from review.selectors import policy_current
    from review.services.policies import policy_publish

    draft = policy_current()
    draft.max_open_claims_per_reviewer = limit
    policy_publish(draft=draft, actor="system:bench")


# --- measurement -------------------------------------------------------------------------


@dataclass
class Run:
    name: str
    wall: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: list[BaseException] = field(default_factory=list)

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.wall

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_threads(name: str, workers: int, work: Callable[[int, list[float]], None]) -> Run:
    """Start `workers` threads together; each appends one latency per successful claim."""
    run = Run(name)
    per_worker: list[list[float]] = [[] for _ in range(workers)]
    lock = threading.Lock()
    start = threading.Barrier(workers + 1)

    def target(n: int) -> None:
        try:
            start.wait()
            work(n, per_worker[n])
        except BaseException as exc:  # noqa: BLE001 - reported after the run
            with lock:
                run.errors.append(exc)

    threads = [threading.Thread(target=target, args=(n,)) for n in range(workers)]
    for thread in threads:
        thread.start()
    start.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    run.wall = time.perf_counter() - started
    run.latencies = [value for values in per_worker for value in values]
    return run


def domain_worker(reviewers: list, timer: StatementTimer | None = None):
    from django.db import connection, connections

    from review.services.claims import claim_next

    def work(n: int, latencies: list[float]) -> None:
        reviewer = reviewers[n]
        try:
            # Open the connection before the clock starts, as the baseline does.
            connection.ensure_connection()
            if timer is None:
                _claim_loop(claim_next, reviewer, latencies)
            else:
                with connection.execute_wrapper(timer):
                    _claim_loop(claim_next, reviewer, latencies)
        finally:
            connections.close_all()

    return work


def _claim_loop(claim_next: Callable, reviewer, latencies: list[float]) -> None:
    while True:
        started = time.perf_counter()
        claim = claim_next(reviewer=reviewer)
        elapsed = time.perf_counter() - started
        if claim is None:
            return
        latencies.append(elapsed)


def baseline_worker(url: str):
    def work(n: int, latencies: list[float]) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            while True:
                started = time.perf_counter()
                row = conn.execute(BASELINE_SQL).fetchone()
                elapsed = time.perf_counter() - started
                if row is None:
                    return
                latencies.append(elapsed)

    return work


def check_claims(items: int) -> None:
    """The measured run must also have been correct: one claim and one event per item."""
    from django.db.models import Count

    from audit.models import AuditEvent
    from audit.services import verify_chain
    from review.models import Claim

    claims = Claim.objects.count()
    duplicated = Claim.objects.values("item_id").annotate(n=Count("id")).filter(n__gt=1).count()
    events = AuditEvent.objects.filter(event_type="CLAIMED").count()
    report = verify_chain()
    print(
        f"  check: {claims} claims for {items} items, {duplicated} items claimed twice, "
        f"{events} CLAIMED events, chain {'ok' if report.ok else report}"
    )


def report_run(run: Run) -> None:
    ms = 1000
    print(
        f"  {run.name:<26} {len(run.latencies):6d} claims in {run.wall:6.2f} s  "
        f"{run.throughput:8.1f} claims/s  p50 {run.percentile(0.5) * ms:7.2f} ms  "
        f"p99 {run.percentile(0.99) * ms:7.2f} ms  errors {len(run.errors)}"
    )
    for error in run.errors[:3]:
        print(f"    error: {error!r}")


# --- where the domain claim spends its time ----------------------------------------------

_STATEMENT_KINDS = [
    ("claim in the database (review_claim_next)", re.compile(r"review_claim_next")),
    ("permissions", re.compile(r'"auth_permission"')),
]


class StatementTimer:
    """An execute_wrapper that adds up time per kind of statement across all threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seconds: dict[str, float] = defaultdict(float)
        self.counts: dict[str, int] = defaultdict(int)

    def __call__(self, execute, sql_text, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql_text, params, many, context)
        finally:
            elapsed = time.perf_counter() - started
            kind = next((k for k, rx in _STATEMENT_KINDS if rx.search(sql_text)), "other")
            with self.lock:
                self.seconds[kind] += elapsed
                self.counts[kind] += 1


def inside_the_call(reviewer, url: str) -> None:
    """Each statement `review_claim_next` runs, timed by PostgreSQL itself (auto_explain
    on nested statements, reported to this session), for one claim in a warm session: the
    first call of a session also compiles the function and loads every table's and
    index's catalog entries, which a pooled connection in service has long done."""
    from audit.services import actor_label
    from review.selectors import reviewer_queues

    seed_pool(2, batch="explain")
    call = "SELECT * FROM review_claim_next(%s, %s, %s::text[])"
    arguments = [reviewer.pk, actor_label(reviewer), reviewer_queues(reviewer)]
    notes: list[str] = []
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(call, arguments).fetchone()
        conn.add_notice_handler(lambda diagnostic: notes.append(diagnostic.message_primary))
        for setting in (
            "LOAD 'auto_explain'",
            "SET auto_explain.log_min_duration = 0",
            "SET auto_explain.log_nested_statements = on",
            "SET auto_explain.log_analyze = on",
            "SET client_min_messages = log",
        ):
            conn.execute(setting)
        conn.execute(call, arguments).fetchone()
    print(
        "  inside one call, warm session (PostgreSQL's own timing, auto_explain;"
        " the last line is the call):"
    )
    for note in notes:
        head, _, plan = note.partition("\n")
        duration = re.search(r"duration: ([0-9.]+) ms", head)
        first = plan.strip().splitlines()[0] if plan.strip() else ""
        if duration:
            print(f"    {float(duration[1]):7.3f} ms  {first[:90]}")


def profile_domain(items: int, workers: int, url: str) -> None:
    """Statement time under the same contention, then a single-thread cProfile."""
    from django.db import connection

    from review.models import Claim
    from review.roles import REVIEWER

    print(f"\nwhere the domain claim spends its time ({items} items, {workers} workers)")
    seed_pool(items, batch="profile")
    reviewers = [_user(f"profiler{n}", REVIEWER) for n in range(workers)]
    before = Claim.objects.count()
    timer = StatementTimer()
    run = run_threads("domain + statement timer", workers, domain_worker(reviewers, timer))
    report_run(run)
    claims = Claim.objects.count() - before
    busy = sum(run.latencies)
    in_sql = sum(timer.seconds.values())
    print(f"  per claim: {sum(timer.counts.values()) / claims:.1f} statements")
    print(f"  {'statement':<42} {'per claim':>9} {'ms/claim':>9} {'share of call time':>19}")
    for kind, seconds in sorted(timer.seconds.items(), key=lambda kv: -kv[1]):
        print(
            f"  {kind:<42} {timer.counts[kind] / claims:9.1f} "
            f"{seconds / claims * 1000:9.3f} {seconds / busy:18.1%}"
        )
    print(
        f"  {'outside statements (Python, COMMIT, GIL)':<42} {'':>9} "
        f"{(busy - in_sql) / claims * 1000:9.3f} {(busy - in_sql) / busy:18.1%}"
    )

    inside_the_call(reviewers[0], url)

    # One worker, no profiler: the call's own cost without anyone to wait for.
    seed_pool(min(items, 1000), batch="solo")
    solo_reviewer = [_user("profiler-1worker", REVIEWER)]
    solo = run_threads("claim_next, 1 worker", 1, domain_worker(solo_reviewer))
    report_run(solo)

    # One thread under cProfile: where in Python the uncontended call spends its time.
    seed_pool(min(items, 1000), batch="cprofile")
    reviewer = _user("profiler-solo", REVIEWER)
    latencies: list[float] = []
    from review.services.claims import claim_next

    profiler = cProfile.Profile()
    profiler.enable()
    _claim_loop(claim_next, reviewer, latencies)
    profiler.disable()
    print(
        f"\n  single thread, no contention: {len(latencies)} claims, "
        f"{len(latencies) / sum(latencies):.1f} claims/s, "
        f"mean {sum(latencies) / len(latencies) * 1000:.2f} ms"
    )
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
    print("\n".join("  " + line for line in out.getvalue().splitlines() if line.strip()))
    connection.close()


# --- page rendering ----------------------------------------------------------------------


def render_bench() -> tuple[float, float, int]:
    from review.pdf.redact import render_page_png
    from testkit.corpus import labelled_corpus

    pages = []
    for document in labelled_corpus():
        with pymupdf.open(stream=document.pdf, filetype="pdf") as doc:
            pages.extend((document.pdf, n) for n in range(doc.page_count))

    def raw() -> None:
        for pdf, page in pages:
            doc = pymupdf.open(stream=pdf, filetype="pdf")
            doc[page].get_pixmap(dpi=RENDER_DPI).tobytes("png")
            doc.close()

    def ours() -> None:
        for pdf, page in pages:
            render_page_png(pdf, page, dpi=RENDER_DPI)

    def best_of(runs: int, step: Callable[[], None]) -> float:
        best = float("inf")
        for _ in range(runs):
            started = time.perf_counter()
            step()
            best = min(best, time.perf_counter() - started)
        return best

    return best_of(3, raw), best_of(3, ours), len(pages)


# --- main --------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--profile", action="store_true", help="always print the breakdown")
    args = parser.parse_args()

    url = os.environ.get("DATABASE_URL", "")
    if urlsplit(url).scheme not in {"postgres", "postgresql", "pgsql"}:
        print("bench/claim.py needs DATABASE_URL=postgres://... (SKIP LOCKED is PostgreSQL's)")
        return 2

    name = f"rrq_bench_claim_{os.getpid()}"
    bench_url = with_database(url, name)
    data_dir = tempfile.mkdtemp(prefix="rrq-bench-claim-")
    env = {
        **os.environ,
        "DATABASE_URL": bench_url,
        "SECRET_KEY": "bench-only",
        "DEBUG": "0",
        "DATA_DIR": data_dir,
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    create_database(url, name)
    try:
        migrate(env)
        os.environ.update(env)
        import django

        django.setup()
        try:
            return measure(args, bench_url)
        finally:
            from django.db import connections

            connections.close_all()
    finally:
        drop_database(url, name)


def measure(args: argparse.Namespace, bench_url: str) -> int:
    from review.roles import REVIEWER

    print(f"database: {urlsplit(bench_url).path[1:]} (throwaway), {os.cpu_count()} CPUs")
    # Above any pool here: a worker must still be able to ask once more and get None.
    raise_claim_limit(1_000_000)
    reviewers = [_user(f"reviewer{n}", REVIEWER) for n in range(args.workers)]

    print(f"\nclaim next: {args.items} pending items, {args.workers} worker threads")
    seed_pool(args.items, batch="domain")
    domain = run_threads("claim_next (domain)", args.workers, domain_worker(reviewers))
    report_run(domain)
    check_claims(args.items)

    # A fresh pool: the domain run left its items in_review; these are new and proposed.
    seed_pool(args.items, batch="baseline")
    baseline = run_threads("raw SKIP LOCKED UPDATE", args.workers, baseline_worker(bench_url))
    report_run(baseline)

    throughput_ratio = domain.throughput / baseline.throughput
    p99_ratio = domain.percentile(0.99) / baseline.percentile(0.99)
    throughput_ok = throughput_ratio >= THROUGHPUT_TARGET
    p99_ok = p99_ratio <= P99_TARGET
    print(
        f"  throughput ratio: {throughput_ratio:.3f} (target >= {THROUGHPUT_TARGET}) "
        f"{'OK' if throughput_ok else 'BELOW TARGET'}"
    )
    print(
        f"  p99 ratio:        {p99_ratio:.2f}x (target <= {P99_TARGET}x) "
        f"{'OK' if p99_ok else 'ABOVE TARGET'}"
    )

    raw, ours, pages = render_bench()
    render_ratio = ours / raw
    print(f"\npage render at {RENDER_DPI} dpi: {pages} pages of the labelled corpus, best of 3")
    print(f"  raw get_pixmap + png: {raw * 1000:8.1f} ms ({raw / pages * 1000:.2f} ms/page)")
    print(f"  render_page_png:      {ours * 1000:8.1f} ms ({ours / pages * 1000:.2f} ms/page)")
    print(
        f"  time ratio: {render_ratio:.3f}x (target <= {RENDER_TARGET}x) "
        f"{'OK' if render_ratio <= RENDER_TARGET else 'ABOVE TARGET'}"
    )

    if args.profile or not (throughput_ok and p99_ok):
        profile_domain(min(args.items, 3000), args.workers, bench_url)
    failed = domain.errors or baseline.errors
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
