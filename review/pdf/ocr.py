"""OCR of pages without a text layer, with the text layers kept between deliveries
(Django-free).

Tesseract takes seconds per page: a long scan does not fit in one task's time. Each page's
OCR result is handed to an `OcrCache` as a small PDF holding only the recognized text
(the page image is the original's, stored already), so a later delivery reads the pages
already done from it and goes on with the rest (`detect.ocr_ahead`).
"""

from __future__ import annotations

import glob
import os
import shutil
import weakref
from typing import Protocol

import pymupdf


class OcrCache(Protocol):
    """Where the text layers of one document's OCR'd pages are kept, by page number."""

    def get(self, page: int) -> bytes | None: ...

    def put(self, page: int, text_layer: bytes) -> None: ...


def tessdata_dir() -> str | None:
    """The tessdata folder holding eng.traineddata, or None.

    An explicit TESSDATA_PREFIX wins and is the only place looked at, so an operator
    (or a test) can switch OCR off by pointing it at an empty folder.
    """
    prefix = os.environ.get("TESSDATA_PREFIX")
    candidates = (
        [prefix]
        if prefix
        else sorted(
            glob.glob("/usr/share/tesseract-ocr/*/tessdata")
            + glob.glob("/usr/share/tessdata")
            + glob.glob("/usr/local/share/tessdata")
            + glob.glob("/opt/homebrew/share/tessdata"),
            reverse=True,  # newest Tesseract major version first
        )
    )
    for folder in candidates:
        if os.path.isfile(os.path.join(folder, "eng.traineddata")):
            return folder
    return None


def ocr_available() -> bool:
    """True when the tesseract binary is on PATH and English tessdata is found."""
    return shutil.which("tesseract") is not None and tessdata_dir() is not None


def text_layer(page: pymupdf.Page, *, language: str, dpi: int, tessdata: str) -> bytes:
    """OCR the whole page as drawn: a one-page PDF of the recognized text alone, in the
    coordinates of the page image at `dpi`."""
    pix = page.get_pixmap(dpi=dpi)
    ocr = pymupdf.open(
        stream=pix.pdfocr_tobytes(compress=True, language=language, tessdata=tessdata),
        filetype="pdf",
    )
    for image in ocr[0].get_images():
        ocr[0].delete_image(image[0])
    return ocr.tobytes(garbage=4, deflate=True)


def read_page(
    page: pymupdf.Page,
    *,
    flags: int,
    language: str,
    dpi: int,
    tessdata: str | None,
    cache: OcrCache | None,
) -> pymupdf.TextPage | None:
    """The page's text as OCR reads it, in unrotated page space (as `get_text` reports
    it): from the cache when this page was read before, else by Tesseract (None when
    it is not installed). The same as PyMuPDF's `get_textpage_ocr(full=True)`."""
    layer = cache.get(page.number) if cache is not None else None
    if layer is None:
        if tessdata is None:
            return None
        layer = text_layer(page, language=language, dpi=dpi, tessdata=tessdata)
        if cache is not None:
            cache.put(page.number, layer)
    ocr_page = pymupdf.open(stream=layer, filetype="pdf")[0]
    unzoom = page.rect.width / ocr_page.rect.width
    # Unknown characters stay U+FFFD, so a garbled word is never read as another.
    flags &= ~pymupdf.TEXT_USE_CID_FOR_UNKNOWN_UNICODE & ~pymupdf.TEXT_USE_GID_FOR_UNKNOWN_UNICODE
    textpage = ocr_page.get_textpage(
        flags=flags, matrix=pymupdf.Matrix(unzoom, unzoom) * page.derotation_matrix
    )
    textpage.parent = weakref.proxy(page)  # as get_textpage_ocr: words map to this page
    return textpage
