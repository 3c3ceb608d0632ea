"""The legal reason written on each black box (Django-free)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import pymupdf

from review.pdf.geometry import Box, display_rect

WHITE = (1.0, 1.0, 1.0)
STAMP_FONT = "helv"
STAMP_MAX_SIZE = 8.0
# Below this the stamp is unreadable on screen and in print; keep the fill only.
STAMP_MIN_SIZE = 3.0


class Marked(Protocol):
    """What a stamp needs of a redaction mark (`redact.RedactionMark`)."""

    @property
    def box(self) -> Box: ...

    @property
    def legal_reason(self) -> str: ...


def stamps_by_box(
    marks: Sequence[Marked], rects: Sequence[pymupdf.Rect]
) -> dict[Box, tuple[pymupdf.Rect, list[str]]]:
    """One stamp per box, naming each of its reasons once: marks on the same box (a name
    that two detectors found) would otherwise print their stamps over each other, which
    reads as one garbled word such as "(b)(6)(b)(6)"."""
    stamps: dict[Box, tuple[pymupdf.Rect, list[str]]] = {}
    for mark, rect in zip(marks, rects, strict=True):
        _, reasons = stamps.setdefault(mark.box, (rect, []))
        reason = mark.legal_reason.strip()
        if reason and reason not in reasons:
            reasons.append(reason)
    return stamps


def stamp(
    page: pymupdf.Page, shape: pymupdf.Shape, rect: pymupdf.Rect, box: Box, reason: str
) -> None:
    """Write the legal reason in white, upright as the page is displayed.

    `insert_textbox` works in unrotated space; `rotate=page.rotation` makes the text
    upright on screen. A box that is taller than wide on screen gets the text turned a
    further 90 degrees, so it runs along the box's long side.
    """
    if not reason or rect.is_empty:
        return
    shown = display_rect(page, box)
    upright = shown.width >= shown.height
    along, across = (shown.width, shown.height) if upright else (shown.height, shown.width)
    rotate = page.rotation % 360 if upright else (page.rotation + 90) % 360
    # One line: the reason must fit the long side with a margin, and the line height
    # (about 1.2 x size in insert_textbox) the short side.
    per_point = pymupdf.get_text_length(reason, fontname=STAMP_FONT, fontsize=1.0)
    size = min(STAMP_MAX_SIZE, (along - 2.0) / per_point, across / 1.25)
    while size >= STAMP_MIN_SIZE:
        # A negative result means it did not fit and nothing was written.
        written = shape.insert_textbox(
            rect, reason, fontname=STAMP_FONT, fontsize=size, color=WHITE, align=1, rotate=rotate
        )
        if written >= 0:
            return
        size -= 0.5
