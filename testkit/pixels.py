"""What a burn-in changed on a page away from its box, for burn-in tests (Django-free)."""

from __future__ import annotations

import numpy as np
import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

DPI = 144


def grey(pdf: bytes) -> np.ndarray:
    """Page 1 drawn in grey at `DPI`."""
    pixmap = pymupdf.open(stream=pdf, filetype="pdf")[0].get_pixmap(
        dpi=DPI, colorspace=pymupdf.csGRAY, alpha=False
    )
    return np.frombuffer(pixmap.samples, np.uint8).reshape(pixmap.height, pixmap.width)


def changed_beside_a_mark(pdf: bytes, word: str, *, by: int = 96) -> tuple[int, bool]:
    """A mark on `word` (page 1) burned in and sanitized: how many pixels outside its
    box changed by more than `by` grey levels (a third of black), and whether the
    release passes the gate."""
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(next(w[:4] for w in page.get_text("words") if w[4] == word))
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")
    output = sanitize(burn_in(pdf, [mark]))

    changed = np.abs(grey(pdf).astype(int) - grey(output)) > by
    scale = DPI / 72
    changed[
        int(box.y0 * scale) - 3 : int(box.y1 * scale) + 4,
        int(box.x0 * scale) - 3 : int(box.x1 * scale) + 4,
    ] = False
    return int(changed.sum()), verify(pdf, output, [mark]).ok
