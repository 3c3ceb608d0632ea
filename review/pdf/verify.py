"""The release gate: prove an output leaks nothing that was approved for redaction.

`verify(original, output, marks)` reopens the output and checks it against the
original. The redacted strings are recomputed here from the original (the words under
each approved box), used in memory only, and never reported: a `Failure` carries a
machine code, a page or object number and a count, nothing else.

Checks (codes):
- `unreadable`, `page_count_changed`, `multiple_revisions` (exactly one %%EOF and one
  xref section; a signature's revision is added after this gate, see sign.py);
- `text_under_box`: a word on the output page lies under an approved box, other than the
  legal-reason stamp (or several stamps run together). "Under" means across the line the
  box holds the word's centre, and along the line it covers more than a small tolerance:
  line boxes include the leading, so on tight lines a neighbour's box reaches into the
  mark by a point or more, and MuPDF rightly keeps it;
- `unseen_content`: the output still carries content no reader sees (`hidden.py`: text
  or images outside the crop box, covered, invisible, same-coloured, tiny, clipped, in an
  off layer). The burn-in's reason stamps are white on black, so they pass;
- `redacted_string_present`: a redacted token (3+ characters) found, as a whole word
  (case-insensitive; "Ann" is not found in "Annex"), in the output's extracted text,
  annotation contents, form values, metadata, XMP, outline, attachment names, or the
  strings of any object or stream. Extracted text is the primary net; content streams
  may encode text as glyph ids, so the byte search is a best-effort extra.
  A token that the original also holds outside every box (such as "and", or "post" in
  "post-service") is allowed up to that many occurrences in the extracted text, counted
  the same way on both sides, and is not searched in bytes; a hidden copy of a redacted
  value elsewhere that the output still holds fails as `unseen_content`.
  In objects and in content streams (pages, forms, patterns, Type 3 glyphs, CMaps) only
  strings and comments are searched: names, numbers and operators are PDF vocabulary
  ("/Type/Page", "309.436 Td"), not text. Any other stream is searched whole.
  Tokens of one or two characters are checked by position only (`text_under_box`);
- `embedded_file`, `javascript`, `action`, `annotation`, `form_field`, `outline`,
  `metadata`, `optional_content`;
- `collateral_damage`: visible words of the original that touch no box are missing from
  the output page (beyond a 0.2 % tolerance for extraction quirks). Hidden content is
  not a witness: sanitize removes it on purpose. A word counts as hidden when hidden
  glyphs on its line cover half its length: an OCR layer's glyph boxes are only
  glyph-tall, its words line-tall.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import pymupdf

from review.pdf import syntax
from review.pdf.geometry import page_rect
from review.pdf.hidden import analyse_page, clipped_textpage, layers_on
from review.pdf.redact import RedactionMark, check_page, open_pdf

# Words that only graze a box (a neighbour cut at the box edge) are not "under" it: along
# the line, the overlap must exceed this many points.
TOLERANCE_PT = 1.0
MIN_TOKEN_LEN = 3
COLLATERAL_TOLERANCE = 0.002
# Stream kinds whose bytes are not text: skipped by the byte search (speed, false hits).
BINARY_SUBTYPES = {"/Image", "/Type1C", "/CIDFontType0C", "/OpenType"}
STRIP = "\"'()[]{}<>.,;:!?"
# Keys of PyMuPDF's `Document.metadata` that it reads off the file itself ("PDF 1.7"),
# not from its document information: nothing of the document's text.
DERIVED_METADATA = {"format", "encryption"}


@dataclass(frozen=True)
class Failure:
    code: str
    page: int | None = None  # 0-based
    xref: int | None = None  # PDF object number, for stream and object hits
    count: int = 1


@dataclass
class VerificationReport:
    ok: bool
    failures: list[Failure] = field(default_factory=list)

    def codes(self) -> set[str]:
        return {failure.code for failure in self.failures}


# Plain (x0, y0, x1, y1) tuples: pymupdf.Rect construction dominated verify's profile.
Quad = tuple[float, float, float, float]


@dataclass
class _PageWords:
    words: list[tuple[Quad, str]]
    # Most lines run down the unrotated page (text drawn to be read on a rotated page):
    # "along the line" is then y.
    vertical: bool = False
    hidden: list[Quad] = field(default_factory=list)  # boxes of hidden glyphs, when known

    def visible(self) -> Iterable[tuple[Quad, str]]:
        for rect, text in self.words:
            if not _mostly_hidden(rect, self.hidden, self.vertical):
                yield rect, text


def verify(original: bytes, output: bytes, marks: Sequence[RedactionMark]) -> VerificationReport:
    failures: list[Failure] = []
    src = open_pdf(original)
    try:
        for mark in marks:
            check_page(mark.page, src.page_count)
        try:
            out = open_pdf(output)
        except (RuntimeError, ValueError):
            return VerificationReport(ok=False, failures=[Failure("unreadable")])
        try:
            failures.extend(_check(src, out, output, marks))
        finally:
            out.close()
    finally:
        src.close()
    return VerificationReport(ok=not failures, failures=failures)


def _check(
    src: pymupdf.Document, out: pymupdf.Document, output: bytes, marks: Sequence[RedactionMark]
) -> list[Failure]:
    failures = _structure_failures(out, output)
    if src.page_count != out.page_count:
        failures.append(Failure("page_count_changed"))
        return failures

    per_page: dict[int, list[Quad]] = {}
    for mark in marks:
        box = page_rect(src[mark.page], mark.box)
        per_page.setdefault(mark.page, []).append((box.x0, box.y0, box.x1, box.y1))
    boxes = {page_no: _Boxes(quads) for page_no, quads in per_page.items()}
    no_boxes = _Boxes([])
    stamps = {token for mark in marks for token in mark.legal_reason.split()}

    redacted: set[str] = set()
    spellings: set[str] = set()  # the redacted tokens as written, for the byte search
    original_pages = [_page_words(clipped_textpage(page)) for page in src]
    for page_no, page_words in enumerate(original_pages):
        page_boxes = boxes.get(page_no, no_boxes)
        for rect, text in page_words.words:
            token = _token(text)
            if token and page_boxes.covers(rect, page_words.vertical):
                redacted.add(token.casefold())
                spellings.add(token)
    redacted -= {_token(raw).casefold() for raw in stamps}
    words = _words_pattern(redacted)
    # Occurrences outside every box, counted exactly as the output's are below (so "post"
    # in "post-service" counts on both sides). Hidden copies count here too: whatever of
    # them the output still holds fails the gate as `unseen_content`.
    allowance: Counter[str] = Counter()
    if words is not None:
        for page_no, page_words in enumerate(original_pages):
            page_boxes = boxes.get(page_no, no_boxes)
            allowance += _occurrences(
                words,
                (
                    text
                    for rect, text in page_words.words
                    if not page_boxes.covers(rect, page_words.vertical)
                ),
            )
    # Distinctive tokens may not occur at all, in the text or in the bytes; common ones
    # are counted against the allowance.
    distinctive = redacted - allowance.keys()

    found: Counter[str] = Counter()
    fragments: set[str] = set()  # what burn-in left of words beside a box
    out_layered = layers_on(out)
    # The source with its layers on, copied once and only if a page needs it.
    source_layered = functools.cache(lambda: layers_on(src))
    for page_no, page in enumerate(out):
        textpage = clipped_textpage(page)
        page_words = _page_words(textpage)
        page_boxes = boxes.get(page_no, no_boxes)
        under = sum(
            1
            for rect, text in page_words.words
            if page_boxes.covers(rect, page_words.vertical) and not _is_stamp(text, stamps)
        )
        if under:
            failures.append(Failure("text_under_box", page=page_no, count=under))
        unseen = analyse_page(
            page, out_layered[page_no] if out_layered else None, clipped_text=textpage
        ).hidden
        if unseen:
            failures.append(Failure("unseen_content", page=page_no, count=len(unseen)))
        before = original_pages[page_no]
        if words is not None:
            cut = _cut_short(page_words, before, page_boxes)
            fragments.update(text for _, text in cut)
            occurrences = _occurrences(
                words, (text for rect, text in page_words.words if (rect, text) not in cut)
            )
            hits = sum(count for token, count in occurrences.items() if token in distinctive)
            if hits:
                failures.append(Failure("redacted_string_present", page=page_no, count=hits))
            found += occurrences
        missing = _missing(before, page_words, page_boxes)
        if missing > len(before.words) * COLLATERAL_TOLERANCE:
            # Sanitize removes hidden content on purpose: it is no witness. Analysed
            # only here, where words are missing, as most pages hide nothing.
            layered_doc = source_layered()
            analysis = analyse_page(
                src[page_no], layered_doc[page_no] if layered_doc is not None else None
            )
            before.hidden = [glyph.rect for glyph in analysis.hidden] + analysis.ocr_layer
            missing = _missing(before, page_words, page_boxes)
        if missing > len(before.words) * COLLATERAL_TOLERANCE:
            failures.append(Failure("collateral_damage", page=page_no, count=missing))

    over = sum(1 for token, allowed in allowance.items() if found[token] > allowed)
    if over:
        failures.append(Failure("redacted_string_present", count=over))
    if distinctive:
        written = {raw for raw in spellings if raw.casefold() in distinctive}
        failures.extend(_side_channel_hits(out, distinctive, written, fragments))
    return failures


def _structure_failures(out: pymupdf.Document, output: bytes) -> list[Failure]:
    failures = []
    eof_markers = output.count(b"%%EOF")
    if eof_markers != 1 or out.version_count > 1:
        failures.append(Failure("multiple_revisions", count=max(eof_markers, out.version_count)))
    if out.embfile_count():
        failures.append(Failure("embedded_file", count=out.embfile_count()))
    if any(value for key, value in out.metadata.items() if key not in ("format", "encryption")):
        failures.append(Failure("metadata"))
    if out.get_xml_metadata():
        failures.append(Failure("metadata"))
    if out.get_toc(simple=True):
        failures.append(Failure("outline"))
    catalog = out.pdf_catalog()
    if out.xref_get_key(catalog, "OCProperties")[0] != "null":
        failures.append(Failure("optional_content", xref=catalog))
    for key in ("OpenAction", "AA"):
        if out.xref_get_key(catalog, key)[0] != "null":
            failures.append(Failure("action", xref=catalog))
    for page_no, page in enumerate(out):
        annots = [a for a in page.annots() if a.type[0] != pymupdf.PDF_ANNOT_WIDGET]
        if annots:
            failures.append(Failure("annotation", page=page_no, count=len(annots)))
        widgets = list(page.widgets())
        if widgets:
            failures.append(Failure("form_field", page=page_no, count=len(widgets)))
        if out.xref_get_key(page.xref, "AA")[0] != "null":
            failures.append(Failure("action", page=page_no, xref=page.xref))
    for xref in range(1, out.xref_length()):
        kind = out.xref_get_key(xref, "Type")[1]
        if kind == "/EmbeddedFile" or out.xref_get_key(xref, "EF")[0] != "null":
            failures.append(Failure("embedded_file", xref=xref))
        if (
            out.xref_get_key(xref, "S")[1] == "/JavaScript"
            or out.xref_get_key(xref, "JS")[0] != "null"
            or out.xref_get_key(xref, "JavaScript")[0] != "null"
        ):
            failures.append(Failure("javascript", xref=xref))
        elif out.xref_get_key(xref, "AA")[0] != "null":
            failures.append(Failure("action", xref=xref))
    return failures


def _side_channel_hits(
    out: pymupdf.Document, tokens: set[str], spellings: set[str], fragments: set[str]
) -> list[Failure]:
    """Search everything that is not page text: metadata, annotations, objects, streams.
    What a content stream's strings show of the `fragments` (what burn-in left of words
    beside a box) is no occurrence, as on the page."""
    failures = []
    strings: list[str] = [
        str(value) for key, value in out.metadata.items() if value and key not in DERIVED_METADATA
    ]
    strings.append(out.get_xml_metadata())
    strings.extend(str(entry[1]) for entry in out.get_toc(simple=True))
    strings.extend(out.embfile_names())
    for page in out:
        for annot in page.annots():
            strings.extend(str(value) for value in annot.info.values())
        for widget in page.widgets():
            strings.append(str(widget.field_value or ""))
    words = _words_pattern(tokens)
    if words is not None and any(words.search(text.casefold()) for text in strings):
        failures.append(Failure("redacted_string_present"))

    needles = _needles(spellings)
    # Decoded strings hold the text itself, never its hex spelling.
    text_needles = [needle for needle in needles if needle.decode == "raw"]
    written_in_syntax = syntax.syntax_streams(out)
    left = {fragment.encode("latin-1", "replace") for fragment in fragments}
    for xref in range(1, out.xref_length()):
        obj = out.xref_object(xref, compressed=True).encode("latin-1", "replace")
        # A font descriptor's strings name its font ("Times New Roman"), not any text.
        named_font = out.xref_get_key(xref, "Type")[1] == "/FontDescriptor"
        if not named_font and _found(text_needles, syntax.strings(obj)):
            failures.append(Failure("redacted_string_present", xref=xref))
            continue
        if not out.xref_is_stream(xref) or _is_binary_stream(out, xref):
            continue
        try:
            data = out.xref_stream(xref)
        except (RuntimeError, ValueError):  # an undecodable filter: fall back to raw bytes
            data = out.xref_stream_raw(xref)
        if not data:
            continue
        if xref in written_in_syntax:
            shown = syntax.strings(syntax.kerned_joined(data))
            hit = _found(text_needles, (_without(text, left) for text in shown))
        else:  # unknown bytes (a stash, XML, script): searched whole
            hit = any(needle.found_in(data) for needle in needles)
        if hit:
            failures.append(Failure("redacted_string_present", xref=xref))
    return failures


def _without(text: bytes, fragments: set[bytes]) -> bytes:
    for fragment in fragments:
        text = text.replace(fragment, b" ")
    return text


def _words_pattern(tokens: set[str]) -> re.Pattern[str] | None:
    """Any of `tokens` (casefolded) as a whole word in casefolded text (Unicode-aware);
    None for no tokens."""
    if not tokens:
        return None
    alternatives = "|".join(re.escape(token) for token in sorted(tokens, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def _occurrences(words: re.Pattern[str], texts: Iterable[str]) -> Counter[str]:
    """How often each token of `words` occurs in `texts`, by casefolded token."""
    return Counter(words.findall(" ".join(texts).casefold()))


def _is_stamp(word: str, stamps: set[str]) -> bool:
    """`word` is a legal-reason stamp, or several run together: two marks on one box
    print two stamps, which extract as one word ("(b)(6)(b)(6)")."""
    ends = {0}  # where a run of stamps read from the start of `word` can end
    for start in range(len(word)):
        if start in ends:
            ends.update(start + len(stamp) for stamp in stamps if word.startswith(stamp, start))
    return bool(word) and len(word) in ends


@dataclass(frozen=True)
class _Needle:
    """One byte form of a token, found only where the characters around it (each
    `unit` bytes in this encoding) are not word characters: "Ann" not in "Annex",
    "Obstacle" not in "CL_Obstacle"."""

    data: bytes
    unit: int
    decode: str  # how a neighbouring unit reads: "raw", "hex" or "hex16"

    def found_in(self, haystack: bytes) -> bool:
        start = haystack.find(self.data)
        while start >= 0:
            end = start + len(self.data)
            if not self._wordy(
                haystack[start - self.unit : start] if start >= self.unit else b""
            ) and not self._wordy(haystack[end : end + self.unit]):
                return True
            start = haystack.find(self.data, start + 1)
        return False

    def _wordy(self, unit: bytes) -> bool:
        if len(unit) < self.unit:
            return False
        try:
            if self.decode == "raw":
                text = unit.decode("utf-16-be" if self.unit == 2 else "latin-1")
            else:
                text = bytes.fromhex(unit.decode("ascii")).decode(
                    "utf-16-be" if self.decode == "hex16" else "latin-1"
                )
        except (UnicodeDecodeError, ValueError):
            return False
        return text.isalnum() or text == "_"  # a word character (\w), as in the text search


def _needles(tokens: set[str]) -> list[_Needle]:
    """Byte forms a token takes in PDF syntax: literal (both cases of ASCII), hex, and
    UTF-16BE (raw and hex). Case-insensitive only for the literal form: best effort."""
    needles = []
    for token in tokens:
        for form in {token, token.lower(), token.upper()}:
            needles.append(_Needle(form.encode("utf-8"), 1, "raw"))
        utf8 = token.encode("utf-8").hex()
        needles.append(_Needle(utf8.encode(), 2, "hex"))
        needles.append(_Needle(utf8.upper().encode(), 2, "hex"))
        needles.append(_Needle(token.encode("utf-16-be").hex().upper().encode(), 4, "hex16"))
        needles.append(_Needle(token.encode("utf-16-be"), 2, "raw"))
    return needles


def _found(needles: Sequence[_Needle], texts: Iterable[bytes]) -> bool:
    return any(needle.found_in(text) for text in texts for needle in needles)


def _is_binary_stream(doc: pymupdf.Document, xref: int) -> bool:
    if doc.xref_get_key(xref, "Subtype")[1] in BINARY_SUBTYPES:
        return True
    return doc.xref_get_key(xref, "Length1")[0] != "null"  # an embedded TrueType/Type1 program


def _page_words(textpage: pymupdf.TextPage) -> _PageWords:
    """The words a reader sees, wherever they lie (outside the crop box too): what a
    clipping path cut away is `unseen_content`'s business."""
    found = textpage.extractWORDS()
    return _PageWords(words=[(w[:4], w[4]) for w in found], vertical=_runs_down(found))


