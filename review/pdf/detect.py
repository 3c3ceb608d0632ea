"""Propose PII redaction marks for a PDF (Django-free).

`detect(pdf, policy)` reads every page's text layer with PyMuPDF, rebuilds the page
text in extraction (reading) order with a map from each character back to its
rectangle (`pagetext.PageText`), finds the policy's categories and search terms in that
text (`finder.Finder`), proposes each named entity wherever it is written
(`entities`), and turns each hit into one normalized box per line segment it covers.

Pages without a text layer are OCRed when the policy allows it and Tesseract is
installed; otherwise they get one whole-page `needs_manual_review` mark, so no page is
ever passed silently. Annotation contents and form-field values are scanned too and
marked on the annotation's or widget's rectangle.

Protected content never leaves detection: a `Mark` carries a salted HMAC of the
normalized matched text, never the text; errors name the page and the problem only.
Nothing here logs.
"""

from __future__ import annotations

import hashlib
import hmac
import pathlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import pymupdf

from review.pdf.columns import NAME_COLUMN_CONFIDENCE, column_names

# The policy is part of detection's interface: callers build one, admins check settings.
from review.pdf.detection_policy import DetectionPolicy as DetectionPolicy
from review.pdf.detection_policy import detection_settings_errors as detection_settings_errors
from review.pdf.entities import every_occurrence
from review.pdf.finder import Finder
from review.pdf.form_fields import labelled_values
from review.pdf.geometry import Box, normalize
from review.pdf.hidden import HiddenContent, page_hidden
from review.pdf.layers import layers_on
from review.pdf.misplaced_objects import open_settled
from review.pdf.number_occurrences import every_occurrence_of_cued_numbers
from review.pdf.ocr import OcrCache, OcrDeferred, PageReader, ocr_available, tessdata_dir
from review.pdf.pagetext import (
    SOURCE_OCR,
    SOURCE_TEXT,
    TEXT_FLAGS,
    Found,
    PageText,
    centre_in,
    extract_words,
    page_is_blank,
)
from review.pdf.patterns import PERSON, Hit
from review.pdf.prepare import prepare_to_read
from review.pdf.words import words_of

DETECTOR_VERSION = "1.0.0"

NEEDS_MANUAL_REVIEW = "needs_manual_review"
# Always on, whatever the policy: content no reader sees is removed, not judged.
HIDDEN_CONTENT = "hidden_content"
HIDDEN_CONTENT_REASON = "hidden content removed"  # sanitisation, not a legal exemption

NO_TEXT_LAYER = "no_text_layer"
OCR_NO_TEXT = "ocr_no_text"

_T = TypeVar("_T")
# Repeated header/footer hits count as "the same place" within this normalized distance.
_SAME_PLACE = 0.02
# Boxes are rounded to this grid (0.0006 pt on a letter page) so the canonical proposal
# JSON is short and stable; rounding outward would reach into a glued neighbour ("SSN:").
_GRID = 1_000_000


class DetectionError(Exception):
    """Detection could not complete. The message names the page and problem, never text."""


@dataclass(frozen=True)
class Mark:
    """One proposed redaction box. `group` ties the boxes of one logical hit together."""

    page: int
    box: Box
    category: str
    legal_reason: str
    detector: str
    detector_version: str
    confidence: float
    group: str
    text_hash: str
    needs_manual_review: str | None = None
    source: str = SOURCE_TEXT


@dataclass(frozen=True)
class DetectionResult:
    marks: tuple[Mark, ...]
    page_count: int
    pages_ocred: tuple[int, ...]
    pages_without_text: tuple[int, ...]
    # (category, text) of each named entity proposed, for the submission's other
    # documents (`DetectionPolicy.known_entities`). Matched text: never store it.
    entities: tuple[tuple[str, str], ...] = ()
    # Each number proposed for its label, for the same (`DetectionPolicy.known_numbers`).
    numbers: tuple[Hit, ...] = ()


# ------------------------------------------------------------------------- driver


def _open(pdf: bytes | str | pathlib.Path) -> pymupdf.Document:
    try:
        doc = open_settled(bytes(pdf) if isinstance(pdf, bytes | bytearray) else pathlib.Path(pdf))
    except Exception as exc:
        raise DetectionError(f"document: cannot open ({type(exc).__name__})") from None
    if doc.needs_pass:
        doc.close()
        raise DetectionError("document: encrypted")
    prepare_to_read(doc)  # as burn-in and the release gate read the pages
    return doc


