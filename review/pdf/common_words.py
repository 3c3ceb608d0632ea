"""The document's own words (Django-free): those it writes in lower case between other
words, which the model may read as a person where one stands alone on a line or in a
form's cell ("Check", "Lease", "Copy" of a bankruptcy petition, read as people once and
proposed at all of their hundreds of places by every occurrence)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from spacy.lang.en.stop_words import STOP_WORDS

from review.pdf import truecase
from review.pdf.given_names import given_names, surnames

# A word in lower case after another word on its line (or its comma).
_LOWER_CASE_WORD = re.compile(r"(?<=[\w,;][ ])([a-z]{4,})\b")
_POSSESSIVE_END = re.compile(r"['’]s?$")


def common_words(texts: Iterable[str]) -> set[str]:
    """The words the document writes in lower case between other words, on the lines
    whose case tells (not in capitals, nor by a writer who skips capitals), but for
    names: "a white car" leaves "White" a surname."""
    written = {
        m[1]
        for text in texts
        for line in truecase.as_written(text)
        for m in _LOWER_CASE_WORD.finditer(line)
    }
    return written - given_names() - surnames()


def everyday(words: Sequence[str], common: set[str]) -> bool:
    """Every one of `words` (a reading's) is one of the document's `common` words or a
    stop word ("Not" of "Employed\\nNot employed")."""
    bare = [_POSSESSIVE_END.sub("", word.strip(".,;:")).casefold() for word in words]
    return bool(bare) and all(word in common or word in STOP_WORDS for word in bare)
