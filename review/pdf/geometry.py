"""Mark boxes: normalized (0-1) on the unrotated page, and back.

PyMuPDF reports words and takes annotation rectangles in *unrotated* page space,
measured from the top-left of the crop box. A mark stores that space divided by the
crop box size, so the same box survives any /Rotate and any non-zero crop origin.
Drawing on a rendered page image needs the rotated space: use `display_rect`.
Every conversion between these spaces lives in this module.

The hidden-content analysis (`hidden`, `paintlog`) works in unrotated page space in
points, on boxes as plain `Quad` tuples (x0, y0, x1, y1); their arithmetic is at the end
of this module.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple

import pymupdf

from review.pdf.misplaced_objects import open_settled


class Box(NamedTuple):
    x0: float
    y0: float
    x1: float
    y1: float


def _clamp(value: float) -> float:
    return min(1.0, max(0.0, value))


def normalize(page: pymupdf.Page, rect: pymupdf.Rect) -> Box:
    """Unrotated page rectangle -> normalized box, clamped to the page."""
    width, height = page.cropbox.width, page.cropbox.height
    return Box(
        _clamp(rect.x0 / width),
        _clamp(rect.y0 / height),
        _clamp(rect.x1 / width),
        _clamp(rect.y1 / height),
    )


def page_rect(page: pymupdf.Page, box: Box) -> pymupdf.Rect:
    """Normalized box -> unrotated page rectangle (for get_text clips and annotations)."""
    width, height = page.cropbox.width, page.cropbox.height
    return pymupdf.Rect(box[0] * width, box[1] * height, box[2] * width, box[3] * height)


def display_rect(page: pymupdf.Page, box: Box) -> pymupdf.Rect:
    """Normalized box -> rectangle on the page as shown (rotation applied), in points."""
    return page_rect(page, box) * page.rotation_matrix


def pdf_to_page(page: pymupdf.Page) -> pymupdf.Matrix:
    """The PDF's default user space (content streams, /Rect arrays) -> unrotated page
    space. PyMuPDF's `transformation_matrix` leaves the crop box's origin out on a
    rotated page."""
    ctm, mediabox = pymupdf.mupdf.FzMatrix(), pymupdf.mupdf.FzRect()
    pymupdf.mupdf.pdf_page_transform(pymupdf.mupdf.pdf_page_from_fz_page(page.this), mediabox, ctm)
    return pymupdf.Matrix(ctm.a, ctm.b, ctm.c, ctm.d, ctm.e, ctm.f) * page.derotation_matrix


def box_from_display(
    page: pymupdf.Page, left: float, top: float, right: float, bottom: float
) -> Box:
    """Fractions of the page as shown (rotation applied) -> normalized unrotated box."""
    width, height = page.rect.width, page.rect.height
    shown = pymupdf.Rect(left * width, top * height, right * width, bottom * height)
    return normalize(page, shown * page.derotation_matrix)


class PageGeometry(NamedTuple):
    """A page as shown (rotation applied), in points."""

    number: int
    width: float
    height: float


class ShownBox(NamedTuple):
    """A box on the page as shown, as fractions of the shown page's width and height."""

    left: float
    top: float
    width: float
    height: float


def shown_layout(
    pdf: bytes, boxes: Sequence[tuple[int, Box]]
) -> tuple[list[PageGeometry], list[ShownBox]]:
    """Every page's shown size, and each (page, normalized box) as it appears on it."""
    with open_settled(pdf) as doc:
        pages = [PageGeometry(page.number, page.rect.width, page.rect.height) for page in doc]
        shown = []
        for number, box in boxes:
            page = doc[number]
            rect = display_rect(page, box)
            width, height = page.rect.width, page.rect.height
            shown.append(
                ShownBox(
                    rect.x0 / width, rect.y0 / height, rect.width / width, rect.height / height
                )
            )
    return pages, shown


def boxes_from_shown(pdf: bytes, shown: Sequence[tuple[int, ShownBox]]) -> list[Box]:
    """Each (page, box drawn on the page as shown) as a normalized box on the unrotated
    page. Pages must exist."""
    with open_settled(pdf) as doc:
        return [
            box_from_display(
                doc[number], box.left, box.top, box.left + box.width, box.top + box.height
            )
            for number, box in shown
        ]


