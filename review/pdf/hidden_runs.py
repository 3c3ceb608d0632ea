"""Which boxes cut hidden glyphs and no glyph a reader sees (Django-free).

Sanitize cuts hidden glyphs by redacting boxes, text only. A box is safe when it meets
no seen glyph as MuPDF's redaction measures glyphs; `hidden_runs` makes the boxes as
few as that allows, since MuPDF checks every glyph of the page against every box.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

from review.pdf.geometry import BoxGrid, around, intersects
from review.pdf.glyph_keys import char_key
from review.pdf.hidden import OUTSIDE_CROP_BOX, HiddenGlyph, PageAnalysis, Quad


@dataclass(frozen=True)
class Seen:
    """The glyphs a reader sees, by span: the span's reach and each glyph's boxes, as
    traced and as the redaction measures it (`glyph_keys.redaction_boxes`); and the
    reaches by where they lie, so a box is checked against the spans near it only (a
    county's report draws its whole sheet on each of 122 pages, 31,000 glyphs beyond
    each crop box, and checking each against every span took sanitize minutes)."""

    spans: list[tuple[Quad, list[Quad]]]
    grid: BoxGrid
    extent: Quad  # around every reach


def seen_glyphs(analysis: PageAnalysis, measured: dict[tuple[str, int, int], Quad]) -> Seen:
    """The reach is of the seen glyphs alone: a span's box also holds its hidden ones
    (a form field's long text drawn far above and below the page, PDFBox's
    AcroFormsBasicFields.pdf), and every hidden glyph would be checked against all."""
    spans = []
    for span in analysis.visible:
        boxes = [box for c in span.chars for box in (c[3], measured.get(char_key(c), c[3]))]
        if boxes:
            spans.append((functools.reduce(_union, boxes), boxes))
    reaches = [reach for reach, _ in spans]
    extent = around(reaches) if reaches else (0.0, 0.0, 0.0, 0.0)
    return Seen(spans, BoxGrid.over(reaches), extent)


def cuts_seen(seen: Seen, rect: Quad) -> bool:
    """Whether a redaction of `rect` would cut a glyph a reader sees. MuPDF cuts a glyph
    when the redaction meets its box shrunk by a tenth of its width and height on each
    side (`_cuts`), so neighbours whose boxes touch or overlap a little (float noise,
    kerning: "s" and "." in pdf.js's annotation-text-widget.pdf) are cut apart."""
    if not seen.spans or not intersects(rect, seen.extent):
        return False
    for index in seen.grid.near(rect):
        reach, boxes = seen.spans[index]
        if not intersects(rect, reach):
            continue
        if any(_cuts(rect, box) for box in boxes):
            return True
    return False


def _cuts(rect: Quad, box: Quad) -> bool:
    x0, y0, x1, y1 = box
    dx, dy = (x1 - x0) / 10, (y1 - y0) / 10
    return intersects(rect, (x0 + dx, y0 + dy, x1 - dx, y1 - dy))


def redaction_rect(glyph: HiddenGlyph, measured: dict[tuple[str, int, int], Quad]) -> Quad:
    """A box whose redaction takes `glyph`: its traced box, or, where that misses the
    box MuPDF's redaction measures it by (`glyph_keys.redaction_boxes`), that box. A
    Type 3 digit set at 1 point on a line running down the page, in a font whose matrix
    draws it six points across the line, is measured beside its traced box: the box of
    each clipped "8" of a form's guide digits took the "8" of the line before, and the
    last stayed (Iowa's ia_scr_4562a.pdf, refused as unseen content)."""
    if glyph.origin is None or not glyph.text:
        return glyph.rect
    box = measured.get(char_key((ord(glyph.text[0]), 0, glyph.origin)))
    return glyph.rect if box is None or _cuts(glyph.rect, box) else box


def hidden_runs(seen: Seen, hidden: list[HiddenGlyph]) -> Iterator[Quad]:
    """One box per run of `hidden` glyphs of one kind on one line, or on any lines
    beyond the crop box, where nothing is seen (a form field's 145,000 characters
    scrolled out of sight took minutes to cut a line at a time). No box may cut a glyph
    a reader sees: a run ends before a box that would."""
    run: Quad | None = None
    kind = ""
    for glyph in hidden:
        if (
            run is not None
            and glyph.kind == kind
            and (kind == OUTSIDE_CROP_BOX or _same_line(run, glyph.rect))
        ):
            merged = _union(run, glyph.rect)
            if not cuts_seen(seen, merged):
                run = merged
                continue
        if run is not None:
            yield run
        run, kind = glyph.rect, glyph.kind
    if run is not None:
        yield run


def _same_line(a: Quad, b: Quad) -> bool:
    """The boxes share at least half the height of the shorter one."""
    shared = min(a[3], b[3]) - max(a[1], b[1])
    return shared >= 0.5 * min(a[3] - a[1], b[3] - b[1])


def _union(a: Quad, b: Quad) -> Quad:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
