"""What a clipping path that is no rectangle lets through (Django-free).

`PaintLog` bounds what each painting operation reaches by its clips' boxes, and
`Painters` takes an opaque image or fill as covering whatever lies under that box. A clip
that is no rectangle lets less through than its box: an Office chart draws each bar's
picture through the bar's outline, then a picture of its border through a thin frame
whose box is the whole bar. Taken as covering the bar, the bar's picture was cut as
hidden and the release lost the chart's bars (PyMuPDF's chelsea_pdta.pdf). A `ClipShape`
keeps such a clip's outline, its curves flattened, to ask whether it lets a box through;
a clip to glyphs or to a stroke (`UnreadOutlines`) lets no box through whole.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from pymupdf import mupdf

from review.pdf.geometry import Quad

Point = tuple[float, float]
Edge = tuple[Point, Point]
# Straight pieces a curve is flattened into.
CURVE_PIECES = 8
# Within this many points of an edge, whether a point is inside is left open.
EDGE_PT = 0.5


class ClipShape:
    """A clipping path as drawn, walked for its outline only when first asked: most
    pages never ask, and some draw thousands of clips."""

    def __init__(self, path: mupdf.fz_path, ctm: mupdf.fz_matrix, even_odd: bool) -> None:
        self._path = mupdf.FzPath(mupdf.ll_fz_keep_path(path))
        self._ctm = mupdf.FzMatrix(ctm)
        self.even_odd = bool(even_odd)

    @functools.cached_property
    def edges(self) -> tuple[Edge, ...]:
        """Its outlines in page space, each subpath closed."""
        walker = _Outlines(self._ctm)
        mupdf.fz_walk_path(self._path, walker, walker.m_internal)
        walker.close()
        return tuple(walker.edges)

    def lets_through(self, rect: Quad) -> bool:
        """The clip lets `rect` through, judged at its corners (a hundredth of its size
        inside) and centre; a point on the clip's edge counts as let through."""
        x0, y0, x1, y1 = rect
        dx, dy = (x1 - x0) / 100, (y1 - y0) / 100
        points = [
            (x0 + dx, y0 + dy),
            (x1 - dx, y0 + dy),
            (x1 - dx, y1 - dy),
            (x0 + dx, y1 - dy),
            ((x0 + x1) / 2, (y0 + y1) / 2),
        ]
        return all(holds(self.edges, self.even_odd, point) is not False for point in points)


def clips_hold(clips: Sequence[Clip], point: Point) -> bool | None:
    """Whether paint through `clips` reaches `point`: False where one of them keeps it
    out, None where one is not read (text outlines) or the point lies on an edge."""
    found: bool | None = True
    for clip in clips:
        inside = holds(clip.edges, clip.even_odd, point) if isinstance(clip, ClipShape) else None
        if inside is False:
            return False
        if inside is None:
            found = None
    return found


def holds(edges: tuple[Edge, ...] | list[Edge], even_odd: bool, point: Point) -> bool | None:
    """Whether the closed outlines `edges` hold `point` by the even-odd or the nonzero
    winding rule; None for a point on an edge."""
    x, y = point
    crossings = winding = 0
    for a, b in edges:
        # Only a point within an edge's box, grown by `EDGE_PT`, may lie that near it.
        if (
            min(a[0], b[0]) - EDGE_PT < x < max(a[0], b[0]) + EDGE_PT
            and min(a[1], b[1]) - EDGE_PT < y < max(a[1], b[1]) + EDGE_PT
            and segment_distance(point, a, b) < EDGE_PT
        ):
            return None
        if (a[1] <= y) != (b[1] <= y) and a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1]) > x:
            crossings += 1
            winding += 1 if b[1] > a[1] else -1
    return crossings % 2 == 1 if even_odd else winding != 0


def segment_distance(point: Point, a: Point, b: Point) -> float:
    """From `point` to the segment from `a` to `b`."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else ((point[0] - a[0]) * dx + (point[1] - a[1]) * dy) / length
    t = min(1.0, max(0.0, t))
    return math.hypot(point[0] - a[0] - t * dx, point[1] - a[1] - t * dy)


class UnreadOutlines:
    """A clip to glyphs (text in render modes 4 to 7) or to a stroke, whose outlines are
    not read: what is painted through it is taken to cover no box whole. A heading
    outlined with a gradient (a shading pattern stroked round its letters) over the same
    letters filled in black: the gradient paints a band round each letter, and the
    black inside shows; taken as covered, the black letters were cut (pdf.js's
    issue20513.pdf)."""

    def lets_through(self, rect: Quad) -> bool:
        return False


Clip = ClipShape | UnreadOutlines


class _Outlines(mupdf.FzPathWalker2):
    """Collects a path's sides, transformed, each subpath closed (a clip fills it)."""

    def __init__(self, ctm: mupdf.FzMatrix) -> None:
        super().__init__()
        for name in ("moveto", "lineto", "curveto", "closepath"):
            getattr(self, "use_virtual_" + name)()
        self._matrix = (ctm.a, ctm.b, ctm.c, ctm.d, ctm.e, ctm.f)
        self.edges: list[Edge] = []
        self._start: Point | None = None
        self._at = self._start_at = (0.0, 0.0)  # in the path's own space
        self._drawn: Point = (0.0, 0.0)  # the same point in page space

    def _page(self, x: float, y: float) -> Point:
        a, b, c, d, e, f = self._matrix
        return (a * x + c * y + e, b * x + d * y + f)

    def close(self) -> None:
        if self._start is not None and self._drawn != self._start:
            self.edges.append((self._drawn, self._start))
        self._start = None

    def moveto(self, ctx: object, x: float, y: float) -> None:
        self.close()
        self._at = self._start_at = (x, y)
        self._drawn = self._start = self._page(x, y)

    def lineto(self, ctx: object, x: float, y: float) -> None:
        point = self._page(x, y)
        self.edges.append((self._drawn, point))
        self._at, self._drawn = (x, y), point

    def curveto(  # noqa: PLR0913 - MuPDF's callback
        self, ctx: object, x1: float, y1: float, x2: float, y2: float, x3: float, y3: float
    ) -> None:
        (x0, y0) = self._at
        for step in range(1, CURVE_PIECES + 1):
            t = step / CURVE_PIECES
            s = 1 - t
            x = s**3 * x0 + 3 * s * s * t * x1 + 3 * s * t * t * x2 + t**3 * x3
            y = s**3 * y0 + 3 * s * s * t * y1 + 3 * s * t * t * y2 + t**3 * y3
            self.lineto(ctx, x, y)

    def closepath(self, ctx: object) -> None:
        start = self._start
        self.close()
        if start is not None:  # the pen stays at the subpath's start
            self._drawn = self._start = start
            self._at = self._start_at
