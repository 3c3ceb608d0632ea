"""Admission's open-check: can this PDF be processed at all? Django-free.

A file that MuPDF had to repair is parsed page by page; if MuPDF still reports errors
the file is malformed (a truncated upload, say). A repaired file that parses cleanly is
admitted: real-world PDFs often have a damaged cross-reference table and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pymupdf

pymupdf.TOOLS.mupdf_display_errors(False)  # messages are collected, never printed

PDF_MAGIC = b"%PDF-"
MAGIC_WINDOW = 1024  # the header may follow some junk bytes, as readers allow


# What MuPDF says while rebuilding a lost cross-reference table, and nothing worse.
ROUTINE_REPAIR_MESSAGES = {
    "",
    "format error: cannot find startxref",
    "trying to repair broken xref",
    "repairing PDF document",
}


class PdfRejected(Exception):
    """The file cannot be admitted; `code` is the stable reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class OpenCheck:
    page_count: int
    repaired: bool
    # Encrypted with an owner password only (permission flags such as no-copy or
    # no-print): the content opens without a password, and the release is a full
    # rewrite without encryption, so the flags do not carry over.
    permission_flags: bool = False


def has_pdf_magic(head: bytes) -> bool:
    return PDF_MAGIC in head[:MAGIC_WINDOW]


def open_check(source: Path | bytes, *, max_pages: int) -> OpenCheck:
    """Open with PyMuPDF and check for a user password, the page count and structural
    damage. A file encrypted with an owner password only opens and is admitted."""
    pymupdf.TOOLS.mupdf_warnings(reset=True)
    try:
        if isinstance(source, bytes):
            doc = pymupdf.open(stream=source, filetype="pdf")
        else:
            doc = pymupdf.open(str(source), filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for unreadable input
        raise PdfRejected("malformed", "the file could not be opened as a PDF") from exc
    with doc:
        if doc.needs_pass:
            raise PdfRejected("encrypted", "the PDF needs a password to open")
        permission_flags = bool(doc.is_encrypted or doc.metadata.get("encryption"))
        if doc.page_count == 0:
            raise PdfRejected("malformed", "the PDF has no pages")
        if doc.page_count > max_pages:
            raise PdfRejected(
                "too_many_pages", f"the PDF has {doc.page_count} pages; the limit is {max_pages}"
            )
        repaired = bool(doc.is_repaired)
        if repaired:
            try:
                for page in doc:
                    page.get_text("words")
            except Exception as exc:
                raise PdfRejected("malformed", "the PDF is damaged and cannot be read") from exc
            problems = set(pymupdf.TOOLS.mupdf_warnings(reset=True).splitlines())
            if problems - ROUTINE_REPAIR_MESSAGES:
                raise PdfRejected("malformed", "the PDF is damaged (truncated or corrupt)")
        return OpenCheck(
            page_count=doc.page_count, repaired=repaired, permission_flags=permission_flags
        )
