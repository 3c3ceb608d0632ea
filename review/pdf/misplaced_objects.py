"""Objects the cross-reference table misplaces, settled when a document is opened, so
that every reading of it sees the same document (Django-free).

MuPDF rebuilds a file's cross-reference table by scanning the file the first time it
loads an object whose entry points at something else, and from then on may draw the
pages from other objects: those of an earlier revision, say. A viewer loads only what
the document refers to. The service's own passes load every object, so the pages it
detected on, previewed and released were another document than the one a viewer shows,
and than the page images the reviewer saw. A "shadow attack" sample (RUB-NDS's
pdf-attacker: an update points the page tree at a hidden page and leaves an unused
entry misplaced) showed "You are fired!" in viewers and on the review page, and "Sign
me to get a reward" in the preview and the release.

`settle` looks once, on opening: a misplaced object nothing refers to is freed, so no
pass loads it and the document stays as viewers show it; when something refers to one,
it is loaded at once, so MuPDF rebuilds the table before anything is read.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import BinaryIO

import pymupdf
from pymupdf import mupdf

from review.pdf.unsigned_signatures import drawn_as_stored

READ_CHUNK = 1 << 20
_PEEK = 4096  # bytes read at an entry's offset: its object's header, after any comments
# What an object's entry must point at: its number, generation and "obj", after any
# white space and comments (as MuPDF's lexer reads it). Possessive: tried every way of
# splitting a run of white space into runs, an entry pointing into 599 spaces held the
# admission for good (tika's test-pdf-with-print-ticket-header.pdf).
_HEADER = re.compile(
    rb"(?:[\x00\t\n\f\r ]++|%[^\r\n]*+)*+(\d+)[\x00\t\n\f\r ]+\d+[\x00\t\n\f\r ]+obj"
)


def settle(doc: pymupdf.Document, source: bytes | Path) -> None:
    """Free the objects of `doc` (opened from `source`) that its cross-reference table
    misplaces and nothing refers to; load at once one that something refers to."""
    if doc.is_repaired or not doc.is_pdf:
        return  # the table was rebuilt on opening: every entry points at its object
    with io.BytesIO(source) if isinstance(source, bytes) else source.open("rb") as file:
        misplaced = _misplaced(doc, file) if revised(file) else set()
    if not misplaced:
        return
    pdf = mupdf.pdf_specifics(doc.this)
    referred = _first_referred(pdf, misplaced)
    if referred is not None:
        try:
            mupdf.pdf_load_object(pdf, referred)  # MuPDF rebuilds the table now
        except (RuntimeError, mupdf.FzErrorBase):
            pass  # rebuilt; or past rebuilding, which the open check reports
        return
    for number in misplaced:
        mupdf.pdf_delete_object(pdf, number)


def revised(file: BinaryIO) -> bool:
    """Whether the file holds a second "startxref", an update after its first revision.
    Nothing misplaced is looked for in a file of one revision: a rebuilt table finds
    the objects the table named (each written once), and reading every entry cost a
    page image as much again as drawing it on a file of thousands of objects. Read a
    chunk at a time: mapped whole, a 98 MB upload counted against the admitting
    worker's memory as much again."""
    found, tail = 0, b""
    while chunk := file.read(READ_CHUNK):
        data = tail + chunk  # the tail is too short to hold the word whole: no match twice
        found += data.count(b"startxref")
        if found > 1:
            return True
        tail = data[-(len(b"startxref") - 1) :]
    return False


def _misplaced(doc: pymupdf.Document, file: BinaryIO) -> set[int]:
    """The objects whose entry gives an offset where no such object starts."""
    pdf = mupdf.pdf_specifics(doc.this).m_internal
    size = file.seek(0, io.SEEK_END)
    found = set()
    for number in range(1, doc.xref_length()):
        entry = mupdf.ll_pdf_get_xref_entry_no_null(pdf, number)
        if entry.type != "n":
            continue  # free, or in an object stream
        header = None
        if 0 <= entry.ofs < size:
            file.seek(entry.ofs)
            header = _HEADER.match(file.read(_PEEK))
        if header is None or int(header.group(1)) != number:
            found.add(number)
    return found


def _first_referred(pdf: mupdf.PdfDocument, misplaced: set[int]) -> int | None:
    """The first of `misplaced` that the document refers to, from its trailer on."""
    stack = [mupdf.pdf_trailer(pdf)]
    seen: set[int] = set()
    while stack:
        obj = stack.pop()
        if mupdf.pdf_is_indirect(obj):
            number = mupdf.pdf_to_num(obj)
            if number in misplaced:
                return number
            if number in seen:
                continue
            seen.add(number)
            obj = mupdf.pdf_resolve_indirect(obj)
        if mupdf.pdf_is_dict(obj):
            stack += [mupdf.pdf_dict_get_val(obj, i) for i in range(mupdf.pdf_dict_len(obj))]
        elif mupdf.pdf_is_array(obj):
            stack += [mupdf.pdf_array_get(obj, i) for i in range(mupdf.pdf_array_len(obj))]
    return None


def open_settled(source: bytes | Path) -> pymupdf.Document:
    """`source` opened as a PDF and settled (`settle`), its unsigned signature fields
    drawn as it stores them (`unsigned_signatures`)."""
    if isinstance(source, bytes):
        doc = pymupdf.open(stream=source, filetype="pdf")
    else:
        doc = pymupdf.open(source, filetype="pdf")
    if not doc.needs_pass:
        settle(doc, source)
        drawn_as_stored(doc)  # unsigned signature fields, as viewers show them
    return doc
