"""A page's content streams as MuPDF reads them (Django-free): each decoded, within
limits (`read_content`), and several made one (`contents_as_one`)."""

from __future__ import annotations

import pymupdf
from pymupdf import mupdf

from review.pdf.image_coded import under_image_codec

# Content streams are read up to this size: a bigger one is a compression bomb.
MAX_CONTENT_BYTES = 64 << 20


def read_content(doc: pymupdf.Document, xref: int) -> bytes | None:
    """The decoded content stream `xref`, or None where it holds no operators to read:
    damaged (MuPDF draws nothing of it either), a compression bomb (not read whole), or
    under an image codec's filter, as MuPDF reads it (`image_coded.py`; decoding a JBIG2
    "content stream", pdf.js's bomb_giant.pdf, took 47 s)."""
    try:
        pdf = mupdf.pdf_specifics(doc.this)
        if under_image_codec(mupdf.pdf_load_object(pdf, xref)):
            return None
        buffer, cut_short = mupdf.fz_read_best(
            mupdf.pdf_open_stream_number(pdf, xref),
            0,
            MAX_CONTENT_BYTES,
        )
    except (RuntimeError, ValueError, mupdf.FzErrorBase):  # ValueError: no such object
        return None
    return None if cut_short else buffer.fz_buffer_extract()


def contents_as_one(doc: pymupdf.Document, page: pymupdf.Page) -> list[int]:
    """The page's content streams, made one new stream where there are several and each
    reads: they run on as one, and may be cut anywhere between two operators, so read
    one by one they lose what the stream before set. Illustrator cut a brochure's
    content every 12 KB; its first stream says "0 TL", and each bullet's line, after
    a space and "T*", moved a space right (PSPDFKit's Digital_Signatures.pdf; baking
    annotations puts a "q" stream before the page's own, PyMuPDF's test-3820.pdf: a
    run-in heading after each bullet moved a space right). The filter writes a page's
    content as one stream anyway."""
    xrefs = page.get_contents()
    if len(xrefs) < 2:
        return xrefs
    parts = [read_content(doc, xref) for xref in xrefs]
    if any(part is None for part in parts):
        return xrefs
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, b"\n".join(part for part in parts if part is not None))
    doc.xref_set_key(page.xref, "Contents", f"{xref} 0 R")
    return [xref]
