"""Damage as files from the field carry it (Django-free)."""

from __future__ import annotations

import re

import pymupdf


def with_a_dangling_xref_entry(doc: pymupdf.Document) -> bytes:
    """`doc` written out with one more cross-reference entry than it has objects, the
    entry pointing into the header comment: MuPDF opens and draws such a file, and
    looking that object up fails (pdf.js's issue15053.pdf, prefilled_f1040.pdf)."""
    raw = doc.tobytes(garbage=0, expand=255)
    table = re.search(rb"xref\n0 (\d+)\n", raw)
    assert table is not None
    size = int(table[1])
    trailer = raw.index(b"trailer", table.end())
    return (
        raw[: table.start()]
        + b"xref\n0 %d\n" % (size + 1)
        + raw[table.end() : trailer]
        + b"0000000009 00000 n \n"
        + raw[trailer:]
    ).replace(b"/Size %d" % size, b"/Size %d" % (size + 1))
