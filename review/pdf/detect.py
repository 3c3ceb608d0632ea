"""Propose PII redaction marks for a PDF (Django-free).

`detect(pdf, policy)` reads every page's text layer with PyMuPDF, rebuilds the page
text in extraction (reading) order with a map from each character back to its
rectangle, runs the pattern detectors and the policy's search terms over that text,
and turns each hit into one normalized box per line segment it covers.

Pages without a text layer are OCRed when the policy allows it and Tesseract is
installed; otherwise they get one whole-page `needs_manual_review` mark, so no page is
ever passed silently. Annotation contents and form-field values are scanned too and
marked on the annotation's or widget's rectangle.

Protected content never leaves this module: a `Mark` carries a salted HMAC of the
normalized matched text, never the text; errors name the page and the problem only.
Nothing here logs.
"""

from __future__ import annotations

import bisect
import hashlib
import hmac
import pathlib
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import phonenumbers
import pymupdf
from phonenumbers import Leniency

from review.pdf import nlp
from review.pdf.geometry import Box, normalize
from review.pdf.hidden import HiddenContent, layers_on, page_hidden
from review.pdf.ocr import OcrCache, OcrDeferred, PageReader, ocr_available, tessdata_dir
from review.pdf.patterns import (
    ALL_CATEGORIES,
    CUE_BUT_INVALID,
    DETECTORS,
    LOCATION,
    NER_CATEGORIES,
    ORGANIZATION,
    PATTERN_CATEGORIES,
    PERSON,
    PHONE,
    PHONE_CUE,
    SEARCH_TERM,
    Hit,
    cue_before,
    digits_of,
    plausible_name,
    squash,
)

DETECTOR_VERSION = "1.0.0"

NEEDS_MANUAL_REVIEW = "needs_manual_review"
# Always on, whatever the policy: content no reader sees is removed, not judged.
HIDDEN_CONTENT = "hidden_content"
HIDDEN_CONTENT_REASON = "hidden content removed"  # sanitisation, not a legal exemption
POSSIBLE = Leniency.POSSIBLE

NO_TEXT_LAYER = "no_text_layer"
OCR_NO_TEXT = "ocr_no_text"

SOURCE_TEXT = "text"
SOURCE_OCR = "ocr"
SOURCE_ANNOTATION = "annotation"
SOURCE_WIDGET = "widget"

_T = TypeVar("_T")
_FIRST_DIGIT = re.compile(r"\d")
# Ligatures are expanded (no TEXT_PRESERVE_LIGATURES) so "ﬁ" matches "fi" in search terms.
_TEXT_FLAGS = pymupdf.TEXTFLAGS_WORDS & ~pymupdf.TEXT_PRESERVE_LIGATURES
# Repeated header/footer hits count as "the same place" within this normalized distance.
_SAME_PLACE = 0.02
# Points; see _PageText._part.
_INSET = 0.05
# Boxes are rounded to this grid (0.0006 pt on a letter page) so the canonical proposal
# JSON is short and stable; rounding outward would reach into a glued neighbour ("SSN:").
_GRID = 1_000_000


class DetectionError(Exception):
    """Detection could not complete. The message names the page and problem, never text."""


