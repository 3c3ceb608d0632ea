"""The pieces of a background split around a mark overlap where they meet
(`seams.py`), so no hairline shows along their seams.

A code listing set on a dark panel (pdfcpu's read.go.pdf): each mark split the panel
into pieces that met edge to edge, and the page showed through along every seam as a
light line across the panel, in the preview and the release alike. So for a panel
drawn as lines, not as a rectangle (dart_pdf's page frame, a ring of lines), split
as a shape clipped to each piece."""

from __future__ import annotations

import numpy as np
import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.seams import opaque_painting, paints_opaque
from review.pdf.user_space import PathState
from testkit.drawing import append_content, set_resource

PANEL = (30, 30, 30)


PANEL_PATHS = {
    "rectangle": b"50.3 500.4 500.4 200.2 re",
    "lines": b"50.3 500.4 m 550.7 500.4 l 550.7 700.6 l 50.3 700.6 l",
}


def panel_page(
    *, translucent: bool = False, logo_state: str | None = None, drawn: str = "rectangle"
) -> bytes:
    """A dark panel (x 50.3 to 550.7, PDF y 500.4 to 700.6: off the pixel grid), a line
    of light text on it; `translucent`: the panel painted at 60 % opacity; `logo_state`:
    a logo above the panel painted in that graphics state; `drawn`: its path, as a
    rectangle or as lines (`PANEL_PATHS`)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Listing", fontsize=11)
    gs = b""
    if translucent:
        set_resource(page, "ExtGState/Half", "<</ca 0.6>>")
        gs = b"/Half gs "
    if logo_state is not None:
        set_resource(page, "ExtGState/Logo", logo_state)
        append_content(page, b"q /Logo gs 0.2 0.4 0.8 rg 480 720 40 40 re f Q")
    append_content(page, b"q " + gs + b"0.1176 g " + PANEL_PATHS[drawn] + b" f Q")
    page.insert_text((80.3, 200.3), "licensed to Jane Roe here", fontsize=11, color=(1, 1, 1))
    return doc.tobytes()


def panel_pixels(pdf: bytes) -> np.ndarray:
    """The panel's pixels at 72 dpi right of its text, over its whole height: where the
    rows above and below a mark meet the piece beside it."""
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    pixmap = page.get_pixmap(dpi=72, colorspace=pymupdf.csRGB, alpha=False)
    pixels = np.frombuffer(pixmap.samples, np.uint8).reshape(pixmap.height, pixmap.width, 3)
    return pixels[95:289, 300:548].reshape(-1, 3).astype(int)


def _mark_on_roe(pdf: bytes) -> list[RedactionMark]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(next(w[:4] for w in page.get_text("words") if w[4] == "Roe"))
    return [RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")]


@pytest.mark.parametrize("drawn", PANEL_PATHS)
@pytest.mark.parametrize(
    "logo_state",
    [None, "<</ca 0.5>>", "<</BM/Multiply>>"],
    ids=["nothing translucent", "a translucent logo", "a logo blended in"],
)
def test_a_dark_panel_split_around_a_mark_shows_no_seam(logo_state: str | None, drawn: str) -> None:
    """The panel itself opaque, whatever else the page paints translucently (a
    marketing sheet's dark header band, its logos painted through soft masks:
    PSPDFKit's Digital_Signatures.pdf)."""
    pdf = panel_page(logo_state=logo_state, drawn=drawn)
    assert (np.abs(panel_pixels(pdf) - PANEL).max(axis=1) <= 2).all()

    after = panel_pixels(burn_in(pdf, _mark_on_roe(pdf)))

    assert (np.abs(after - PANEL).max(axis=1) <= 2).all()


@pytest.mark.parametrize("drawn", PANEL_PATHS)
def test_a_translucent_panel_split_around_a_mark_is_painted_once_everywhere(drawn: str) -> None:
    pdf = panel_page(translucent=True, drawn=drawn)
    before = panel_pixels(pdf)

    after = panel_pixels(burn_in(pdf, _mark_on_roe(pdf)))

    assert after.min() >= before.min() - 2  # no stripe where two pieces overlap


def test_a_fill_is_opaque_without_opacity_blend_mode_or_soft_mask() -> None:
    opaque = PathState()

    assert paints_opaque(opaque)
    assert not paints_opaque(opaque.after(b"ca", [b"0.6"]))
    assert not paints_opaque(opaque.after(b"BM", [b"/Multiply"]))
    assert not paints_opaque(opaque.after(b"BM", [b"[", b"/Screen", b"/Normal", b"]"]))
    assert paints_opaque(opaque.after(b"BM", [b"/Multiply"]).after(b"BM", [b"/Normal"]))
    assert not paints_opaque(opaque.after(b"SMask", [b"40", b"0", b"R"]))
    assert paints_opaque(opaque.after(b"SMask", [b"40", b"0", b"R"]).after(b"SMask", [b"/None"]))


def test_a_page_painting_translucently_is_not_opaque() -> None:
    translucent = pymupdf.open(stream=panel_page(translucent=True), filetype="pdf")[0]
    plain = pymupdf.open(stream=panel_page(), filetype="pdf")[0]

    assert opaque_painting(plain)
    assert not opaque_painting(translucent)
