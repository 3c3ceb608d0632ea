"""A clip to no path, spelled out for MuPDF's content filter (Django-free).

"W n" with no path built since the last one was painted or clipped ("... W n W n")
clips to nothing: MuPDF draws nothing more until the graphics state is restored. The
content filter, which every redaction runs, carries that "W" over to the next path
instead ("<path> W S"), which is then clipped to its own outline and drawn: a border
side that an empty clip hid appeared in the release (iText's html2pdf border-radius
tests, a blue side of a rounded box). So does a clip to a path of pen moves alone
("0 0 m W n"), which the filter drops with its path: a shading clipped to nothing
after it filled the page in grey (iText's pdfSweep bigUntaggedDocument).
`empty_clips_spelled_out` gives each such clip an empty rectangle ("0 0 0 0 re W n"),
which the filter keeps as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

from review.pdf.user_space import PATH_OPERANDS

# A clip right after a path ended, or right after a pen move: the forms generators write.
EMPTY_CLIP = re.compile(rb"(?<![^\s\]>)])[nm]\s+W\*?\s+n(?![^\s/\[<(%])")
_CLIPS = (b"W", b"W*")
_MOVES = (b"m", b"h")  # no segment: "0 0 m h" outlines nothing
_EMPTY = b"0 0 0 0 re "


class Operation(Protocol):
    """An operation of a content stream, as `content_tokens.operations` reads it."""

    @property
    def start(self) -> int: ...  # of its first operand, or of the operator when it has none

    @property
    def end(self) -> int: ...  # of its operator

    @property
    def operator(self) -> bytes: ...


def empty_clips_spelled_out(data: bytes, ops: Iterable[Operation]) -> bytes:
    """`data` with a rectangle of no size before each "W" or "W*" whose path has no
    segment. `ops`: the operations of `data`, as `content_tokens.operations` reads them."""
    out: list[bytes] = []
    cursor = 0
    building = False  # a path of some segment has been started, not yet painted or ended
    for op in ops:
        if op.operator in PATH_OPERANDS:
            building = building or op.operator not in _MOVES
        elif op.operator in _CLIPS:
            if not building:
                out.append(data[cursor : op.start] + _EMPTY)
                cursor = op.start
        else:
            building = False  # painted, ended ("n"), or any other operator
    out.append(data[cursor:])
    return b"".join(out)