def _needs_ocr(page: pymupdf.Page) -> bool:
    return not extract_words(page)[3] and not page_is_blank(page)


def _scan_page(
    page: pymupdf.Page,
    index: int,
    policy: DetectionPolicy,
    finder: Finder,
    ocr: PageReader | None,
    pages_ocred: list[int],
    pages_without_text: list[int],
    texts: list[tuple[int, PageText, str]],
) -> list[Found]:
    """Hits on one page, in unrotated page space; appends to the two page lists and
    the page's text (for every occurrence of a named entity) to `texts`. `ocr` reads a
    page without a text layer (None: OCR is off); OcrDeferred passes through."""
    found: list[Found] = []
    textpage, words, overlays, content_words = extract_words(page)
    source = SOURCE_TEXT
    if not content_words:
        pages_without_text.append(index)
        if not page_is_blank(page):
            reason: str | None = NO_TEXT_LAYER
            if ocr is not None:
                try:
                    ocred = ocr(page)
                    if ocred is not None:
                        textpage = ocred
                        words = [w for w in words_of(textpage) if w[4].strip()]
                        source = SOURCE_OCR
                        pages_ocred.append(index)
                        reason = None if words else OCR_NO_TEXT
                except OcrDeferred:
                    raise
                except Exception:  # any OCR failure means "a human must look"
                    reason = NO_TEXT_LAYER
            if reason is not None:
                found.append(
                    Found(
                        index,
                        [(0.0, 0.0, page.cropbox.width, page.cropbox.height)],
                        Hit(NEEDS_MANUAL_REVIEW, 0, 0, 0.0, "page.text_layer", ""),
                        source,
                        "",
                        reason,
                    )
                )
    if words:
        page_text = PageText(textpage, words)
        texts.append((index, page_text, source))
        found.extend(_found_in(page_text, index, source, policy, finder))
    overlay_found: list[Found] = []
    seen: set[tuple[str, str, tuple[float, ...]]] = set()
    for text, rect, overlay_source in overlays:
        for hit in finder.hits(text):
            h = policy.text_hash(hit.normalized)
            box = (rect.x0, rect.y0, rect.x1, rect.y1)
            key = (hit.category, h, box)
            if key not in seen:
                seen.add(key)
                overlay_found.append(Found(index, [box], hit, overlay_source, h))
    if overlay_found:
        # The same hit read from the annotation's appearance is reported once, on the
        # annotation, because redaction must remove the annotation object itself.
        owned = {(f.hit.category, f.text_hash, tuple(f.rects[0])) for f in overlay_found}
        found = [
            f
            for f in found
            if not any(
                (f.hit.category, f.text_hash) == (c, h) and all(centre_in(r, rr) for r in f.rects)
                for c, h, rr in owned
            )
        ]
        found.extend(overlay_found)
    return found


def _found_in(
    page_text: PageText, index: int, source: str, policy: DetectionPolicy, finder: Finder
) -> list[Found]:
    """The policy's hits in one page's text, each with its boxes."""
    hits = finder.hits(page_text.text)
    if finder.floors.get(PERSON, 2.0) <= NAME_COLUMN_CONFIDENCE:
        hits.extend(column_names(page_text, hits))
    hits.extend(labelled_values(page_text, hits, finder.floors))
    return [
        Found(index, rects, hit, source, policy.text_hash(hit.normalized), hit.reason)
        for hit in hits
        if (rects := page_text.boxes(hit.start, hit.end))
    ]


def _drawn_text_found(
    page: pymupdf.Page, index: int, policy: DetectionPolicy, finder: Finder, found: list[Found]
) -> list[Found]:
    """Hits in the glyphs the page draws where some /ActualText stands in for them in
    extraction (an empty one hid a shipping order's addresses, PyMuPDF's test_4546.pdf),
    but those `found` already has at the same place."""
    textpage = page.get_textpage(flags=TEXT_FLAGS | pymupdf.TEXT_IGNORE_ACTUALTEXT)
    words = [w for w in words_of(textpage) if w[4].strip()]
    drawn = _found_in(PageText(textpage, words), index, SOURCE_TEXT, policy, finder)
    seen = {_place(f) for f in found}
    return [f for f in drawn if _place(f) not in seen]


