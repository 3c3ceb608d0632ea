"""Detection recall on labelled text that no one here wrote: Microsoft's presidio-research
synthetic dataset (or any file in its format), read the way detection reads a page.

    .venv/bin/python bench/detect_external.py --dataset synth_dataset_v2.json \\
        [--regions US] [--no-ner] [--misses ENTITY]

The dataset is not part of this repository and nothing is downloaded: fetch
`data/synth_dataset_v2.json` from github.com/microsoft/presidio-research yourself. Each
record has `full_text` and `spans` (`entity_type`, `start_position`, `end_position`).
Each text is laid out as `PageText` writes a page (words joined by one space, lines by
one line break, no empty lines) and given to the same `Finder` that `detect()` runs on
every page, with the policy's default floor (0.5) and the phone regions given. A labelled
span counts as found when hits cover 80% of its letters and digits: by any hit (what a
redaction needs) and by a hit of its own category. Also prints, per category, the hits
that touch no labelled span (the dataset labels no job titles or dates as such, so
these are an upper bound on false positives). A report, not a gate: the exit code is 0.
"""

from __future__ import annotations

import argparse
import collections
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from review.pdf.detection_policy import DetectionPolicy  # noqa: E402
from review.pdf.finder import Finder  # noqa: E402
from review.pdf.patterns import Hit  # noqa: E402

COVERED = 0.8
# The dataset's entity types and the categories that answer them.
CATEGORIES = {
    "PERSON": {"person"},
    "STREET_ADDRESS": {"address", "location"},
    "GPE": {"location"},
    "ORGANIZATION": {"organization"},
    "CREDIT_CARD": {"card"},
    "PHONE_NUMBER": {"phone"},
    "EMAIL_ADDRESS": {"email"},
    "IBAN_CODE": {"iban"},
    "US_SSN": {"ssn"},
    "IP_ADDRESS": {"ip_address"},
    "US_DRIVER_LICENSE": {"driver_license"},
    "DATE_TIME": {"dob"},
    "ZIP_CODE": {"address", "location"},
}
_WORD = re.compile(r"\S+")


def as_page_text(text: str, spans: list[dict]) -> tuple[str, list[dict]]:
    """`text` as PageText writes a page, with each span's offsets carried over."""
    parts: list[str] = []
    moved: dict[int, int] = {}
    length, line_start = 0, 0
    for line in text.split("\n"):
        words = list(_WORD.finditer(line))
        if words and parts:
            parts.append("\n")
            length += 1
        for n, word in enumerate(words):
            if n:
                parts.append(" ")
                length += 1
            for offset in range(len(word[0])):
                moved[line_start + word.start() + offset] = length + offset
            parts.append(word[0])
            length += len(word[0])
        line_start += len(line) + 1
    carried = []
    for span in spans:
        kept = [moved[i] for i in range(span["start_position"], span["end_position"]) if i in moved]
        if kept:
            carried.append({**span, "start_position": min(kept), "end_position": max(kept) + 1})
    return "".join(parts), carried


def covered(text: str, start: int, end: int, hits: list[Hit]) -> float:
    chars = [i for i in range(start, end) if text[i].isalnum()]
    inside = sum(1 for i in chars if any(h.start <= i < h.end for h in hits))
    return inside / len(chars) if chars else 1.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=pathlib.Path, required=True)
    parser.add_argument("--regions", default="US", help="phone regions, comma-separated")
    parser.add_argument("--no-ner", action="store_true", help="pattern mode only")
    parser.add_argument("--misses", metavar="ENTITY", help="list the missed spans of one type")
    args = parser.parse_args()

    records = json.loads(args.dataset.read_text(encoding="utf-8"))
    regions = tuple(r.strip().upper() for r in args.regions.split(",") if r.strip())
    finder = Finder(
        DetectionPolicy(
            salt=b"external-eval",
            ner=not args.no_ner,
            default_min_confidence=0.5,
            phone_regions=regions,
        )
    )
    labels: collections.Counter[str] = collections.Counter()
    by_any: collections.Counter[str] = collections.Counter()
    by_own: collections.Counter[str] = collections.Counter()
    hits_made: collections.Counter[str] = collections.Counter()
    unlabelled: collections.Counter[str] = collections.Counter()
    misses: list[str] = []
    for record in records:
        text, spans = as_page_text(record["full_text"], record["spans"])
        hits = finder.hits(text)
        for span in spans:
            kind, start, end = span["entity_type"], span["start_position"], span["end_position"]
            labels[kind] += 1
            if covered(text, start, end, hits) >= COVERED:
                by_any[kind] += 1
            elif kind == args.misses:
                misses.append(f"  {text[start:end]!r}  in  {text[max(0, start - 40) : end + 20]!r}")
            own = [h for h in hits if h.category in CATEGORIES.get(kind, ())]
            if covered(text, start, end, own) >= COVERED:
                by_own[kind] += 1
        for hit in hits:
            hits_made[hit.category] += 1
            if not any(
                s["start_position"] < hit.end and hit.start < s["end_position"] for s in spans
            ):
                unlabelled[hit.category] += 1

    mode = "pattern mode" if args.no_ner else "full mode"
    print(f"{args.dataset.name}: {len(records)} texts, {mode}, phone regions {','.join(regions)}")
    print(f"{'entity':<18} {'labels':>6} {'recall (any hit)':>17} {'recall (own category)':>22}")
    for kind, count in labels.most_common():
        print(f"{kind:<18} {count:6d} {by_any[kind] / count:17.2f} {by_own[kind] / count:22.2f}")
    print("hits touching no labelled span, per category:")
    for category, count in hits_made.most_common():
        print(f"  {category:<16} {unlabelled[category]:5d} of {count}")
    if args.misses:
        print(f"missed {args.misses}:")
        print("\n".join(misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
