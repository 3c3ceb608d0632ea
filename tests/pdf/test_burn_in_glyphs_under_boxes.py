"""A diagonal stamp's letters that a box meets go, as the release gate measures them
(`glyph_cut.drop_slanted_glyphs_under`); so do glyphs a box covers that narrowing
spared, and the glyphs of a word it holds that narrowing off a crosswise line spared
(`glyph_cut.drop_covered_glyphs`); and glyphs whose box runs backwards, which MuPDF's
redaction never meets (`glyph_cut.drop_backwards_glyphs`).

MuPDF's redaction measures a glyph by its outline; the gate by the glyph's box along
its slanted line (`word_geometry.meets`). A red "Secret" stamped at 33 degrees over a
paragraph (docling-parse's rotated_text_05.pdf, Arial Black in a form): a box on a
word under the stamp met the box of the stamp's "c" but not its outline, MuPDF left the
letter, and the gate refused the release. Burn-in now removes every slanted glyph that
meets a box the gate's way, and only those."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize, quad
from review.pdf.glyph_cut import drop_covered_glyphs, drop_slanted_glyphs_under
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.slanted import meets, slanted_glyphs
from review.pdf.text_reach import text_words
from review.pdf.verify import verify
from testkit.raw_pdf import one_page, stream

STAMP_AT = pymupdf.Point(80, 170)


def stamped_page(copies: int = 1) -> pymupdf.Page:
    """A paragraph, then "Secret" in red at 33 degrees over it (`copies` times at the
    same place, as a stamp drawn bold by overprinting)."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=400)
    for line in range(16):
        page.insert_text(
            (40, 60 + 15 * line), "images of all formats: TIFF, JPEG, GIF", fontsize=10
        )
    for _ in range(copies):
        turn = (STAMP_AT, pymupdf.Matrix(-33))
        page.insert_text(STAMP_AT, "Secret", fontsize=70, morph=turn, color=(1, 0, 0))
    return pymupdf.open(stream=doc.tobytes(), filetype="pdf")[0]


def stamp_letters(page: pymupdf.Page) -> str:
    """The stamp's letters as extraction reads them (a space where one went)."""
    glyphs = slanted_glyphs(page.get_textpage(flags=pymupdf.TEXTFLAGS_RAWDICT))
    return "".join(g.char for g in glyphs if not g.char.isspace())


def box_on(page: pymupdf.Page, letter: str) -> pymupdf.Rect:
    """A small box round the middle of the stamp's `letter`."""
    glyph = next(
        g
        for g in slanted_glyphs(page.get_textpage(flags=pymupdf.TEXTFLAGS_RAWDICT))
        if g.char == letter
    )
    middle = (glyph.quad.ul + glyph.quad.lr) / 2
    return pymupdf.Rect(middle.x - 2, middle.y - 2, middle.x + 2, middle.y + 2)


def test_the_stamps_letters_a_box_meets_go_and_the_rest_stay() -> None:
    page = stamped_page()
    box = box_on(page, "c")
    assert stamp_letters(page) == "Secret"

    drop_slanted_glyphs_under(page, [quad(box)])

    assert stamp_letters(page) == "Seret"
    assert page.get_text("words")[0][4] == "images"


def test_a_letter_drawn_twice_at_one_place_goes_both_times() -> None:
    page = stamped_page(copies=2)
    box = box_on(page, "c")

    drop_slanted_glyphs_under(page, [quad(box)])

    assert stamp_letters(page) == "SeretSeret"


def test_no_stamp_letter_a_box_meets_is_left_in_the_release() -> None:
    page = stamped_page()
    pdf = page.parent.tobytes()
    words = [w for w in page.get_text("words") if w[4] in ("JPEG,", "GIF")]
    marks = [
        RedactionMark(page=0, box=normalize(page, pymupdf.Rect(w[:4])), legal_reason="(b)(6)")
        for w in words
    ]

    boxes = [quad(pymupdf.Rect(w[:4])) for w in words]
    clear = [
        g.char
        for g in slanted_glyphs(page.get_textpage(flags=pymupdf.TEXTFLAGS_RAWDICT))
        if not any(meets(g.quad, box) for box in boxes)
    ]

    output = sanitize(burn_in(pdf, marks))

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    assert clear and stamp_letters(released) == "".join(clear)
    assert verify(pdf, output, marks).ok


def test_a_stamp_word_centred_on_a_line_of_text_narrows_no_box() -> None:
    """The stamp's word has its centre on a line of the paragraph; taken for a word of
    that line, a box over the line would be narrowed off its whole slanted box."""
    page = stamped_page()
    stamp = next(w for w in page.get_text("words") if w[4] == "Secret")
    centre = (
        pymupdf.Rect(stamp[:4]).tl + (pymupdf.Rect(stamp[:4]).br - pymupdf.Rect(stamp[:4]).tl) / 2
    )
    assert any(
        pymupdf.Rect(line["bbox"]).contains(centre) and line["dir"] == (1.0, 0.0)
        for block in page.get_text("dict")["blocks"]
        for line in block.get("lines", ())
    )

    words, slanted = text_words(page)

    assert slanted
    assert all(box != tuple(stamp[:4]) for box, _ in words)