def _place(f: Found) -> tuple[str, str, tuple[int, ...]]:
    return f.hit.category, f.text_hash, tuple(round(v) for v in f.rects[0])


class _Crop:
    """Stands in for the page in geometry.normalize, which only reads `cropbox`."""

    __slots__ = ("cropbox",)

    def __init__(self, cropbox: pymupdf.Rect) -> None:
        self.cropbox = cropbox


def _rounded(box: Box) -> Box:
    return Box(*(round(v * _GRID) / _GRID for v in box))


def _group_id(f: Found) -> str:
    first = f.boxes[0]
    key = f"{f.hit.category}|{f.source}|{f.text_hash}|{f.page}|{first.x0:.6f}|{first.y0:.6f}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def _near(a: Box, b: Box) -> bool:
    return all(abs(p - q) <= _SAME_PLACE for p, q in zip(a, b, strict=True))


def _assign_groups(found: list[Found]) -> list[str]:
    """Group ids: one per logical hit, shared by identical hits at the same place on
    other pages (a header or footer the reviewer can accept all at once)."""
    groups: list[str] = []
    leaders: dict[tuple[str, str, str], list[tuple[Found, str, set[int]]]] = {}
    for f in found:
        if f.hit.category == NEEDS_MANUAL_REVIEW:
            groups.append(_group_id(f))
            continue
        clusters = leaders.setdefault((f.hit.category, f.source, f.text_hash), [])
        for leader, gid, pages in clusters:
            if (
                f.page not in pages
                and len(leader.boxes) == len(f.boxes)
                and all(_near(a, b) for a, b in zip(leader.boxes, f.boxes, strict=True))
            ):
                pages.add(f.page)
                groups.append(gid)
                break
        else:
            gid = _group_id(f)
            clusters.append((f, gid, {f.page}))
            groups.append(gid)
    return groups


class OcrUnfinished(Exception):
    """detect() ran out of its OCR time: `read` of the `to_read` pages without a text
    layer are read and kept in its OCR cache; a later call goes on from there."""

    def __init__(self, read: int, to_read: int) -> None:
        super().__init__(f"{read} of {to_read} pages read by OCR")
        self.read, self.to_read = read, to_read


