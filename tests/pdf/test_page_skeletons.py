"""The pages searched for a name's written forms (`page_skeletons`): every page where a
form can match is searched, whatever case folding or line breaking the page writes."""

from __future__ import annotations

import _sre
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from review.pdf.entities import _written
from review.pdf.page_skeletons import CASED_END, Skeletons, skeleton


def test_characters_re_matches_ignoring_case_have_one_skeleton() -> None:
    pairs = 0
    for code in range(CASED_END):
        char = chr(code)
        for other in {char.lower(), char.upper(), char.title(), char.casefold()}:
            if len(other) != 1 or other == char:
                continue
            if re.fullmatch(re.escape(char), other, re.IGNORECASE):
                pairs += 1
                assert skeleton(char) == skeleton(other), (hex(code), other)
    assert pairs > 2000  # every cased script, not a handful
    # re's own extra cases: the long s, the dotless i, the Kelvin sign.
    for char, other in (("ſ", "s"), ("ı", "I"), ("İ", "i"), ("\u212a", "k"), ("ς", "Σ")):
        assert re.fullmatch(re.escape(char), other, re.IGNORECASE)
        assert skeleton(char) == skeleton(other)


def test_no_character_past_the_folded_range_has_a_case() -> None:
    assert all(_sre.unicode_tolower(code) == code for code in range(CASED_END, 0x110000))


def test_a_name_broken_across_lines_or_cased_otherwise_finds_its_page() -> None:
    pages = Skeletons(
        [
            "Nothing here but the weather.",
            "Signed by Aleksandra Wojcie-\nchowska on Monday.",
            "MS. OYELARAN-\nSMITH ATTENDED.",
            "The report of ſmith and the KELVIN sign \u212aowalski.",
            "İSTANBUL office",
        ]
    )
    assert pages.holding(["Wojciechowska"]) == [1]
    assert pages.holding(["Oyelaran-Smith"]) == [2]
    assert pages.holding(["Smith"]) == [2, 3]
    assert pages.holding(["kowalski"]) == [3]
    assert pages.holding(["istanbul"]) == [4]
    assert pages.holding(["Nowhere", "weather"]) == [0]
    assert pages.holding(["Absent"]) == []


def test_a_word_without_a_skeleton_searches_every_page() -> None:
    assert Skeletons(["a", "b", "c"]).holding(["-"]) == [0, 1, 2]


_LETTERS = st.sampled_from(list("aAsSiIkKſıİ\u212aσςΣßéÉ-\n '"))


@settings(max_examples=200, deadline=None)
@given(
    word=st.text(_LETTERS, min_size=1, max_size=6).filter(lambda w: w.strip("-\n ")),
    pages=st.lists(st.text(_LETTERS, max_size=30), min_size=1, max_size=4),
)
def test_every_page_a_written_form_matches_is_held(word: str, pages: list[str]) -> None:
    form = re.compile(_written(word), re.IGNORECASE)
    held = Skeletons(pages).holding([word])
    for index, text in enumerate(pages):
        if form.search(text):
            assert index in held
