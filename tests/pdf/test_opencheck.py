"""Admission's open-check on damaged files: a lost or broken cross-reference table, or a
broken colour profile, is routine and the file is admitted (real-world PDFs carry both);
damage to the objects themselves, as in a truncated upload, is refused."""

import pymupdf
import pytest

from review.pdf.opencheck import PdfRejected, open_check


def letter(text: str) -> pymupdf.Document:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), text)
    return doc


def test_a_file_whose_xref_offsets_all_point_wrong_is_repaired_and_admitted():
    pdf = letter("Shifted offsets letter").tobytes()
    header_end = pdf.index(b"\n") + 1  # a comment after the header moves every object
    shifted = pdf[:header_end] + b"%" + b"x" * 40 + b"\n" + pdf[header_end:]

    check = open_check(shifted, max_pages=10)

    assert (check.page_count, check.repaired) == (1, True)


def test_a_file_with_a_broken_colour_profile_and_a_lost_xref_is_admitted():
    doc = letter("Colour profile letter")
    page = doc[0]
    profile = doc.get_new_xref()
    doc.update_object(profile, "<< /N 3 >>")
    doc.update_stream(profile, b"not an ICC profile " * 10)
    colour_space = doc.get_new_xref()
    doc.update_object(colour_space, f"[/ICCBased {profile} 0 R]")
    kind, resources = doc.xref_get_key(page.xref, "Resources")
    assert kind == "xref"
    doc.xref_set_key(int(resources.split()[0]), "ColorSpace", f"<< /CS0 {colour_space} 0 R >>")
    contents = page.get_contents()[0]
    doc.update_stream(contents, b"/CS0 cs 0.2 0.2 0.2 scn\n" + doc.xref_stream(contents))
    pdf = doc.tobytes()
    without_xref = pdf[: pdf.rindex(b"startxref")]

    check = open_check(without_xref, max_pages=10)

    assert (check.page_count, check.repaired) == (1, True)


def test_a_file_with_bytes_before_its_header_and_a_lost_xref_is_admitted():
    """A mail gateway's headers left before "%PDF" (pdfplumber's issue-848.pdf): every
    page reads whole, so it is admitted; it was refused as damaged."""
    pdf = letter("Forwarded letter").tobytes()
    forwarded = b"Content-Type: application/pdf\r\n\r\n" + pdf[: pdf.rindex(b"startxref")]

    check = open_check(forwarded, max_pages=10)

    assert (check.page_count, check.repaired) == (1, True)


def test_a_file_cut_off_inside_its_objects_is_refused():
    doc = pymupdf.open()
    for number in range(5):
        doc.new_page().insert_text((72, 72), f"Page {number} of a letter with words " * 3)
    pdf = doc.tobytes(deflate=True)

    with pytest.raises(PdfRejected) as refused:
        open_check(pdf[: int(len(pdf) * 0.97)], max_pages=10)

    assert refused.value.code == "malformed"


def test_a_page_tree_claiming_more_pages_than_can_be_counted_is_refused_as_malformed():
    """poppler's bug 67295 (in pdf.js's corpus): /Count 9999999999. Reading the page
    count raised and admission crashed instead of refusing."""
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[3 0 R]/Count 9999999999>>",
        b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>",
    ]
    pdf = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(pdf))
        pdf += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(pdf)
    pdf += b"xref\n0 4\n0000000000 65535 f \n"
    pdf += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    pdf += b"trailer\n<</Size 4/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % xref

    with pytest.raises(PdfRejected) as refused:
        open_check(pdf, max_pages=10)

    assert refused.value.code == "malformed"
    assert "page tree" in str(refused.value)


def pages_with_user_units(*units: str | None) -> bytes:
    doc = pymupdf.open()
    for unit in units:
        page = doc.new_page(width=300, height=200)
        page.insert_text((20, 150), "Reviewed by the clerk.")
        if unit is not None:
            doc.xref_set_key(page.xref, "UserUnit", unit)
    return doc.tobytes()


def test_a_page_measured_in_a_user_unit_is_refused_naming_the_page_and_unit():
    """pdf.js's issue19176.pdf (/UserUnit 72): MuPDF measures the page's text 72 times
    its crop box, so its visible words were taken for text outside the crop box and
    removed from the release, and marks were placed in the wrong unit."""
    with pytest.raises(PdfRejected) as refused:
        open_check(pages_with_user_units(None, "2"), max_pages=10)

    assert refused.value.code == "user_unit"
    assert "page 2 sets /UserUnit 2" in refused.value.message


@pytest.mark.parametrize("unit", ["0.5", "0", "-3"])
def test_any_user_unit_mupdf_scales_by_is_refused(unit):
    with pytest.raises(PdfRejected) as refused:
        open_check(pages_with_user_units(unit), max_pages=10)

    assert refused.value.code == "user_unit"


@pytest.mark.parametrize("unit", ["1", "1.0"])
def test_a_user_unit_of_one_point_is_admitted(unit):
    check = open_check(pages_with_user_units(unit), max_pages=10)

    assert check.page_count == 1


def test_a_picture_handed_to_the_open_check_is_refused_as_no_pdf():
    """A JPEG named .pdf (in PyMuPDF-Utilities): MuPDF opens it as an image whatever it
    is told, and reading its pages as PDF objects crashed the process. Intake checks
    the %PDF- header first; the open-check refuses it on its own too."""
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 16, 16), False)
    pixmap.clear_with(200)

    with pytest.raises(PdfRejected) as refused:
        open_check(pixmap.tobytes("jpeg"), max_pages=10)

    assert refused.value.code == "not_pdf"


def test_a_page_whose_object_cannot_be_parsed_is_refused_naming_the_page():
    """PdfPig's FailedToParseContentForPage32.pdf writes "/M<diaBox" in two page
    objects: MuPDF shows those pages empty, whatever they hold, and reading them
    crashed the intake request."""
    doc = letter("Page one")
    doc.new_page().insert_text((72, 72), "Page two")
    doc.xref_set_key(doc[1].xref, "PieceInfo", "0")
    written = doc.tobytes(use_objstms=False)
    damaged = written.replace(b"/PieceInfo 0", b"/P<eceInfo 0")
    assert damaged != written

    with pytest.raises(PdfRejected) as refused:
        open_check(damaged, max_pages=10)

    assert refused.value.code == "malformed"
    assert refused.value.message == "page 2 is damaged and cannot be read"
