"""Every occurrence of a number proposed for its label (Django-free): an identifier
("MRN: 4829173" is the patient's number in the lab sheet's "4829173" too), or one valid
in no plan ("Tel. 01632 960375"), is still the same number in a table's cell or a list
without its label, and in the submission's other documents; all its places form one
group the reviewer decides with one key."""

from __future__ import annotations

import re
from dataclasses import replace

from review.pdf.detection_policy import DetectionPolicy
from review.pdf.identifiers import ID_CATEGORIES
from review.pdf.pagetext import SOURCE_OCR, SOURCE_TEXT, Found, PageText
from review.pdf.patterns import CUE_BUT_INVALID, Hit

# Between the characters of a number as written: nothing, or a separator or two ("(0115) 49").
_NUMBER_GAP = r"[ .()/-]{0,2}"


def _chars(number: str) -> str:
    """A number's letters and digits, as every way of writing it shares them."""
    return "".join(c for c in number if c.isalnum()).upper()


def every_occurrence_of_cued_numbers(
    found: list[Found], texts: list[tuple[int, PageText, str]], policy: DetectionPolicy
) -> tuple[list[Found], list[Hit], dict[int, str]]:
    """A number proposed for its label (an identifier, or a number valid in no plan and
    proposed weakly, `CUE_BUT_INVALID`) proposed, as strongly and for the same reason,
    wherever else this document writes it, however separated; so is each of
    `policy.known_numbers`, found so in another document of the submission. All places
    of a number form one group: (the new finds, the numbers' hits for the other
    documents' `known_numbers`, group by id() of a find)."""
    numbers: dict[tuple[str, str], list[Found]] = {}
    read: dict[int, list[tuple[int, int]]] = {}  # by page, the spans read already
    for f in found:
        read.setdefault(f.page, []).append((f.hit.start, f.hit.end))
        cued = f.reason == CUE_BUT_INVALID or f.hit.category in ID_CATEGORIES
        if cued and f.source in (SOURCE_TEXT, SOURCE_OCR):
            numbers.setdefault((f.hit.category, f.hit.normalized), []).append(f)
    elsewhere = {(hit.category, hit.normalized): hit for hit in policy.known_numbers}
    for key in elsewhere:
        numbers.setdefault(key, [])
    # Every number in one search of each page (a document can label hundreds): each
    # alternative its characters with any separation, keyed by those characters.
    by_chars: dict[str, list[tuple[str, str]]] = {}
    for key in numbers:
        by_chars.setdefault(_chars(key[1]), []).append(key)
    places: dict[tuple[str, str], list[Found]] = {
        key: list(known) for key, known in numbers.items()
    }
    if by_chars:
        alternatives = sorted(by_chars, key=len, reverse=True)
        pattern = re.compile(
            r"(?<![\w+])(?:"
            + "|".join(_NUMBER_GAP.join(map(re.escape, chars)) for chars in alternatives)
            + r")(?![\w])",
            re.I,
        )
        for index, page_text, source in texts:
            for m in pattern.finditer(page_text.text):
                if any(a < m.end() and m.start() < b for a, b in read.get(index, ())):
                    continue  # read already, as this number or as something stronger
                rects = page_text.boxes(m.start(), m.end())
                for category, normalized in by_chars[_chars(m[0])] if rects else ():
                    known = numbers[category, normalized]
                    hit = known[0].hit if known else elsewhere[category, normalized]
                    place = replace(
                        hit,
                        start=m.start(),
                        end=m.end(),
                        detector=hit.detector + ">every_occurrence",
                    )
                    text_hash = policy.text_hash(normalized)
                    places[category, normalized].append(
                        Found(index, rects, place, source, text_hash, hit.reason)
                    )
    added: list[Found] = []
    groups: dict[int, str] = {}
    for (category, normalized), known in numbers.items():
        group = "n" + policy.text_hash(f"{category}|{normalized}")[:15]
        groups.update((id(f), group) for f in places[category, normalized])
        added.extend(places[category, normalized][len(known) :])
    hits = [replace(known[0].hit, start=0, end=0) for known in numbers.values() if known]
    return added, hits, groups
