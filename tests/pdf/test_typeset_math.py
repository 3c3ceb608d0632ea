"""What pdflatex's typesetting of mathematics does to the burn-in and the release gate:
lines made tall by a formula, zero-width combining marks, footnote marks drawn in
strings of their own, and the document info of included figures (all seen on GeoTopo,
a German topology lecture in py-pdf's sample files)."""

from __future__ import annotations

import re

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.tokens import (
    Shown,
    byte_forms,
    found_unexplained,
    fragment_patterns,
    without,
)
from review.pdf.verify import verify
from review.pdf.word_geometry import Boxes, PageWords, missing

HELVETICA = pymupdf.Font("helv")


def _shown(*words: str) -> Shown:
    """What an output of no pages, showing `words`, shows."""
    shown = Shown(pymupdf.open())
    shown.add(words)
    return shown


def _words(pdf: bytes) -> list[str]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return [w[4] for w in page.get_text("words")]


def test_a_box_over_a_word_on_a_line_a_formula_makes_tall_takes_the_word() -> None:
    """A tall glyph further along the line (a fraction, a big operator) makes the line's
    box three times as tall as its words, and its middle falls below a box over one of
    them: judged by the line, the box was narrowed to nothing, the word stayed under the
    black box and the gate refused the document."""
    doc = pymupdf.open()
    page = doc.new_page()
    writer = pymupdf.TextWriter(page.rect)
    at = writer.append((72, 300), "schneidet die Ebene H in ", font=HELVETICA, fontsize=11)[1]
    at = writer.append(at, "(", font=HELVETICA, fontsize=40)[1]
    writer.append(at, "genau", font=HELVETICA, fontsize=11)
    writer.write_text(page)
    pdf = doc.tobytes()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    (word,) = [w for w in page.get_text("words") if w[4] == "Ebene"]
    box = pymupdf.Rect(word[:4])
    (line,) = [
        line
        for block in page.get_text("dict")["blocks"]
        for line in block.get("lines", ())
        if pymupdf.Rect(line["bbox"]).intersects(box)
    ]
    line_box = pymupdf.Rect(line["bbox"])
    assert line_box.height > 2.5 * box.height  # the formula's line, not the word's
    assert (line_box.y0 + line_box.y1) / 2 < box.y0  # whose middle the box misses
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    assert "Ebene" not in _words(output)
    assert {"schneidet", "die", "H", "in", "(genau"} <= set(_words(output))
    assert verify(pdf, output, [mark]).ok


def test_a_combining_mark_that_joins_a_word_beside_a_box_is_no_collateral_damage() -> None:
    """pdflatex draws "x\u0338 =" as "x", a zero-width slash, "=". With "x" under a box,
    extraction joins the slash to the last word before the box: "je" comes out "je\u0338"."""
    box = (420.0, 304.0, 490.06, 315.0)
    before = PageWords(
        words=[((407.9, 304.3, 416.2, 315.3), "je"), ((483.8, 304.5, 490.1, 323.4), "x\u0338")]
    )
    joined = PageWords(words=[((407.9, 304.3, 416.2, 323.4), "je\u0338")])
    lost = PageWords(words=[((407.9, 304.3, 416.2, 323.4), "j\u0338")])

    assert missing(before, joined, Boxes([box])) == 0
    assert missing(before, lost, Boxes([box])) == 1


def test_a_fragment_is_blanked_out_only_where_it_stands_as_a_word() -> None:
    """A word cut short to "n" beside a box: taking every "n" out of "folgenden" left a
    redacted "folge" standing in the stream, and the gate refused the document."""
    fragments = fragment_patterns({"n", "(Chang"})

    assert without(b"mit folgenden", fragments) == b"mit folgenden"
    assert without(b"n (Chang", fragments) == b" " + b" " + b" " * len(b"(Chang")
    assert len(without(b"see (Changes", fragments)) == len(b"see (Changes")


def test_a_fragment_is_blanked_out_whole_where_a_shorter_one_starts_before_it() -> None:
    """What burn-in left of a DOI a box cut, "1109/SOI.2011.6081791", is drawn as
    ".1109/SOI.2011.6081791"; ".1109/", left of another DOI, starts a byte before it.
    Taken out first, it left "SOI" standing, a redacted word (papermage's fixtures)."""
    fragments = fragment_patterns({".1109/", "1109/SOI.2011.6081791"})

    assert without(b".1109/SOI.2011.6081791", fragments) == b"." + b" " * 21