@dataclass(frozen=True, kw_only=True)
class DetectionPolicy:
    """What to look for and how to label it.

    `salt` keys the HMAC of matched text; it must be non-empty (an unsalted hash of a
    nine-digit SSN is trivially reversible). Mappings are not copied: do not mutate
    them after building the policy.
    """

    salt: bytes
    categories: frozenset[str] = ALL_CATEGORIES
    min_confidence: Mapping[str, float] = field(default_factory=dict)
    default_min_confidence: float = 0.0
    legal_reasons: Mapping[str, str] = field(default_factory=dict)
    default_reason: str = ""
    search_terms: tuple[str, ...] = ()
    ocr: bool = True
    ocr_dpi: int = 200
    ocr_language: str = "eng"
    # Full mode: Presidio with the spaCy pipeline finds names, places and organisations.
    ner: bool = False
    nlp_pipeline: str = nlp.DEFAULT_PIPELINE
    # Regions whose national phone formats are read (ISO 3166 codes, e.g. "GB").
    phone_regions: tuple[str, ...] = ("US",)
    # (category, text) of entities found in the other documents of the submission:
    # proposed wherever they occur here too. In memory only, never stored.
    known_entities: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not self.salt:
            raise ValueError("DetectionPolicy.salt must be non-empty")

    def enabled(self, category: str) -> bool:
        if category == SEARCH_TERM:
            return SEARCH_TERM in self.categories and bool(self.search_terms)
        return category in self.categories

    def threshold(self, category: str) -> float:
        return self.min_confidence.get(category, self.default_min_confidence)

    def reason(self, category: str) -> str:
        return self.legal_reasons.get(category, self.default_reason)


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


# ------------------------------------------------------------------ page text model


_ALNUM = re.compile(r"[^\W_]")


def _has_alnum(s: str) -> bool:
    return _ALNUM.search(s) is not None


class _PageText:
    """Page text in reading order, with every character mapped back to a rectangle.

    Words on one line are joined by " ", lines and blocks by "\\n". Characters of a
    word map to the word's box; a hit covering part of a word asks for char boxes,
    read lazily from rawdict of the same TextPage (most pages never need them).
    """

    __slots__ = ("text", "words", "starts", "_textpage", "_chars")

    def __init__(self, textpage: pymupdf.TextPage, words: list[tuple]) -> None:
        self._textpage = textpage
        self._chars: dict[tuple[int, int, int], list[tuple[float, ...]]] | None = None
        self.words = words
        parts: list[str] = []
        starts: list[int] = []
        pos = 0
        prev: tuple[int, int] | None = None
        for word in words:
            key = (word[5], word[6])
            if prev is not None:
                parts.append(" " if key == prev else "\n")
                pos += 1
            starts.append(pos)
            parts.append(word[4])
            pos += len(word[4])
            prev = key
        self.text = "".join(parts)
        self.starts = starts

    def boxes(self, start: int, end: int) -> list[tuple[float, float, float, float]]:
        """Rectangles of text[start:end], one per (block, line) segment, in order."""
        out: list[list[float]] = []
        last_key: tuple[int, int] | None = None
        i = max(0, bisect.bisect_right(self.starts, start) - 1)
        while i < len(self.words) and self.starts[i] < end:
            word = self.words[i]
            w_start = self.starts[i]
            text = word[4]
            a, b = max(start, w_start) - w_start, min(end, w_start + len(text)) - w_start
            if a < b:
                # Leftover punctuation (a trailing "." or ",") is covered with the word:
                # harmless to redact, and it spares the costly char-level lookup.
                if (a == 0 or not _has_alnum(text[:a])) and (
                    b == len(text) or not _has_alnum(text[b:])
                ):
                    rect = word[:4]
                else:
                    rect = self._part(word, a, b)
                key = (word[5], word[6])
                if out and key == last_key:
                    last = out[-1]
                    last[0], last[1] = min(last[0], rect[0]), min(last[1], rect[1])
                    last[2], last[3] = max(last[2], rect[2]), max(last[3], rect[3])
                else:
                    out.append(list(rect))
                last_key = key
            i += 1
        return [(r[0], r[1], r[2], r[3]) for r in out]

    def _part(self, word: tuple, a: int, b: int) -> tuple[float, float, float, float]:
        chars = self._char_map().get((word[5], word[6], word[7]))
        if chars is None or len(chars) != len(word[4]):
            # Fallback: split the word box evenly by character count.
            x0, y0, x1, y1 = word[:4]
            step = (x1 - x0) / max(1, len(word[4]))
            return (x0 + step * a, y0, x0 + step * b, y1)
        part = chars[a:b]
        # Neighbouring glyph boxes touch; pull the edges in a hair so the box does not
        # also select the glued label ("SSN:") next to the match.
        return (
            min(c[0] for c in part) + _INSET,
            min(c[1] for c in part) + _INSET,
            max(c[2] for c in part) - _INSET,
            max(c[3] for c in part) - _INSET,
        )

    def _char_map(self) -> dict[tuple[int, int, int], list[tuple[float, ...]]]:
        """Char boxes per (block, line, word), split on whitespace as extractWORDS does."""
        if self._chars is None:
            self._chars = {}
            raw = self._textpage.extractRAWDICT()
            for b_no, block in enumerate(raw.get("blocks", ())):
                for l_no, line in enumerate(block.get("lines", ())):
                    w_no = 0
                    current: list[tuple[float, ...]] = []
                    for span in line["spans"]:
                        for ch in span["chars"]:
                            if ch["c"].isspace():
                                if current:
                                    self._chars[(b_no, l_no, w_no)] = current
                                    w_no += 1
                                    current = []
                            else:
                                current.append(ch["bbox"])
                    if current:
                        self._chars[(b_no, l_no, w_no)] = current
        return self._chars


