"""`user_space.comes_near` lets the burn-in pass over a drawing's paths that lie far from
every box before bringing the boxes into each path's space. A path it passed over that
the full test would have cut would keep ink under a box: it must never say "far" where
the boxes brought into the path's space meet it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from review.pdf.user_space import GAP, Matrix, Rect, boxes_in, comes_near, meets_any

number = st.floats(-2000, 2000, allow_nan=False)
scale = st.sampled_from([0.12, 0.5, 1.0, 2.0, 8.33333]) | st.floats(0.01, 50)


@st.composite
def rects(draw: st.DrawFn) -> Rect:
    x0, x1 = sorted((draw(number), draw(number)))
    y0, y1 = sorted((draw(number), draw(number)))
    return (x0, y0, x1, y1)


@st.composite
def axis_keeping(draw: st.DrawFn) -> Matrix:
    """A transformation that keeps the axes, perhaps swapping them (a quarter turn),
    perhaps flipping them, as drawings use."""
    sx = draw(scale) * draw(st.sampled_from([1, -1]))
    sy = draw(scale) * draw(st.sampled_from([1, -1]))
    e, f = draw(number), draw(number)
    if draw(st.booleans()):
        return (0.0, sx, sy, 0.0, e, f)
    return (sx, 0.0, 0.0, sy, e, f)


@settings(max_examples=300, deadline=None)
@given(rects(), axis_keeping(), st.floats(0, 40), st.lists(rects(), min_size=1, max_size=12))
def test_a_path_the_boxes_reach_is_never_passed_over(
    path: Rect, ctm: Matrix, reach: float, boxes: list[Rect]
) -> None:
    if meets_any(path, boxes_in(boxes, ctm, 0.0, page_reach=reach)):
        assert comes_near(path, ctm, 2 * GAP + reach, boxes)
