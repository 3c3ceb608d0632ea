"""A page painted with an extended shading (`sh` over the whole clip) goes through
detection, burn-in, sanitize and the gate. Extraction that keeps images turned the
unbounded shading into an image too large to make, "Illegal dimensions for pixmap", and
the release gate crashed (pdf.js's issue6113.pdf)."""

from __future__ import annotations

import pymupdf

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify


def shaded_page() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=50)
    shading, contents = doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(
        shading,
        "<</ShadingType 2/ColorSpace/DeviceRGB/Coords[0 0 1 0]/Extend[true true]"
        "/Function<</FunctionType 2/Domain[0 1]/C0[1 1 0.6]/C1[0.6 1 1]/N 1>>>>",
    )
    doc.xref_set_key(
        page.xref,
        "Resources",
        f"<</Shading<</Sh1 {shading} 0 R>>"
        "/Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Times-Roman>>>>>>",
    )
    doc.update_object(contents, "<<>>")
    doc.update_stream(contents, b"/Sh1 sh BT 10 20 Td /F1 20 Tf (Issue 6113) Tj ET")
    doc.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
    return doc.tobytes()


def test_a_page_under_an_unbounded_shading_releases() -> None:
    pdf = shaded_page()
    detect(pdf, DetectionPolicy(salt=b"s"))

    output = sanitize(burn_in(pdf, []))

    assert verify(pdf, output, []).ok
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert words == ["Issue", "6113"]