def _search_pattern(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    """One case-insensitive pattern for all terms.

    Any whitespace (line breaks included) may separate a term's words, and a line
    break, with or without a hyphen, may split a word ("Jo-\\nhnson").
    """
    alternatives = []
    for term in sorted({t.strip() for t in terms if t.strip()}, key=len, reverse=True):
        words = ["(?:-?\n)?".join(re.escape(c) for c in word) for word in term.split()]
        alternatives.append(r"\s+".join(words))
    if not alternatives:
        return None
    firsts = sorted(
        {c for t in terms if t.strip() for c in (t.strip()[0].lower(), t.strip()[0].upper())}
    )
    lead = "(?=[" + "".join(re.escape(c) for c in firsts) + "])"
    return re.compile(lead + r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.I)


class _Finder:
    """Every hit of the policy's categories in a text: the project's pattern detectors,
    phones in the policy's regions and, in full mode, Presidio's analyzer over all of
    them with the spaCy recogniser (see nlp.py). Overlaps are resolved, then the
    search-term hits are added: they are the caller's explicit ask, never suppressed."""

    def __init__(self, policy: DetectionPolicy) -> None:
        self.policy = policy
        self.floors = {
            c: policy.threshold(c)
            for c in (*PATTERN_CATEGORIES, *NER_CATEGORIES)
            if policy.enabled(c) and (policy.ner or c not in NER_CATEGORIES)
        }
        self.search = (
            _search_pattern(policy.search_terms)
            if policy.enabled(SEARCH_TERM) and policy.threshold(SEARCH_TERM) <= 1.0
            else None
        )
        self.project = nlp.ProjectRecognizer(self.floors, self._project_hits)
        self._text: str | None = None  # the page text being analysed, as written

    def _project_hits(self, text: str) -> Iterator[tuple[str, int, int, float, str, Hit]]:
        # The analyzer hands over the text with line breaks as spaces; the project's
        # detectors read the breaks themselves (hyphenation, wrapped addresses).
        if self._text is not None and len(self._text) == len(text):
            text = self._text
        for categories, finder in DETECTORS:
            if not categories.isdisjoint(self.floors):
                for h in finder(text):
                    yield h.category, h.start, h.end, h.confidence, h.detector, h

    def hits(self, text: str) -> list[Hit]:
        # Line breaks read as spaces (same offsets): a value wrapped onto the next line
        # is still one value to the phone matcher and the language model.
        flowing = text.replace("\n", " ")
        self._text = text
        if self.policy.ner and not self.floors.keys().isdisjoint(NER_CATEGORIES):
            found = nlp.analyze(
                flowing,
                pipeline=self.policy.nlp_pipeline,
                project=self.project,
                categories=sorted(self.floors),
                phone_regions=self.policy.phone_regions if PHONE in self.floors else (),
            )
        else:
            found = [
                nlp.Found(h.category, h.start, h.end, h.confidence, h.detector, h)
                for *_, h in self._project_hits(text)
            ]
            if PHONE in self.floors:
                claimed = [(f.start, f.end) for f in found]  # read already, phones too
                found.extend(nlp.phones(flowing, self.policy.phone_regions, claimed))
        if PHONE in self.floors:
            # A number already read as a phone after its label wins over the weak
            # reading anyway: no need to look again.
            read = [
                (f.start, f.end)
                for f in found
                if f.category == PHONE and f.score >= self.floors[PHONE]
            ]
            found.extend(self._cued_phones(flowing, read))
        candidates = [self._hit(text, f) for f in found]
        # A weak hit with a reason (a number after its label that fails validation) is
        # proposed whatever the floor: the label announces it.
        hits = _resolve_overlaps(
            [
                h
                for h in candidates
                if h is not None
                and (h.confidence >= self.floors.get(h.category, 2.0) or h.reason is not None)
            ]
        )
        # A place or organisation that is a validated value's label, or runs over the
        # value, is the model misreading the label ("SSN" as an organisation).
        values = [h for h in hits if h.category not in NER_CATEGORIES]
        hits = [
            h
            for h in hits
            if h.category not in (LOCATION, ORGANIZATION)
            or not any(v.start < h.end + 3 and h.start < v.end for v in values)
        ]
        if self.search is not None:
            hits.extend(
                Hit(SEARCH_TERM, m.start(), m.end(), 1.0, "search_term", squash(m[0]))
                for m in self.search.finditer(text)
            )
        return hits

    def _cued_phones(self, text: str, read: list[tuple[int, int]]) -> Iterator[nlp.Found]:
        """A number right after a phone label that is a possible number of one of the
        regions but not a valid one: proposed weakly, never dropped. Not looked for
        where a phone was `read` already."""
        for cue in PHONE_CUE.finditer(text):
            start = cue.end()
            window = text[start : start + 40]
            digit = _FIRST_DIGIT.search(window)
            if digit is None or any(a <= start + digit.start() < b for a, b in read):
                continue
            for region in self.policy.phone_regions:
                for m in phonenumbers.PhoneNumberMatcher(window, region, leniency=POSSIBLE):
                    # The label, then at most a few words ("number", "on"), then it.
                    if m.start <= 16 and not any(ch.isdigit() for ch in window[: m.start]):
                        hit = Hit(
                            PHONE,
                            start + m.start,
                            start + m.end,
                            0.3,
                            "phonenumbers.phone_cue",
                            digits_of(m.raw_string),
                            CUE_BUT_INVALID,
                        )
                        yield nlp.Found(
                            PHONE, hit.start, hit.end, hit.confidence, hit.detector, hit
                        )

    @staticmethod
    def _hit(text: str, found: nlp.Found) -> Hit | None:
        if isinstance(found.payload, Hit):
            return found.payload
        start, end = found.start, found.end
        while end > start and not text[end - 1].isalnum():
            end -= 1  # spaCy keeps a trailing full stop or a possessive's apostrophe
        if end - start < 2:
            return None
        value = text[start:end]
        if found.category == PHONE:
            # A number valid in a region's plan, a little weaker than the project's own
            # readings (an SSN after its label is not a French phone number); a bare run
            # of digits only after a phone label (it may be any serial number).
            if value.isdigit() and not (
                value.startswith("0") or cue_before(PHONE_CUE, text, start, 60)
            ):
                return None  # a national number opens with its trunk prefix 0
            return Hit(PHONE, start, end, 0.75, "phonenumbers.phone", digits_of(value))
        if found.category == PERSON:
            # The model runs a name on into the next line ("Valerie Ramirez\nCase
            # Officer"): the name ends with the last line that still reads as one.
            lines = value.split("\n")
            kept = 0
            while kept < len(lines) and plausible_name(lines[kept].rstrip(" ,;")):
                kept += 1
            if kept == 0:
                return None
            value = "\n".join(lines[:kept]).rstrip(" ,;")
            end = start + len(value)
        detector = "spacy." + found.category
        # The small model calls "SSN 099666655" an organisation: a place or an
        # organisation never outweighs a validated pattern lying inside it.
        score = found.score if found.category == PERSON else min(found.score, 0.6)
        return Hit(found.category, start, end, round(score, 4), detector, squash(value))


def _resolve_overlaps(hits: list[Hit]) -> list[Hit]:
    """Keep the strongest hit where pattern hits overlap.

    Two hits of one category that overlap are one finding (NANP and E.164 both see
    "+1 202 555 0143"); a hit lying inside a stronger hit of another category is the
    weaker reading of the same characters (an account number that is an SSN).
    """
    ordered = sorted(hits, key=lambda h: (-h.confidence, -(h.end - h.start), h.start, h.category))
    kept: list[Hit] = []
    for hit in ordered:
        clash = False
        for other in kept:
            if other.category == hit.category:
                clash = hit.start < other.end and other.start < hit.end
            else:
                clash = other.start <= hit.start and hit.end <= other.end
            if clash:
                break
        if not clash:
            kept.append(hit)
    return kept


def detection_settings_errors(categories: object, by_jurisdiction: object) -> list[str]:
    """What is wrong with a policy's detection settings, each naming the bad value."""
    errors: list[str] = []
    if not isinstance(categories, list) or not all(isinstance(c, str) for c in categories):
        return ["categories: must be a list of category names"]
    errors.extend(
        f"categories: unknown category {c!r}" for c in categories if c not in ALL_CATEGORIES
    )
    if not isinstance(by_jurisdiction, dict):
        return [*errors, "detection_by_jurisdiction: must be an object keyed by jurisdiction code"]
    for code, settings in by_jurisdiction.items():
        where = f"detection_by_jurisdiction[{code!r}]"
        if not isinstance(settings, dict):
            errors.append(f"{where}: must be an object")
            continue
        unknown_keys = set(settings) - {"categories", "min_confidence", "phone_regions"}
        errors.extend(f"{where}: unknown setting {key!r}" for key in sorted(unknown_keys))
        for category in settings.get("categories", []):
            if category not in ALL_CATEGORIES:
                errors.append(f"{where}.categories: unknown category {category!r}")
        for category, value in dict(settings.get("min_confidence", {})).items():
            if category not in ALL_CATEGORIES:
                errors.append(f"{where}.min_confidence: unknown category {category!r}")
            elif not isinstance(value, int | float) or not 0 <= value <= 1:
                errors.append(
                    f"{where}.min_confidence[{category!r}]: {value!r} is not between 0 and 1"
                )
        for region in settings.get("phone_regions", []):
            if region not in nlp.PHONE_REGIONS:
                errors.append(f"{where}.phone_regions: {region!r} is not a phone region code")
    return errors


# ------------------------------------------------------------------------- driver


@dataclass
class _Found:
    """A hit located on a page: its boxes (unrotated page space) and identity."""

    page: int
    rects: list[tuple[float, float, float, float]]
    hit: Hit
    source: str
    text_hash: str
    reason: str | None = None
    boxes: list[Box] = field(default_factory=list)


def _open(pdf: bytes | str | pathlib.Path) -> pymupdf.Document:
    try:
        if isinstance(pdf, bytes | bytearray):
            doc = pymupdf.open(stream=bytes(pdf), filetype="pdf")
        else:
            doc = pymupdf.open(pathlib.Path(pdf), filetype="pdf")
    except Exception as exc:
        raise DetectionError(f"document: cannot open ({type(exc).__name__})") from None
    if doc.needs_pass:
        doc.close()
        raise DetectionError("document: encrypted")
    return doc


def _hash(policy: DetectionPolicy, normalized: str) -> str:
    return hmac.digest(policy.salt, normalized.encode("utf-8"), "sha256").hex()


def _page_is_blank(page: pymupdf.Page) -> bool:
    """Nothing drawn at all: no images (inline ones included) and no vector paths."""
    return not page.get_image_info() and not page.get_cdrawings()


def _centre_in(
    rect: tuple[float, ...] | pymupdf.Rect, outer: tuple[float, ...] | pymupdf.Rect
) -> bool:
    """Glyph boxes of an appearance stream poke out of the annotation rect (ascenders),
    so "inside" means the centre is inside."""
    cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]


