"""Names known by their cues, not by the language model (Django-free): after a title,
signing a letter (above the signer's job or under the valediction), beside the person's
part in the case; and what makes a run of words a plausible name at all. Spans only:
`patterns` makes them hits, as it does the addresses of `addresses.py`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# Words of a job or a form's field, which the small English model takes for names.
_NOT_NAME_WORDS = frozenset(
    "officer manager director clerk secretary department authority council office address "
    "name phone telephone email date signature applicant complainant requester case file "
    "reference subject inc ltd llc gmbh plc sa the team unit service services records "
    "centre center plan group board committee division bureau agency".split()
)


def plausible_name(value: str) -> bool:
    """A person's name has letters only (no digits or slashes: "FOI/2021/6862"), is not
    one all-capital acronym ("PHRX"), and names no job or form field ("Case Officer")."""
    words = value.split()
    if any(ch.isdigit() or ch in "/@#:" for ch in value):
        return False
    if len(words) == 1 and value.isupper():
        return False
    return not any(w.strip(".,").casefold() in _NOT_NAME_WORDS for w in words)


# A capitalised word of a name: "O'Brien" keeps its apostrophe, "Doe's" loses the "'s".
NAME_WORD = r"[A-ZÀ-ÖØ-Þ][\w-]*(?:['’][A-Za-z]{2,}[\w-]*)?"
_TITLED_NAME = re.compile(
    r"(?<![\w-])(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Herr|Frau|Mme|Mlle|Sr|Sra|Srta)\.?[ \n]"
    rf"({NAME_WORD}(?:[ -]{NAME_WORD}){{0,2}})"
)
# A signature: a line that is only a name, at a line start or after a sentence, above
# the signer's job ("Paige Miah\nCase Officer, Customer Contact Centre").
_SIGNED_NAME = re.compile(
    rf"(?:^|\n|\. )({NAME_WORD}(?: {NAME_WORD}){{1,3}}) ?\n(?=[^\n]{{0,40}}?\b(?:"
    r"Officer|Manager|Director|Clerk|Secretary|Coordinator|Adviser|Advisor|Lead|Head|"
    r"Analyst|Assistant|Caseworker|Investigator|Controller|Counsel)\b)"
)

# A signature under the valediction, on a line of its own ("Yours sincerely,\nGuy Fleury").
_VALEDICTED_NAME = re.compile(
    r"(?i:yours sincerely|yours faithfully|yours truly|sincerely|kind regards|best regards|"
    r"regards|respectfully|mit freundlichen grüßen|cordialement|atentamente),?[ ]*\n[ ]*"
    rf"({NAME_WORD}(?: {NAME_WORD}){{1,3}})[ ,]*(?=\n|$)"
)
# A person named beside their part in the case ("A neighbour, Araceli Canet Calvo, of
# ..."), the name ending at punctuation or a verb: the model reads many such names as
# organisations.
_ROLE_NAMED = re.compile(
    r"(?<![\w-])(?i:a|an|the|our|his|her|their|my|your)[ \n](?:[a-z-]+[ \n])?"
    r"(?i:neighbou?r|witness|complainant|applicant|requester|claimant|tenant|"
    r"landlord|employee|patient|client|victim|suspect|resident|spouse|wife|husband|partner|"
    r"son|daughter|mother|father|brother|sister|friend|colleague|caseworker|data subject)"
    rf",?[ \n]({NAME_WORD}(?:[ \n-]{NAME_WORD}){{1,3}})"
    r"(?=[,;:)]|\.(?:\s|$)|\s(?:of|at|from|who|and|said|stated|wrote|told|was|is|has|had)\b)"
)
# What follows a company's name ("Isa Montoya Cerro S.L.", "Smith & Co"), not a person's.
_COMPANY_AFTER = re.compile(r"\s*(?:&|[A-Z]\.[A-Z]\.|(?:Ltd|LLC|Inc|GmbH|plc|SARL|AG|KG)\b)")


def find_names_by_cue(text: str) -> Iterator[tuple[int, int, float, str]]:
    """(start, end, confidence, detector) of each name after a title, signing a letter
    or beside the person's part in the case: the language model misses names it has not
    seen, and reads a signature with the job below it, or "a neighbour, Araceli Canet
    Calvo", as an organisation."""
    for m in _TITLED_NAME.finditer(text):
        yield m.start(1), m.end(1), 0.9, "cue.titled_name"
    for m in _ROLE_NAMED.finditer(text):
        name = m[1]
        if (
            plausible_name(name)
            and len(name.split()[-1]) > 1
            and not _COMPANY_AFTER.match(text, m.end(1))
        ):
            yield m.start(1), m.end(1), 0.85, "cue.role_named"
    if "\n" in text:
        for pattern in (_SIGNED_NAME, _VALEDICTED_NAME):
            for m in pattern.finditer(text):
                if plausible_name(m[1]):
                    yield m.start(1), m.end(1), 0.9, "cue.signed_name"
