"""The fills a box lies on inside a form XObject (Django-free).

`fills.split_rectangle_fills` rewrites the fills and outlines a box touches in one
content stream. What a page draws with "Do" is in a stream of its own: the artwork of a
page placed from another PDF (InDesign's /PlacedPDF), a letterhead, a logo. MuPDF's
redaction took a filled shape there whole: a mark on the first word of a heading took
the blue band it was set on, the band's white text then stood on the white page, and
sanitize cut it as hidden (Unstructured's invalid-pdf-structure-pdfminer-one-page.pdf).

`StreamOwner.split_form` is what a rewrite calls at each "Do": the form's content is
split as the page's is, in the graphics state of the place that draws it, and written to
a copy of the form that only this place draws, under a new resource name. The same form
may be drawn elsewhere, on this page or another, where no box lies: there it stays
whole. Forms inside forms are followed the same way, to `MAX_DEPTH`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pymupdf

from review.pdf.resources import form_xref, put_at, resolve_in
from review.pdf.user_space import (
    IDENTITY,
    Matrix,
    PathState,
    Rect,
    concat,
    meets_any,
    numbers_of,
    pdf_number,
)

MAX_DEPTH = 12
COPY_PREFIX = "RRQSplit"
# How far past a form's box MuPDF's redaction may find its strokes, mitred at the default
# limit of 10 (the form's own settings, or the defaults it is taken to start from) and up
# to 8 points wide.
RESTATED_REACH = 80.0

# `fills.split_rectangle_fills`: a stream, the boxes, the state it starts in, the
# page or form whose resources it names -> the stream rewritten.
SplitStream = Callable[[bytes, Sequence[Rect], PathState, "StreamOwner"], bytes]

# An ExtGState's line settings, as the operators that set them ("/LW 38" is "38 w").
# A graphics state's entries, as the operators that set them ("CA" and "ca", the
# opacities, have none: `PathState.after` takes their names).
_LINE_SETTINGS = (
    ("LW", b"w"),
    ("LJ", b"j"),
    ("LC", b"J"),
    ("ML", b"M"),
    ("D", b"d"),
    ("CA", b"CA"),
    ("ca", b"ca"),
    ("BM", b"BM"),
    ("SMask", b"SMask"),
)


class StreamOwner:
    """The page or form (`xref`) whose /Resources a content stream's names are looked up
    in: the forms it draws ("Do") and the graphics states it sets ("gs"); `boxes` in
    default user space."""

    def __init__(
        self,
        doc: pymupdf.Document,
        xref: int,
        boxes: Sequence[Rect],
        split_stream: SplitStream,
        depth: int = 0,
    ) -> None:
        self.doc, self.xref, self.boxes = doc, xref, boxes
        self.split_stream, self.depth = split_stream, depth

    def split_form(self, name: bytes, state: PathState) -> bytes | None:
        """The resource name to draw instead of the form `name` in `state`, or None."""
        doc = self.doc
        if self.depth >= MAX_DEPTH:
            return None
        resource = name.lstrip(b"/").decode("latin-1")
        xref = form_xref(doc, resolve_in(doc, (self.xref,), "XObject", resource))
        if xref is None:
            return None
        ctm = concat(_array(doc, xref, "Matrix", 6) or IDENTITY, state.ctm)
        inherited = _line_settings_restated(state)
        # Its strokes may be found that far past its box: a circle stroked 2.25 wide in
        # a form went whole for a label's box 12 points above (iText's html2pdf SVGs).
        if not _reaches_a_box(doc, xref, ctm, self.boxes, RESTATED_REACH):
            return None
        data = doc.xref_stream(xref) or b""
        inner = StreamOwner(doc, xref, self.boxes, self.split_stream, self.depth + 1)
        split = self.split_stream(data, self.boxes, state._replace(ctm=ctm), inner)
        if split == data and not inherited:
            return None
        split = inherited + split
        copy = doc.get_new_xref()
        doc.update_object(copy, doc.xref_object(xref, compressed=True))
        doc.update_stream(copy, split)
        new_name = _free_name(doc, self.xref)
        put_at(doc, self.xref, ("Resources", "XObject", new_name), f"{copy} 0 R")
        return b"/" + new_name.encode("latin-1")

    def line_settings(self, name: bytes) -> list[tuple[bytes, list[bytes]]]:
        """The line width, join, cap, miter limit and dash pattern the graphics state
        `name` sets, as the operators that set them: a flower's outline 38 units wide,
        set by "gs", was taken for a hairline, so nothing split it, and MuPDF's
        redaction, which bounds a mitred stroke by its width times the miter limit,
        took it whole for a box 40 pt away (fpdf2's SVG logo)."""
        resource = name.lstrip(b"/").decode("latin-1")
        if resolve_in(self.doc, (self.xref,), "ExtGState", resource) is None:
            return []
        settings = []
        for key, operator in _LINE_SETTINGS:
            value = resolve_in(self.doc, (self.xref,), "ExtGState", f"{resource}/{key}")
            if value is not None:
                if key == "D":  # [[dash lengths] phase]: the operands of "d"
                    value = value.strip()[1:-1]
                operands = value.replace("[", " [ ").replace("]", " ] ").split()
                settings.append((operator, [o.encode("latin-1") for o in operands]))
        return settings


def _array(doc: pymupdf.Document, xref: int, key: str, count: int) -> list[float] | None:
    """The object's entry `key` when it is an array of `count` numbers."""
    kind, value = doc.xref_get_key(xref, key)
    if kind != "array":
        return None
    return numbers_of(value.strip("[]").encode("latin-1").split(), count)


def strokes_a_form_may_reach(
    log: Sequence[tuple[str, Sequence[float]]], boxes: Sequence[pymupdf.Rect]
) -> bool:
    """Some stroke of the page's bbox log lies within `RESTATED_REACH` of a box: a form
    may draw it, and MuPDF's redaction may take it though it is drawn further off."""
    grown = [
        box + (-RESTATED_REACH, -RESTATED_REACH, RESTATED_REACH, RESTATED_REACH) for box in boxes
    ]
    return any(
        pymupdf.Rect(bbox).intersects(box)
        for kind, bbox in log
        if kind == "stroke-path"
        for box in grown
    )


def _line_settings_restated(state: PathState) -> bytes:
    """The line width, join and miter limit a form is drawn with, where they are not the
    defaults, as operators to start its copy with. The form inherits them, so they draw
    nothing new; but MuPDF's redaction bounds the form's strokes as if it started from
    the defaults, and a mitred stroke by its width times the miter limit: a form's
    zigzags stroked 8 wide went whole for a box 20 points off, bounded with a limit of
    10 where the page had set 2 (iText's GraphicsStateOperators)."""
    default = PathState()
    settings = [
        b"%s %s" % (pdf_number(value), operator)
        for value, default_value, operator in (
            (state.width, default.width, b"w"),
            (state.join, default.join, b"j"),
            (state.miter, default.miter, b"M"),
        )
        if value != default_value
    ]
    return b" ".join(settings) + b" " if settings else b""


def _reaches_a_box(
    doc: pymupdf.Document, xref: int, ctm: Matrix, boxes: Sequence[Rect], margin: float
) -> bool:
    """Some box meets the form's /BBox as drawn through `ctm` (its /Matrix included),
    grown by `margin` points. Without a readable /BBox, yes."""
    numbers = _array(doc, xref, "BBox", 4)
    if not numbers:
        return True
    bbox = pymupdf.Rect(numbers).normalize() * pymupdf.Matrix(*ctm)
    grown = (bbox.x0 - margin, bbox.y0 - margin, bbox.x1 + margin, bbox.y1 + margin)
    return meets_any(grown, list(boxes))


def _free_name(doc: pymupdf.Document, owner: int) -> str:
    number = 0
    while resolve_in(doc, (owner,), "XObject", f"{COPY_PREFIX}{number}") is not None:
        number += 1
    return f"{COPY_PREFIX}{number}"