def _annotation_texts(page: pymupdf.Page) -> Iterator[tuple[str, pymupdf.Rect, str]]:
    """(text, unrotated rect, source) for annotation contents and widget values.

    PyMuPDF's Annot.rect is already derotated (it multiplies by derotation_matrix),
    so it is in the same unrotated space as the words; for NoRotate notes it is the
    drawn footprint, which is what a reviewer sees.
    """
    for annot in page.annots():
        info = annot.info
        for key in ("content", "subject"):
            value = info.get(key) or ""
            if value.strip():
                yield value, annot.rect, SOURCE_ANNOTATION
    for widget in page.widgets():
        value = widget.field_value
        if isinstance(value, str) and value.strip() and value not in ("Off",):
            yield value, widget.rect, SOURCE_WIDGET


def _text_layer(
    page: pymupdf.Page,
) -> tuple[pymupdf.TextPage, list[tuple], list[tuple[str, pymupdf.Rect, str]], list[tuple]]:
    """The page's text page, its words, its annotation and widget texts, and the words
    of the page's own content: a page without any has no text layer (OCR reads it)."""
    textpage = page.get_textpage(flags=_TEXT_FLAGS)
    words = [w for w in textpage.extractWORDS() if w[4].strip()]
    # annot_xrefs() is one cheap call; most pages have no annotations or widgets.
    overlays = list(_annotation_texts(page)) if page.annot_xrefs() else []
    # Annotation and widget appearances are part of the extracted words; a page whose
    # only words sit in them has no text layer of its own (a scan with a stamp).
    content_words = [
        w for w in words if not any(_centre_in(w[:4], r) for _, r, _ in overlays)
    ] if overlays else words  # fmt: skip
    return textpage, words, overlays, content_words


