"""Release pipeline throughput: burn_in + sanitize + verify vs a plain open-and-save.

Run: .venv/bin/python bench/render.py
Both are measured on the same generated files in the same run (best of 3), so the
ratio is comparable across machines. Target: ratio >= 0.33.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from review.pdf.redact import RedactionMark, burn_in  # noqa: E402
from review.pdf.sanitize import sanitize  # noqa: E402
from review.pdf.verify import verify  # noqa: E402
from testkit.leak_corpus import text_document  # noqa: E402

FILES = 10
PAGES_PER_FILE = 12
TARGET = 0.33


def _baseline(pdf: bytes, marks: list[RedactionMark]) -> None:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    doc.tobytes(garbage=4, deflate=True)
    doc.close()


def _pipeline(pdf: bytes, marks: list[RedactionMark]) -> None:
    output = sanitize(burn_in(pdf, marks))
    report = verify(pdf, output, marks)
    assert report.ok, report.failures


def _best_of(runs: int, corpus: list[tuple[bytes, list[RedactionMark]]], step: Callable) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        for pdf, marks in corpus:
            step(pdf, marks)
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    corpus = [text_document(PAGES_PER_FILE, seed=seed) for seed in range(FILES)]
    pages = FILES * PAGES_PER_FILE
    marks = sum(len(m) for _, m in corpus)
    baseline = pages / _best_of(3, corpus, _baseline)
    pipeline = pages / _best_of(3, corpus, _pipeline)
    ratio = pipeline / baseline
    print(f"corpus: {FILES} files, {pages} pages, {marks} marks")
    print(f"open+save baseline:          {baseline:8.1f} pages/s")
    print(f"burn_in+sanitize+verify:     {pipeline:8.1f} pages/s")
    print(f"ratio: {ratio:.3f} (target >= {TARGET}) {'OK' if ratio >= TARGET else 'BELOW TARGET'}")


if __name__ == "__main__":
    main()
