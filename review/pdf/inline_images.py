"""Inline images give their colour space as a name under /CS (Django-free).

MuPDF's content filter, which every redaction and every cleaning save runs, writes an
inline image's colour space (other than a device space) by the name it read under /CS,
the abbreviated key: one given under /ColorSpace, or as an array ("BI /CS [/I /RGB 255
(...)] ... ID", an indexed palette), came out as "/CS/", which no reader can draw, and
the release lost the picture (iText's inlineImages03.pdf: a light bulb). So before any
such save each is given under /CS, an array put in the /ColorSpace resources of the
page or form whose stream holds it (its abbreviations spelled out) and named there.
"""

from __future__ import annotations

import re

import pymupdf

from review.pdf.content_streams import read_content
from review.pdf.content_tokens import lex
from review.pdf.resources import put_at

# An inline image's colour space given by its long key or as an array, as far as a
# pattern can tell.
_NOT_CS = re.compile(rb"/ColorSpace\b|/CS[\x00\t\n\f\r ]*\[")
_KEYS = (b"/CS", b"/ColorSpace")
# Names inline images may abbreviate, which a resource's colour space must spell out.
_SPELLED_OUT = {
    b"/I": b"/Indexed",
    b"/G": b"/DeviceGray",
    b"/RGB": b"/DeviceRGB",
    b"/CMYK": b"/DeviceCMYK",
}
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}
_ESCAPE = re.compile(rb"\\([0-7]{1,3}|\r\n|[\r\n]|.)", re.S)


def inline_colour_spaces_named(doc: pymupdf.Document, streams: set[int]) -> None:
    """Name the colour space of each inline image in `streams` (the page and form
    content streams that draw one) under /CS, arrays as resources (module docstring)."""
    if not streams:
        return  # most documents draw no inline image
    owners: dict[int, list[int]] = {}  # content stream -> objects whose /Resources it uses
    for page in doc:
        for xref in page.get_contents():
            owners.setdefault(xref, []).append(page.xref)
        for form in page.get_xobjects():
            owners.setdefault(form[0], [form[0]])
    for xref, users in owners.items():
        data = read_content(doc, xref) if xref in streams else None
        if not data or not _NOT_CS.search(data):
            continue
        named: dict[bytes, bytes] = {}  # array, as a resource writes it -> its name
        out: list[bytes] = []
        cursor = 0
        for start, end, is_operator in lex(data):
            if not (is_operator and data.startswith(b"BI", start)):
                continue
            found = _colour_space(data, start + 2, end)
            if found is None:
                continue
            key_start, value_end, value = found
            if value.startswith(b"["):
                if value not in named:
                    named[value] = _named(doc, users, value)
                value = b"/" + named[value]
            out += [data[cursor:key_start], b"/CS ", value]
            cursor = value_end
        if out:
            doc.update_stream(xref, b"".join(out) + data[cursor:])


def _colour_space(data: bytes, start: int, end: int) -> tuple[int, int, bytes] | None:
    """Where the colour space entry of the inline image dictionary from `start` lies,
    and its value as /CS should give it (an array as a resource writes it); None where
    it is a name under /CS already."""
    tokens = []
    for token_start, token_end, _ in lex(data[start:end]):
        token = data[start + token_start : start + token_end]
        if token == b"ID":
            break
        tokens.append((start + token_start, start + token_end, token))
    for index, (key_start, _, key) in enumerate(tokens[:-1]):
        if key not in _KEYS:
            continue
        value_end, value = tokens[index + 1][1:]
        if value != b"[":
            return None if key == b"/CS" else (key_start, value_end, value)
        depth, parts = 0, []
        for _, item_end, item in tokens[index + 1 :]:
            depth += {b"[": 1, b"]": -1}.get(item, 0)
            parts.append(_spelled(item))
            if depth == 0:
                return key_start, item_end, b" ".join(parts)
        return None  # no end to the array: left to MuPDF
    return None


def _spelled(token: bytes) -> bytes:
    """A token of the array as a resource may hold it: names spelled out, a literal
    string as hexadecimal (a palette's bytes are any bytes)."""
    if token.startswith(b"("):
        return b"<" + _literal(token[1:-1]).hex().encode() + b">"
    return _SPELLED_OUT.get(token, token)


def _literal(body: bytes) -> bytes:
    """The bytes a literal string's body stands for (its escapes read)."""

    def escaped(match: re.Match[bytes]) -> bytes:
        code = match[1]
        if code[:1].isdigit():
            return bytes([int(code, 8) & 0xFF])
        if code in (b"\r\n", b"\r", b"\n"):
            return b""  # a line continued
        return _ESCAPES.get(code, code)

    return _ESCAPE.sub(escaped, body)


def _named(doc: pymupdf.Document, owners: list[int], array: bytes) -> bytes:
    """A name for `array` in the /ColorSpace resources of each of `owners`, added where
    it is new."""
    number = 0
    while True:
        name = f"InlineCS{number}"
        values = [doc.xref_get_key(owner, f"Resources/ColorSpace/{name}") for owner in owners]
        if all(kind == "null" or value == array.decode("latin-1") for kind, value in values):
            for owner in owners:
                put_at(doc, owner, ("Resources", "ColorSpace", name), array.decode("latin-1"))
            return name.encode()
        number += 1