def _needs_ocr(page: pymupdf.Page) -> bool:
    return not _text_layer(page)[3] and not _page_is_blank(page)


def _scan_page(
    page: pymupdf.Page,
    index: int,
    policy: DetectionPolicy,
    finder: _Finder,
    ocr: PageReader | None,
    pages_ocred: list[int],
    pages_without_text: list[int],
    texts: list[tuple[int, _PageText, str]],
) -> list[_Found]:
    """Hits on one page, in unrotated page space; appends to the two page lists and
    the page's text (for every occurrence of a named entity) to `texts`. `ocr` reads a
    page without a text layer (None: OCR is off); OcrDeferred passes through."""
    found: list[_Found] = []
    textpage, words, overlays, content_words = _text_layer(page)
    source = SOURCE_TEXT
    if not content_words:
        pages_without_text.append(index)
        if not _page_is_blank(page):
            reason: str | None = NO_TEXT_LAYER
            if ocr is not None:
                try:
                    ocred = ocr(page)
                    if ocred is not None:
                        textpage = ocred
                        words = [w for w in textpage.extractWORDS() if w[4].strip()]
                        source = SOURCE_OCR
                        pages_ocred.append(index)
                        reason = None if words else OCR_NO_TEXT
                except OcrDeferred:
                    raise
                except Exception:  # any OCR failure means "a human must look"
                    reason = NO_TEXT_LAYER
            if reason is not None:
                found.append(
                    _Found(
                        index,
                        [(0.0, 0.0, page.cropbox.width, page.cropbox.height)],
                        Hit(NEEDS_MANUAL_REVIEW, 0, 0, 0.0, "page.text_layer", ""),
                        source,
                        "",
                        reason,
                    )
                )
    if words:
        page_text = _PageText(textpage, words)
        texts.append((index, page_text, source))
        for hit in finder.hits(page_text.text):
            rects = page_text.boxes(hit.start, hit.end)
            if rects:
                found.append(
                    _Found(index, rects, hit, source, _hash(policy, hit.normalized), hit.reason)
                )
    overlay_found: list[_Found] = []
    seen: set[tuple[str, str, tuple[float, ...]]] = set()
    for text, rect, overlay_source in overlays:
        for hit in finder.hits(text):
            h = _hash(policy, hit.normalized)
            box = (rect.x0, rect.y0, rect.x1, rect.y1)
            key = (hit.category, h, box)
            if key not in seen:
                seen.add(key)
                overlay_found.append(_Found(index, [box], hit, overlay_source, h))
    if overlay_found:
        # The same hit read from the annotation's appearance is reported once, on the
        # annotation, because redaction must remove the annotation object itself.
        owned = {(f.hit.category, f.text_hash, tuple(f.rects[0])) for f in overlay_found}
        found = [
            f
            for f in found
            if not any(
                (f.hit.category, f.text_hash) == (c, h) and all(_centre_in(r, rr) for r in f.rects)
                for c, h, rr in owned
            )
        ]
        found.extend(overlay_found)
    return found