def test_glyphs_a_box_covers_go_and_those_it_only_grazes_stay() -> None:
    """A box narrowed off a word whose middle it does not hold spared that word's
    glyphs lying wholly under it (a listing's raised quote mark, pdfTeX's Python
    textbook in PyMuPDF-Utilities): left under the black box, the gate found them
    unseen. What a box covers as the hidden-content analysis measures a glyph goes."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.insert_text((72, 100), "Bing tiddle", fontsize=10)
    page = pymupdf.open(stream=doc.tobytes(), filetype="pdf")[0]
    bing, tiddle = (pymupdf.Rect(w[:4]) for w in page.get_text("words"))
    half_of_t = pymupdf.Rect(tiddle.x0, tiddle.y0, tiddle.x0 + 1.5, tiddle.y1)

    drop_covered_glyphs(page, [quad(bing), quad(half_of_t)])

    assert [w[4] for w in page.get_text("words")] == ["tiddle"]


def test_each_word_takes_the_direction_of_the_line_that_holds_it() -> None:
    """Words running down a table's turned header, among words running across (found
    through a grid of the lines near each word: a page of thousands of turned words
    took minutes, PdfPig's fseprd1102849.pdf)."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=400)
    for column in range(12):
        page.insert_text((60 + 25 * column, 150), f"Header {column}", fontsize=9, rotate=90)
        page.insert_text((60 + 25 * column, 200), f"c{column}", fontsize=9)
    page = pymupdf.open(stream=doc.tobytes(), filetype="pdf")[0]
    texts = {tuple(w[:4]): w[4] for w in page.get_text("words")}

    words, slanted = text_words(page)

    assert not slanted
    across = {texts[box] for box, along_x in words if along_x}
    down = {texts[box] for box, along_x in words if not along_x}
    assert across == {f"c{column}" for column in range(12)}
    assert down == {"Header"} | {str(column) for column in range(12)}


def margin_page(shift: float = 0.0) -> pymupdf.Page:
    """A line across the foot of the page, and a line running up the right margin
    (`shift` points lower), as PDF Clown stamps its pages."""
    doc = pymupdf.open()
    page = doc.new_page(width=596, height=842)
    page.insert_text((40, 712), "Alpha Beta Gamma", fontsize=10)
    page.insert_text(
        (569, 817 + shift), "Generated by PDF Clown on Sat Mar 05", fontsize=8, rotate=90
    )
    return pymupdf.open(stream=doc.tobytes(), filetype="pdf")[0]


def test_a_box_narrowed_off_a_line_takes_the_whole_of_a_crosswise_word_it_holds() -> None:
    """A box over the foot of a page, its top grazing the line above, is narrowed off
    that line; the narrowing cut the word "on" of a line running up the margin, which
    the box holds: its "o" went, its "n" stayed under the box, and the gate refused the
    release (pdf2htmlEX's fontfile3_opentype.pdf, a 120-point "PDFClown" proposed)."""
    page = margin_page()
    line_foot = max(w[3] for w in page.get_text("words") if w[4] == "Gamma")
    margin = [
        c
        for block in page.get_text("rawdict")["blocks"]
        for line in block.get("lines", ())
        if line["dir"] != (1.0, 0.0)
        for span in line["spans"]
        for c in span["chars"]
    ]
    o = margin["".join(c["c"] for c in margin).index(" on ") + 1]
    page = margin_page(shift=line_foot - o["bbox"][1])  # "o" ends where the line does
    on = next(pymupdf.Rect(w[:4]) for w in page.get_text("words") if w[4] == "on")
    box = pymupdf.Rect(0, line_foot - 1, (on.x0 + on.x1) / 2 + 0.6, 842)
    pdf = page.parent.tobytes()
    marks = [RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")]

    out = sanitize(burn_in(pdf, marks))

    words = [w[4] for w in pymupdf.open(stream=out, filetype="pdf")[0].get_text("words")]
    assert "on" not in words and "n" not in words and "o" not in words
    assert {"Alpha", "Beta", "Gamma", "Sat", "Mar", "05"} <= set(words)
    assert verify(pdf, out, marks).ok


def backwards_glyph_page(width: int) -> bytes:
    """ "An example here" in a Type 3 font of square glyphs whose "p" is `width` units
    wide (of 1000), each piece of the line placed by its own offset, as a font whose
    widths the text's spacing makes up for is set (pymupdf's test_4944.pdf)."""
    letters = sorted(set("Anexamplehr"))
    widths = [250] + [width if chr(code) == "p" else 500 for code in range(33, 123)]
    procs = " ".join(f"/{c} 7 0 R" for c in letters)
    return one_page(
        b"BT /F1 10 Tf 20 150 Td (An) Tj 15 0 Td (exam) Tj 20 0 Td (p) Tj 5 0 Td (le here) Tj ET",
        (
            "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000]"
            " /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs 6 0 R"
            " /Encoding << /Type /Encoding /Differences [32 /space "
            + " ".join(f"{ord(c)} /{c}" for c in letters)
            + "] >> /FirstChar 32 /LastChar 122 /Widths ["
            + " ".join(map(str, widths))
            + "] /Resources << >> >>"
        ).encode(),
        f"<< {procs} /space 8 0 R >>".encode(),
        stream(b"", b"500 0 0 0 500 700 d1 0 0 500 700 re f"),
        stream(b"", b"250 0 d0"),
    )


def test_a_glyph_whose_box_runs_backwards_goes_with_the_word_a_box_covers() -> None:
    """MuPDF's redaction never meets a glyph whose width is below zero: its box runs
    from right to left. The "p" of "example" stayed under the black box in pymupdf's
    test_4944.pdf (an embedded font's own widths), where the gate found it."""
    pdf = backwards_glyph_page(-300)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    words = page.get_text("words")
    assert [w[4] for w in words] == ["An", "examp", "le", "here"]
    example = pymupdf.Rect(words[1][:4]) | words[2][:4]
    marks = [RedactionMark(page=0, box=normalize(page, example), legal_reason="(b)(6)")]

    output = sanitize(burn_in(pdf, marks))

    assert pymupdf.open(stream=output, filetype="pdf")[0].get_text().split() == [
        "An",
        "here",
        "(b)(6)",
    ]
    assert verify(pdf, output, marks).ok
