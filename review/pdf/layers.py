"""Optional content (layers) as a viewer shows it (Django-free): which groups are off,
and a copy of the document with every group on, where what an off layer hides can be
traced (`hidden`) and extracted.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator, Sequence

import pymupdf
from pymupdf import mupdf

from review.pdf.geometry import Quad, quad


def layers_off(doc: pymupdf.Document) -> set[int]:
    """The optional-content groups a viewer hides, by xref: as MuPDF draws the pages
    (the default configuration, for viewing). PyMuPDF's get_ocgs() reports a group
    without a /Usage dictionary as on, whatever the configuration says (pdf.js's
    issue12007_reduced.pdf: two pictures and their captions off)."""
    pdf = mupdf.pdf_specifics(doc.this)
    root = mupdf.pdf_dict_get(mupdf.pdf_trailer(pdf), mupdf.PDF_ENUM_NAME_Root)
    groups = mupdf.pdf_dict_getl(root, mupdf.PDF_ENUM_NAME_OCProperties, mupdf.PDF_ENUM_NAME_OCGs)
    hidden = functools.partial(mupdf.pdf_is_ocg_hidden, pdf, mupdf.PdfResourceStack(), "View")
    members = (mupdf.pdf_array_get(groups, i) for i in range(mupdf.pdf_array_len(groups)))
    return {mupdf.pdf_to_num(group) for group in members if hidden(group)}


def layers_on(doc: pymupdf.Document) -> pymupdf.Document | None:
    """A second copy of `doc` with every optional-content group on, or None when no
    group is off. MuPDF leaves off-layer content out of every trace and extraction."""
    if not layers_off(doc):
        return None
    copy = pymupdf.open("pdf", doc.tobytes())
    copy.set_layer(-1, basestate="ON", on=list(copy.get_ocgs()), off=[])
    return pymupdf.open("pdf", copy.tobytes())  # MuPDF reads the configuration on opening


def content_off_layers(
    layered: pymupdf.Page, page: pymupdf.Page, trace: list[dict]
) -> Iterator[tuple[Quad, str, int]]:
    """The box, character ("" for an image) and seqno of each glyph and image the page
    draws only with every layer on (`layered`, from `layers_on`; `trace` is the page's
    own): whatever names the layer, a group or a membership dictionary (/OCMD) that has
    no name of its own."""
    spans = Counter(_span_key(span) for span in trace)
    for span in layered.get_texttrace():
        key = _span_key(span)
        if spans[key]:
            spans[key] -= 1
            continue
        for char in span["chars"]:
            yield quad(char[3]), chr(char[0]), span["seqno"]
    images = Counter(_rounded(bbox) for kind, bbox in page.get_bboxlog() if kind == "fill-image")
    for seqno, (kind, bbox) in enumerate(layered.get_bboxlog()):
        if kind == "fill-image" and images[_rounded(bbox)]:
            images[_rounded(bbox)] -= 1
        elif kind == "fill-image":
            yield quad(bbox), "", seqno


def _span_key(span: dict) -> tuple:
    return tuple(char[0] for char in span["chars"]), _rounded(span["bbox"])


def _rounded(box: Sequence[float]) -> tuple[float, ...]:
    return tuple(round(v, 1) for v in box)
