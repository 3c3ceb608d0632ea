"""Sanitize empties the property lists of marked content, optional content's aside.

Adobe's PDF Library put the author and title of a placed page in a property list that
the page's marked content names ("/Span /Pr1 BDC"): a name the reviewer redacted on the
page stayed in the file, and the gate refused the release (iText's
bigTaggedDocument.pdf). A list written in the stream did the same: a pagination
artifact's /Contents (PDFBox's AlignmentTests.pdf), and /ActualText, which extraction
and screen readers read in place of the glyphs burn-in removed."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.marked_content import property_lists_dropped
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

HELVETICA = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def tagged_page(properties: str, content: bytes | None = None) -> bytes:
    """Two lines of marked content: the first names /Pr1, the second is optional content
    (/OC /Oc1, a layer that is on)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    font = doc.get_new_xref()
    doc.update_object(font, HELVETICA)
    layer = doc.add_ocg("Appendix", on=True)
    listed = doc.get_new_xref()
    doc.update_object(listed, properties)
    doc.xref_set_key(
        page.xref,
        "Resources",
        f"<< /Font << /F1 {font} 0 R >> /Properties << /Pr1 {listed} 0 R /Oc1 {layer} 0 R >> >>",
    )
    content = content or (
        b"/Span /Pr1 BDC BT /F1 12 Tf 72 700 Td (Prepared by Scott Petersen) Tj ET EMC "
        b"/OC /Oc1 BDC BT /F1 12 Tf 72 680 Td (Appendix follows) Tj ET EMC"
    )
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, content)
    doc.xref_set_key(page.xref, "Contents", f"{xref} 0 R")
    return doc.tobytes()


def _mark(pdf: bytes, word: str) -> RedactionMark:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(next(w[:4] for w in page.get_text("words") if w[4] == word))
    return RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")


def test_a_redacted_name_in_a_marked_contents_property_list_leaves_the_file() -> None:
    pdf = tagged_page("<< /Author (Scott Petersen) /Title (Annual report) /Creator (PDFL 7.0) >>")
    marks = [_mark(pdf, "Scott"), _mark(pdf, "Petersen")]

    output = sanitize(burn_in(pdf, marks))

    released = pymupdf.open(stream=output, filetype="pdf")
    assert not any(
        b"Petersen" in released.xref_object(xref, compressed=True).encode("latin-1", "replace")
        for xref in range(1, released.xref_length())
    )
    assert verify(pdf, output, marks).ok


def test_optional_content_keeps_its_group_and_stays_visible() -> None:
    pdf = tagged_page("<< /Author (Scott Petersen) >>")
    marks = [_mark(pdf, "Scott"), _mark(pdf, "Petersen")]

    output = sanitize(burn_in(pdf, marks))

    page = pymupdf.open(stream=output, filetype="pdf")[0]
    kind, value = page.parent.xref_get_key(page.xref, "Resources/Properties/Oc1")
    assert kind == "xref"
    assert page.parent.xref_get_key(int(value.split()[0]), "Type") == ("name", "/OCG")
    assert "Appendix" in [w[4] for w in page.get_text("words")]


def _streams(pdf: bytes) -> bytes:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    return b"".join(
        doc.xref_stream(xref) or b""
        for xref in range(1, doc.xref_length())
        if doc.xref_is_stream(xref)
    )


def test_a_redacted_name_in_a_list_written_in_the_content_leaves_the_file() -> None:
    content = (
        b"/Artifact <</Type /Pagination /Contents (Report by Scott Petersen)>> BDC"
        b" BT /F1 12 Tf 72 740 Td (Page 1) Tj ET EMC"
        b" /Span <</ActualText (Prepared by Scott Petersen) /Lang (en-GB)>> BDC"
        b" BT /F1 12 Tf 72 700 Td (Prepared by Scott Petersen) Tj ET EMC"
        b" /Note <</Contents (Petersen signed here)>> DP"
        b" /OC /Oc1 BDC BT /F1 12 Tf 72 680 Td (Appendix follows) Tj ET EMC"
    )
    pdf = tagged_page("<< >>", content)
    marks = [_mark(pdf, "Scott"), _mark(pdf, "Petersen")]

    output = sanitize(burn_in(pdf, marks))

    streams = _streams(output)
    assert b"Petersen" not in streams
    assert b"/Span BMC" in streams and b"/Note MP" in streams and b"/Oc1 BDC" in streams
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert {"Page", "Prepared", "by", "Appendix"} <= set(words)
    assert verify(pdf, output, marks).ok


def test_only_lists_written_in_the_stream_go_and_optional_content_keeps_its_own() -> None:
    assert (
        property_lists_dropped(b"/P <</MCID 0>> BDC (a) Tj EMC") == b"/P <</MCID 0>> BDC (a) Tj EMC"
    )
    assert (
        property_lists_dropped(b"q /P <</MCID 3 /Alt (Jane Roe) /A <</O (x)>> >> BDC (a) Tj EMC Q")
        == b"q /P BMC (a) Tj EMC Q"
    )
    kept = b"/OC <</Type /OCMD /OCGs [5 0 R] /Name (x)>> BDC (a) Tj EMC"
    assert property_lists_dropped(kept) == kept


def test_an_actual_text_without_letters_or_digits_stays_as_the_only_property() -> None:
    """What a producer writes for a soft hyphen or a symbol-font bullet: no name fits in it."""
    soft_hyphen = b"/Span <</ActualText <FEFF002D> /Lang (fr)>> BDC (-) Tj EMC"
    assert property_lists_dropped(soft_hyphen) == b"/Span <</ActualText <FEFF002D>>> BDC (-) Tj EMC"
    bullet = b"/Span <</ActualText (\\225) /Alt (Jane Roe)>> BDC (l) Tj EMC"
    assert property_lists_dropped(bullet) == b"/Span <</ActualText (\\225)>> BDC (l) Tj EMC"
    for named in (b"(Jane)", b"<FEFF004A0061006E0065>", b"(J\\141ne)", b"(\\112)"):
        assert property_lists_dropped(b"/Span <</ActualText " + named + b">> BDC EMC") == (
            b"/Span BMC EMC"
        )