# Boxes in unrotated page space, in points.
Quad = tuple[float, float, float, float]
UNBOUNDED: Quad = (-math.inf, -math.inf, math.inf, math.inf)


def quad(rect: Sequence[float] | pymupdf.Rect) -> Quad:
    return (float(rect[0]), float(rect[1]), float(rect[2]), float(rect[3]))


def rounded(rect: Quad) -> tuple[int, int, int, int]:
    return (round(rect[0]), round(rect[1]), round(rect[2]), round(rect[3]))


def area_of(rect: Quad) -> float:
    return max(0.0, rect[2] - rect[0]) * max(0.0, rect[3] - rect[1])


def flat_along(rect: Quad, direction: Sequence[float]) -> bool:
    """Whether a glyph whose upright box is `rect`, on a line running along `direction`
    (cosine, sine), has no width along the line: the second letter of a ligature
    ("fi"), which the trace gives a line across the glyph's start. On a turned line
    that line's box is as wide as the glyph is tall times the sine (Tika's
    testPDF_angles.pdf: 0.8 points); near 45 degrees no box tells, and none counts."""
    cos, sin = abs(direction[0]), abs(direction[1])
    if abs(cos * cos - sin * sin) < 0.5:
        return False
    width, height = rect[2] - rect[0], rect[3] - rect[1]
    # An upright box is width*cos + height*sin wide, width*sin + height*cos tall.
    return abs((width * cos - height * sin) / (cos * cos - sin * sin)) < 0.05


def overlap(a: Quad, b: Quad) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def clamp_to(a: Quad, b: Quad) -> Quad:
    """The part of `a` inside `b`: a box of no area where they do not meet."""
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    return (x0, y0, max(x0, min(a[2], b[2])), max(y0, min(a[3], b[3])))


def within(a: Quad, b: Quad) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


def intersects(a: Quad, b: Quad) -> bool:
    return a[0] < b[2] and a[2] > b[0] and a[1] < b[3] and a[3] > b[1]


def around(rects: Sequence[Quad]) -> Quad:
    """The box around `rects` (at least one)."""
    return (
        min(r[0] for r in rects),
        min(r[1] for r in rects),
        max(r[2] for r in rects),
        max(r[3] for r in rects),
    )


def centre(rect: Quad) -> tuple[float, float]:
    return ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)


def contains_point(rect: Quad, point: tuple[float, float]) -> bool:
    return rect[0] <= point[0] <= rect[2] and rect[1] <= point[1] <= rect[3]


def minus(rect: Quad, box: Quad, *, columns: bool = False) -> list[Quad]:
    """`rect` without `box`: up to four rectangles, the rows below and above the box
    and the two beside it; or (`columns`) the columns left and right of the box and the
    two below and above it."""
    if not intersects(rect, box):
        return [rect]
    x0, y0, x1, y1 = rect
    bx0, by0, bx1, by1 = box
    if columns:
        parts = [
            (x0, y0, bx0, y1),
            (bx1, y0, x1, y1),
            (max(x0, bx0), y0, min(x1, bx1), by0),
            (max(x0, bx0), by1, min(x1, bx1), y1),
        ]
    else:
        parts = [
            (x0, y0, x1, by0),
            (x0, by1, x1, y1),
            (x0, max(y0, by0), bx0, min(y1, by1)),
            (bx1, max(y0, by0), x1, min(y1, by1)),
        ]
    return [part for part in parts if part[2] > part[0] and part[3] > part[1]]


def painted_rectangles(
    rects: Sequence[Quad], *, even_odd: bool, windings: Sequence[int] = ()
) -> list[Quad]:
    """What one fill of upright rectangles paints, as disjoint rectangles: the places an
    odd number of them cover by the even-odd rule; by the nonzero rule their union, or,
    where they are drawn both ways round (`windings`, +1 or -1 each), the places their
    windings do not cancel: a double frame drawn as four nested rectangles, every other
    one the other way round, painted a whole panel dark blue over its text (an invoice
    in pdfparser's samples, Issue668.pdf)."""
    if not even_odd and len(set(windings)) > 1:
        return _wound(rects, windings)
    painted: list[Quad] = []
    for rect in rects:
        news = [rect]
        for old in painted:
            news = [part for new in news for part in minus(new, old)]
        if even_odd:
            painted = [part for old in painted for part in minus(old, rect)]
        painted.extend(news)
    return painted