# ------------------------------------------------------------ every occurrence

_TITLES = (
    r"Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Lord|Lady|Judge|Officer|Det|Sgt|Capt|"
    r"Herr|Frau|M|Mme|Mlle|Me|Sr|Sra|Srta|Don|Doña"
)
_POSSESSIVE = r"(?:['’]s)?"


@dataclass(frozen=True)
class _Entity:
    category: str
    tokens: tuple[str, ...]  # the name as written, split on whitespace

    @property
    def key(self) -> str:
        return " ".join(self.tokens).casefold()


def _entities(
    found: list[_Found], texts: list[tuple[int, _PageText, str]], policy: DetectionPolicy
) -> list[_Entity]:
    """Named entities worth proposing everywhere: what NER found here (two words at
    least, or one of four letters or more) and what it found in the submission's
    other documents."""
    pages = {index: page_text for index, page_text, _ in texts}
    seen: dict[tuple[str, str], _Entity] = {}
    raw = [
        (f.hit.category, pages[f.page].text[f.hit.start : f.hit.end])
        for f in found
        if f.hit.category in NER_CATEGORIES and f.source in (SOURCE_TEXT, SOURCE_OCR)
    ]
    for category, text in [*raw, *policy.known_entities]:
        tokens = tuple(text.split())
        if not tokens or (len(tokens) == 1 and len(tokens[0]) < 4):
            continue
        entity = _Entity(category, tokens)
        seen.setdefault((category, entity.key), entity)
    # "J. Doe" is a written form of "Jane Doe" when she is the only such person: one
    # entity. Fuller names first, so they claim the places their forms cover.
    full = [e for e in seen.values() if e.category == PERSON and len(e.tokens) >= 2]
    kept = [
        e
        for e in seen.values()
        if not (
            e.category == PERSON
            and len(e.tokens) == 2
            and re.fullmatch(r"\w\.?", e.tokens[0])
            and sum(_initial_form(f) == _initial_form(e) and f is not e for f in full) == 1
        )
    ]
    return sorted(kept, key=lambda e: (-len(e.key), e.category, e.key))


