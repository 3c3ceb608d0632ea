"""Release pipeline throughput: burn_in + sanitize + verify vs a plain open-and-save.

Run: .venv/bin/python bench/render.py
Both are measured on the same generated files in the same run (best of 3), so the
ratio is comparable across machines. Target: ratio >= 0.33, on the corpus whose marked
values stand apart on their lines. The same documents with the values in the middle of
their lines are reported beside it: there each burned box meets the words around it,
and the hidden-content analysis measures those lines glyph by glyph.
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


def _ratio(corpus: list[tuple[bytes, list[RedactionMark]]]) -> tuple[float, float]:
    pages = FILES * PAGES_PER_FILE
    baseline = pages / _best_of(3, corpus, _baseline)
    pipeline = pages / _best_of(3, corpus, _pipeline)
    return baseline, pipeline


def main() -> None:
    apart = [text_document(PAGES_PER_FILE, seed=seed) for seed in range(FILES)]
    inside = [text_document(PAGES_PER_FILE, seed=seed, inside_lines=True) for seed in range(FILES)]
    marks = sum(len(m) for _, m in apart)
    print(f"corpus: {FILES} files, {FILES * PAGES_PER_FILE} pages, {marks} marks")
    baseline, pipeline = _ratio(apart)
    ratio = pipeline / baseline
    print(f"open+save baseline:          {baseline:8.1f} pages/s")
    print(f"burn_in+sanitize+verify:     {pipeline:8.1f} pages/s")
    print(f"ratio: {ratio:.3f} (target >= {TARGET}) {'OK' if ratio >= TARGET else 'BELOW TARGET'}")
    baseline, pipeline = _ratio(inside)
    print(
        f"values inside lines: {pipeline:.1f} vs {baseline:.1f} pages/s, ratio {pipeline / baseline:.3f}"
    )


if __name__ == "__main__":
    main()