def test_a_token_run_on_into_a_footnote_mark_blanked_as_a_fragment_is_explained() -> None:
    """ "(SNCF-Metrik)" then "(1)", a footnote mark, show the word "SNCF-Metrik1". A "1"
    cut short elsewhere is blanked out of the strings, but the run-on is read from what
    is drawn: the redacted "Metrik" is part of a word the output shows."""
    needles = [needle for needle in byte_forms({"Metrik"}) if needle.decode == "raw"]
    drawn = [b"1.2.", b" SNCF-Metrik", b"1"]
    fragments = fragment_patterns({"1"})
    texts = [without(text, fragments) for text in drawn]
    any_needle = re.compile(b"|".join(re.escape(needle.data) for needle in needles))

    assert texts[2] == b" "
    assert not found_unexplained(needles, drawn, fragments, _shown("sncf-metrik1"), any_needle)
    assert found_unexplained(needles, drawn, fragments, _shown("sncf-metrik"), any_needle)


def test_a_token_run_on_by_a_hyphen_into_a_shown_url_is_explained() -> None:
    """A book's URL ".../syncfusion/pdf-succinctly/" drawn as "(/pdf)", "(-)" and
    "(succinctly/)", with "syncfusion/" under a box and every "PDF" of the page under a
    mark: the string "(/pdf)" is the visible "/pdf-succinctly/", no copy of the word.
    The token drawn alone, or only beside punctuation, is still a hit."""
    needles = [needle for needle in byte_forms({"PDF"}) if needle.decode == "raw"]
    any_needle = re.compile(b"|".join(re.escape(needle.data) for needle in needles))
    shown = _shown("pdf-succinctly", "pdf")
    url = [b"here: ", b"/pdf", b"-", b"succinctly/", b". "]

    assert not found_unexplained(needles, url, [], shown, any_needle)
    assert found_unexplained(needles, [b"see ", b"PDF", b". "], [], shown, any_needle)
    assert found_unexplained(
        needles, [b"/pdf", b"-", b"succinctly/"], [], _shown("pdf"), any_needle
    )


def test_a_token_run_on_into_a_byte_past_ascii_is_the_word_its_font_draws() -> None:
    """iText's bigTaggedDocument.pdf draws "field’s" as "(The fiel)", "(d\\220)" and
    "(s text ...)", in a font that draws 0x90 as "’"; with "Fields”" redacted on the
    page (drawn "(Fiel)" and "(ds\\224)"), the string "(The fiel)" is the visible
    "field’s", no copy of it. A byte past ASCII may be any character past it, but the
    word the strings make must still be one the output shows."""
    needles = [needle for needle in byte_forms({"fiel"}) if needle.decode == "raw"]
    any_needle = re.compile(b"|".join(re.escape(needle.data) for needle in needles))
    drawn = [b"692", b"The fiel", b"d\x90", b"s text is held in a text string"]

    assert not found_unexplained(needles, drawn, [], _shown("field\u2019s"), any_needle)
    assert found_unexplained(needles, drawn, [], _shown("fields"), any_needle)
    assert found_unexplained(needles, drawn, [], _shown("yield\u2019s"), any_needle)


