"""The pages searched for a name's written forms (`page_skeletons`): every page where a
form can match is searched, whatever case folding or line breaking the page writes."""

from __future__ import annotations

import _sre
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from review.pdf.entities import _anchors, _Entity, _entity_patterns
from review.pdf.page_skeletons import CASED_END, Skeletons, skeleton, written
from review.pdf.patterns import LOCATION, ORGANIZATION, PERSON


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


def _pages(found: dict[int, list[int]] | None) -> list[int]:
    assert found is not None
    return sorted(found)


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
    assert _pages(pages.places(["Wojciechowska"])) == [1]
    assert _pages(pages.places(["Oyelaran-Smith"])) == [2]
    assert pages.places(["Smith"]) == {2: [14], 3: [14]}  # where each starts in the text
    assert _pages(pages.places(["kowalski"])) == [3]
    assert _pages(pages.places(["istanbul"])) == [4]
    assert _pages(pages.places(["Nowhere", "weather"])) == [0]
    assert pages.places(["Absent"]) == {}


def test_a_word_without_a_skeleton_could_be_anywhere() -> None:
    pages = Skeletons(["a-b", "b"])
    assert pages.places(["-"]) is None
    found = [(page, m.span()) for page, m in pages.matches(re.compile("b"), [["-"]], 1)]
    assert found == [(0, (2, 3)), (1, (0, 1))]


_LETTERS = st.sampled_from(list("aAsSiIkKſıİ\u212aσςΣßéÉ-\n '"))


@settings(max_examples=200, deadline=None)
@given(
    word=st.text(_LETTERS, min_size=1, max_size=6).filter(lambda w: w.strip("-\n ")),
    pages=st.lists(st.text(_LETTERS, max_size=30), min_size=1, max_size=4),
)
def test_a_written_form_is_found_wherever_it_matches(word: str, pages: list[str]) -> None:
    form = re.compile(r"(?<![^\W\d])" + written(word), re.IGNORECASE)  # not after a letter
    everywhere = [(i, m.span()) for i, text in enumerate(pages) for m in form.finditer(text)]
    found = [(i, m.span()) for i, m in Skeletons(pages).matches(form, [[word]], 3 * len(word))]
    assert found == everywhere


_NAME_PARTS = st.sampled_from(
    [
        "Jane",
        "JANE",
        "Doe",
        "DOE",
        "doe",
        "Do-\ne",
        "Doe's",
        "Ms.",
        "Dr",
        "J.",
        "Janet",
        ",",
        " ",
        " ",
        "\n",
        "-\n",
        "x",
        "Doerr",
        "jane.doe@",
        "1",
        "Smith",
        "Van",
        "va-\nn",
        "d-\ner",
        "Ms. van der",
        "Mary",
        "Roe",
        "ROE,",
        "Mr.",
        "Saginaw",
        "County",
        "COUNTY",
        "acme.com",
        "www.Acme.",
        "ACME",
        "Acme's",
        "/acme",
        "der",
    ]
)


@settings(max_examples=150, deadline=None)
@given(pages=st.lists(st.lists(_NAME_PARTS, max_size=14).map("".join), min_size=1, max_size=3))
def test_a_names_forms_are_found_as_a_search_of_every_page_finds_them(pages: list[str]) -> None:
    jane = _Entity(PERSON, ("Jane", "van", "der", "Doe"))
    doe = _Entity(PERSON, ("Doe",))
    acme = _Entity(ORGANIZATION, ("Acme",))
    mary = _Entity(PERSON, ("Mary", "Roe"))  # her given name is nobody's alone
    county = _Entity(LOCATION, ("Saginaw", "County"))
    lone = {"doe": jane, "jane": jane, "roe": mary}
    for entity, pattern in _entity_patterns([jane, doe, acme, mary, county], lone):
        everywhere = [(i, m.span()) for i, t in enumerate(pages) for m in pattern.finditer(t)]
        found = [
            (i, m.span()) for i, m in Skeletons(pages).matches(pattern, *_anchors(entity, lone))
        ]
        assert found == everywhere
