"""Burn approved redaction marks into a PDF.

`burn_in` is also what the reviewer's preview renders, so it is deterministic (same
input, same bytes) and does no sanitizing: metadata, attachments, scripts and old
revisions are `sanitize`'s job, and `verify` is the gate. What it does:

- Annotations and form fields are baked into page content first, as MuPDF shows them
  (`annotations_shown`). A viewer paints them above the page, so otherwise a FreeText
  note or a field value lying over a mark would still show on top of the black box,
  and the preview would disagree with the release.
- Redaction annotations already in the original are deleted unapplied: only marks a
  human approved may remove content.
- Each mark becomes a redaction that removes the text of the words it holds the middle
  of (not of the words it only grazes, see `text_reach.text_rect`), the image pixels and the
  touched vector graphics under it (but a filled rectangle it lies on, a band or a
  shaded cell, stays around it: `fills.py`), is filled black, and is stamped with its
  legal reason in small white text (skipped when the box is too small to hold it
  legibly). A mark that covers the whole page takes all of its content (`_empty`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import pymupdf
from pymupdf import mupdf

from review.pdf.annotations_shown import annotations_as_shown
from review.pdf.content import spell_out_for_the_filter
from review.pdf.fills import split_fills
from review.pdf.form_cycles import forms_drawn_once
from review.pdf.form_line_state import line_state_set_for_forms
from review.pdf.geometry import (
    Box,
    normalize,
    page_rect,
    pdf_to_page,
    quad,
)
from review.pdf.glyph_cut import (
    drop_backwards_glyphs,
    drop_covered_glyphs,
    drop_slanted_glyphs_under,
    slanted_glyphs_under,
)
from review.pdf.glyph_names import name_empty_glyphs
from review.pdf.glyph_outlines import KeptOutline, outlines_beside
from review.pdf.inline_images import inline_colour_spaces_named
from review.pdf.misplaced_objects import open_settled
from review.pdf.prepare import prepare_to_read
from review.pdf.render import REVIEW_DPI, page_png
from review.pdf.resources import default_spaces_named, gs_fonts_named, name_every_resource
from review.pdf.stamps import stamp, stamps_by_box
from review.pdf.stencils import finer_stencils, one_bit_stencils
from review.pdf.text_reach import text_rect, text_words
from review.pdf.text_state import explicit_text_state, restore_text_state

BLACK = (0.0, 0.0, 0.0)
# Full rewrite; `no_new_id` keeps the trailer /ID stable so the same input gives the
# same bytes (MuPDF otherwise draws a fresh random /ID on every save). Garbage is
# collected (what a redaction took goes with it) but alike objects are not merged:
# merging compares every object with every other (`garbage=3` spent 54 s on the 131,000
# objects of pdf.js's one-page bug1978317.pdf), and MuPDF draws some merged soft masks
# differently (`garbage=4`: PyMuPDF's test_3450.pdf lost its check boxes).
SAVE_OPTIONS = {"garbage": 2, "deflate": True, "clean": True, "no_new_id": True}
# Saving again after `text_state.restore_text_state`: cleaning would drop what it wrote.
_RESAVE_OPTIONS = {**SAVE_OPTIONS, "clean": False}
# Glyphs only: decoding the page's images too costs time, and a broken image fails the
# whole extraction ("Illegal dimensions for pixmap", pdf.js's issue6113.pdf).
GLYPH_FLAGS = pymupdf.TEXTFLAGS_RAWDICT & ~pymupdf.TEXT_PRESERVE_IMAGES
# Points a box must reach past the page's edges to hold the whole page.
_CLEAR = 0.05


@dataclass(frozen=True)
class RedactionMark:
    page: int  # 0-based
    box: Box  # normalized, unrotated page space (see geometry.py)
    legal_reason: str  # exemption code stamped on the box, e.g. "(b)(6)"


def open_pdf(pdf: bytes) -> pymupdf.Document:
    doc = open_settled(pdf)
    if doc.needs_pass:
        doc.close()
        raise ValueError("encrypted PDF")
    xrefs = [doc.page_xref(number) for number in range(doc.page_count)]
    strays = {x: doc[n].mediabox for n, x in enumerate(xrefs) if x and _no_page(doc, x)}
    if 0 in xrefs or strays:
        _pages_made_objects(doc, strays)
        doc = pymupdf.open(stream=doc.tobytes(), filetype="pdf")
    prepare_to_read(doc)
    name_empty_glyphs(doc)  # before anything saves it
    if _DECODE_PARMS_ARRAY.search(pdf):  # a stream's dictionary is never compressed
        _decode_parms_fitted(doc)
    return doc


def _no_page(doc: pymupdf.Document, xref: int) -> bool:
    kind, value = doc.xref_get_key(xref, "Type")
    return kind == "name" and value not in ("/Page", "/Pages")


def _pages_made_objects(doc: pymupdf.Document, strays: dict[int, pymupdf.Rect]) -> None:
    """Give each page written inside its parent's /Kids (no object of its own, qpdf's
    direct-pages.pdf) an object, as burn-in and sanitize edit pages by object number;
    and each kid that is no page an empty page of its own, of the size MuPDF shows it
    (`strays`): sejda's invalid_kid.pdf lists its font among the pages, and the page
    keys burn-in and sanitize gave and took from that "page" left every page's text
    unreadable."""
    pdf = mupdf.pdf_specifics(doc.this)
    nodes = [mupdf.pdf_dict_get(mupdf.pdf_trailer(pdf), mupdf.PDF_ENUM_NAME_Root)]
    nodes = [mupdf.pdf_dict_get(nodes[0], mupdf.PDF_ENUM_NAME_Pages)]
    seen: set[int] = set()
    while nodes:
        node = nodes.pop()
        kids = mupdf.pdf_dict_get(node, mupdf.PDF_ENUM_NAME_Kids)
        for i in range(mupdf.pdf_array_len(kids)):
            kid = mupdf.pdf_array_get(kids, i)
            if not mupdf.pdf_is_indirect(kid):
                kid = mupdf.pdf_add_object(pdf, kid)
                mupdf.pdf_array_put(kids, i, kid)
            elif (box := strays.get(mupdf.pdf_to_num(kid))) is not None:
                xref = doc.get_new_xref()
                page = f"/Type /Page /Parent {mupdf.pdf_to_num(node)} 0 R"
                doc.update_object(xref, f"<<{page} /MediaBox [0 0 {box.width:g} {box.height:g}]>>")
                mupdf.pdf_array_put(kids, i, mupdf.pdf_new_indirect(pdf, xref, 0))
                continue
            if mupdf.pdf_to_num(kid) not in seen:  # a page tree may run in a cycle
                seen.add(mupdf.pdf_to_num(kid))
                nodes.append(kid)


def check_page(page: int, page_count: int) -> None:
    if not 0 <= page < page_count:
        raise ValueError(f"mark on page {page} outside 0..{page_count - 1}")


def ready_for_the_filter(doc: pymupdf.Document) -> frozenset[bytes]:
    """Ready `doc` for MuPDF's content filter, which every redaction and every cleaning
    save runs: operators it would draw otherwise written out, every form naming its own
    resources and every font it sets, a form drawn inside itself drawn once
    (`form_cycles`), the line state a form sets written where it is drawn
    (`form_line_state`). Returns the text state the forms set, which `save`
    restores after it."""
    default_spaces_named(doc)
    inline_images = spell_out_for_the_filter(doc)
    name_every_resource(doc)
    forms_drawn_once(doc)
    # Read before the line state wraps each "Do" in a "q" of its own, which would hide
    # the text state an earlier save wrote for it ("q 0 Tc q []0 d /Fm0 Do Q Q": an
    # Acrobat watermark's "COPY", set in the page's last spacing, spread by 7 points
    # on release, as sanitize saved the burn-in's output again).
    explicit = explicit_text_state(doc)
    line_state_set_for_forms(doc)
    gs_fonts_named(doc)
    inline_colour_spaces_named(doc, inline_images)
    return explicit


def save(doc: pymupdf.Document, explicit: frozenset[bytes]) -> bytes:
    """`doc` as one full, cleaned revision, with the forms' text state `explicit`
    (from `ready_for_the_filter`, before any redaction) restored."""
    default_spaces_named(doc)  # again: a redaction's filter dropped what named them
    return restore_text_state(doc.tobytes(**SAVE_OPTIONS), explicit, _RESAVE_OPTIONS)


_DECODE_PARMS_ARRAY = re.compile(rb"/DecodeParms\s*\[")


def _decode_parms_fitted(doc: pymupdf.Document) -> None:
    """Give each stream whose /DecodeParms array is not as long as its /Filter array one
    entry per filter (null for those it lacks). MuPDF reads such a stream, and
    compressing it on saving fails ("index out of bounds": pdf.js's xobject-image.pdf,
    an image under two filters with "/DecodeParms [ ]"), so the document could be
    neither previewed nor released."""
    pdf = mupdf.pdf_specifics(doc.this)
    for xref in range(1, doc.xref_length()):
        try:
            obj = mupdf.pdf_load_object(pdf, xref)
        except (RuntimeError, mupdf.FzErrorBase):
            continue  # a broken object, which saving writes as null
        parms = mupdf.pdf_dict_get(obj, mupdf.PDF_ENUM_NAME_DecodeParms)
        filters = mupdf.pdf_dict_get(obj, mupdf.PDF_ENUM_NAME_Filter)
        wanted = mupdf.pdf_array_len(filters) if mupdf.pdf_is_array(filters) else 1
        if not mupdf.pdf_is_array(parms) or mupdf.pdf_array_len(parms) == wanted:
            continue
        have = mupdf.pdf_array_len(parms)
        entries = mupdf.pdf_new_array(pdf, wanted)
        for i in range(wanted):
            entry = mupdf.pdf_array_get(parms, i) if i < have else mupdf.PdfObj(mupdf.PDF_NULL)
            mupdf.pdf_array_push(entries, entry)
        mupdf.pdf_dict_put(obj, mupdf.PDF_ENUM_NAME_DecodeParms, entries)


def _burn_in_prepare(
    doc: pymupdf.Document, marks: Sequence[RedactionMark]
) -> tuple[dict[int, list[RedactionMark]], frozenset[bytes]]:
    """The burn-in's steps before any page is burned: the marks by page (each page
    checked), foreign redaction annotations dropped, annotations and form fields baked
    into the page content, the document readied for the filter (what `save` needs)."""
    per_page: dict[int, list[RedactionMark]] = defaultdict(list)
    for mark in marks:
        check_page(mark.page, doc.page_count)
        per_page[mark.page].append(mark)
    annotations_as_shown(doc)
    doc.bake(annots=True, widgets=True)
    return per_page, ready_for_the_filter(doc)


def baked(pdf: bytes) -> pymupdf.Document:
    """`pdf` opened with its annotations and form fields drawn into the pages as burn-in
    draws them: what the reviewer saw, all of it page content. Opened from the bytes, not
    copied from an open document: writing the copy parses every object, and one broken
    where nothing reads it (pdfium's launch_action.pdf) failed the release."""
    doc = open_pdf(pdf)
    _burn_in_prepare(doc, [])
    return doc


def burn_in(pdf: bytes, marks: Sequence[RedactionMark]) -> bytes:
    """Apply the approved `marks` to `pdf` and return the rewritten file."""
    doc = open_pdf(pdf)
    try:
        per_page, explicit = _burn_in_prepare(doc, marks)
        for page_no in sorted(per_page):
            _burn_page(doc[page_no], per_page[page_no])
        return save(doc, explicit)
    finally:
        doc.close()


def removed_areas(pdf: bytes, marks: Sequence[RedactionMark]) -> list[tuple[int, Box]]:
    """Where `burn_in(pdf, marks)` takes text or line art away: (page, normalized box)
    for each run of removed glyphs on a line and each removed drawing.

    The burn-in removes every glyph of a line the box holds the middle of, whole, and
    every drawing the box touches: a box over the top of a line, past its middle,
    removes the line's full height over the box's width, and a rule crossing the box its
    whole length, beyond the black fill. The reviewer's
    preview shows these areas. They come from running the burn-in's own steps on each
    marked page and comparing its glyphs and drawings before and after, so they cannot
    disagree with what the release removes.
    """
    doc = open_pdf(pdf)
    try:
        per_page, _ = _burn_in_prepare(doc, marks)
        areas: list[tuple[int, Box]] = []
        for page_no in sorted(per_page):
            page = doc[page_no]
            glyphs, drawings = _glyphs(page), _drawings(page)
            _burn_page(page, per_page[page_no])
            kept = Counter(key for key, _, _ in _glyphs(page))
            kept_drawings = Counter(key for key, _ in _drawings(page))
            runs: dict[int, pymupdf.Rect] = {}
            last_line = None
            for key, rect, line in glyphs:
                if kept[key] > 0:
                    kept[key] -= 1
                    last_line = None  # a kept glyph ends the run
                    continue
                run = len(runs) if line != last_line else len(runs) - 1
                runs[run] = runs[run] | rect if run in runs else pymupdf.Rect(rect)
                last_line = line
            removed = list(runs.values())
            for key, rect in drawings:
                if kept_drawings[key] > 0:
                    kept_drawings[key] -= 1
                else:
                    removed.append(rect)
            areas.extend((page_no, normalize(page, rect)) for rect in removed)
        return areas
    finally:
        doc.close()


_Key = tuple[object, ...]


def _glyphs(page: pymupdf.Page) -> list[tuple[_Key, pymupdf.Rect, int]]:
    """Every glyph of the page in reading order: (identity, box, line number)."""
    glyphs = []
    line_no = 0
    for block in page.get_text("rawdict", flags=GLYPH_FLAGS)["blocks"]:
        for line in block.get("lines", ()):
            line_no += 1
            for span in line["spans"]:
                for char in span["chars"]:
                    box = pymupdf.Rect(char["bbox"])
                    key = (char["c"], *(round(v, 1) for v in box))
                    glyphs.append((key, box, line_no))
    return glyphs


def _drawings(page: pymupdf.Page) -> list[tuple[_Key, pymupdf.Rect]]:
    """Every drawing of the page: (identity, the area it paints, its stroke included: a
    straight rule's own rectangle has no height)."""
    drawings = []
    for d in page.get_drawings():
        half = (d.get("width") or 0.0) / 2 if "s" in (d.get("type") or "") else 0.0
        key = (d.get("type"), len(d["items"]), *(round(v, 1) for v in d["rect"]))
        drawings.append((key, d["rect"] + (-half, -half, half, half)))
    return drawings


def _burn_page(page: pymupdf.Page, marks: Sequence[RedactionMark]) -> None:
    rects = [page_rect(page, mark.box) for mark in marks]
    crop = page.cropbox
    kept: list[KeptOutline] = []
    if any(_holds(rect, crop) for rect in rects):
        _empty(page)
    else:
        kept = _redact(page, rects)
    _fill_and_stamp(page, marks, rects, kept)


def _holds(rect: pymupdf.Rect, crop: pymupdf.Rect) -> bool:
    """`rect` (unrotated page space) holds the whole of the page as shown."""
    return (
        rect.x0 <= _CLEAR
        and rect.y0 <= _CLEAR
        and rect.x1 >= crop.width - _CLEAR
        and rect.y1 >= crop.height - _CLEAR
    )


def _empty(page: pymupdf.Page) -> None:
    """Take everything off a page a mark covers whole (what detection proposes for a
    page it cannot read): its content goes, not only what a redaction can cut. MuPDF's
    redaction left an image of Illustrator artwork (pdfcpu's VectorApple.pdf, inline
    images in nested transparency groups) under the black box, where the gate refuses
    it as content no reader sees."""
    doc = page.parent
    empty = doc.get_new_xref()
    doc.update_object(empty, "<<>>")
    doc.update_stream(empty, b"")
    doc.xref_set_key(page.xref, "Contents", f"{empty} 0 R")
    doc.xref_set_key(page.xref, "Resources", "<<>>")
    for key in ("Group", "PieceInfo"):
        doc.xref_set_key(page.xref, key, "null")


def _redact(page: pymupdf.Page, rects: list[pymupdf.Rect]) -> list[KeptOutline]:
    """Redact the boxes; what of large glyphs they cross stays beside them, to draw."""
    log = page.get_bboxlog()
    split_fills(page, rects, log)  # the background a box lies on stays around it
    # Text first, each box narrowed off the words it only grazes; then pixels, line art
    # under the boxes. Where no box is narrowed, one pass does all.
    words, slanted = text_words(page)
    quads = [quad(rect) for rect in rects]
    reaches = [text_rect(rect, words) for rect in rects]
    text_rects = [narrowed for narrowed, _ in reaches]
    removing = [quad(r) for r in text_rects if not r.is_empty]
    # A watermark's letter a box crosses is kept beside it; then the rest of the slanted
    # glyphs under the boxes go.
    slanted_under = slanted_glyphs_under(page, quads) if slanted else []
    kept = outlines_beside(page, quads, removing, log, slanted_under)
    if slanted_under:
        drop_slanted_glyphs_under(page, quads)
    text = pymupdf.PDF_REDACT_TEXT_REMOVE
    if text_rects != rects:
        for narrowed in text_rects:
            if not narrowed.is_empty:
                page.add_redact_annot(narrowed, fill=False, cross_out=False)
        page.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_NONE,
            graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
            text=pymupdf.PDF_REDACT_TEXT_REMOVE,
        )
        held = [
            (word, box)
            for box, (_, words_held) in zip(quads, reaches, strict=True)
            for word in words_held
        ]
        drop_covered_glyphs(page, quads, held)
        text = pymupdf.PDF_REDACT_TEXT_NONE
    stencilled = finer_stencils(page, quads, log)  # a one-pixel rule stays beside a box
    for rect in rects:
        page.add_redact_annot(rect, fill=False, cross_out=False)
    page.apply_redactions(
        images=pymupdf.PDF_REDACT_IMAGE_PIXELS,
        graphics=pymupdf.PDF_REDACT_LINE_ART_REMOVE_IF_TOUCHED,
        text=text,
    )
    drop_backwards_glyphs(page, quads)
    if stencilled:
        one_bit_stencils(page)
    return kept