def test_a_words_punctuation_drawn_in_another_font_leaves_the_bare_word_beside_a_box() -> None:
    """ "Erinnerung:Die" extracts as one word ("Erinnerung" and ":" in two fonts, no
    space); a box over "Die" leaves "Erinnerung:", which the reviewer saw. Where
    "Erinnerung" is redacted on another page, its string "(Erinnerung)" beside the box
    is what the preview showed, not a copy left behind."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "Zur Erinnerung", fontsize=11)
    page = doc.new_page()
    page.insert_font(fontname="helv")
    page.insert_font(fontname="tiro")
    # As pdflatex draws it: each font's characters in a string of their own.
    drawn = b"BT /helv 11 Tf 1 0 0 1 72 500 Tm (Erinnerung) Tj /tiro 11 Tf (:) Tj"
    drawn += b" /helv 11 Tf (Die Menge) Tj ET"
    stream = doc.get_new_xref()
    doc.update_object(stream, "<<>>")
    doc.update_stream(stream, drawn)
    doc.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
    pdf = doc.tobytes()
    source = pymupdf.open(stream=pdf, filetype="pdf")
    assert "Erinnerung:Die" in [w[4] for w in source[1].get_text("words")]
    first = next(w for w in source[0].get_text("words") if w[4] == "Erinnerung")
    die = next(c for c in source[1].search_for("Die"))
    marks = [
        RedactionMark(
            page=0, box=normalize(source[0], pymupdf.Rect(first[:4])), legal_reason="(b)(6)"
        ),
        RedactionMark(page=1, box=normalize(source[1], die), legal_reason="(b)(6)"),
    ]

    report = verify(pdf, sanitize(burn_in(pdf, marks)), marks)

    assert report.ok, report.failures


def test_what_pdftex_records_of_an_included_figure_is_dropped() -> None:
    """pdfTeX keeps an included PDF figure's path and its whole document info on the
    form that draws it: /PTEX.FileName, /PTEX.InfoDict (its author and title)."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Figure 1: the torus", fontsize=11)
    figure = pymupdf.open()
    figure.new_page(width=100, height=60).draw_circle((50, 30), 20)
    page.show_pdf_page(pymupdf.Rect(72, 120, 172, 180), figure, 0)
    form = next(
        xref
        for xref in range(1, doc.xref_length())
        if doc.xref_get_key(xref, "Subtype")[1] == "/Form"
    )
    info = doc.get_new_xref()
    doc.update_object(info, "<</Author(Jane Roe)/Title(Torus of Jane Roe)>>")
    doc.xref_set_key(form, "PTEX.InfoDict", f"{info} 0 R")
    doc.xref_set_key(form, "PTEX.FileName", pymupdf.get_pdf_str("/home/jroe/figures/torus.pdf"))
    doc.xref_set_key(form, "PieceInfo", "<</Illustrator<</Private(Jane Roe's layers)>>>>")
    pdf = doc.tobytes()
    assert b"Jane Roe" in pdf

    output = pymupdf.open(stream=sanitize(pdf), filetype="pdf")

    held = [output.xref_object(xref) for xref in range(1, output.xref_length())]
    held += [output.xref_stream(x) or b"" for x in range(1, output.xref_length())]
    assert not [text for text in held if "Jane Roe" in str(text) or "jroe" in str(text)]
    assert "Figure" in [w[4] for w in output[0].get_text("words")]


def test_a_box_over_an_operator_leaves_its_subscript_joined_with_the_next_text() -> None:
    """ "max" over its subscript "t=0,1,2,...,k+1", then "(xm+t": extraction joins the
    subscript and the text after it into one word, whose box holds the operator's. A
    box over "max" holds that word's middle, so the gate took it for redacted; burn-in
    leaves it (neither of its lines is under the box) and the gate refused the release
    as `redacted_string_present` (science-parse's smith07.pdf)."""
    doc = pymupdf.open()
    page = doc.new_page()
    writer = pymupdf.TextWriter(page.rect)
    writer.append((100, 300), "Then", font=HELVETICA, fontsize=9)
    writer.append((140, 300), "max", font=HELVETICA, fontsize=9)
    at = writer.append((135, 307), "t=0,1,2,...,k+1", font=HELVETICA, fontsize=4)[1]
    at = writer.append((at.x, 300), "(x", font=HELVETICA, fontsize=9)[1]
    at = writer.append((at.x, 301), "m+t", font=HELVETICA, fontsize=6)[1]
    writer.append((at.x + 3, 300), "is bounded.", font=HELVETICA, fontsize=9)
    writer.write_text(page)
    pdf = doc.tobytes()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    words = {w[4]: pymupdf.Rect(w[:4]) for w in page.get_text("words")}
    joined = words["t=0,1,2,...,k+1(xm+t"]
    box = words["max"]
    assert box in joined and box.y0 < (joined.y0 + joined.y1) / 2 < box.y1
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    assert _words(output) == ["Then", "t=0,1,2,...,k+1(xm+t", "is", "bounded.", "(b)(6)"]
    assert verify(pdf, output, [mark]).ok
