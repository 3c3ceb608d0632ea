"""The objects of a file whose strings and bytes are no text (Django-free): what the
release gate's search of every object and stream (`verify._side_channel_hits`) passes
over. Each names a font, a colour or a character collection, never the document's
words, and a reviewer who redacts "Adobe" or "Apple Computer" on a page must still be
able to release it.
"""

from __future__ import annotations

import re

import pymupdf

# Stream kinds whose bytes are not text: skipped by the byte search (speed, false hits).
BINARY_SUBTYPES = {"/Image", "/Type1C", "/CIDFontType0C", "/OpenType"}
# The strings of a /CIDSystemInfo dictionary (a CID font's or a CMap's): plain ones only,
# which name the character collection's registry and ordering ("Adobe", "Identity").
CHARACTER_COLLECTION = re.compile(rb"/(?:Registry|Ordering)\s*\([^()\\]*\)")
# The same strings written as objects of their own, by reference (LittleCMS's manuals).
_COLLECTION_REFERENCE = re.compile(rb"/(?:Registry|Ordering)\s*(\d+)\s+\d+\s+R")
# A CMap program (a font's ToUnicode map), as it starts: comments, then "/CIDInit".
_CMAP_PROGRAM = re.compile(rb"(?:\s*+%[^\r\n]*+)*+\s*+/CIDInit\s*/ProcSet\s+findresource")
# What else a CMap program names itself by: its /CMapName, and its comments on lines of
# their own ("%%Title: (Adobe-Identity-UCS Adobe Identity 0)").
# Where an ICC profile's signature "acsp" (36 bytes into its header) may end: a header
# after up to 96 stray bytes.
_HEADER_REACH = 36 + 96 + 4
CMAP_NAMES = re.compile(rb"/CMapName\s*/[^\s/\[\]()<>{}%]+|^%[^\r\n]*", re.M)


def collection_parts(obj: bytes) -> set[int]:
    """The objects the /CIDSystemInfo dictionaries in the object `obj` (as written) name
    as their registry or ordering."""
    return {int(number) for number in _COLLECTION_REFERENCE.findall(obj)}


def describes_a_font(doc: pymupdf.Document, xref: int) -> bool:
    """A font descriptor's strings name its font ("Times New Roman") and list its glyph
    names (/CharSet: "/period/A/B"), not any text. Early TeX output wrote descriptors
    without /Type (PDFBox's cweb.pdf): one with a /FontName and /Flags is one too."""
    kind = doc.xref_get_key(xref, "Type")[1]
    if kind == "/FontDescriptor":
        return True
    return (
        kind == "null"
        and doc.xref_get_key(xref, "FontName")[0] == "name"
        and (doc.xref_get_key(xref, "Flags")[0] == "int")
    )


def is_colour_profile(doc: pymupdf.Document, xref: int, data: bytes) -> bool:
    """An ICC profile (an ICCBased colour space's stream: /N components, and the
    profile signature in its header). Colour data; its text tags name the profile's
    maker ("Copyright 2002 - 2003 Apple Computer Inc."), never the document's text, and
    a reviewer who redacts "Apple Computer" on a page must still be able to release it.
    The header may follow a few stray bytes (Acrobat Distiller 4.0 for the Mac wrote 24
    before it, icepdf's xr_650.pdf; MuPDF then draws in the /Alternate space)."""
    return doc.xref_get_key(xref, "N")[0] == "int" and data.find(b"acsp", 36, _HEADER_REACH) >= 0


def is_cmap_program(doc: pymupdf.Document, xref: int, data: bytes) -> bool:
    """A CMap program (a font's ToUnicode map): it starts as one, and no page or form
    draws it as its content."""
    return (
        _CMAP_PROGRAM.match(data) is not None
        and doc.xref_get_key(xref, "Subtype")[1] != "/Form"
        and not any(xref in page.get_contents() for page in doc)
    )


def font_programs(doc: pymupdf.Document) -> set[int]:
    """The streams a font descriptor names as its font program (/FontFile, /FontFile2,
    /FontFile3), its own object or written inside a font's: a TrueType program stored
    as "/Type /Stream" with no /Length1 (a county's election report) is found so."""
    found: set[int] = set()
    for xref in range(1, doc.xref_length()):
        source = doc.xref_object(xref, compressed=True)
        if "/FontFile" in source:
            found.update(int(number) for number in _FONT_PROGRAM.findall(source))
    return found


_FONT_PROGRAM = re.compile(r"/FontFile[23]?\s*(\d+)\s+\d+\s+R")


def is_binary_stream(doc: pymupdf.Document, xref: int) -> bool:
    if doc.xref_get_key(xref, "Subtype")[1] in BINARY_SUBTYPES:
        return True
    return doc.xref_get_key(xref, "Length1")[0] != "null"  # an embedded TrueType/Type1 program