# One word of `TextPage.extractWORDS`: its box, text, and block, line and word numbers.
_RawWord = tuple[float, float, float, float, str, int, int, int]


def _runs_down(words: Sequence[_RawWord]) -> bool:
    """Most lines of several words run down the page: each later word of a line votes
    by the axis along which it lies from the line's first word."""
    first: dict[tuple[int, int], tuple[float, float]] = {}
    down = across = 0
    for x0, y0, x1, y1, _, block, line, _ in words:
        start = first.setdefault((block, line), (x0 + x1, y0 + y1))
        if abs(y0 + y1 - start[1]) > abs(x0 + x1 - start[0]):
            down += 1
        elif (x0 + x1, y0 + y1) != start:
            across += 1
    return down > across


def _missing(before: _PageWords, after: _PageWords, boxes: _Boxes) -> int:
    expected = Counter(text for rect, text in before.visible() if not boxes.touch(rect))
    present = Counter(text for _, text in after.words)
    return sum((expected - present).values())


def _token(word: str) -> str:
    """The word without surrounding punctuation, or "" when under 3 characters: short
    tokens are checked by position only."""
    token = word.strip(STRIP)
    return token if len(token) >= MIN_TOKEN_LEN else ""


def _axes(rect: Quad, vertical: bool) -> Quad:
    """`rect` as (start, end) along its line, then (start, end) across it."""
    if vertical:
        return rect[1], rect[3], rect[0], rect[2]
    return rect[0], rect[2], rect[1], rect[3]


