"""Lines of justified text that extraction split at their wide gaps, read as one line
(Django-free).

MuPDF ends a line where the gap to the next word is wide: a justified line of few,
long words ("MARCELO   ANDRE   CORTES   VILLELA," over a paragraph of a Brazilian
police order, in UniDoc's examples) came out as four lines of one word each, and the
model, reading four lines of one capitalised word, proposed no name. Pieces of one line
(one baseline, one block, next to each other in reading order) are read as one where
together they reach from the left edge to the right edge of a line of the same block
that extraction read whole: a paragraph justified to its margins. A table's cells,
split the same way, are left apart: no line of their block spans the row unbroken.
"""

from __future__ import annotations

from collections.abc import Sequence

from review.pdf.words import RawWord

# Points within which pieces share a baseline, and within which they reach a margin.
SAME_BASELINE_PT = 0.5
MARGIN_PT = 2.0
# Words a line needs to show where its paragraph's margins lie.
MARGIN_LINE_WORDS = 3


def justified_lines_joined(words: Sequence[RawWord]) -> list[RawWord]:
    """`words` with the pieces of each split justified line numbered as one line."""
    lines: list[list[RawWord]] = []
    for word in words:
        if lines and (lines[-1][0][5], lines[-1][0][6]) == (word[5], word[6]):
            lines[-1].append(word)
        else:
            lines.append([word])
    margins: dict[int, set[tuple[float, float]]] = {}
    for line in lines:
        if len(line) >= MARGIN_LINE_WORDS:
            margins.setdefault(line[0][5], set()).add((line[0][0], line[-1][2]))
    out: list[RawWord] = []
    start = 0
    while start < len(lines):
        end = start + 1
        while end < len(lines) and _same_row(lines[end - 1], lines[end]):
            end += 1
        pieces = lines[start:end]
        if len(pieces) > 1 and _justified(pieces, margins.get(pieces[0][0][5], set())):
            block, first_line = pieces[0][0][5], pieces[0][0][6]
            joined = [w for piece in pieces for w in piece]
            out.extend((*w[:5], block, first_line, n) for n, w in enumerate(joined))
        else:
            out.extend(w for piece in pieces for w in piece)
        start = end
    return out


def _same_row(before: list[RawWord], after: list[RawWord]) -> bool:
    a, b = before[-1], after[0]
    return (
        a[5] == b[5]
        and a[2] <= b[0]
        and abs(a[1] - b[1]) <= SAME_BASELINE_PT
        and abs(a[3] - b[3]) <= SAME_BASELINE_PT
    )


def _justified(pieces: list[list[RawWord]], margins: set[tuple[float, float]]) -> bool:
    left, right = pieces[0][0][0], pieces[-1][-1][2]
    return any(abs(left - x0) <= MARGIN_PT and abs(right - x1) <= MARGIN_PT for x0, x1 in margins)