def _initial_form(e: _Entity) -> str:
    return f"{e.tokens[0][0]}.{e.tokens[-1]}".casefold()


def _entity_patterns(entities: list[_Entity]) -> list[tuple[_Entity, re.Pattern[str]]]:
    """Each entity's written forms: the whole name in any case, possessive allowed;
    for a person also the surname after a title ("Ms. Doe") and the initial with the
    surname ("J. Doe") where no other person shares that initial and surname."""
    initials: dict[str, set[str]] = {}
    for e in entities:
        if e.category == PERSON and len(e.tokens) >= 2:
            initials.setdefault(_initial_form(e), set()).add(e.key)
    patterns = []
    for e in entities:
        gap = r"(?:[ \n]|-\n)"
        whole = gap.join(re.escape(t) for t in e.tokens)
        flags = re.IGNORECASE if len(e.tokens) > 1 else 0
        forms = [rf"(?<![\w-])({whole}){_POSSESSIVE}(?![\w-])"]
        if e.category == PERSON and len(e.tokens) >= 2:
            surname = re.escape(e.tokens[-1])
            forms.append(rf"(?<![\w-])(?:{_TITLES})\.?{gap}({surname}){_POSSESSIVE}(?![\w-])")
            if len(initials[_initial_form(e)]) == 1:
                initial = re.escape(e.tokens[0][0])
                forms.append(rf"(?<![\w-])({initial}\.{gap}?{surname}){_POSSESSIVE}(?![\w-])")
        patterns.append((e, re.compile("|".join(forms), flags)))
    return patterns


