"""Inline images give their colour space as a name under /CS (Django-free).

MuPDF's content filter, which every redaction and every cleaning save runs, writes an
inline image's colour space (other than a device space) by the name it read under /CS,
the abbreviated key: one given under /ColorSpace, or as an array ("BI /CS [/I /RGB 255
(...)] ... ID", an indexed palette), came out as "/CS/", which no reader can draw, and
the release lost the picture (iText's inlineImages03.pdf: a light bulb). So before any
such save each is given under /CS, an array put in the /ColorSpace resources of the
page or form whose stream holds it (its abbreviations spelled out) and named there.

The filter also writes an inline image in a Lab colour space with a /D it computed from
its own scaled copy of the decode ranges ("/D[0 .0001 .50393 .50394 ...]"), which draws
every pixel black: such an image is moved into an image XObject of the same stream's
resources, drawn with "Do" where it stood (the same unit square under the same matrix),
which the filter leaves alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

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
_LAB = re.compile(r"\s*\[\s*/Lab\b")
# An inline image's abbreviated keys and filter names, spelled out as an image XObject's.
_IMAGE_KEYS = {
    b"/W": b"/Width",
    b"/H": b"/Height",
    b"/BPC": b"/BitsPerComponent",
    b"/CS": b"/ColorSpace",
    b"/D": b"/Decode",
    b"/DP": b"/DecodeParms",
    b"/F": b"/Filter",
    b"/IM": b"/ImageMask",
    b"/I": b"/Interpolate",
    b"/L": b"/Length",
}
_FILTERS = {
    b"/AHx": b"/ASCIIHexDecode",
    b"/A85": b"/ASCII85Decode",
    b"/LZW": b"/LZWDecode",
    b"/Fl": b"/FlateDecode",
    b"/RL": b"/RunLengthDecode",
    b"/CCF": b"/CCITTFaxDecode",
    b"/DCT": b"/DCTDecode",
}
_ENCODING = (b"/Filter", b"/DecodeParms")  # what PyMuPDF's update_stream drops
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}
_ESCAPE = re.compile(rb"\\([0-7]{1,3}|\r\n|[\r\n]|.)", re.S)


def inline_colour_spaces_named(doc: pymupdf.Document, streams: set[int]) -> None:
    """Name the colour space of each inline image in `streams` (the page and form
    content streams that draw one) under /CS, arrays as resources (module docstring)."""
    if not streams:
        return  # most documents draw no inline image
    owners = _owners(doc)
    for xref, users in owners.items():
        data = read_content(doc, xref) if xref in streams else None
        if not data or not _NOT_CS.search(data):
            continue
        named: dict[bytes, bytes] = {}  # array, as a resource writes it -> its name
        out: list[bytes] = []
        cursor = 0
        for start, end in _inline_images(data):
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
    for xref, users in owners.items():
        if xref in streams:
            _lab_images_as_objects(doc, xref, users)


def _inline_images(data: bytes) -> Iterator[tuple[int, int]]:
    """Where each inline image of content stream `data` starts ("BI") and ends ("EI")."""
    for start, end, is_operator in lex(data):
        if is_operator and data.startswith(b"BI", start):
            yield start, end


def _owners(doc: pymupdf.Document) -> dict[int, list[int]]:
    """Each page and form content stream -> the objects whose /Resources it uses."""
    owners: dict[int, list[int]] = {}
    for page in doc:
        for xref in page.get_contents():
            owners.setdefault(xref, []).append(page.xref)
        for form in page.get_xobjects():
            owners.setdefault(form[0], [form[0]])
    return owners


def _lab_images_as_objects(doc: pymupdf.Document, xref: int, owners: list[int]) -> None:
    """Each inline image of stream `xref` in a Lab colour space drawn as an image XObject
    put in the resources of `owners` (module docstring)."""
    data = read_content(doc, xref)
    if not data or b"Lab" not in _colour_spaces_text(doc, owners[0]):
        return
    out: list[bytes] = []
    cursor = 0
    for start, end in _inline_images(data):
        image = _inline_image(data, start + 2, end)
        if image is None:
            continue
        entries, samples = image
        space = entries.get(b"/ColorSpace", b"")
        if not space.startswith(b"/"):
            continue  # no colour space: a stencil mask
        kind, value = doc.xref_get_key(
            owners[0], f"Resources/ColorSpace/{space[1:].decode('latin-1')}"
        )
        resolved = doc.xref_object(int(value.split()[0])) if kind == "xref" else value
        if not _LAB.match(resolved):
            continue
        entries[b"/ColorSpace"] = value.encode("latin-1")
        name = _image_object(doc, owners, entries, samples)
        out += [data[cursor:start], b"/" + name + b" Do"]
        cursor = end
    if out:
        doc.update_stream(xref, b"".join(out) + data[cursor:])


def _colour_spaces_text(doc: pymupdf.Document, owner: int) -> bytes:
    """The /ColorSpace resources of `owner` as PDF text, indirect ones spelled out."""
    kind, value = doc.xref_get_key(owner, "Resources/ColorSpace")
    if kind == "xref":
        value = doc.xref_object(int(value.split()[0]))
    spaces = [value]
    for reference in re.findall(r"(\d+) 0 R", value):
        spaces.append(doc.xref_object(int(reference)))
    return "".join(spaces).encode("latin-1")


def _inline_image(data: bytes, start: int, end: int) -> tuple[dict[bytes, bytes], bytes] | None:
    """The dictionary of the inline image between `start` (after "BI") and `end` (after
    "EI"), its keys and filters spelled out as an image XObject's, and its samples; None
    where it cannot be read whole."""
    tokens = []
    for token_start, token_end, _ in lex(data[start:end]):
        token = data[start + token_start : start + token_end]
        if token == b"ID":
            break
        tokens.append(token)
    else:
        return None
    entries: dict[bytes, bytes] = {}
    index = 0
    while index + 1 < len(tokens):
        key, depth, value = tokens[index], 0, []
        for token in tokens[index + 1 :]:
            depth += {b"[": 1, b"<<": 1, b"]": -1, b">>": -1}.get(token, 0)
            value.append(_FILTERS.get(token, token) if key in (b"/F", b"/Filter") else token)
            if depth <= 0:
                break
        if depth != 0 or not key.startswith(b"/"):
            return None
        entries[_IMAGE_KEYS.get(key, key)] = b" ".join(value)
        index += 1 + len(value)
    samples_start = start + token_end + 1  # "ID" and one white-space byte
    samples = data[samples_start : end - 3]  # up to the white space before "EI"
    length = entries.pop(b"/Length", b"")
    if length.isdigit():
        samples = data[samples_start : samples_start + int(length)]
    return entries, samples


def _image_object(
    doc: pymupdf.Document, owners: list[int], entries: dict[bytes, bytes], samples: bytes
) -> bytes:
    """A new image XObject of `entries` and the encoded `samples`, named in the /XObject
    resources of each of `owners`; its name."""
    image = doc.get_new_xref()
    plain = {key: value for key, value in entries.items() if key not in _ENCODING}
    body = b"".join(key + b" " + value + b" " for key, value in plain.items())
    doc.update_object(image, "<</Type/XObject/Subtype/Image " + body.decode("latin-1") + ">>")
    doc.update_stream(image, samples, compress=False)  # drops /Filter: set again below
    for key in _ENCODING:
        if key in entries:
            doc.xref_set_key(image, key[1:].decode(), entries[key].decode("latin-1"))
    number = 0
    while any(
        doc.xref_get_key(owner, f"Resources/XObject/InlineLab{number}")[0] != "null"
        for owner in owners
    ):
        number += 1
    for owner in owners:
        put_at(doc, owner, ("Resources", "XObject", f"InlineLab{number}"), f"{image} 0 R")
    return f"InlineLab{number}".encode()


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
