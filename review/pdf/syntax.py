"""Where the text is in PDF syntax (Django-free): the release gate's byte search looks
only there in objects and content streams, because names, numbers and operators are
PDF vocabulary ("/Type/Page", "309.436 Td"), never a document's text."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pymupdf

# The few tokens of PDF syntax that can carry text: literal strings (nested parentheses
# are measured by hand), hex strings and comments; inline images are skipped. Names,
# numbers, operators and brackets in between are passed over by the search.
_SYNTAX = re.compile(
    rb"\((?:[^()\\]|\\.)*\)|\(|<<|<[^<>]*>|%[^\r\n]*|(?<![^\s\x00\])>])BI(?=[\s\x00/])",
    re.DOTALL,
)
# Two strings of a TJ array with a small kerning between them ("(NHN)-14(C1)]TJ") show
# one word: joined before the search, so that a redacted "NHN" is not found in "NHNC1"
# and a redacted "Ann" is found in "(An)-20(n)". From a tenth of an em on, the gap reads
# as a space, and the strings stay apart.
_KERNED = re.compile(
    rb"(?<!\\)\)\s*[-+]?(?:\d{1,2}(?:\.\d*)?|\.\d+)\s*\("
    rb"|(?<!>)>\s*[-+]?(?:\d{1,2}(?:\.\d*)?|\.\d+)\s*<(?!<)"
)
# A gap of a tenth of an em or more between two literal strings of a TJ array: the
# space between two words ("[(School)-305.8(of)]TJ"), written into the first string so
# that the search does not take the next string for the rest of its word.
_SPACED = re.compile(rb"(?<!\\)\)(?=\s*-\s*(?:\d{3,}(?:\.\d*)?)\s*\()")
_INLINE_IMAGE_END = re.compile(rb"\sEI(?![^\s\x00])")
_ESCAPE = re.compile(rb"\\([0-7]{1,3}|\r\n|.)", re.DOTALL)
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def kerned_joined(data: bytes) -> bytes:
    """`data` with the strings of a TJ array that a small kerning separates joined, and
    a space ending each literal string that a word's gap separates from the next."""
    return _SPACED.sub(b" )", _KERNED.sub(b"", data))


def strings(data: bytes) -> Iterator[bytes]:
    """The strings (decoded) and comments of PDF syntax (an object, a content stream):
    where its text is."""
    position = 0
    while match := _SYNTAX.search(data, position):
        token, position = match.group(), match.end()
        if token == b"(":
            position = _string_end(data, match.start())
            yield _unescape(data[match.start() + 1 : position])
        elif token.startswith(b"("):
            yield _unescape(token[1:-1])
        elif token.startswith(b"%"):
            yield token[1:]
        elif token == b"BI":
            end = _INLINE_IMAGE_END.search(data, position)
            position = end.end() if end else len(data)
        elif token != b"<<":
            yield _unhex(token[1:-1])


def _string_end(data: bytes, start: int) -> int:
    """Just past the literal string that opens at `start`, its parentheses balanced."""
    depth, index = 0, start
    while index < len(data):
        char = data[index]
        if char == 0x5C:  # backslash: the next byte is escaped
            index += 1
        elif char == 0x28:
            depth += 1
        elif char == 0x29:
            depth -= 1
            if not depth:
                return index + 1
        index += 1
    return len(data)


def string_bytes(token: bytes) -> bytes:
    """The bytes a string token, literal "(...)" or hexadecimal "<...>", stands for."""
    return _unhex(token[1:-1]) if token[:1] == b"<" else _unescape(token[1:-1])


def _unescape(body: bytes) -> bytes:
    def one(match: re.Match[bytes]) -> bytes:
        code = match.group(1)
        if code[0] in b"01234567":
            return bytes([int(code, 8) & 0xFF])
        if code in (b"\r", b"\n", b"\r\n"):  # a line continuation
            return b""
        return _ESCAPES.get(code, code)

    return _ESCAPE.sub(one, body)


def _unhex(body: bytes) -> bytes:
    digits = bytes(byte for byte in body if byte not in b" \t\r\n\f\x00")
    try:
        return bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode("ascii"))
    except (UnicodeDecodeError, ValueError):  # not hex after all: searched as it stands
        return body


def syntax_streams(doc: pymupdf.Document) -> set[int]:
    """Streams written in PDF syntax, whose text is in strings and comments: page and
    form contents, tiling patterns, Type 3 glyphs, CMaps, PostScript functions, object
    streams. Identified by type or by where they are referenced."""
    streams = {xref for page in doc for xref in page.get_contents()}
    for xref in range(1, doc.xref_length()):
        if (
            doc.xref_get_key(xref, "Subtype")[1] == "/Form"
            or doc.xref_get_key(xref, "PatternType")[1] == "1"
            or doc.xref_get_key(xref, "FunctionType")[1] == "4"
            or doc.xref_get_key(xref, "Type")[1] in ("/CMap", "/ObjStm")
        ):
            streams.add(xref)
        for key in ("ToUnicode", "CharProcs"):
            streams.update(_references(doc, xref, key))
    return streams


def _references(doc: pymupdf.Document, xref: int, key: str) -> list[int]:
    """The objects that `key` of `xref` refers to, directly or through a dictionary."""
    kind, value = doc.xref_get_key(xref, key)
    if kind == "xref":
        target = int(value.split()[0])
        if not doc.xref_is_stream(target):  # an indirect dictionary (of Type 3 glyphs)
            value = doc.xref_object(target, compressed=True)
    elif kind != "dict":
        return []
    return [int(number) for number in re.findall(r"(\d+) \d+ R", value)]
