"""Detection quality on a seeded slice of the labelled multi-locale corpus
(testkit.labelled): recall per category against its bar, precision over every scored
category, the corpus's determinism and the honesty of its labels, and the scoring
itself on hand-made marks.

The slice is one case file per locale in the plain, wrapped and records layouts plus
one scanned page; `bench/detect_quality.py` runs the whole corpus and prints the table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import NamedTuple

import pymupdf
import pytest

from review.pdf.detect import detect
from review.pdf.geometry import Box, normalize
from review.pdf.ocr import ocr_available
from testkit.labelled import (
    ADDRESS,
    LABELLED_CATEGORIES,
    PATTERN_CATEGORIES,
    PERSON,
    PLAIN,
    RECORDS,
    ROTATED,
    SCANNED,
    TABLE,
    TWO_COLUMN,
    WRAPPED,
    Label,
    LabelledDoc,
    Scores,
    labelled_documents,
    precision_bar,
    quality_policy,
    recall_bars,
    score,
)

SEED = 0


def quality_slice(seed: int = SEED) -> list[LabelledDoc]:
    return [
        *labelled_documents(seed, layouts=(PLAIN, WRAPPED, RECORDS)),
        *labelled_documents(seed, layouts=(SCANNED,), locales=("en_US",)),
    ]


@pytest.fixture(scope="module")
def slice_docs() -> list[LabelledDoc]:
    return quality_slice()


@pytest.fixture(scope="module")
def scores(slice_docs: list[LabelledDoc]) -> Scores:
    # As in test_detect.py, what needs Tesseract is left out where it is not installed.
    docs = [d for d in slice_docs if d.layout != SCANNED or ocr_available()]
    policy = quality_policy()
    return score(docs, lambda pdf: detect(pdf, policy).marks)


def require_recall_bars(scores: Scores, categories: Collection[str]) -> None:
    """Fail naming every category below its bar and the values it missed."""
    failures = []
    for category, bar in recall_bars(scores).items():
        if category in categories and not bar.met:
            ratio = scores.recall_by_category[category]
            missed = "; ".join(
                f"{m.document}: {m.label.value!r} ({m.covered:.0%} covered)"
                for m in scores.misses
                if m.label.category == category
            )
            failures.append(
                f"{category}: recall {ratio.hits}/{ratio.total} below {bar.bar}; missed {missed}"
            )
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)


# ---------------------------------------------------------------------- the bars


def test_pattern_categories_reach_their_recall_bar(scores: Scores) -> None:
    require_recall_bars(scores, PATTERN_CATEGORIES)


def test_person_names_reach_their_recall_bar(scores: Scores) -> None:
    require_recall_bars(scores, [PERSON])


def test_street_addresses_reach_their_recall_bar(scores: Scores) -> None:
    require_recall_bars(scores, [ADDRESS])


def test_precision_over_all_categories_reaches_its_bar(scores: Scores) -> None:
    bar = precision_bar(scores)
    if not bar.met:
        wrong = "; ".join(
            f"{fp.document} {fp.category}: {fp.text!r}" for fp in scores.false_positives
        )
        pytest.fail(
            f"precision {scores.precision.hits}/{scores.precision.total} below {bar.bar}; "
            f"false positives: {wrong}",
            pytrace=False,
        )


# ---------------------------------------------------------------------- the corpus


def test_corpus_is_deterministic(slice_docs: list[LabelledDoc]) -> None:
    again = quality_slice()
    assert [d.pdf for d in again] == [d.pdf for d in slice_docs]
    assert [d.labels for d in again] == [d.labels for d in slice_docs]
    assert [d.pdf for d in quality_slice(SEED + 1)] != [d.pdf for d in slice_docs]


def test_a_document_does_not_depend_on_the_others_built_with_it() -> None:
    (alone,) = labelled_documents(SEED, layouts=(WRAPPED,), locales=("de_DE",))
    among = next(d for d in labelled_documents(SEED) if d.name == alone.name)
    assert (among.pdf, among.labels) == (alone.pdf, alone.labels)


def test_slice_labels_every_category(slice_docs: list[LabelledDoc]) -> None:
    labelled = {label.category for doc in slice_docs for label in doc.labels}
    assert labelled == set(LABELLED_CATEGORIES)


def squash(text: str) -> str:
    return re.sub(r"\s", "", text)


@pytest.mark.parametrize("layout", [PLAIN, WRAPPED, ROTATED, TABLE, TWO_COLUMN, RECORDS])
def test_every_label_lies_on_its_value(layout: str) -> None:
    """Read back from the text layer, a label's rectangles hold its value (split across
    lines in the wrapped layout), in every layout with a text layer."""
    for doc in labelled_documents(SEED, layouts=(layout,)):
        pdf = pymupdf.open(stream=doc.pdf, filetype="pdf")
        for label in doc.labels:
            page = pdf[label.page]
            text = "".join(page.get_text("text", clip=pymupdf.Rect(r)) for r in label.rect)
            assert squash(text) == squash(label.value), (doc.name, label)


def test_scanned_layout_has_no_text_layer() -> None:
    (doc,) = labelled_documents(SEED, layouts=(SCANNED,), locales=("en_GB",))
    pdf = pymupdf.open(stream=doc.pdf, filetype="pdf")
    assert doc.labels
    assert all(not page.get_text("words") for page in pdf)


# ------------------------------------------------------------------------- scoring


class CannedMark(NamedTuple):
    page: int
    box: Box
    category: str


def canned(
    docs: list[LabelledDoc], marks_for: Callable[[pymupdf.Page, Label], list[CannedMark]]
) -> Callable[[bytes], list[CannedMark]]:
    """A detect_fn answering each document with marks made from its own labels."""
    by_pdf = {doc.pdf: doc for doc in docs}

    def detect_fn(pdf_bytes: bytes) -> list[CannedMark]:
        doc = by_pdf[pdf_bytes]
        pdf = pymupdf.open(stream=pdf_bytes, filetype="pdf")
        return [m for label in doc.labels for m in marks_for(pdf[label.page], label)]

    return detect_fn


def on_label(
    fraction: float = 1.0, category: str | None = None
) -> Callable[[pymupdf.Page, Label], list[CannedMark]]:
    """Marks over the left `fraction` of each of the label's rectangles."""

    def marks_for(page: pymupdf.Page, label: Label) -> list[CannedMark]:
        return [
            CannedMark(
                label.page,
                normalize(page, pymupdf.Rect(x0, y0, x0 + (x1 - x0) * fraction, y1)),
                category or label.category,
            )
            for x0, y0, x1, y1 in label.rect
        ]

    return marks_for