def _every_occurrence(
    found: list[_Found],
    texts: list[tuple[int, _PageText, str]],
    policy: DetectionPolicy,
) -> tuple[list[_Entity], list[_Found], dict[int, str]]:
    """Propose each named entity at every place it is written, and tie all of its
    places into one group: (the entities, the new finds, group by id() of a find)."""
    entities = _entities(found, texts, policy)
    groups: dict[int, str] = {}
    if not entities:
        return entities, [], groups
    by_page: dict[int, list[_Found]] = {}
    for f in found:
        by_page.setdefault(f.page, []).append(f)
    added: list[_Found] = []
    for entity, pattern in _entity_patterns(entities):
        group = "e" + _hash(policy, f"{entity.category}|{entity.key}")[:15]
        for index, page_text, source in texts:
            for m in pattern.finditer(page_text.text):
                # Each form captures the name itself (not its title or possessive).
                start, end = next(m.span(g) for g in range(1, len(m.groups()) + 1) if m.group(g))
                known = [
                    f
                    for f in by_page.get(index, ())
                    if f.hit.category == entity.category and f.hit.start < end and start < f.hit.end
                ]
                if known:
                    for f in known:
                        groups.setdefault(id(f), group)
                    continue
                rects = page_text.boxes(start, end)
                if not rects:
                    continue
                value = page_text.text[start:end]
                hit = Hit(
                    entity.category, start, end, 0.8, "entity.every_occurrence", squash(value)
                )
                f = _Found(index, rects, hit, source, _hash(policy, hit.normalized))
                by_page.setdefault(index, []).append(f)
                groups[id(f)] = group
                added.append(f)
    return entities, added, groups


class _Crop:
    """Stands in for the page in geometry.normalize, which only reads `cropbox`."""

    __slots__ = ("cropbox",)

    def __init__(self, cropbox: pymupdf.Rect) -> None:
        self.cropbox = cropbox


def _rounded(box: Box) -> Box:
    return Box(*(round(v * _GRID) / _GRID for v in box))


def _group_id(f: _Found) -> str:
    first = f.boxes[0]
    key = f"{f.hit.category}|{f.source}|{f.text_hash}|{f.page}|{first.x0:.6f}|{first.y0:.6f}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def _near(a: Box, b: Box) -> bool:
    return all(abs(p - q) <= _SAME_PLACE for p, q in zip(a, b, strict=True))


def _assign_groups(found: list[_Found]) -> list[str]:
    """Group ids: one per logical hit, shared by identical hits at the same place on
    other pages (a header or footer the reviewer can accept all at once)."""
    groups: list[str] = []
    leaders: dict[tuple[str, str, str], list[tuple[_Found, str, set[int]]]] = {}
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
    finder = _Finder(policy)
    texts: list[tuple[int, _PageText, str]] = []
    crops: dict[int, pymupdf.Page] = {}
    ocr = (
        PageReader(
            flags=_TEXT_FLAGS,
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
    found: list[_Found] = []
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
            findings.extend(
                _hidden_content_step(page_hidden, page, layered[index] if layered else None)
            )
        if ocr is not None and ocr.deferred:
            raise OcrUnfinished(ocr.read, ocr.read + ocr.deferred)
        entities, added, entity_groups = (
            _every_occurrence(found, texts, policy) if policy.ner else ([], [], {})
        )
        found.extend(added)
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
