"""Marked content in the released file: what sanitize cuts of it (Django-free).

A content stream brackets painting in marked-content sections ("/Tag props BDC ...
EMC") and marks points ("/Tag props DP"). The property list, written in the stream or
named in /Resources/Properties, changes what is drawn only for optional content (an
/OC section of a layer that is OFF is cut, `filter_optional_content`). Otherwise it is
the producer's data, never drawn, and often text: /ActualText, which a screen reader
and text extraction read in place of the glyphs (a redacted name stays readable there
when its glyphs go), /Alt, /E, a pagination artifact's /Contents (PDFBox's form test
files), a placed page's author and title. The structure tree that gives the sections
meaning is dropped anyway, so every such list goes: `property_lists_dropped` for the
ones written in the stream, `empty_property_lists` for the named ones. Only an
/ActualText without a letter or digit stays, which no name can hide in: the "-" a
producer writes for a soft hyphen, or a dash or bullet drawn with a symbol font.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pymupdf import mupdf

from review.pdf.content_tokens import operations
from review.pdf.user_space import PAINTS

_TYPE = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_Type)
_OCG = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_OCG)
_OCMD = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_OCMD)
_PROPERTIES = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_Properties)
# A dictionary operand holding a string: the streams `property_lists_dropped` parses.
_DICTIONARY_WITH_TEXT = re.compile(rb"<<[^>]*?[(<][^<]")
_WITHOUT_PROPERTIES = {b"BDC": b"BMC", b"DP": b"MP"}
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}
_ESCAPE = re.compile(rb"\\([0-7]{1,3}|\r\n|.)", re.DOTALL)


def empty_property_lists(pdf: mupdf.PdfDocument, resources: mupdf.PdfObj) -> None:
    """Empty every list of /Resources/Properties but optional content's (an /OCG or
    /OCMD): Adobe's PDF Library wrote a placed page's author and title there (iText's
    bigTaggedDocument.pdf)."""
    properties = mupdf.pdf_dict_get(resources, _PROPERTIES)
    if not mupdf.pdf_is_dict(properties):
        return
    for index in range(mupdf.pdf_dict_len(properties)):
        kind = mupdf.pdf_dict_get(mupdf.pdf_dict_get_val(properties, index), _TYPE)
        if not (mupdf.pdf_name_eq(kind, _OCG) or mupdf.pdf_name_eq(kind, _OCMD)):
            key = mupdf.pdf_dict_get_key(properties, index)
            mupdf.pdf_dict_put(properties, key, mupdf.pdf_new_dict(pdf, 0))


def property_lists_dropped(data: bytes) -> bytes:
    """`data` with each property list written in it dropped, but optional content's:
    "/Span <</ActualText (Jane Roe)>> BDC" becomes "/Span BMC", a point's "DP" an
    "MP". The section and its painting stay as they were."""
    if not _DICTIONARY_WITH_TEXT.search(data):
        return data  # most streams: no list with a string in it
    out: list[bytes] = []
    cursor = 0
    for operation in operations(data):
        plain = _WITHOUT_PROPERTIES.get(operation.operator)
        operands = operation.operands
        if plain and len(operands) > 2 and operands[1] == b"<<" and operands[0] != b"/OC":
            kept = _letterless_actual_text(operands)
            replaced = b"<</ActualText %s>> %s" % (kept, operation.operator) if kept else plain
            out += [data[cursor : operation.start], operands[0], b" ", replaced]
            cursor = operation.end
    out.append(data[cursor:])
    return b"".join(out)


def _letterless_actual_text(operands: list[bytes]) -> bytes | None:
    """The list's /ActualText string as written, if it holds no letter or digit."""
    for key, value in zip(operands, operands[1:], strict=False):
        if key == b"/ActualText" and value[:1] in b"(<" and value[:2] != b"<<":
            text = _text_string(value)
            return None if any(char.isalnum() for char in text) else value
    return None


def _text_string(token: bytes) -> str:
    """A string token's text: literal or hexadecimal, UTF-16 after its byte order mark,
    else read as Latin-1 (close enough to PDFDocEncoding to tell letters)."""
    if token[:1] == b"<":
        digits = re.sub(rb"[^0-9A-Fa-f]", b"", token[1:-1])
        raw = bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode())
    else:
        raw = _ESCAPE.sub(_unescaped, token[1:-1])
    if raw.startswith(b"\xfe\xff"):
        return raw[2:].decode("utf-16-be", "replace")
    return raw.decode("latin-1")


def _unescaped(match: re.Match[bytes]) -> bytes:
    escaped = match.group(1)
    if escaped[:1].isdigit():
        return bytes([int(escaped, 8) & 0xFF])
    if escaped in (b"\r\n", b"\n", b"\r"):
        return b""  # a line continued
    return _ESCAPES.get(escaped, escaped)


# Inside a hidden section, painting is suppressed but graphics state still changes
# (ISO 32000-1, 8.11.3.2), so only painting operators are cut: paths are ended with
# "n", shown text dropped ("'" keeps its line move), XObjects and shadings skipped.
_DROP = {b"Tj", b"TJ", b"Do", b"sh", b"BI"}


def filter_optional_content(data: bytes, hidden: Callable[[list[bytes]], bool]) -> bytes:
    """Cut the painting operators inside marked content for which `hidden` is true.

    `hidden` receives the operands of each BDC (for optional content: b"/OC" and the
    property name or inline dictionary).
    """
    out: list[bytes] = []
    stack: list[bool] = []  # one entry per open BMC/BDC: is this section hidden?
    cursor = 0  # end of the previous operation
    for operation in operations(data):
        op, end = operation.operator, operation.end
        inside_hidden = any(stack)
        if op == b"BDC":
            stack.append(hidden(operation.operands))
        elif op == b"BMC":
            stack.append(False)
        elif op == b"EMC":
            if stack:
                stack.pop()
        if inside_hidden and op in PAINTS:
            out.append(b" n")
        elif inside_hidden and op in (b"'", b'"'):
            out.append(b" T*")
        elif inside_hidden and op in _DROP:
            pass
        elif any(stack) and op == b"BDC" or inside_hidden and op in (b"BDC", b"BMC", b"EMC"):
            pass  # hidden sections vanish with their markers
        else:
            out.append(data[cursor:end])
        cursor = end
    out.append(data[cursor:])
    return b"".join(out)
