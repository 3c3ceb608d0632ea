"""`geometry.BoxGrid` hands the hidden-content analysis the shapes near a glyph instead
of all of them. A shape it left out would be a covering fill nobody checks: the glyph
under it would pass as seen and ship. Every box that meets a query must be among those
`near` returns, wherever the boxes lie, on the page or far beyond it."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from review.pdf.geometry import BoxGrid, Quad, contains_point, intersects

EXTENT: Quad = (0.0, 0.0, 612.0, 792.0)

coordinate = st.one_of(
    st.floats(-1000, 2000, allow_nan=False),
    st.sampled_from([0.0, 612.0, 792.0, -math.inf, math.inf, 19.125, 24.75]),
)


@st.composite
def boxes(draw: st.DrawFn) -> Quad:
    x0, x1 = sorted((draw(coordinate), draw(coordinate)))
    y0, y1 = sorted((draw(coordinate), draw(coordinate)))
    return (x0, y0, x1, y1)


def meets(a: Quad, b: Quad) -> bool:
    """Edges included, as `contains_point` and the covering checks count them."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


@settings(max_examples=200, deadline=None)
@given(st.lists(boxes(), max_size=40), boxes())
def test_every_box_that_meets_a_query_is_near_it(shapes: list[Quad], query: Quad) -> None:
    for grid in (BoxGrid(shapes, EXTENT), BoxGrid.over(shapes)):
        near = grid.near(query)

        assert near == sorted(set(near))
        assert {i for i, shape in enumerate(shapes) if meets(shape, query)} <= set(near)


@settings(max_examples=200, deadline=None)
@given(st.lists(boxes(), max_size=40), coordinate, coordinate)
def test_every_box_that_holds_a_point_is_near_it(shapes: list[Quad], x: float, y: float) -> None:
    near = BoxGrid(shapes, EXTENT).near((x, y, x, y))

    assert {i for i, shape in enumerate(shapes) if contains_point(shape, (x, y))} <= set(near)


def test_a_box_far_from_the_query_is_not_near_it() -> None:
    grid = BoxGrid([(0, 0, 10, 10), (500, 700, 600, 780)], EXTENT)

    assert grid.near((2, 2, 4, 4)) == [0]
    assert grid.near((550, 720, 560, 730)) == [1]
    assert not intersects((0, 0, 10, 10), (550, 720, 560, 730))
