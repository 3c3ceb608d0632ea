"""The speakers of a dialogue (Django-free): a chat log, a text-message export or a
transcript, each line opening with its speaker's name and a colon ("Ubul: What a
wife.\\nNicole: Remember me?"). Where the language model reads one speaker as a person,
the other speakers are people too; it misses the names it has not seen. Labels of a
form or a header ("Subject:", "Phone:") and roles ("Interviewer:") are no speakers."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from review.pdf.name_words import NAME_WORD, NEXT_NAME_WORD, plausible_name

_SPEAKER_LINE = re.compile(rf"(?m)^[ ]*({NAME_WORD}(?:[ ]{NEXT_NAME_WORD}){{0,2}})[ ]?:(?=[ ]?\S)")
_NOT_SPEAKERS = frozenset(
    # a header's and a form's fields
    "to from cc bcc sent re fw fwd note notes tel fax mobile cell website web url ref "
    "question answer comments comment summary attachment attachments status priority "
    "location time place item items total price cost example source purpose description "
    # a report's and minutes' headings
    "background conclusion conclusions result results response reply update warning "
    "important reminder decision outcome action actions reason reasons request findings "
    "recommendation recommendations agenda minutes present absent apologies attendees "
    # roles that speak in a transcript
    "interviewer interviewee caller operator agent customer user assistant bot system "
    "speaker host guest moderator chair witness victim suspect plaintiff defendant "
    "counsel court judge translator interpreter".split()
)

Span = tuple[int, int]


def speakers(text: str, people: Sequence[Span], read: Sequence[Span]) -> Iterator[Span]:
    """The speakers of `text`'s dialogue that no reading in `read` touches, when it has
    two speakers at least and one of them touches one of the `people`."""
    labels = [
        m.span(1)
        for m in _SPEAKER_LINE.finditer(text)
        if len(m[1]) > 1 and m[1].casefold() not in _NOT_SPEAKERS and plausible_name(m[1])
    ]
    if len({text[a:b] for a, b in labels}) < 2 or not any(_touches(s, people) for s in labels):
        return
    for label in labels:
        if not _touches(label, read):
            yield label


def _touches(span: Span, spans: Sequence[Span]) -> bool:
    return any(a < span[1] and span[0] < b for a, b in spans)