def _fill_and_stamp(
    page: pymupdf.Page,
    marks: Sequence[RedactionMark],
    rects: list[pymupdf.Rect],
    kept: list[KeptOutline],
) -> None:
    # The black fills are drawn here, not by the redaction: PyMuPDF draws them through
    # `Page.transformation_matrix`, which leaves the crop box's origin out on a turned
    # page, and put them beside the box there (a scan with /Rotate 90 and its crop box
    # off the origin), leaving the box's place white. A shape's rectangles go through
    # the same matrix: each is moved by what the matrix misses.
    shift = ~pdf_to_page(page) * page.transformation_matrix
    beneath = page.new_shape()
    shape = page.new_shape()
    for outline in kept:
        drawn = beneath if outline.under else shape
        for contour in outline.contours:
            drawn.draw_polyline([pymupdf.Point(point) * shift for point in contour])
        drawn.finish(
            color=None, fill=outline.rgb, fill_opacity=outline.alpha, width=0, closePath=True
        )
    if beneath.totalcont:
        beneath.commit(overlay=False)
    for rect in rects:  # each a path of its own: a plain rectangle fill to `hidden`
        shape.draw_rect(rect * shift)
        shape.finish(color=None, fill=BLACK, width=0)
    # A shape's text goes from the crop box's corner over the media box's height, which
    # is the page's space only where the crop box lies within the media box: a crop box
    # reaching past it put every stamp 18 points up and left, off its box (PdfPig's
    # MOZILLA-7375-0.pdf). Each stamp's rectangle is moved by what that misses.
    text_space = pymupdf.Matrix(1, 0, 0, -1, shape.x, shape.height - shape.y)
    text_shift = ~pdf_to_page(page) * ~text_space
    for box, (rect, reasons) in stamps_by_box(marks, rects).items():
        stamp(page, shape, rect * text_shift, box, " ".join(reasons))
    shape.commit()


def render_page_png(pdf: bytes | pymupdf.Document, page: int, dpi: int = REVIEW_DPI) -> bytes:
    """Render one page (rotation applied, annotations included) as PNG bytes, under the
    limits of `review.pdf.render`; a page that cannot be drawn raises PdfUnrenderable."""
    return page_png(pdf, page, dpi=dpi)
