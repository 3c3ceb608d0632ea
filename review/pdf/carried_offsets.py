"""Text offsets carried over a change of font size, spelled out for MuPDF's content
filter (Django-free).

A number in a "TJ" array moves the text on by thousandths of the font size in force.
MuPDF 1.28's content filter, which every redaction runs, holds back the numbers after a
"TJ"'s last string (and a "TJ" of numbers alone), and writes them before the next text
it shows, measured in the size in force *there*. Where the size changed in between, the
text after it moved: UniDoc's styled paragraphs write each space as "[-278] TJ" before
the next word's font, and a word set at 14 points after one at 10 landed 1.1 points
right in the release (ten of UniDoc's seventy example files refused by the gate as
`text_moved`, with nothing redacted on the line). `offsets_carried_forward` moves such
trailing numbers into the next text shown, in its size (and horizontal scaling), where
the filter writes them as they are. A move ("Td", "Tm", "T*", a new text object) ends
the line's offsets: they move nothing after it.

Not repaired here: a removed glyph's width, which the filter carries the same way (the
gate refuses what it moves).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

from review.pdf import empty_clips

# A number right before the end of a "TJ" array: where there may be work.
CARRIED_OFFSET = re.compile(rb"[0-9.][\x00\t\n\f\r ]*\][\x00\t\n\f\r ]*TJ(?![A-Za-z*'\"])")
_ENDS_LINE = (b"BT", b"ET", b"Td", b"TD", b"Tm", b"T*", b"'", b'"')


class Operation(empty_clips.Operation, Protocol):
    """An operation of a content stream with its operands, as `content_tokens.operations`
    reads it."""

    @property
    def operands(self) -> list[bytes]: ...


class _Show:
    """A "Tj" or "TJ" as elements (strings and numbers) that may be rewritten."""

    def __init__(self, op: Operation, elements: list[bytes]) -> None:
        self.op = op
        self.elements = elements
        self.changed = False

    def trailing(self) -> int:
        """How many numbers end the elements."""
        count = 0
        for element in reversed(self.elements):
            if _is_string(element):
                break
            count += 1
        return count

    def written(self) -> bytes:
        return b"[" + b" ".join(self.elements) + b"] TJ" if self.elements else b" "


def offsets_carried_forward(data: bytes, ops: Iterable[Operation]) -> bytes:
    """`data` with the numbers that end a text show, and the shows of numbers alone,
    moved into the next text shown on the line where the font size or horizontal scaling
    changed in between, scaled to it. `ops`: the operations of `data`, as
    `content_tokens.operations` reads them."""
    size: float | None = None  # unknown until set here: a form or a later stream inherits
    horizontal = 1.0
    saved: list[tuple[float | None, float]] = []
    pending: list[tuple[_Show, int, float | None]] = []  # (show, trailing numbers, scale)
    rewritten: list[_Show] = []
    for op in ops:
        operator = op.operator
        if operator == b"Tf" and len(op.operands) == 2:
            size = _float(op.operands[1])
        elif operator == b"Tz" and len(op.operands) == 1:
            scaling = _float(op.operands[0])
            horizontal = 1.0 if scaling is None else scaling / 100
        elif operator == b"q":
            saved.append((size, horizontal))
        elif operator == b"Q":
            size, horizontal = saved.pop() if saved else (None, 1.0)
        elif operator in _ENDS_LINE:
            pending = []
        elif operator in (b"Tj", b"TJ"):
            show = _show(op)
            if show is None:
                pending = []
                continue
            scale = size * horizontal if size is not None else None
            if len(show.elements) == show.trailing():
                pending.append((show, len(show.elements), scale))
                continue
            if any(then != scale for _, _, then in pending):
                _carry(pending, show, scale)
                rewritten.extend(holder for holder, _, _ in pending)
                rewritten.append(show)
            pending = [(show, show.trailing(), scale)] if show.trailing() else []
    out: list[bytes] = []
    cursor = 0
    for show in sorted({id(s): s for s in rewritten if s.changed}.values(), key=_place):
        out.append(data[cursor : show.op.start] + show.written())
        cursor = show.op.end
    out.append(data[cursor:])
    return b"".join(out)


def _carry(
    pending: list[tuple[_Show, int, float | None]], show: _Show, scale: float | None
) -> None:
    """Move the `pending` trailing numbers to the front of `show`, shown at `scale`;
    nothing where a scale is unknown or zero (the filter's reading is kept)."""
    if not scale or any(not then for _, _, then in pending):
        return
    carried = 0.0
    for holder, count, then in pending:
        numbers = [_float(n) for n in holder.elements[len(holder.elements) - count :]]
        if any(n is None for n in numbers) or then is None:
            return
        carried += sum(n for n in numbers if n is not None) * then / scale
    for holder, count, _ in pending:
        del holder.elements[len(holder.elements) - count :]
        holder.changed = True
    show.elements.insert(0, (b"%.4f" % carried).rstrip(b"0").rstrip(b".") or b"0")
    show.changed = True


def _show(op: Operation) -> _Show | None:
    operands = op.operands
    if op.operator == b"Tj":
        return _Show(op, list(operands)) if len(operands) == 1 else None
    if len(operands) < 2 or operands[0] != b"[" or operands[-1] != b"]":
        return None
    elements = operands[1:-1]
    if not all(_is_string(e) or _float(e) is not None for e in elements):
        return None
    return _Show(op, list(elements))


def _place(show: _Show) -> int:
    return show.op.start


def _is_string(element: bytes) -> bool:
    return element[:1] in (b"(", b"<")


def _float(word: bytes) -> float | None:
    try:
        return float(word)
    except ValueError:
        return None
