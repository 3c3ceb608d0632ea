"""The release gate's byte search reads a content stream's strings in the order they
are drawn, and a redacted token in one is explained by the word it runs on into, when
the output shows that word. Where a word ends between two strings, as three published
papers and a court opinion (in freelawproject's courtlistener) draw them."""

from __future__ import annotations

import re

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.tokens import Shown, byte_forms, found_unexplained
from review.pdf.verify import verify


def _shown(*words: str) -> Shown:
    """What an output of no pages, showing `words`, shows."""
    shown = Shown(pymupdf.open())
    shown.add(words)
    return shown


def _pdf(content: bytes) -> bytes:
    """A page drawing `content`, with Helvetica as /helv."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "x", fontname="helv", fontsize=11)
    (xref,) = page.get_contents()
    doc.update_stream(xref, content)
    return doc.tobytes()


def _marks(pdf: bytes, *rects: pymupdf.Rect, reason: str) -> list[RedactionMark]:
    page = pymupdf.open(stream=pdf)[0]
    return [RedactionMark(page=0, box=normalize(page, rect), legal_reason=reason) for rect in rects]


def _word(pdf: bytes, text: str) -> pymupdf.Rect:
    (word,) = [w for w in pymupdf.open(stream=pdf)[0].get_text("words") if w[4] == text]
    return pymupdf.Rect(word[:4])


def test_a_token_run_on_into_a_word_that_ends_in_punctuation_is_explained() -> None:
    """A Third Circuit opinion draws each piece of a line by its own move: "( cas)",
    "(e.)", then "(4)", a footnote mark, or "(Under)", the next sentence. With "Farm
    Family Cas." under a mark, every "case." of the opinion was taken for a copy of the
    redacted "Cas" and the release refused. A word closed by its punctuation runs on no
    further; one the next string continues with a letter still does."""
    needles = [needle for needle in byte_forms({"Cas"}) if needle.decode == "raw"]
    any_needle = re.compile(b"|".join(re.escape(needle.data) for needle in needles))
    shown = _shown("case", "under")

    for after in (b"4", b"Under"):
        drawn = [b"hi", b"s", b" cas", b"e.", after, b" "]
        assert not found_unexplained(needles, drawn, [], shown, any_needle)
        assert found_unexplained(needles, drawn, [], _shown("under"), any_needle)
    assert found_unexplained(needles, [b" cas", b"e", b"4", b" "], [], shown, any_needle)


def test_a_word_ends_where_a_tj_array_moves_by_a_space() -> None:
    """An affiliation line "3School of ... and 4National Centre": the words of a TJ
    array set apart by kerning the width of a space ("[(School)-305.8(of)...]TJ"). The
    search took "(of)" for the rest of the word "3School", found no such word shown,
    and with another "School" under a mark refused the release."""
    pdf = _pdf(
        b"BT /helv 11 Tf 72 742 Td (School of Law) Tj ET "
        b"BT /helv 7 Tf 72 726 Td (3) Tj ET "
        b"BT /helv 11 Tf 76 722 Td [(School)-305.8(of)-19893.81(Mining)] TJ ET"
    )
    marks = _marks(pdf, _word(pdf, "School"), reason="(b)(6)")
    out = sanitize(burn_in(pdf, marks))

    assert "3School" in pymupdf.open(stream=out)[0].get_text()
    assert verify(pdf, out, marks).ok


def test_a_reason_stamp_is_no_string_a_word_runs_on_into() -> None:
    """A paper's last line "10www.alias-i.com/lingpipe", "lingpipe" under a mark, and
    "Alias-i," under another: what the output shows of the address, "10www.alias-i.com/",
    was read as run on into the reason stamp burn-in draws next, "(GDPR Art. 17)", a
    word nothing shows, and the release was refused."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Alias-i, Inc. builds tools", fontname="helv", fontsize=11)
    page.insert_text((72, 120), "see", fontname="helv", fontsize=11)
    page.insert_text((92, 116), "10", fontname="helv", fontsize=7)
    page.insert_text((99.8, 120), "www.alias-i.com/lingpipe", fontname="helv", fontsize=11)
    pdf = doc.tobytes()
    (path,) = pymupdf.open(stream=pdf)[0].search_for("lingpipe")
    marks = _marks(pdf, _word(pdf, "Alias-i,"), path, reason="GDPR Art. 17")
    out = sanitize(burn_in(pdf, marks))

    assert "10www.alias-i.com/" in pymupdf.open(stream=out)[0].get_text()
    assert verify(pdf, out, marks).ok
