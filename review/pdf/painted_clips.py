"""A path that clips and is painted, spelled out for MuPDF's redaction (Django-free).

"<path> W S" strokes the path, then clips what follows to it (ISO 32000-1, 8.5.4: the
clip takes effect after the painting). When a redaction box comes near such a path,
MuPDF's redaction takes the line art whole, and the clip with it: what the path hid
was drawn in the release. gofpdf's ClipText.pdf clips a paragraph to a rounded box
drawn that way; a mark on a word inside it brought every line out whole, and the gate
refused the release. `painted_clips_spelled_out` paints the path, then clips to it
again with "W n", which paints nothing and which the redaction keeps.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from review.pdf.empty_clips import Operation
from review.pdf.user_space import PAINTS, PATH_OPERANDS

# "W" or "W*" then a painting operator: where `painted_clips_spelled_out` has work.
PAINTED_CLIP = re.compile(rb"(?<![^\s\]>)])W\*?\s+(?:[SsFf]|f\*|[Bb]\*?)(?![^\s/\[<(%])")
_CLIPS = (b"W", b"W*")


def painted_clips_spelled_out(data: bytes, ops: Iterable[Operation]) -> bytes:
    """`data` with each "<path> W <paint>" written "<path> <paint> <path> W n" (and "W*"
    alike), which draws the same. `ops`: the operations of `data`, as
    `content_tokens.operations` reads them."""
    out: list[bytes] = []
    cursor = 0
    path: tuple[int, int] | None = None  # where the path being built starts and ends
    clip: bytes | None = None
    for op in ops:
        if op.operator in PATH_OPERANDS and clip is None:
            path = (path[0] if path else op.start, op.end)
        elif op.operator in _CLIPS and path is not None and clip is None:
            clip = op.operator
        elif op.operator in PAINTS and path is not None and clip is not None:
            outline = data[path[0] : path[1]]
            out.append(data[cursor : path[0]])
            out.append(b"%s %s %s %s n" % (outline, op.operator, outline, clip))
            cursor = op.end
            path, clip = None, None
        else:
            path, clip = None, None
    out.append(data[cursor:])
    return b"".join(out)