def _wound(rects: Sequence[Quad], windings: Sequence[int]) -> list[Quad]:
    """Where the rectangles' windings sum to other than 0, as disjoint rectangles: in
    each band between two of their vertical edges, the runs along y where the sum is not
    0, then the runs of neighbouring bands alike joined."""
    xs = sorted({v for rect in rects for v in (rect[0], rect[2])})
    runs: list[Quad] = []
    for x0, x1 in itertools.pairwise(xs):
        middle = (x0 + x1) / 2
        events = sorted(
            (y, sign * winding)
            for rect, winding in zip(rects, windings, strict=True)
            if rect[0] < middle < rect[2]
            for y, sign in ((rect[1], 1), (rect[3], -1))
        )
        total, start = 0, 0.0
        for y, group in itertools.groupby(events, key=lambda event: event[0]):
            before = total
            total += sum(change for _, change in group)
            if not before and total:
                start = y
            elif before and not total and y > start:
                runs.append((x0, start, x1, y))
    joined: list[Quad] = []
    for run in sorted(runs, key=lambda r: (r[1], r[3], r[0])):
        last = joined[-1] if joined else None
        if last is not None and (last[1], last[3], last[2]) == (run[1], run[3], run[0]):
            joined[-1] = (last[0], last[1], run[2], last[3])
        else:
            joined.append(run)
    return joined


class BoxGrid:
    """Boxes by the cells of a coarse grid over `extent` that they meet, so a query
    looks only at the boxes near it (a page of 64,000 glyphs and 1,300 fills, pdfcpu's
    GridFromPDF.pdf, took a minute checking each glyph against every fill). A box or a
    query beyond the extent falls in the edge cells, so none that meets it is missed."""

    __slots__ = ("_x0", "_y0", "_width", "_height", "_cells")

    _SIDE = 32  # cells along each side

    def __init__(self, boxes: Sequence[Quad], extent: Quad) -> None:
        self._x0, self._y0 = extent[0], extent[1]
        self._width = max(extent[2] - extent[0], 1.0) / self._SIDE
        self._height = max(extent[3] - extent[1], 1.0) / self._SIDE
        self._cells: list[list[int]] = [[] for _ in range(self._SIDE * self._SIDE)]
        for index, box in enumerate(boxes):
            for cell in self._cells_of(box):
                self._cells[cell].append(index)

    @classmethod
    def over(cls, boxes: Sequence[Quad]) -> BoxGrid:
        """A grid over the boxes' own extent (their finite coordinates)."""
        xs = [v for box in boxes for v in (box[0], box[2]) if math.isfinite(v)] or [0.0]
        ys = [v for box in boxes for v in (box[1], box[3]) if math.isfinite(v)] or [0.0]
        return cls(boxes, (min(xs), min(ys), max(xs), max(ys)))

    def near(self, rect: Quad) -> list[int]:
        """The indices, in ascending order, of the boxes that may meet `rect` (edges
        included)."""
        cells = self._cells_of(rect)
        if len(cells) == 1:
            return self._cells[cells[0]]
        return sorted({index for cell in cells for index in self._cells[cell]})

    def _cells_of(self, rect: Quad) -> list[int]:
        columns = self._span(rect[0], rect[2], self._x0, self._width)
        rows = self._span(rect[1], rect[3], self._y0, self._height)
        return [row * self._SIDE + column for row in rows for column in columns]

    def _span(self, low: float, high: float, origin: float, size: float) -> range:
        return range(self._index(low, origin, size), self._index(high, origin, size) + 1)

    def _index(self, value: float, origin: float, size: float) -> int:
        cell = (value - origin) / size
        if not cell > 0:  # NaN too
            return 0
        return int(cell) if cell < self._SIDE else self._SIDE - 1  # infinity too
