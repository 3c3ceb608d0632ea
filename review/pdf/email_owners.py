"""People named by their own e-mail address (Django-free): "Einojuhani Pyysalo" above
"E-mail: EinojuhaniPyysalo@gustr.com", "leone mazzi" beside "leone.mazzi@rhyta.com".
Where a run of name words spells an address's local part, letter for letter, those
words are the person the address belongs to; the language model misses a name it has
not seen, in a signature block or a CV's heading."""

from __future__ import annotations

import re
from collections.abc import Iterator

from review.pdf.emails import find_emails
from review.pdf.name_words import plausible_name

# Any word of letters: the address spells the name, which needs no capitals on a line of
# its own ("leone mazzi" heading a lower-case signature).
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_SEPARATORS = re.compile(r"[._-]")
_LONGEST = 3  # words of a name, given names and surname


def find_email_owners(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each run of two or three words, on one line or across one line
    break, that an e-mail address of `text` spells in its local part."""
    spelled = {
        _SEPARATORS.sub("", address.split("@")[0]).casefold()
        for *_, address in find_emails(text)
        if "@" in address
    }
    if not spelled:
        return
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    for first in range(len(words)):
        run = text[words[first][0] : words[first][1]]
        for last in range(first + 1, min(first + _LONGEST, len(words))):
            gap = text[words[last - 1][1] : words[last][0]]
            if gap not in (" ", "\n"):
                break
            run += text[words[last][0] : words[last][1]]
            start, end = words[first][0], words[last][1]
            name = text[start:end]
            if (
                run.casefold() in spelled
                and plausible_name(name)
                and _written_as_a_name(text, start, end)
            ):
                yield start, end


def _written_as_a_name(text: str, start: int, end: int) -> bool:
    """Capitalised, or in lower case a line of its own (a signature's first line), not
    words of a sentence ("mail the info desk at infodesk@...")."""
    if any(word[:1].isupper() for word in text[start:end].split()):
        return True
    line_start = start == 0 or text[start - 1] == "\n"
    return line_start and (end == len(text) or text[end] == "\n")
