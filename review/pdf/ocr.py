"""OCR of pages without a text layer, with the text layers kept between deliveries
(Django-free).

Tesseract takes seconds per page: a long scan does not fit in one task's time. Each page's
OCR result is handed to an `OcrCache` as a small PDF holding only the recognized text
(the page image is the original's, stored already), so a later delivery reads the pages
already done from it and goes on with the rest (`PageReader`).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import time
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
    coordinates of the page image at `dpi` as the layer's page is shown.

    Tesseract reads a page scanned sideways or upside down as upright glyphs of
    nothing (">a ey <om wv" for a table turned a quarter, Aspose's print sample), and
    detection found nothing on it. A reading whose lettered words mostly do not look like
    words is read again turned, a quarter at a time, and the reading that looks most
    like words is kept, turned back to lie as the upright image does."""
    layer = _turned_reading(page, 0, language=language, dpi=dpi, tessdata=tessdata)
    upright = _share_like_words(layer)
    if upright is not None and upright < READS_AS_WORDS:  # most pages are read once
        bar = upright + TURN_MARGIN
        for turn in (90, 270, 180):
            turned = _turned_reading(page, turn, language=language, dpi=dpi, tessdata=tessdata)
            share = _share_like_words(turned)
            if share is not None and share > bar:
                layer, bar = turned, share
                if share >= READS_AS_WORDS:
                    break
    return layer.tobytes(garbage=4, deflate=True)


# The share of a reading's letters that must stand in words that look like words for
# it to stand as read; by how much a turned reading must beat the upright one; and how
# many letters a reading needs before it is judged at all.
READS_AS_WORDS = 0.5
TURN_MARGIN = 0.15
_FEW_LETTERS = 40
_WORD = re.compile(r"[^\W\d_]{4,}(?:[-'’][^\W\d_]+)*")
_EDGE_PUNCTUATION = ".,;:!?()[]{}\"'‘’“”«»"


def _turned_reading(
    page: pymupdf.Page, turn: int, *, language: str, dpi: int, tessdata: str
) -> pymupdf.Document:
    """Tesseract's reading of the page image turned by `turn` degrees, turned back
    onto a page of the upright image's size."""
    zoom = dpi / 72
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom).prerotate(turn))
    pix.set_dpi(dpi, dpi)
    ocr = pymupdf.open(
        stream=pix.pdfocr_tobytes(compress=True, language=language, tessdata=tessdata),
        filetype="pdf",
    )
    for image in ocr[0].get_images():
        ocr[0].delete_image(image[0])
    if not turn:
        return ocr
    upright = pymupdf.open()
    width, height = ocr[0].rect.width, ocr[0].rect.height
    if turn % 180:
        width, height = height, width
    sheet = upright.new_page(width=width, height=height)
    sheet.show_pdf_page(sheet.rect, ocr, 0, rotate=turn)
    return upright


def _share_like_words(layer: pymupdf.Document) -> float | None:
    """The share of the reading's letters that stand in words that look like words:
    four letters or more (joined by hyphens or apostrophes perhaps), in one case or
    capitalised, a Latin word with a vowel. Read sideways, glyphs come out as short
    runs ("ey", "<om", "REZ") more often than not. None when there are too few letters
    to judge."""
    words = [text.strip(_EDGE_PUNCTUATION) for *_, text, _, _, _ in layer[0].get_text("words")]
    letters = [sum(c.isalpha() for c in word) for word in words]
    if sum(letters) < _FEW_LETTERS:
        return None
    worded = sum(n for word, n in zip(words, letters, strict=True) if _looks_like_a_word(word))
    return worded / sum(letters)


def _looks_like_a_word(word: str) -> bool:
    return (
        _WORD.fullmatch(word) is not None
        and (word.islower() or word.istitle() or word.isupper())
        and (not word.isascii() or any(c in "aeiouyAEIOUY" for c in word))
    )


class OcrDeferred(Exception):
    """The page needs OCR, and this reading's time is up: a later one reads it."""


class OcrFailed(Exception):
    """Tesseract failed on the page, now or in an earlier reading of the document."""


# What a cache keeps for a page Tesseract failed on: a later delivery does not try it
# again (it would fail again, and a failure that takes the whole time budget would
# stop every delivery at the same page); detection asks a human to look at it.
FAILED = b""


class PageReader:
    """Reads pages without a text layer for one detection, in unrotated page space (as
    `get_text` reports it; the same as PyMuPDF's `get_textpage_ocr(full=True)`): from
    `cache` where an earlier reading kept them, else by Tesseract (None when it is not
    installed) until the monotonic clock passes `until`. The first page this reader
    reads by Tesseract is always read, so every reading gets further; a page after the
    time is up raises OcrDeferred. `read` and `deferred` count the pages asked for."""

    def __init__(
        self,
        *,
        flags: int,
        language: str,
        dpi: int,
        tessdata: str | None,
        cache: OcrCache | None,
        until: float | None = None,
    ) -> None:
        # Unknown characters stay U+FFFD, so a garbled word is never read as another.
        self.flags = (
            flags
            & ~pymupdf.TEXT_USE_CID_FOR_UNKNOWN_UNICODE
            & ~pymupdf.TEXT_USE_GID_FOR_UNKNOWN_UNICODE
        )
        self.language, self.dpi, self.tessdata = language, dpi, tessdata
        self.cache, self.until = cache, until
        self.read = self.deferred = 0
        self._tesseract_runs = 0

    def __call__(self, page: pymupdf.Page) -> pymupdf.TextPage | None:
        layer = self.cache.get(page.number) if self.cache is not None else None
        if layer is None and self.tessdata is not None:
            if self._tesseract_runs and self.until is not None and time.monotonic() >= self.until:
                self.deferred += 1
                raise OcrDeferred
            self._tesseract_runs += 1
            try:
                layer = text_layer(
                    page, language=self.language, dpi=self.dpi, tessdata=self.tessdata
                )
            except Exception:  # whatever Tesseract does, a human looks at the page
                layer = FAILED
            if self.cache is not None:
                self.cache.put(page.number, layer)
        if layer is None:
            return None
        self.read += 1
        if layer == FAILED:
            raise OcrFailed
        ocr_page = pymupdf.open(stream=layer, filetype="pdf")[0]
        unzoom = page.rect.width / ocr_page.rect.width
        textpage = ocr_page.get_textpage(
            flags=self.flags, matrix=pymupdf.Matrix(unzoom, unzoom) * page.derotation_matrix
        )
        textpage.parent = weakref.proxy(page)  # as get_textpage_ocr: words map to this page
        return textpage

    def count(self, page: pymupdf.Page) -> None:
        """A page needing OCR after the time is up: read if an earlier reading kept it."""
        if self.cache is not None and self.cache.get(page.number) is not None:
            self.read += 1
        elif self.tessdata is not None:
            self.deferred += 1
