"""A redacted word drawn elsewhere on the page with its letters set apart: a county's
election report sets "Blue Rapids" with wide character spacing, "(Bl) 88 (u) 22 (e)",
which extraction reads as "B" and "lue". A box over another "Blue" made the byte search
find the spaced one's string, shown nowhere as "Blue", and refuse every release of the
report as `redacted_string_present` (openelections' 2016 Marshall County results)."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

# As the report draws a precinct's name (its font's widths are not Helvetica's: here
# 0.2 Tc at 6 pt sets "B" 1.2 pt from "l", which splits the word as there).
SPACED = (
    b"BT 0.2 Tc 6 0 0 6 72 600 Tm /helv 1 Tf "
    b"[(Bl) 88 (u) 22 (e) 22 ( ) -89 (R) -87 (a) -28 (p) -28 (i) 71 (d) -36 (s)] TJ ET"
)


def report(spaced_line: bytes) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=700)
    page.insert_text((72, 60), "Blue Rapids Township", fontsize=12, fontname="helv")
    doc.update_stream(page.get_contents()[0], doc.xref_stream(page.get_contents()[0]) + spaced_line)
    return doc.tobytes()


def _words(pdf: bytes) -> list[str]:
    return [w[4] for w in pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words")]


def _mark_on_first_blue(pdf: bytes) -> RedactionMark:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    (blue,) = [w for w in page.get_text("words") if w[4] == "Blue"]
    return RedactionMark(page=0, box=normalize(page, pymupdf.Rect(blue[:4])), legal_reason="(b)(6)")


def test_a_redacted_word_shown_elsewhere_with_its_letters_set_apart_releases() -> None:
    pdf = report(SPACED)
    assert _words(pdf)[3:6] == ["B", "lu", "e"]  # the spaced line, read apart
    mark = _mark_on_first_blue(pdf)

    output = sanitize(burn_in(pdf, [mark]))

    assert "Blue" not in _words(output)
    report_of_gate = verify(pdf, output, [mark])
    assert report_of_gate.ok, report_of_gate.failures


def test_a_string_more_than_the_words_set_apart_is_still_found() -> None:
    # Each word shown set apart explains one string: "Blue" also written in a form the
    # page names but never draws is shown nowhere, and is a hit.
    pdf = report(SPACED)
    mark = _mark_on_first_blue(pdf)
    doc = pymupdf.open(stream=sanitize(burn_in(pdf, [mark])), filetype="pdf")
    page = doc[0]
    (font,) = [xref for xref, *_, name, _ in page.get_fonts() if name == "helv"]
    form = doc.get_new_xref()
    doc.update_object(
        form,
        f"<< /Type /XObject /Subtype /Form /BBox [0 0 50 20] "
        f"/Resources << /Font << /helv {font} 0 R >> >> >>",
    )
    doc.update_stream(form, b"BT /helv 12 Tf 0 5 Td (Blue) Tj ET")
    doc.xref_set_key(page.xref, "Resources/XObject", f"<< /Unused {form} 0 R >>")

    failures = {f.code for f in verify(pdf, doc.tobytes(), [mark]).failures}

    assert failures == {"redacted_string_present"}
