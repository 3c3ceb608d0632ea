"""Patterns that read untrusted bytes finish on long runs of one character.

A regular expression that can split a run several ways tries every split before it
gives up: on a run of thousands that is hours, and the task holding the document times
out again at every delivery. Each test reads such a run in a child process, so that it
ends either way (`testkit.child`)."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from testkit.child import run_in_child
from testkit.drawing import append_content

RELEASE_AND_GATE = """
import sys
from review.pdf.geometry import Box
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
pdf = open(sys.argv[1], "rb").read()
box = Box(*map(float, sys.argv[2:6]))
marks = [RedactionMark(page=0, box=box, legal_reason="(b)(6)")]
released = open(sys.argv[6], "rb").read() if len(sys.argv) > 6 else sanitize(burn_in(pdf, marks))
print(verify(pdf, released, marks).ok)
"""


def page_with_a_name() -> tuple[pymupdf.Document, pymupdf.Rect]:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((40, 40), "Filed by Jane Roe", fontsize=12)
    roe = page.search_for("Roe")[0]
    return doc, roe


def test_an_inline_image_of_bytes_that_read_as_digits_is_released(tmp_path) -> None:
    """8-bit grey samples of 50 are the byte "2": the pattern that looks for what sets
    the leading before a "T*" read a 150 by 150 image of them as one number, from every
    digit, split every way."""
    doc, roe = page_with_a_name()
    page = doc[0]
    append_content(
        page,
        b"BT /F1 12 Tf 10 TL 40 80 Td T* ET\n"
        + b"q 100 0 0 100 50 100 cm BI /W 150 /H 150 /CS /G /BPC 8 ID "
        + b"2" * 150 * 150
        + b" EI Q",
    )
    path = tmp_path / "grey.pdf"
    path.write_bytes(doc.tobytes())
    box = normalize(page, roe)

    ok = run_in_child(RELEASE_AND_GATE, str(path), *map(str, box))

    assert ok.split() == ["True"]


def test_a_stream_that_opens_with_a_banner_of_percent_signs_is_searched(tmp_path) -> None:
    """The gate asks of every stream of a release whether it is a CMap program
    ("%!PS-Adobe-3.0 Resource-CMap", comment lines, then "/CIDInit"): a banner of
    percent signs could start a comment at each of them."""
    doc, roe = page_with_a_name()
    box = normalize(doc[0], roe)
    pdf = doc.tobytes()
    released = pymupdf.open(
        stream=sanitize(burn_in(pdf, [RedactionMark(page=0, box=box, legal_reason="(b)(6)")])),
        filetype="pdf",
    )
    banner = released.get_new_xref()
    released.update_object(banner, "<<>>")
    released.update_stream(banner, b"%" * 80 + b"\n% Rendered by a print driver\n0 0 moveto\n")
    (tmp_path / "original.pdf").write_bytes(pdf)
    (tmp_path / "released.pdf").write_bytes(released.tobytes())

    ok = run_in_child(
        RELEASE_AND_GATE,
        str(tmp_path / "original.pdf"),
        *map(str, box),
        str(tmp_path / "released.pdf"),
    )

    assert ok.split() == ["True"]
