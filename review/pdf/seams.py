"""Pieces of a split fill that overlap where they meet (Django-free).

`fills` paints a background a box lies on as its pieces around the box, each a fill of
its own. Where two pieces meet, a rasteriser covers each edge pixel partly, twice, and
the page shows through: a hairline along every seam, plain on a dark background (a
code listing's dark panel in pdfcpu's read.go.pdf, a poster's dark panels). Where the
page paints nothing translucent, or the fill itself is opaque (`paints_opaque`),
`overlapped` grows each piece by a point into the area its fill painted, never nearer
a box than the gap: same colour over same colour, opaque, shows nothing but closes the
seam.
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf
from pymupdf import mupdf

from review.pdf.geometry import within
from review.pdf.paintlog import OPAQUE
from review.pdf.user_space import Matrix, PathState, Rect, meets_any

# Points (page space) by which a piece reaches over its neighbours.
OVERLAP_PT = 1.0
_NAMES = {
    name: mupdf.PdfObj(getattr(mupdf, f"PDF_ENUM_NAME_{name}"))
    for name in ("Resources", "ExtGState", "XObject", "Pattern", "ca", "BM", "SMask")
}
_BLEND_MODES_OF_NO_EFFECT = ("Normal", "Compatible")


def paints_opaque(state: PathState) -> bool:
    """A fill in `state` covers what lies below: full opacity, a blend mode of no
    effect, no soft mask. A marketing sheet's dark header band split around a mark
    showed a seam at each edge of the box, as its page paints logos through soft
    masks (PSPDFKit's Digital_Signatures.pdf)."""
    return state.opacities[1] >= OPAQUE and not state.blends and not state.masked


def opaque_painting(page: pymupdf.Page) -> bool:
    """No graphics state the page or what it draws can use paints translucently: no
    fill opacity below 1, no blend mode, no soft mask."""
    page_obj = mupdf.pdf_page_from_fz_page(page.this).obj()
    resources = mupdf.pdf_dict_get_inheritable(page_obj, _NAMES["Resources"])
    return not _translucent(resources, set())


def _translucent(resources: mupdf.PdfObj, seen: set[int]) -> bool:
    states = mupdf.pdf_dict_get(resources, _NAMES["ExtGState"])
    for i in range(mupdf.pdf_dict_len(states)):
        state = mupdf.pdf_dict_get_val(states, i)
        alpha = mupdf.pdf_dict_get(state, _NAMES["ca"])
        mode = mupdf.pdf_dict_get(state, _NAMES["BM"])
        if mupdf.pdf_is_number(alpha) and mupdf.pdf_to_real(alpha) < OPAQUE:
            return True
        if not mupdf.pdf_is_null(mode) and not (
            mupdf.pdf_is_name(mode) and mupdf.pdf_to_name(mode) in _BLEND_MODES_OF_NO_EFFECT
        ):
            return True
        if mupdf.pdf_is_dict(mupdf.pdf_dict_get(state, _NAMES["SMask"])):
            return True
    for kind in ("XObject", "Pattern"):
        drawn = mupdf.pdf_dict_get(resources, _NAMES[kind])
        for i in range(mupdf.pdf_dict_len(drawn)):
            item = mupdf.pdf_dict_get_val(drawn, i)
            number = mupdf.pdf_to_num(item)
            if number in seen:
                continue
            seen.add(number)
            inner = mupdf.pdf_dict_get(item, _NAMES["Resources"])
            if mupdf.pdf_is_dict(inner) and _translucent(inner, seen):
                return True
    return False


def overlapped(
    pieces: list[Rect], painted: Sequence[Rect], grown: Sequence[Rect], ctm: Matrix
) -> list[Rect]:
    """Each piece (user space) grown by `OVERLAP_PT` on each side where the strip it
    gains lies in one of the `painted` rectangles and meets none of the `grown` boxes."""
    a, b, c, d, _, _ = ctm
    scale = abs(a * d - b * c) ** 0.5
    if scale == 0:
        return pieces
    reach = OVERLAP_PT / scale
    out = []
    for x0, y0, x1, y1 in pieces:
        for side in range(4):
            strip = (
                (x0 - reach, y0, x0, y1),
                (x1, y0, x1 + reach, y1),
                (x0, y0 - reach, x1, y0),
                (x0, y1, x1, y1 + reach),
            )[side]
            if not meets_any(strip, grown) and any(within(strip, r) for r in painted):
                x0, y0, x1, y1 = (
                    (strip[0], y0, x1, y1),
                    (x0, y0, strip[2], y1),
                    (x0, strip[1], x1, y1),
                    (x0, y0, x1, strip[3]),
                )[side]
        out.append((x0, y0, x1, y1))
    return out