@pytest.fixture(scope="module")
def scoring_docs() -> list[LabelledDoc]:
    # Rotated pages and a second page test the box conversion, not just the counting.
    return labelled_documents(SEED, layouts=(PLAIN, ROTATED, TABLE), locales=("en_US", "en_GB"))


def test_marks_exactly_on_the_labels_score_full_recall_and_precision(
    scoring_docs: list[LabelledDoc],
) -> None:
    result = score(scoring_docs, canned(scoring_docs, on_label()))
    assert result.recall.value == 1.0
    assert result.precision.value == 1.0
    assert all(r.value == 1.0 for r in result.recall_by_category.values())
    assert not result.misses and not result.false_positives


def test_no_marks_score_zero_recall(scoring_docs: list[LabelledDoc]) -> None:
    result = score(scoring_docs, lambda pdf: [])
    assert result.recall.hits == 0 and result.recall.total > 0
    assert all(r.value == 0.0 for r in result.recall_by_category.values())
    assert result.precision.total == 0 and result.precision.value is None


def test_a_mark_over_most_of_a_label_finds_it_and_one_over_half_does_not(
    scoring_docs: list[LabelledDoc],
) -> None:
    assert score(scoring_docs, canned(scoring_docs, on_label(0.7))).recall.value == 1.0
    half = score(scoring_docs, canned(scoring_docs, on_label(0.5)))
    assert half.recall.hits == 0
    assert half.precision.value == 1.0  # every half box lies wholly on its label


def test_a_mark_of_another_category_is_wrong_and_finds_nothing(
    scoring_docs: list[LabelledDoc],
) -> None:
    result = score(scoring_docs, canned(scoring_docs, on_label(category="ein")))
    found = {c for c, r in result.recall_by_category.items() if r.hits}
    assert found == {"ein"}
    assert result.precision.hits == sum(
        len(label.rect) for doc in scoring_docs for label in doc.labels if label.category == "ein"
    )


def test_marks_of_unlabelled_categories_are_left_out_of_precision(
    scoring_docs: list[LabelledDoc],
) -> None:
    result = score(scoring_docs, canned(scoring_docs, on_label(category="dob")))
    assert result.precision.total == 0
    assert result.marks_unscored == sum(
        len(label.rect) for doc in scoring_docs for label in doc.labels
    )
