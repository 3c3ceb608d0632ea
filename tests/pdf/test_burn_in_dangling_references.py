"""A page that names objects its file does not hold (FPDI's test files: a content
stream array with a reference to no object, an /Annots reference to no object) is
admitted, shown and released like any other: MuPDF draws what is there. Burn-in
crashed on both, and the item could never be released."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

TEXT = "Account holder SSN 219-45-6789 on file"


def _page_naming_a_missing_object(key: str) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), TEXT, fontsize=12)
    missing = doc.xref_length() + 40  # no object has this number
    if key == "Contents":
        stream = doc.xref_get_key(page.xref, "Contents")[1].strip("[]")
        doc.xref_set_key(page.xref, "Contents", f"[{stream} {missing} 0 R]")
    else:
        doc.xref_set_key(page.xref, key, f"{missing} 0 R")
    return doc.tobytes()


@pytest.mark.parametrize("key", ["Contents", "Annots"])
def test_a_page_naming_a_missing_object_is_burned_and_released(key: str) -> None:
    pdf = _page_naming_a_missing_object(key)
    result = detect(pdf, DetectionPolicy(salt=b"s", ocr=False))
    marks = [RedactionMark(m.page, m.box, "(b)(6)") for m in result.marks]
    assert marks, "the SSN is proposed"

    output = sanitize(burn_in(pdf, marks))

    report = verify(pdf, output, marks)
    assert report.ok, report.failures
    text = pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert "219-45-6789" not in text
    assert "Account holder" in text and "on file" in text