def detect(
    pdf: bytes | str | pathlib.Path,
    policy: DetectionPolicy,
    *,
    ocr_cache: OcrCache | None = None,
    ocr_until: float | None = None,
) -> DetectionResult:
    """Propose marks for every page of `pdf`. Pages without a text layer are read by
    OCR, or from `ocr_cache` where an earlier call read them. OCR by Tesseract stops
    once the monotonic clock passes `ocr_until` (one page at least, so that every call
    gets further): the pages read so far are in `ocr_cache`, and OcrUnfinished says how
    many are left.

    Deterministic: the same bytes and policy give equal results, marks ordered by
    (page, y, x). Raises DetectionError (page and problem only) when a page cannot be
    read.
    """
    finder = Finder(policy)
    texts: list[tuple[int, PageText, str]] = []
    crops: dict[int, pymupdf.Page] = {}
    ocr = (
        PageReader(
            flags=TEXT_FLAGS,
            language=policy.ocr_language,
            dpi=policy.ocr_dpi,
            tessdata=tessdata_dir() if ocr_available() else None,
            cache=ocr_cache,
            until=ocr_until,
        )
        if policy.ocr
        else None
    )
    doc = _open(pdf)
    found: list[Found] = []
    findings: list[HiddenContent] = []
    pages_ocred: list[int] = []
    pages_without_text: list[int] = []
    try:
        page_count = doc.page_count
        layered = _hidden_content_step(layers_on, doc)
        for index in range(page_count):
            try:
                page = doc.load_page(index)
                if ocr is not None and ocr.deferred:
                    # Time is up: only count what is left to read.
                    if _needs_ocr(page):
                        ocr.count(page)
                    continue
                page_found = _scan_page(
                    page, index, policy, finder, ocr, pages_ocred, pages_without_text, texts
                )
                # normalize() reads only page.cropbox and rect.x0..y1: hand it the crop
                # box read once (a slow property) and plain Boxes.
                crops[index] = cast(pymupdf.Page, _Crop(page.cropbox))
            except DetectionError:
                raise
            except OcrDeferred:
                continue  # read by a later call; nothing of this call is kept
            except Exception as exc:
                raise DetectionError(f"page {index}: cannot read ({type(exc).__name__})") from None
            found.extend(page_found)
            hidden_here, actual_text = _hidden_content_step(
                page_hidden, page, layered[index] if layered else None
            )
            findings.extend(hidden_here)
            if actual_text:
                found.extend(_drawn_text_found(page, index, policy, finder, page_found))
        if ocr is not None and ocr.deferred:
            raise OcrUnfinished(ocr.read, ocr.read + ocr.deferred)
        entities, added, entity_groups = (
            every_occurrence(found, texts, policy) if policy.ner else ([], [], {})
        )
        found.extend(added)
        numbers, cued_numbers, number_groups = every_occurrence_of_cued_numbers(
            found, texts, policy
        )
        found.extend(numbers)
        entity_groups.update(number_groups)
        for f in found:
            f.boxes = [
                _rounded(normalize(crops[f.page], cast(pymupdf.Rect, Box(*r)))) for r in f.rects
            ]
        hidden = _hidden_marks(findings, crops, policy)
    finally:
        doc.close()

    found.sort(key=lambda f: (f.page, f.boxes[0].y0, f.boxes[0].x0, f.hit.category, f.text_hash))
    marks: list[Mark] = []
    for f, gid in zip(found, _assign_groups(found), strict=True):
        gid = entity_groups.get(id(f), gid)
        for box in f.boxes:
            marks.append(
                Mark(
                    page=f.page,
                    box=box,
                    category=f.hit.category,
                    legal_reason=policy.reason(f.hit.category),
                    detector=f.hit.detector,
                    detector_version=DETECTOR_VERSION,
                    confidence=f.hit.confidence,
                    group=gid,
                    text_hash=f.text_hash,
                    needs_manual_review=f.reason,
                    source=f.source,
                )
            )
    marks.extend(hidden)
    marks.sort(key=lambda m: (m.page, m.box.y0, m.box.x0, m.box.y1, m.box.x1, m.category, m.group))
    return DetectionResult(
        marks=tuple(marks),
        page_count=page_count,
        pages_ocred=tuple(pages_ocred),
        pages_without_text=tuple(pages_without_text),
        entities=tuple((e.category, " ".join(e.tokens)) for e in entities),
        numbers=tuple(cued_numbers),
    )


def _hidden_content_step(step: Callable[..., _T], *args: Any) -> _T:
    try:
        return step(*args)
    except Exception as exc:
        raise DetectionError(f"hidden content: cannot analyse ({type(exc).__name__})") from None


def _hidden_marks(
    findings: list[HiddenContent], crops: dict[int, pymupdf.Page], policy: DetectionPolicy
) -> list[Mark]:
    """One mark per piece of hidden content, the kind as its reason for a human look.
    Outside the crop box the box is clamped to the page edge nearest the content."""
    marks = []
    for index, finding in enumerate(findings):
        rect = finding.rect or (0.0, 0.0, 0.0, 0.0)
        marks.append(
            Mark(
                page=finding.page,
                box=_rounded(normalize(crops[finding.page], cast(pymupdf.Rect, Box(*rect)))),
                category=HIDDEN_CONTENT,
                legal_reason=HIDDEN_CONTENT_REASON,
                detector=HIDDEN_CONTENT,
                detector_version=DETECTOR_VERSION,
                confidence=1.0,
                group=f"h{finding.page + 1}-{index + 1}",
                text_hash=hidden_content_hash(policy.salt, finding),
                needs_manual_review=finding.kind,
                source=HIDDEN_CONTENT,
            )
        )
    return marks


def hidden_content_hash(salt: bytes, finding: HiddenContent) -> str:
    """The mark's key to its finding: the item page finds the hidden text to show the
    reviewer by recomputing the analysis and matching this hash."""
    key = f"{finding.page}:{finding.kind}:{finding.rect}:{finding.text}"
    return hmac.digest(salt, key.encode("utf-8"), "sha256").hex()
