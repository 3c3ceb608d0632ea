"""Where an image drawn through its own soft mask (/SMask) paints (Django-free).

Such an image paints only where its mask lets it through, so it covers no text; but
where the mask is opaque it is what lies behind the text on it. Read as painting
nowhere, white words on a photograph a PNG's transparency cut out were judged against
the white page, found white on white and cut from the release (a sustainability
report's footer on its cover picture, Unstructured's chevron-page.pdf). Here the mask
itself is read, at the point asked about.
"""

from __future__ import annotations

import pymupdf

from review.pdf.clip_shapes import Point
from review.pdf.geometry import Quad, quad, rounded
from review.pdf.render import MUPDF_ERRORS

# A mask at least this opaque lets the image show: the colour behind text there is
# the image's, which is not read.
SHOWS_FROM = 0.25


def image_placements(page: pymupdf.Page) -> list[dict]:
    """The page's `get_image_info`, with each image's xref where every image of the page
    loads; without (xref 0 each) where one does not (a broken JPEG 2000 stream, PyMuPDF's
    test_2904.pdf, which MuPDF draws without it): detection stopped there."""
    try:
        return page.get_image_info(xrefs=True)  # loads each image for its xref
    except MUPDF_ERRORS:
        return page.get_image_info()


class SoftMasks:
    """The soft masks of a page's images by where each image is placed (its box
    rounded, as the paint log has it), each decoded when first asked about."""

    def __init__(self, doc: pymupdf.Document, images: list[dict]) -> None:
        """`images`: the page's `image_placements`."""
        self._doc = doc
        self._placed: dict[Quad, tuple[int, pymupdf.Matrix]] = {}
        for info in images:
            mask = _soft_mask(doc, info.get("xref", 0)) if info.get("has-mask") else 0
            if mask:
                self._placed[rounded(quad(info["bbox"]))] = (
                    mask,
                    ~pymupdf.Matrix(info["transform"]),
                )
        self._alphas: dict[int, pymupdf.Pixmap | None] = {}

    def shows(self, box: Quad, point: Point) -> bool:
        """Whether the image placed at `box` paints at `point`: its soft mask is opaque
        enough there. False for an image whose mask is not a soft mask read here (an
        inline image's, a stencil, colour keys): it is taken to paint nowhere, and the
        text on it is judged against what lies under it, as before this was read."""
        placed = self._placed.get(rounded(box))
        if placed is None:
            return False
        mask, to_unit = placed
        alpha = self._alpha(mask)
        if alpha is None:
            return False
        # The image fills the unit square, its first row at the top.
        unit = pymupdf.Point(point) * to_unit
        if not (0 <= unit.x <= 1 and 0 <= unit.y <= 1):
            return False
        column = min(alpha.width - 1, int(unit.x * alpha.width))
        row = min(alpha.height - 1, int(unit.y * alpha.height))
        return alpha.pixel(column, row)[0] >= SHOWS_FROM * 255

    def _alpha(self, mask: int) -> pymupdf.Pixmap | None:
        if mask not in self._alphas:
            try:
                pixmap = pymupdf.Pixmap(self._doc, mask)
                if pixmap.n != 1 or pixmap.alpha:
                    pixmap = pymupdf.Pixmap(pymupdf.csGRAY, pixmap)
            except MUPDF_ERRORS:
                pixmap = None  # a mask MuPDF cannot decode: taken to paint nowhere
            self._alphas[mask] = pixmap
        return self._alphas[mask]


def _soft_mask(doc: pymupdf.Document, xref: int) -> int:
    """The object number of the soft mask image `xref` is drawn through, or 0."""
    if xref <= 0:
        return 0
    kind, value = doc.xref_get_key(xref, "SMask")
    if kind != "xref":
        return 0
    return int(value.split()[0])
