"""What a stream's bytes carry that no reader draws (Django-free): bytes past the end of
a Flate stream's data, and a JPEG's metadata and bytes past its end.

A stream whose /Length reaches past its data keeps what followed it in the source:
pdf2image's test_strict.pdf has 1,304 bytes after a font's ToUnicode data, the rest of
the file (its document information, "Writer" and "LibreOffice 6.0", and the trailer),
which every save copied on with the stream, and no search of the decoded data saw. A
JPEG (DCTDecode) carries segments no decoder draws: EXIF (the camera's owner, the place
a photo was taken), XMP, comments, a maker's data, and whatever follows its end.

`drop_leftovers` rewrites such streams without them, byte for byte otherwise (nothing
is decoded and encoded again, so the image is as it was); `leftovers` names what a
stream still carries, for the release gate.
"""

from __future__ import annotations

import zlib

import pymupdf
from pymupdf import mupdf

# JPEG segments a decoder needs: the frame and tables (DQT, DHT, DAC, SOF0-15 but DHT
# and DAC, DRI, DNL), JFIF's APP0 (without its thumbnail), the ICC profile's APP2 (its
# colours) and Adobe's APP14 (how its components are coded). Every other APPn (EXIF and
# XMP in APP1, a maker's data) and COM goes.
_KEPT_APPS = {0xE0, 0xE2, 0xEE}
_APP0, _APP15, _COMMENT = 0xE0, 0xEF, 0xFE
_SOS, _EOI = 0xDA, 0xD9
# Bytes read at a time from a Flate stream, to find where its data ends.
_CHUNK = 1 << 20


def leftovers(doc: pymupdf.Document, xref: int) -> str | None:
    """What the stream `xref` carries that no reader draws ("bytes past its data",
    "JPEG metadata"), or None."""
    cut = _cut(doc, xref)
    return None if cut is None else cut[1]


def drop_leftovers(doc: pymupdf.Document) -> None:
    """Rewrite every stream that carries bytes no reader draws without them."""
    pdf = mupdf.pdf_specifics(doc.this)
    for xref in range(1, doc.xref_length()):
        cut = _cut(doc, xref)
        if cut is not None:
            obj = mupdf.pdf_load_object(pdf, xref)
            # Written as it is coded: the filters and their parameters stay.
            mupdf.pdf_update_stream(pdf, obj, mupdf.fz_new_buffer_from_copied_data(cut[0]), 1)


def _cut(doc: pymupdf.Document, xref: int) -> tuple[bytes, str] | None:
    """The stream's coded bytes without what no reader draws, and what that was; None
    when there is nothing to cut (or the stream is not one this reads: several filters,
    or data that does not decode)."""
    if not doc.xref_is_stream(xref):
        return None
    kind, value = doc.xref_get_key(xref, "Filter")
    if kind == "array" and value.count("/") == 1:
        value = value.strip("[] ")
    if value not in ("/FlateDecode", "/Fl", "/DCTDecode", "/DCT"):
        return None
    try:
        raw = doc.xref_stream_raw(xref)
    except (RuntimeError, ValueError):
        return None
    if not raw:
        return None
    if value in ("/FlateDecode", "/Fl"):
        end = _flate_end(raw)
        if end is None or not raw[end:].strip():
            return None
        return raw[:end], "bytes past its data"
    kept = _jpeg_without_metadata(raw)
    if kept is None or kept == raw:
        return None
    return kept, "JPEG metadata"


def _flate_end(raw: bytes) -> int | None:
    """Where the zlib data `raw` starts with ends, or None when it does not decode to
    its end (a damaged stream is left as MuPDF reads it). Decoded a chunk at a time,
    never kept."""
    inflater = zlib.decompressobj()
    pending, at = b"", 0
    try:
        while not inflater.eof:
            if not pending:
                if at >= len(raw):
                    return None
                pending = raw[at : at + _CHUNK]
                at += len(pending)
            inflater.decompress(pending, _CHUNK)
            pending = inflater.unconsumed_tail
    except zlib.error:
        return None
    return at - len(pending) - len(inflater.unused_data)


def _jpeg_without_metadata(raw: bytes) -> bytes | None:
    """The JPEG `raw` without its metadata segments and what follows its end (EOI), or
    None when its segments cannot be read (left as it is)."""
    if raw[:2] != b"\xff\xd8":
        return None
    kept = [raw[:2]]
    at = 2
    while at + 4 <= len(raw):
        if raw[at] != 0xFF:
            return None
        marker = raw[at + 1]
        if marker == 0xFF:  # fill bytes before a marker
            at += 1
            continue
        if marker == _EOI:
            return b"".join([*kept, raw[at : at + 2]])
        length = int.from_bytes(raw[at + 2 : at + 4], "big")
        if length < 2 or at + 2 + length > len(raw):
            return None
        segment = raw[at : at + 2 + length]
        at += 2 + length
        if marker == _SOS:
            end = _scan_end(raw, at)
            if end is None:
                return None
            kept += [segment, raw[at:end]]
            at = end
            if raw[at + 1] == _EOI:
                return b"".join([*kept, raw[at : at + 2]])
            continue  # another scan (a progressive JPEG) or its tables
        if _APP0 <= marker <= _APP15 and marker not in _KEPT_APPS or marker == _COMMENT:
            continue
        if marker == _APP0:
            jfif = _without_thumbnail(segment)  # None for JFXX: a thumbnail only
            kept += [jfif] if jfif else []
            continue
        kept.append(segment)
    return None


def _scan_end(raw: bytes, at: int) -> int | None:
    """Where the entropy-coded data from `at` ends: the first marker that is neither a
    stuffed zero nor a restart (RST0-7)."""
    while True:
        at = raw.find(b"\xff", at)
        if at < 0 or at + 1 >= len(raw):
            return None
        following = raw[at + 1]
        if following == 0x00 or 0xD0 <= following <= 0xD7 or following == 0xFF:
            at += 1 if following == 0xFF else 2
            continue
        return at


def _without_thumbnail(segment: bytes) -> bytes | None:
    """JFIF's APP0 segment without the thumbnail it may carry (a picture of the whole
    image, what a crop hides included), or None for any other APP0 (JFXX holds a
    thumbnail and nothing else)."""
    if segment[4:9] != b"JFIF\0" or len(segment) < 18:
        return None
    return b"\xff\xe0\x00\x10" + segment[4:16] + b"\x00\x00"
