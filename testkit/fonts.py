"""A TrueType font for tests whose PDFs must embed one: DejaVu Sans, from Debian's
fonts-dejavu-core (fontconfig's, so there wherever Chromium is installed). PyMuPDF sets
it through Identity-H, its glyphs numbered in the Macintosh order (3 the space, 36 "A")."""

from __future__ import annotations

import pathlib

import pymupdf
import pytest

DEJAVU = pathlib.Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def truetype_page(doc: pymupdf.Document, fontname: str = "dv") -> pymupdf.Page:
    """A new page of `doc` with DejaVu Sans as `fontname` (the test skips without it)."""
    if not DEJAVU.exists():
        pytest.skip(f"needs {DEJAVU} (apt-get install fonts-dejavu-core)")
    page = doc.new_page()
    page.insert_font(fontname=fontname, fontfile=str(DEJAVU))
    return page
