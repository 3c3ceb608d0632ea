"""A list's bullets and a paragraph's drop cap: glyphs taller than their line, which a
box over the words beside them must neither take in nor be held down by."""

from __future__ import annotations

import pymupdf

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import normalize, page_rect
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify


def _words(pdf: bytes) -> list[str]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return [w[4] for w in page.get_text("words") if w[4] != "(b)(6)"]


def test_an_organisation_after_a_list_bullet_is_proposed_without_the_bullet() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    writer = pymupdf.TextWriter(page.rect)
    line = "• Springfield Housing Authority filed a notice."
    writer.append((72, 100), line, font=pymupdf.Font("helv"), fontsize=11)
    writer.write_text(page)
    pdf = doc.tobytes()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    (name,) = [w for w in page.get_text("words") if w[4] == "Springfield"]

    result = detect(pdf, DetectionPolicy(salt=b"s", ocr=False, ner=True))

    (mark,) = [m for m in result.marks if m.category == "organization"]
    box = page_rect(page, mark.box)
    assert page.get_textbox(box).strip() == "Springfield Housing Authority"
    assert abs(box.x0 - name[0]) < 0.5  # at the name, not at the bullet before it


def test_a_box_that_touches_the_side_of_a_drop_cap_leaves_the_line_below() -> None:
    """A drop cap three lines tall ends where the word after it starts; a box over that
    word met the cap by a thousandth of a point and was held down to the cap's middle,
    into the tightly set line below, whose words went with the box's (tabula-java's
    labor.pdf)."""
    doc = pymupdf.open()
    page = doc.new_page()
    helvetica = pymupdf.Font("helv")
    cap = pymupdf.TextWriter(page.rect)
    cap.append((40, 139), "T", font=helvetica, fontsize=60)
    cap.write_text(page)
    cap_end = 40 + helvetica.text_length("T", fontsize=60)
    lines = ("his release of the Bureau", "Statistics projections", "are published every year")
    for n, line in enumerate(lines):
        writer = pymupdf.TextWriter(page.rect)
        writer.append((cap_end, 100 + 13 * n), line, font=helvetica, fontsize=11)
        writer.write_text(page)
    pdf = doc.tobytes()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    words = page.get_text("words")
    (cap_word,) = [w for w in words if w[4] == "T"]
    (word,) = [w for w in words if w[4] == "Statistics"]
    box = pymupdf.Rect(word[:4])
    box.x0 = cap_word[2] - 0.001  # where the cap ends, give or take the rounding
    cap_middle = (cap_word[1] + cap_word[3]) / 2
    assert box.y0 < cap_middle < box.y1  # across the line, the box holds the cap's middle
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    assert _words(output) == [w[4] for w in words if w[4] != "Statistics"]
    assert verify(pdf, output, [mark]).ok
