"""Drawing one page for a reviewer, under limits. Django-free.

A page image is the only way a reviewer sees a page, so a page that cannot be drawn is
a page nobody can review: it raises `PdfUnrenderable` (a named cause and the page), never
a raw MuPDF error, and the caller takes the document out of the queue.

Limits, and why each is where it is:

- Pixels. The page is drawn at the review resolution (100 dpi) unless its pixmap would
  pass `MAX_PIXELS` (16 megapixels: an A0 drawing at 100 dpi, 48 MB as RGB); then the
  resolution is lowered to fit, but never below `MIN_LEGIBLE_DPI`, under which 10 pt
  text is a smudge. A page larger than that (a 14400 pt page is 200 inches square) is
  refused before anything is allocated: `too_large`.
- Images. An image whose decoded size passes `MAX_IMAGE_PIXELS` (150 megapixels: an A0
  scan at 300 dpi) is refused before drawing: `image_too_large`. MuPDF decodes such an
  image (a 30000 x 30000 picture is 2.7 GB of pixels in a 5 KB file) for many seconds
  even when it subsamples it.
- Form draws. Forms that draw forms can multiply: sixteen copies of one form, each
  drawing the next four times, are 4^16 draws in 6 KB, hours of drawing that MuPDF's
  cycle check does not stop. The draws a page would make, of forms and images, are
  counted from its content before drawing; more than `MAX_FORM_DRAWS` is refused:
  `too_complex`.
- MuPDF's own limits: its stack of nested objects and content (`exception stack overflow`
  for an array nested 200,000 deep), its cycle check on forms that draw themselves, its
  cap on a pixmap's size (`Overly large image`), and its object store (the default 256
  MB; `TOOLS.store_maxsize` cannot set it in this PyMuPDF, so the store is emptied after
  a failed page instead). Each of these raises; the error becomes a named cause.
- Python's recursion limit (RecursionError) and MemoryError become named causes too.
- Time and address space cannot be bounded for C code inside this process. They are
  bounded where it matters before any reviewer opens a document: detection draws every
  page with this same function in a child process under an address-space limit and a
  per-page alarm (`review.pdf.opencheck.pages_check`), and a document with a page that
  fails there never reaches a reviewer. Rendering in a child on every page request
  would cost a process start (~0.3 s) per page image; rendering here, after that check,
  costs nothing extra and still turns every failure MuPDF reports into a named cause.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict

import pymupdf

from review.pdf.misplaced_objects import open_settled

pymupdf.TOOLS.mupdf_display_errors(False)  # collected, never printed (content may show)

REVIEW_DPI = 100
MIN_LEGIBLE_DPI = 50
MAX_PIXELS = 16_000_000
MAX_IMAGE_PIXELS = 150_000_000
MAX_FORM_DRAWS = 100_000

# What a failed drawing is called: the stable causes that reasons and pages name.
TOO_LARGE = "too_large"
IMAGE_TOO_LARGE = "image_too_large"
TOO_COMPLEX = "too_complex"  # its forms would be drawn more than MAX_FORM_DRAWS times
NO_SUCH_PAGE = "page_tree"  # the page tree does not lead to this page
CONTENT = "content"  # MuPDF failed while drawing (stack overflow, limits, bad syntax)
RECURSION = "recursion"
MEMORY = "memory"
TIMEOUT = "timeout"  # the sandboxed check only
CRASHED = "crashed"  # the sandboxed check only: the child died
UNRENDERABLE_PAGE = "unrenderable_page"
# Each cause as the compliance screens say it.
CAUSE_WORDS = {
    TOO_LARGE: "the page is too large to draw legibly",
    IMAGE_TOO_LARGE: "an image on it is too large to decode",
    TOO_COMPLEX: "its drawings repeat each other too many times",
    NO_SUCH_PAGE: "the page tree does not lead to it",
    CONTENT: "its content cannot be drawn",
    RECURSION: "its content is nested too deep",
    MEMORY: "drawing it runs out of memory",
    TIMEOUT: "drawing it takes too long",
    CRASHED: "drawing it crashed the renderer",
}

# What MuPDF raises through PyMuPDF: its own error classes and, for some, RuntimeError.
# RecursionError is a RuntimeError too.
MUPDF_ERRORS: tuple[type[BaseException], ...] = (pymupdf.mupdf.FzErrorBase, RuntimeError)
_PAGE_LOAD_ERRORS: tuple[type[BaseException], ...] = (*MUPDF_ERRORS, ValueError, IndexError)


class PdfUnrenderable(Exception):
    """Page `page` (0-based) cannot be drawn for a reviewer, because of `cause`."""

    def __init__(self, page: int, cause: str) -> None:
        super().__init__(f"page {page + 1} cannot be rendered ({cause})")
        self.page = page
        self.cause = cause


def unrenderable_reason(failures: list[PdfUnrenderable]) -> str:
    """The failure reason a dead letter keeps: `unrenderable_page@p2,5:content` (pages
    1-based, the first failure's cause). Pages and a cause only, never content."""
    pages = sorted({failure.page + 1 for failure in failures})
    reason = f"{UNRENDERABLE_PAGE}@p{','.join(str(p) for p in pages)}:{failures[0].cause}"
    return reason if len(reason) <= 200 else reason[:197] + "..."


def fitted_dpi(page: pymupdf.Page, dpi: int = REVIEW_DPI) -> int:
    """The resolution `page` is drawn at: `dpi`, lowered until the pixmap fits
    MAX_PIXELS. Raises PdfUnrenderable(too_large) below MIN_LEGIBLE_DPI."""
    inches = (page.rect.width / 72) * (page.rect.height / 72)  # rotation, UserUnit applied
    if inches <= 0:
        raise PdfUnrenderable(page.number, TOO_LARGE)
    if inches * dpi * dpi <= MAX_PIXELS:
        return dpi
    fitted = math.floor(math.sqrt(MAX_PIXELS / inches))
    if fitted < min(dpi, MIN_LEGIBLE_DPI):
        raise PdfUnrenderable(page.number, TOO_LARGE)
    return fitted


def _check_images(page: pymupdf.Page) -> None:
    """Images drawn on the page, forms' included, by their declared size."""
    for image in page.get_images(full=True):
        width, height = int(image[2]), int(image[3])
        if width * height > MAX_IMAGE_PIXELS:
            raise PdfUnrenderable(page.number, IMAGE_TOO_LARGE)


_DO = re.compile(rb"/([^\s/<>\[\]()%{}]+)\s+Do\b")


def _check_form_draws(page: pymupdf.Page) -> None:
    """Count the form draws the page's content makes, forms within forms multiplied,
    from the `Do` operators of each content stream (an upper bound: a name in a string
    counts too). A form inside its own drawing counts once, as MuPDF refuses to draw it
    again; a form without resources of its own finds names in the page's."""
    doc = page.parent
    names: dict[int, dict[str, int]] = defaultdict(dict)
    for xref, name, referencer, _bbox in page.get_xobjects():
        names[referencer][name] = xref
    # Images count as draws too: a page of no form drew one pixel 700,000 times (a CSS
    # background in iText's html2pdf tests), which every later pass over the page's
    # painting pays for.
    for xref, *_, name, _filter, referencer in page.get_images(full=True):
        names[referencer][name] = xref
    if not names:
        return
    memo: dict[int, int] = {}

    def draws(holder: int, content: bytes, stack: frozenset[int]) -> int:
        total = 0
        uses = Counter(match.group(1).decode("latin-1") for match in _DO.finditer(content))
        for name, times in uses.items():
            xref = names[holder].get(name) or names[0].get(name)
            if xref is None or xref in stack:
                total += times  # an image, or a form MuPDF will not enter again
                continue
            if xref not in memo:
                memo[xref] = draws(xref, doc.xref_stream(xref) or b"", stack | {xref})
            total += times * (1 + memo[xref])
            if total > MAX_FORM_DRAWS:
                break
        return total

    if draws(0, page.read_contents(), frozenset()) > MAX_FORM_DRAWS:
        raise PdfUnrenderable(page.number, TOO_COMPLEX)


def page_pixmap(doc: pymupdf.Document, page: int, dpi: int = REVIEW_DPI) -> pymupdf.Pixmap:
    """Draw page `page` of `doc` under the limits above, or raise PdfUnrenderable."""
    try:
        loaded = doc.load_page(page)
    except _PAGE_LOAD_ERRORS as error:
        raise PdfUnrenderable(page, NO_SUCH_PAGE) from error
    try:
        _check_images(loaded)
        _check_form_draws(loaded)
        return loaded.get_pixmap(dpi=fitted_dpi(loaded, dpi), annots=True)
    except PdfUnrenderable:
        raise
    except RecursionError as error:
        raise PdfUnrenderable(page, RECURSION) from error
    except MemoryError as error:
        raise PdfUnrenderable(page, MEMORY) from error
    except MUPDF_ERRORS as error:
        pymupdf.TOOLS.store_shrink(100)  # whatever the failed page left in the store
        # The message only picks the cause; it is never kept or shown.
        memory = any(word in str(error).lower() for word in ("malloc", "out of memory"))
        raise PdfUnrenderable(page, MEMORY if memory else CONTENT) from error


def page_png(pdf: bytes | pymupdf.Document, page: int, dpi: int = REVIEW_DPI) -> bytes:
    """One page as PNG bytes (rotation applied, annotations included), under the limits."""
    doc = open_settled(pdf) if isinstance(pdf, bytes) else pdf
    try:
        if doc.needs_pass:
            raise ValueError("encrypted PDF")
        return page_pixmap(doc, page, dpi).tobytes("png")
    finally:
        if doc is not pdf:
            doc.close()


def notice_png(lines: list[str], *, width: int = 612, height: int = 200) -> bytes:
    """A plain picture of a few lines of text: what a page image request answers when
    the page cannot be drawn (an <img> shows pictures, not error pages). No content."""
    doc = pymupdf.open()
    try:
        sheet = doc.new_page(width=width, height=height)
        sheet.draw_rect(sheet.rect, color=(0.6, 0.1, 0.1), fill=(1.0, 0.96, 0.94), width=3)
        for number, line in enumerate(lines):
            sheet.insert_text((24, 44 + 24 * number), line, fontsize=13 if number else 15)
        return sheet.get_pixmap(dpi=REVIEW_DPI).tobytes("png")
    finally:
        doc.close()