class _Boxes:
    """The approved boxes of one page. Plain loops with the cheapest test first: these
    run once or twice for every word of the document."""

    def __init__(self, quads: list[Quad]) -> None:
        self.quads = quads

    def covers(self, rect: Quad, vertical: bool) -> bool:
        """The word is under some box: across its line the box holds the word's centre
        (line boxes include the leading, so on tight lines a neighbour's reaches into the
        box), and along it they overlap by more than the tolerance."""
        start, end, top, bottom = _axes(rect, vertical)
        centre = (top + bottom) / 2
        for box in self.quads:
            box_start, box_end, box_top, box_bottom = _axes(box, vertical)
            if box_top <= centre <= box_bottom and (
                min(end, box_end) - max(start, box_start) > TOLERANCE_PT
            ):
                return True
        return False

    def touch(self, rect: Quad) -> bool:
        """`rect` comes within the tolerance of some box: not a collateral witness."""
        for box in self.quads:
            if (
                rect[1] < box[3] + TOLERANCE_PT
                and rect[3] > box[1] - TOLERANCE_PT
                and rect[0] < box[2] + TOLERANCE_PT
                and rect[2] > box[0] - TOLERANCE_PT
            ):
                return True
        return False


def _cut_short(after: _PageWords, before: _PageWords, boxes: _Boxes) -> set[tuple[Quad, str]]:
    """The output words that are what burn-in left of an original word a box reached
    into: MuPDF removes every glyph a box touches, so "(changes" beside a box can come out
    as "(chang", and "VETERAN/CLAIMANT" half under one as "VETERAN/". Neither is an
    occurrence of a redacted "Chang" or "Veteran": the reviewer saw both on the preview.
    What is left under a box is `text_under_box`'s business."""
    reached = [(rect, word) for rect, word in before.words if boxes.touch(rect)]
    return {
        (rect, text)
        for rect, text in (after.words if reached else ())
        if any(
            text != word and text in word and _within(rect, original, TOLERANCE_PT)
            for original, word in reached
        )
    }


def _within(inner: Quad, outer: Quad, slack: float) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def _mostly_hidden(rect: Quad, hidden: Sequence[Quad], vertical: bool) -> bool:
    """Hidden glyphs on the word's line cover at least half its length. Measured along
    the line, not by area: an OCR layer's span boxes can be shorter or taller than the
    words extracted from it. A box is on the line when one holds the other's centre."""
    start, end, top, bottom = _axes(rect, vertical)
    centre = (top + bottom) / 2
    pieces = []
    for box in hidden:
        box_start, box_end, box_top, box_bottom = _axes(box, vertical)
        if box_start >= end or box_end <= start:
            continue
        if top <= (box_top + box_bottom) / 2 <= bottom or box_top <= centre <= box_bottom:
            pieces.append((max(start, box_start), min(end, box_end)))
    covered, reached = 0.0, start
    for piece_start, piece_end in sorted(pieces):  # their union: spans and glyphs overlap
        if piece_end > reached:
            covered += piece_end - max(piece_start, reached)
            reached = piece_end
    return covered > 0 and covered >= 0.5 * (end - start)
