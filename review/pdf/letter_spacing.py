"""Words set letter-spaced, read as words (Django-free).

A heading or a title set with extra space between its letters ("10 Tc", or a space
typed after every letter) reaches detection as one-letter words: MuPDF puts each
letter of "M o s c o u" on a line of its own, and no detector reads a name, a place or
a number out of single letters. A name proposed elsewhere on the page stayed visible in
a letter-spaced title (iText's ExtraCharSpace example, refused by the release gate).

`joined` reads a row of single characters on one baseline (letters, digits, the
hyphens of a number), each the same distance from the next, as words: where the
distance grows by more than `WORD_GAP_SHARE` of the letters' height, a word ends (a
space between words set the same way). A word's box is its letters' boxes together; all
the words of a row are one line. Boxed digits of a form's comb field ("1 2 3 4 5 6 7 8
9" in nine cells) are read as one number the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from review.pdf.words import RawWord

# A row's letters lie on one line: their tops and bottoms agree to within this share
# of their height.
SAME_LINE_SHARE = 0.1
# Next letters are no further apart than this many times their height (a word's space
# set letter-spaced included).
ROW_GAP_HEIGHTS = 2.0
# A gap wider than the row's narrowest by this share of the height is a space.
WORD_GAP_SHARE = 0.15
# Letters a row needs to be read as letter-spaced words.
MIN_LETTERS = 3


def joined(words: Sequence[RawWord]) -> list[RawWord]:
    """`words` in their order, each row of evenly set single characters read as the
    words it spells."""
    out: list[RawWord] = []
    row: list[RawWord] = []  # single characters, each following the one before
    for word in words:
        if not _letter(word):
            out.extend(_read(row))
            out.append(word)
            row = []
        elif row and not _follows(row[-1], word):
            out.extend(_read(row))
            row = [word]
        else:
            row.append(word)
    out.extend(_read(row))
    return out


def _read(row: list[RawWord]) -> list[RawWord]:
    return _row_words(row) if len(row) >= MIN_LETTERS else row


def _letter(word: RawWord) -> bool:
    return len(word[4]) == 1 and word[3] > word[1]


def _follows(last: RawWord, word: RawWord) -> bool:
    height = last[3] - last[1]
    gap = word[0] - last[2]
    return (
        abs(word[1] - last[1]) <= SAME_LINE_SHARE * height
        and abs(word[3] - last[3]) <= SAME_LINE_SHARE * height
        and 0 <= gap <= ROW_GAP_HEIGHTS * height
    )


def _row_words(row: list[RawWord]) -> list[RawWord]:
    gaps = [b[0] - a[2] for a, b in zip(row, row[1:], strict=False)]
    height = max(w[3] for w in row) - min(w[1] for w in row)
    spaced = min(gaps) + WORD_GAP_SHARE * height
    block, line = row[0][5], row[0][6]
    words: list[RawWord] = []
    start = 0
    for end in range(1, len(row) + 1):
        if end == len(row) or gaps[end - 1] > spaced:
            letters = row[start:end]
            words.append(
                (
                    letters[0][0],
                    min(w[1] for w in letters),
                    letters[-1][2],
                    max(w[3] for w in letters),
                    "".join(w[4] for w in letters),
                    block,
                    line,
                    len(words),
                )
            )
            start = end
    return words
