"""A broken object that nothing draws: pdfium's launch_action.pdf gives a link's launch
action a file specification written `/Type / Filespec` (an empty name, then a key with
no value). MuPDF reads the page and its annotation; writing a copy of the document
parses every object, and that one failed the write. The gate copied the source that
way to draw its annotations in, so the release raised instead of finishing. It now
opens the source's bytes again."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.raw_pdf import stream, write_pdf


def link_to_a_broken_file_spec() -> bytes:
    return write_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >> /Annots [6 0 R] >>",
            stream(b"", b"BT /F1 12 Tf 20 150 Td (Jane Roe wrote this page.) Tj ET"),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            b"<< /Type /Annot /Subtype /Link /Rect [20 20 120 60] /A 7 0 R >>",
            b"<< /S /Launch /F 8 0 R >>",
            b"<< /F (test.pdf) /Type / Filespec >>",
        ]
    )


def test_a_link_to_a_broken_object_releases() -> None:
    pdf = link_to_a_broken_file_spec()
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        page = doc[0]
        assert page.get_text().strip() == "Jane Roe wrote this page."
        assert page.annot_xrefs()
        (jane,) = [w for w in page.get_text("words") if w[4] == "Jane"]
        mark = RedactionMark(
            page=0, box=normalize(page, pymupdf.Rect(jane[:4])), legal_reason="(b)(6)"
        )

    output = sanitize(burn_in(pdf, [mark]))

    report = verify(pdf, output, [mark])
    assert report.ok, report.failures
    assert "Jane" not in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
