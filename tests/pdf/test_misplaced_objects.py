"""Every reading of a document sees the page a viewer shows, when an update leaves an
entry of its cross-reference table misplaced (`misplaced_objects`).

A "shadow attack" sample (RUB-NDS's pdf-attacker) defines its page tree twice and
updates the table to point at the first, which draws "You are fired!", leaving an
unused entry pointing at it too. Viewers follow the table. MuPDF rebuilt the table by
scanning the file the first time anything loaded the misplaced entry, and then took the
second page tree ("Sign me to get a reward"): the service's passes over every object did
that, so detection, the preview and the release read the other page, while the page
images on the review page showed the first."""

from __future__ import annotations

import io

import pymupdf
import pytest
from pymupdf import mupdf

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.misplaced_objects import READ_CHUNK, open_settled, revised
from review.pdf.redact import burn_in, render_page_png
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.child import run_in_child

SHOWN, SHADOWED = "You are fired", "Sign me to get a reward"


def _revision(objects: list[tuple[int, bytes]], start: int) -> tuple[bytes, dict[int, int]]:
    """The objects written one after another from offset `start`, and where each starts
    (the last of a number written twice)."""
    body, offsets = b"", {}
    for number, value in objects:
        offsets[number] = start + len(body)
        body += b"%d 0 obj\n%s\nendobj\n" % (number, value)
    return body, offsets


def _table(entries: dict[int, int], size: int, root: int, prev: int | None, at: int) -> bytes:
    rows = b"".join(
        b"%d 1\n%010d 00000 n \n" % (number, offset) for number, offset in sorted(entries.items())
    )
    trailer = b"<< /Size %d /Root %d 0 R" % (size, root)
    trailer += b" /Prev %d >>" % prev if prev is not None else b" >>"
    return (
        b"xref\n0 1\n0000000000 65535 f \n"
        + rows
        + b"trailer\n"
        + trailer
        + (b"\nstartxref\n%d\n%%%%EOF\n" % at)
    )


def shadowed(*, misplaced_in_use: bool = False) -> bytes:
    """Page tree 2 written twice: first with the page that says `SHOWN`, then with the
    one that says `SHADOWED`. The first revision's table points at the second; an update
    points it at the first, and object 8 at the first too (where no object 8 is). With
    `misplaced_in_use`, the catalogue refers to object 8."""
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents %d 0 R /Resources << /Font << /F1 7 0 R >> >> >>"
    text = b"<< /Length %d >>\nstream\n%s\nendstream"
    shown, shadowed_ = (
        b"BT /F1 18 Tf 40 100 Td (%s) Tj ET" % t.encode() for t in (SHOWN, SHADOWED)
    )
    extra = b" /Extra 8 0 R" if misplaced_in_use else b""
    body, offsets = _revision(
        [
            (1, b"<< /Type /Catalog /Pages 2 0 R%s >>" % extra),
            (2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
            (2, b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>"),
            (3, page % 5),
            (4, page % 6),
            (5, text % (len(shown), shown)),
            (6, text % (len(shadowed_), shadowed_)),
            (7, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
        ],
        start=len(b"%PDF-1.7\n"),
    )
    first = b"%PDF-1.7\n" + body
    table = len(first)
    first += _table(offsets, 8, 1, None, table)
    shadow_page_tree = first.index(b"2 0 obj")  # the first of the two
    update = _table({2: shadow_page_tree, 8: shadow_page_tree}, 9, 1, table, len(first))
    return first + update


def test_the_fixture_shows_one_page_and_draws_the_other_once_mupdf_rebuilds_its_table() -> None:
    doc = pymupdf.open(stream=shadowed(), filetype="pdf")
    assert SHOWN in doc[0].get_text()
    with pytest.raises(mupdf.FzErrorFormat):  # rebuilt, the table holds no object 8
        mupdf.pdf_load_object(mupdf.pdf_specifics(doc.this), 8)
    assert SHADOWED in doc[0].get_text()


def test_detection_preview_and_release_read_the_page_a_viewer_shows() -> None:
    pdf = shadowed()
    policy = DetectionPolicy(salt=b"s", ocr=False, search_terms=("fired",))

    result = detect(pdf, policy)
    released = sanitize(burn_in(pdf, []))

    assert [m.category for m in result.marks] == ["search_term"]
    text = pymupdf.open(stream=released, filetype="pdf")[0].get_text()
    assert SHOWN in text and SHADOWED not in text
    assert verify(pdf, released, []).ok
    page_image = pymupdf.open(stream=render_page_png(pdf, 0), filetype="png")
    assert page_image.page_count == 1


def test_a_misplaced_object_something_refers_to_has_the_table_rebuilt_on_opening() -> None:
    doc = open_settled(shadowed(misplaced_in_use=True))

    assert doc.is_repaired
    assert SHADOWED in doc[0].get_text()  # as every later reading will see it


@pytest.mark.parametrize("at", [READ_CHUNK - 9, READ_CHUNK - 4, READ_CHUNK])
def test_a_second_startxref_across_a_chunk_boundary_is_found_once(at: int) -> None:
    """The file is read a chunk at a time (mapped whole, a large upload counted against
    the worker's memory as much again): the word is found across a chunk's end, and
    never counted twice."""
    one = b"%PDF-1.7\nstartxref\n" + b" " * (at - 19) + b"startxref"
    assert one.index(b"startxref", 19) == at

    assert revised(io.BytesIO(one))
    assert not revised(io.BytesIO(one[: at + 4]))


def padded(spaces: int) -> bytes:
    """One page; an update points the entry of object 4 into a run of `spaces` spaces
    (as a print ticket's header lines, added before "%PDF", shift every offset)."""
    body, offsets = _revision(
        [
            (1, b"<< /Type /Catalog /Pages 2 0 R >>"),
            (2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
            (3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] >>"),
        ],
        start=len(b"%PDF-1.7\n"),
    )
    first = b"%PDF-1.7\n" + body
    table = len(first)
    first += _table(offsets, 4, 1, None, table)
    run = len(first)
    first += b" " * spaces + b"\n"
    return first + _table({4: run}, 5, 1, table, len(first))


def test_an_entry_pointing_into_a_long_run_of_white_space_is_judged_at_once(tmp_path) -> None:
    """The check for an object's header read the white space before it every way it
    can be split into runs: an entry pointing into 599 spaces (tika's
    test-pdf-with-print-ticket-header.pdf) held the admission for good."""
    path = tmp_path / "padded.pdf"
    path.write_bytes(padded(4000))

    pages = run_in_child(
        "import sys; from pathlib import Path; from review.pdf.misplaced_objects import "
        "open_settled; print(open_settled(Path(sys.argv[1])).page_count)",
        str(path),
    )

    assert pages.split() == ["1"]
