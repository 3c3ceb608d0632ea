"""What one fill of upright rectangles paints (`geometry.painted_rectangles`)."""

from __future__ import annotations

from review.pdf.geometry import painted_rectangles


def _area(rects: list[tuple[float, float, float, float]]) -> float:
    return sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in rects)


def test_rectangles_drawn_the_same_way_round_paint_their_union() -> None:
    painted = painted_rectangles([(0, 0, 10, 10), (5, 5, 15, 15)], even_odd=False, windings=[1, 1])

    assert _area(painted) == 175


def test_a_rectangle_drawn_the_other_way_round_inside_another_is_a_hole() -> None:
    painted = painted_rectangles([(0, 0, 10, 10), (2, 2, 8, 8)], even_odd=False, windings=[1, -1])

    assert _area(painted) == 64
    assert not any(x0 < 5 < x1 and y0 < 5 < y1 for x0, y0, x1, y1 in painted)


def test_four_nested_rectangles_drawn_alternately_paint_two_frames() -> None:
    nested = [(0, 0, 20, 20), (1, 1, 19, 19), (2, 2, 18, 18), (3, 3, 17, 17)]

    painted = painted_rectangles(nested, even_odd=False, windings=[-1, 1, -1, 1])

    assert _area(painted) == (400 - 324) + (256 - 196)
    assert not any(x0 <= 1.5 <= x1 and y0 <= 10 <= y1 for x0, y0, x1, y1 in painted)
    assert not any(x0 <= 10 <= x1 and y0 <= 10 <= y1 for x0, y0, x1, y1 in painted)


def test_rectangles_that_cancel_out_exactly_paint_nothing() -> None:
    assert (
        painted_rectangles([(0, 0, 10, 10), (0, 0, 10, 10)], even_odd=False, windings=[1, -1]) == []
    )
