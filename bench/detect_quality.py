"""Detection quality on the seeded multi-locale labelled corpus: recall and precision.

    .venv/bin/python bench/detect_quality.py [--seed 0] [--per-locale 1] [--ner/--no-ner]
        [--misses]

Builds `testkit.labelled.labelled_documents(seed, per_locale)` (five locales, six
layouts, scanned pages among them), runs `detect()` with `testkit.labelled.
quality_policy` (every category, OCR, and `ner` and `phone_regions` where the policy
has them), and prints recall per labelled category against its bar, recall per layout
and per locale, and precision per category and overall against its bar; each bar is
marked OK or BELOW. `--misses` also lists each missed label and each false positive.
A report, not a gate: the exit code is 0.
"""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from review.pdf.detect import DetectionPolicy, detect  # noqa: E402
from review.pdf.ocr import ocr_available  # noqa: E402
from testkit.labelled import (  # noqa: E402
    Bar,
    Ratio,
    Scores,
    labelled_documents,
    precision_bar,
    quality_policy,
    recall_bars,
    score,
)


def cell(ratio: Ratio) -> str:
    value = "  n/a" if ratio.value is None else f"{ratio.value:5.2f}"
    return f"{ratio.hits:>4}/{ratio.total:<4} {value}"


def verdict(bar: Bar) -> str:
    return "OK" if bar.met else ("n/a" if bar.measured is None else "BELOW")


def report(scores: Scores, *, misses: bool) -> None:
    print(f"\n{'recall':<12} {'found/labels':>12}  {'bar':>5}")
    for category, bar in recall_bars(scores).items():
        print(
            f"{category:<12} {cell(scores.recall_by_category[category])}  {bar.bar:5.2f}  "
            + verdict(bar)
        )
    print(f"{'all':<12} {cell(scores.recall)}")

    for title, table in (("layout", scores.recall_by_layout), ("locale", scores.recall_by_locale)):
        print(f"\n{title:<12} {'found/labels':>12}")
        for key, ratio in table.items():
            print(f"{key:<12} {cell(ratio)}")

    bar = precision_bar(scores)
    print(f"\n{'precision':<12} {'right/marks':>12}  {'bar':>5}")
    for category, ratio in scores.precision_by_category.items():
        print(f"{category:<12} {cell(ratio)}")
    print(f"{'all':<12} {cell(scores.precision)}  {bar.bar:5.2f}  {verdict(bar)}")
    print(f"(marks of unscored categories, left out: {scores.marks_unscored})")

    if misses:
        print("\nmissed labels:")
        for miss in scores.misses:
            label = miss.label
            print(
                f"  {miss.document:<22} p{label.page} {label.category:<10} "
                f"{label.value!r} (covered {miss.covered:.0%})"
            )
        print("\nfalse positives:")
        for fp in scores.false_positives:
            print(f"  {fp.document:<22} p{fp.page} {fp.category:<10} {fp.text!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-locale", type=int, default=1)
    parser.add_argument("--ner", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--misses", action="store_true", help="list misses and false positives")
    args = parser.parse_args()

    policy = quality_policy(ner=args.ner)
    fields = {f.name for f in dataclasses.fields(DetectionPolicy)}
    notes = [
        f"DetectionPolicy has no `{name}` field: left unset"
        for name in ("ner", "phone_regions")
        if name not in fields
    ]
    if not ocr_available():
        notes.append("Tesseract is not installed: scanned pages get no OCR")
    start = time.perf_counter()
    docs = labelled_documents(seed=args.seed, per_locale=args.per_locale)
    built = time.perf_counter() - start
    start = time.perf_counter()
    scores = score(docs, lambda pdf: detect(pdf, policy).marks)
    scored = time.perf_counter() - start

    labels = sum(len(doc.labels) for doc in docs)
    print(
        f"seed {args.seed}, {args.per_locale} per locale: {len(docs)} documents, "
        f"{labels} labels; built in {built:.1f} s, detected and scored in {scored:.1f} s"
    )
    for note in notes:
        print(f"note: {note}")
    report(scores, misses=args.misses)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
