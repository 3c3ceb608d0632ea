"""The release gate: prove an output leaks nothing that was approved for redaction.

`verify(original, output, marks)` reopens the output and checks it against the
original. The redacted strings are recomputed here from the original (the words under
each approved box), used in memory only, and never reported: a `Failure` carries a
machine code, a page or object number and a count, nothing else. Where words lie
against the boxes (under one, touching one, cut short by burn-in, hidden) is measured
in `word_geometry.py`; how the tokens are found in text and in PDF syntax, in `tokens.py`.

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
  off layer), or draws again, away from the boxes, glyphs the original hid (a rewrite
  may uncover them: `glyph_places.shown_hidden_glyphs`). The burn-in's reason stamps are
  white on black, so they pass;
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
  ("/Type/Page", "309.436 Td"), not text. Any other stream is searched whole, except
  images, font programs and colour (ICC) profiles, whose bytes are no text.
  Hyphens and dashes are one character to the search ("FOLL\u20115" on the page is
  "(FOLL-5)" in the stream), and a token inside a longer one found counts too ("nccn" in
  "nccn.org"). A string that ends (or starts) with a token is no hit where the next (or
  previous) string runs it on into a word the output shows: "(external radiat)" then
  "(ion:)" is the visible "radiation:".
  Tokens of one or two characters are checked by position only (`text_under_box`);
- `embedded_file`, `javascript`, `action`, `annotation`, `form_field`, `outline`,
  `metadata`, `optional_content`;
- `stream_leftovers`: a stream carries bytes no reader draws: past the end of its Flate
  data (what followed it in the source), or a JPEG's metadata (EXIF, XMP, comments, a
  thumbnail) or bytes past its end (`stream_leftovers.py`);
- `text_added`: the output page shows, away from every box, words the original did not
  show there (its annotations and fields are read with the page): content MuPDF
  could not read in the original that a rewrite made readable. What burn-in left of a
  word and two runs now read as one are not new;
- `text_moved`: the output page draws glyphs, away from every box, where the original
  drew none (`glyph_places.py`: MuPDF's filter moved the text after glyphs it removed);
- `collateral_damage`: visible words of the original that touch no box are missing from
  the output page (beyond a 0.2 % tolerance for extraction quirks). Hidden content is
  not a witness: sanitize removes it on purpose; nor is MuPDF's "SIGN" tag in an unsigned
  signature field, which no file holds. Nor is a word hidden glyphs on its line
  cover more than a point of (sanitize may cut it short: a word the page edge cuts
  through); on the line means across it, as an OCR layer's glyph boxes are only
  glyph-tall, its words line-tall.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import pymupdf

from review.pdf import syntax
from review.pdf.geometry import Quad, page_rect
from review.pdf.glyph_keys import clipped_textpage
from review.pdf.glyph_places import moved_glyphs, shown_hidden_glyphs
from review.pdf.hidden import analyse_page
from review.pdf.layers import layers_on
from review.pdf.no_text import (
    CHARACTER_COLLECTION,
    CMAP_NAMES,
    collection_parts,
    describes_a_font,
    font_programs,
    is_binary_stream,
    is_cmap_program,
    is_colour_profile,
)
from review.pdf.redact import RedactionMark, baked, check_page, open_pdf
from review.pdf.render import MUPDF_ERRORS
from review.pdf.slanted import slanted_glyphs
from review.pdf.stream_leftovers import leftovers
from review.pdf.tokens import (
    DASHES,
    Shown,
    Words,
    bare,
    byte_forms,
    fold,
    found_in_any,
    found_unexplained,
    fragment_patterns,
    is_stamp,
    token_of,
)
from review.pdf.word_geometry import (
    Boxes,
    appeared,
    cut_short,
    glyph_runs,
    inner_words,
    left_of,
    missing,
    own_runs,
    page_words,
)

COLLATERAL_TOLERANCE = 0.002
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
            failures.extend(_check(original, src, out, output, marks))
        finally:
            out.close()
    finally:
        src.close()
    return VerificationReport(ok=not failures, failures=failures)


def _check(
    original: bytes,
    src: pymupdf.Document,
    out: pymupdf.Document,
    output: bytes,
    marks: Sequence[RedactionMark],
) -> list[Failure]:
    failures = _structure_failures(out, output)
    if src.page_count != out.page_count:
        failures.append(Failure("page_count_changed"))
        return failures

    per_page: dict[int, list[Quad]] = {}
    for mark in marks:
        box = page_rect(src[mark.page], mark.box)
        per_page.setdefault(mark.page, []).append((box.x0, box.y0, box.x1, box.y1))
    boxes = {page_no: Boxes(quads) for page_no, quads in per_page.items()}
    no_boxes = Boxes([])
    stamps = {token for mark in marks for token in mark.legal_reason.split()}

    redacted: set[str] = set()
    spellings: set[str] = set()  # the redacted tokens as written, for the byte search
    outside: list[str] = []  # the words outside every box
    original_pages = []
    for page_no, page in enumerate(src):
        textpage = clipped_textpage(page)
        before = page_words(textpage)
        original_pages.append(before)
        page_boxes = boxes.get(page_no, no_boxes)
        # Under a box as the output's words are judged below: a slanted word's own
        # glyphs meet it, not merely the upright box around them ("JKL" turned 45
        # degrees beside a mark on "GHI", openhtmltopdf's transform-inside-transform,
        # stayed whole in the release and was taken for a redacted word left in it).
        slanted = slanted_glyphs(textpage) if page_boxes.quads else []
        rects = [rect for rect, _ in before.words]
        page_runs = functools.cache(lambda textpage=textpage: glyph_runs(textpage))
        for rect, text in before.words:
            down = before.runs_down(rect)
            # A word holding another is judged by its own glyphs, as the output's are.
            inner = inner_words(rect, rects) if page_boxes.covers(rect, down) else []
            parts = own_runs(inner, page_runs()) if inner else []
            if not page_boxes.under(rect, down, slanted, parts):
                outside.append(text)
            elif token := token_of(text):
                redacted.add(fold(token))
                spellings.update({token, token.translate(DASHES)})
    redacted -= {fold(token_of(raw)) for raw in stamps}
    words = Words(redacted) if redacted else None
    # Occurrences outside every box, counted exactly as the output's are below (so "post"
    # in "post-service" counts on both sides). Hidden copies count here too: whatever of
    # them the output still holds fails the gate as `unseen_content`.
    allowance = words.count(outside) if words is not None else Counter()
    # Distinctive tokens may not occur at all, in the text or in the bytes; common ones
    # are counted against the allowance.
    distinctive = redacted - allowance.keys()

    found: Counter[str] = Counter()
    fragments: set[str] = set()  # what burn-in left of words beside a box
    shown = Shown(out)
    out_layered = layers_on(out)
    # The source with its layers on, copied once and only if a page needs it.
    source_layered = functools.cache(lambda: layers_on(src))
    # And with its annotations drawn in, as burn-in draws them: a word under a sticky
    # note's icon was hidden from the reviewer, and sanitize takes it.
    source_baked = functools.cache(lambda: baked(original))

    def as_burned(page_no: int) -> pymupdf.Page:
        return source_baked()[page_no] if src[page_no].annot_xrefs() else src[page_no]

    for page_no, page in enumerate(out):
        textpage = clipped_textpage(page)
        after = page_words(textpage)
        shown.add(text for _, text in after.words)
        page_boxes = boxes.get(page_no, no_boxes)
        covered = [
            rect
            for rect, text in after.words
            if all(page_boxes.covers(rect, way) for way in after.ways(rect))
            and not is_stamp(text, stamps)
        ]
        under = 0
        if covered:  # glyphs are read only for a page where some word lies under a box
            slanted = slanted_glyphs(textpage)
            # A stamp's glyphs are no part of a word whose box reaches over them.
            stamped = {rect for rect, text in after.words if is_stamp(text, stamps)}
            runs = [run for run in glyph_runs(textpage) if run not in stamped]
            under = sum(
                1
                for rect in covered
                if all(page_boxes.under(rect, way, slanted, runs) for way in after.ways(rect))
            )
        if under:
            failures.append(Failure("text_under_box", page=page_no, count=under))
        unseen = analyse_page(
            page, out_layered[page_no] if out_layered else None, clipped_text=textpage
        ).hidden
        # What the original hid (the reviewer saw it only as a hidden-content mark) must
        # be gone, though a rewrite may have uncovered it where the output draws it.
        layered_doc = source_layered()
        analysis = analyse_page(
            as_burned(page_no), layered_doc[page_no] if layered_doc is not None else None
        )
        hidden = [(g.text, g.origin) for g in analysis.hidden if g.origin is not None]
        unseen_count = len(unseen) + shown_hidden_glyphs(
            as_burned(page_no), hidden, page, page_boxes
        )
        if unseen_count:
            failures.append(Failure("unseen_content", page=page_no, count=unseen_count))
        before = original_pages[page_no]
        if words is not None:
            cut = cut_short(after, before, page_boxes)
            holding = [
                (r, text) for r, text in after.words if (r, text) not in cut and words.search(text)
            ]
            if holding:
                # And what sanitize left of a word outside the boxes it cut hidden glyphs
                # from: a white 2-point "8" glued to a heading's "Interactive" (pdfSweep).
                seen = [
                    (r, w) for r, w in before.words if not page_boxes.covers(r, before.runs_down(r))
                ]
                cut |= left_of(holding, seen)
            # As drawn, a fragment's punctuation or dash may be a string of its own
            # ("(Erinnerung)" then "(:)", "(-)" then "(MENLO PK)"): its bare word counts too.
            fragments.update(form for _, text in cut for form in (text, bare(text)) if form)
            occurrences = words.count(text for rect, text in after.words if (rect, text) not in cut)
            hits = sum(count for token, count in occurrences.items() if token in distinctive)
            if hits:
                failures.append(Failure("redacted_string_present", page=page_no, count=hits))
            found.update(occurrences)
        lost = missing(before, after, page_boxes)
        if lost > len(before.words) * COLLATERAL_TOLERANCE:
            # Sanitize removes hidden content on purpose: it is no witness; nor is the
            # tag MuPDF draws in an unsigned signature field. Looked for only here,
            # where words are missing, as most pages have neither.
            before.hidden = [glyph.rect for glyph in analysis.hidden] + analysis.ocr_layer
            before.hidden += before.holding(g.origin for g in analysis.hidden if g.origin)
            before.hidden += _unsigned_signature_fields(src[page_no])
            lost = missing(before, after, page_boxes)
        if lost > len(before.words) * COLLATERAL_TOLERANCE:
            failures.append(Failure("collateral_damage", page=page_no, count=lost))
        added = appeared(before, after, page_boxes)
        if added:
            failures.append(Failure("text_added", page=page_no, count=added))
        moved = moved_glyphs(as_burned(page_no), page, page_boxes)
        if moved:
            failures.append(Failure("text_moved", page=page_no, count=moved))

    over = sum(1 for token, allowed in allowance.items() if found[token] > allowed)
    if over:
        failures.append(Failure("redacted_string_present", count=over))
    if distinctive:
        written = {raw for raw in spellings if fold(raw) in distinctive}
        failures.extend(_side_channel_hits(out, distinctive, written, fragments, shown, stamps))
    return failures


def _unsigned_signature_fields(page: pymupdf.Page) -> list[Quad]:
    """Where the page's unsigned signature fields lie. MuPDF shows each with a "SIGN"
    tag of its own (no file holds it, the field's stored appearance is often empty),
    which baking the fields into the page, as burn-in does, leaves out: the reviewer's
    preview has no tag either (a CMS claim form in PyMuPDF's test files). A field tree
    MuPDF cannot read (a cycle of /Parent links, pdf.js's issue12963.pdf) gives none:
    a tag then counts as a lost word, and the gate refuses rather than guess."""
    try:
        widgets = list(page.widgets())
    except MUPDF_ERRORS:
        return []
    return [
        (widget.rect.x0, widget.rect.y0, widget.rect.x1, widget.rect.y1)
        for widget in widgets
        if widget.field_type == pymupdf.PDF_WIDGET_TYPE_SIGNATURE and not widget.is_signed
    ]


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
        if leftovers(out, xref):
            failures.append(Failure("stream_leftovers", xref=xref))
        if (
            out.xref_get_key(xref, "S")[1] == "/JavaScript"
            or out.xref_get_key(xref, "JS")[0] != "null"
            or out.xref_get_key(xref, "JavaScript")[0] != "null"
        ):
            failures.append(Failure("javascript", xref=xref))
        elif out.xref_get_key(xref, "AA")[0] != "null":
            failures.append(Failure("action", xref=xref))
    return failures


def _stamped(text: bytes, stamps: set[str]) -> bool:
    words = text.decode("latin-1").split()
    return bool(words) and all(is_stamp(word, stamps) for word in words)


def _side_channel_hits(
    out: pymupdf.Document,
    tokens: set[str],
    spellings: set[str],
    fragments: set[str],
    shown: Shown,
    stamps: set[str],
) -> list[Failure]:
    """Search everything that is not page text: metadata, annotations, objects, streams.
    What a content stream's strings show of the `fragments` (what burn-in left of words
    beside a box) is no occurrence, as on the page; nor is a token that a string ends
    (or starts) where the next (or previous) one runs it on into a word the output
    shows (`shown`, folded). A reason stamp burn-in drew is no string a word runs on
    into: a page's last "(www.alias-i.com/)" is followed by the stamps of its boxes."""
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
    strings = [text for text in strings if text]  # mostly none: the pattern is costly
    if tokens and strings and any(Words(tokens).search(text) for text in strings):
        failures.append(Failure("redacted_string_present"))

    needles = byte_forms(spellings)
    # Decoded strings hold the text itself, never its hex spelling.
    text_needles = [needle for needle in needles if needle.decode == "raw"]
    any_needle = re.compile(b"|".join(re.escape(needle.data) for needle in text_needles))
    written_in_syntax = syntax.syntax_streams(out)
    left = fragment_patterns(fragments)
    named_collections: set[int] = set()
    programs = font_programs(out)
    for xref in range(1, out.xref_length()):
        obj = out.xref_object(xref, compressed=True).encode("latin-1", "replace")
        named_collections |= collection_parts(obj)
        obj = CHARACTER_COLLECTION.sub(b"", obj)
        if found_in_any(text_needles, syntax.strings(obj)) and not describes_a_font(out, xref):
            failures.append(Failure("redacted_string_present", xref=xref))
            continue
        if not out.xref_is_stream(xref) or is_binary_stream(out, xref) or xref in programs:
            continue
        try:
            data = out.xref_stream(xref)
        except (RuntimeError, ValueError):  # an undecodable filter: fall back to raw bytes
            data = out.xref_stream_raw(xref)
        if not data or is_colour_profile(out, xref, data):
            continue
        if is_cmap_program(out, xref, data):
            # A CMap program names its character collection, no text: every ToUnicode
            # map says "Adobe", which a reviewer may redact on a page.
            data = CMAP_NAMES.sub(b"", CHARACTER_COLLECTION.sub(b"", data))
        if xref in written_in_syntax:
            drawn = [
                b" " if _stamped(text, stamps) else text
                for text in syntax.strings(syntax.kerned_joined(data))
            ]
            hit = found_unexplained(text_needles, drawn, left, shown, any_needle)
        else:  # unknown bytes (a stash, XML, script): searched whole
            hit = any(needle.found_in(data) for needle in needles)
        if hit:
            failures.append(Failure("redacted_string_present", xref=xref))
    return [failure for failure in failures if failure.xref not in named_collections]
