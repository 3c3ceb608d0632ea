"""Text set at a new size on a line, placed where it is drawn before MuPDF's content
filter carries a redacted glyph's width over to it (Django-free).

The filter, which every redaction runs, measures each glyph it removes in units of the
font size (and horizontal scaling) in force, and writes their advance as one "TJ" offset
before the next text it keeps, in the size in force *there*. Where the size changed in
between, the rest of the line moved: xhtml2pdf sets one word of a line at 13 points among
words at 7.5 ("Normal Bold Italic Underlined Red Bigger Times Normal"), and with the
line up to "Times" redacted, the last "Normal" landed 16 points left, under the box; a
footnote marker set smaller after a redacted name moves the same way. The gate refused
such releases (`text_moved`).

`sizes_placed` writes, after each change of font size or horizontal scaling on a line
that already shows text, a "Tm" to where the text is drawn anyway, worked out from the
fonts' widths as MuPDF reads them: at a move the filter drops what it held back and
writes the move as it is. The line's next move ("Td", "TD", "T*"), relative to the
line's own matrix, becomes a "Tm" to where it goes (setting the line's matrix again
before it would be a move back to a line text was shown on, which the filter must be
given nudged, and a nudge moves glyphs a rendering's subpixel). Where a width cannot be
read (a Type 3 font, a CMap of codes of more than one length, vertical writing, a font
MuPDF cannot load, spacing a form takes from its caller) the rest of the line is left
as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import pymupdf
from pymupdf import mupdf

from review.pdf.content_tokens import Operation
from review.pdf.syntax import string_bytes
from review.pdf.user_space import numbers_of

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

# What begins a text object, shows text, and sets a size or scaling, as far as bytes
# tell (a string may hold them too): where `sizes_placed` may have work.
_TEXT_EVENTS = re.compile(rb"BT|T[jJ]|T[fz]")
_NEXT_LINE = (b"Td", b"TD", b"T*", b"'", b'"')
# Type 3 fonts are left out: MuPDF reads them with the resources of the content that
# draws them, which a width does not need and without which it fails.
_SIMPLE = {b"Type1", b"MMType1", b"TrueType"}
_IDENTITY_ENCODING = b"Identity-H"


@dataclass(frozen=True)
class Widths:
    """A font's advances as MuPDF reads them: `advance(code)` in thousandths of the
    font size, None for a code it cannot map."""

    bytes_per_code: int
    advance: Callable[[int], float | None]


@dataclass(frozen=True)
class _TextState:
    """The text state as far as the stream tells it; None: unknown (a form, or a stream
    after another, takes what the one before left)."""

    font: Widths | None = None
    size: float | None = None
    scaling: float | None = 1.0
    char_space: float | None = 0.0
    word_space: float | None = 0.0
    leading: float | None = 0.0


_INHERITED = _TextState(scaling=None, char_space=None, word_space=None, leading=None)


def may_change_size(data: bytes) -> bool:
    """Whether `data` may set a font size or horizontal scaling in a text object after
    it showed text."""
    shown = False
    for match in _TEXT_EVENTS.finditer(data):
        event = match[0]
        if event == b"BT":
            shown = False
        elif event in (b"Tj", b"TJ"):
            shown = True
        elif shown:
            return True
    return False


def sizes_placed(
    data: bytes,
    ops: Iterable[Operation],
    fonts: Callable[[bytes], Widths | None],
    *,
    fresh: bool,
) -> bytes:
    """`data` with a "Tm" after each change of size or horizontal scaling on a line that
    shows text before and after it, and the line's next move written as a "Tm" to where
    it goes.
    `ops`: the operations of `data` (`content_tokens.operations`); `fonts`: a font's
    widths by its resource name; `fresh`: whether the stream starts with the default
    text state (a page's first stream does)."""
    state = _TextState() if fresh else _INHERITED
    saved: list[_TextState] = []
    line: Matrix | None = IDENTITY  # the line matrix as the stream sets it; None: unknown
    at: Matrix | None = IDENTITY  # the text matrix; None: unknown
    shown = placed = False  # text shown on the line since it began, or since a "Tm" here
    waiting: int | None = None  # where a "Tm" goes if text is shown before the line ends
    edits: list[tuple[int, int, bytes]] = []  # (start, end, what replaces data[start:end])
    for op in ops:
        operator, operands = op.operator, op.operands
        if operator == b"q":
            saved.append(state)
        elif operator == b"Q":
            state = saved.pop() if saved else _INHERITED
        elif operator == b"BT":
            line = at = IDENTITY
            shown = placed = False
            waiting = None
        elif operator == b"Tm":
            numbers = numbers_of(operands, 6)
            line = at = (
                (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
                if numbers
                else None
            )
            shown = placed = False
            waiting = None
        elif operator in _NEXT_LINE:
            own = line
            line, state = _next_line(op, line, state)
            if placed and operator in (b"Td", b"TD", b"T*") and line is not None:
                sets = (
                    b"%s TL " % written_number(state.leading or 0.0) if operator == b"TD" else b""
                )
                edits.append((op.start, op.end, sets + _tm(line)))
            elif placed and own is not None:
                edits.append((op.start, op.start, _tm(own) + b" "))
            at = line
            shown = placed = False
            waiting = None
            if operator in (b"'", b'"'):
                at = _shown(operands[-1:], at, state) if operands else None
                shown = True
        elif operator in (b"Tf", b"Tz"):
            was = (state.size, state.scaling)
            state = _set(state, op, fonts)
            if (state.size, state.scaling) != was and shown and waiting is None:
                waiting = op.end
        elif operator in (b"Tc", b"Tw", b"TL"):
            state = _set(state, op, fonts)
        elif operator in (b"Tj", b"TJ"):
            if waiting is not None and at is not None:
                edits.append((waiting, waiting, b" " + _tm(at)))
                placed = True
            waiting = None
            at = _shown(operands, at, state)
            shown = True
    out, cursor = [], 0
    for start, end, text in edits:
        out.append(data[cursor:start] + text)
        cursor = end
    out.append(data[cursor:])
    return b"".join(out)


def _set(state: _TextState, op: Operation, fonts: Callable[[bytes], Widths | None]) -> _TextState:
    """The text state after "Tf", "Tz", "Tc", "Tw" or "TL"."""
    if op.operator == b"Tf":
        numbers = numbers_of(op.operands[1:], 1)
        font = fonts(op.operands[0]) if op.operands else None
        return replace(state, font=font, size=numbers[0] if numbers else None)
    numbers = numbers_of(op.operands, 1)
    value = numbers[0] if numbers else None
    if op.operator == b"Tz":
        return replace(state, scaling=value / 100 if value is not None else None)
    if op.operator == b"Tc":
        return replace(state, char_space=value)
    if op.operator == b"Tw":
        return replace(state, word_space=value)
    return replace(state, leading=value)


def _next_line(
    op: Operation, line: Matrix | None, state: _TextState
) -> tuple[Matrix | None, _TextState]:
    """The line matrix after a move to the next line, and the text state ("TD" sets the
    leading, '"' the spacing)."""
    operator, operands = op.operator, op.operands
    if operator == b'"':
        numbers = numbers_of(operands[:2], 2)
        if numbers is None:
            return None, state
        state = replace(state, word_space=numbers[0], char_space=numbers[1])
    if operator in (b"Td", b"TD"):
        numbers = numbers_of(operands, 2)
        if numbers is None:
            return None, state
        x, y = numbers
        if operator == b"TD":
            state = replace(state, leading=-y)
    elif state.leading is None:
        return None, state
    else:
        x, y = 0.0, -state.leading
    return (_moved(line, x, y) if line is not None else None), state


def _shown(operands: list[bytes], at: Matrix | None, state: _TextState) -> Matrix | None:
    """The text matrix after showing `operands` (a string, or the elements of a "TJ"
    array between its brackets); None where a width is unknown."""
    font, size, scaling = state.font, state.size, state.scaling
    char_space, word_space = state.char_space, state.word_space
    if at is None or font is None or size is None or scaling is None:
        return None
    if char_space is None or word_space is None:
        return None
    distance = 0.0  # along the line, in text space
    step = font.bytes_per_code
    for element in operands:
        if element in (b"[", b"]"):
            continue
        if element[:1] in (b"(", b"<"):
            raw = string_bytes(element)
            if len(raw) % step:
                return None
            for i in range(0, len(raw), step):
                code = int.from_bytes(raw[i : i + step], "big")
                width = font.advance(code)
                if width is None:
                    return None
                distance += (width * 0.001 * size + char_space) * scaling
                if code == 32 and step == 1:
                    distance += word_space * scaling
        else:
            try:
                distance -= float(element) * 0.001 * size * scaling
            except ValueError:
                return None
    return _moved(at, distance, 0.0)


def _moved(matrix: Matrix, x: float, y: float) -> Matrix:
    """`matrix` translated by (x, y) in its own space (a text matrix after a move)."""
    a, b, c, d, e, f = matrix
    return (a, b, c, d, e + x * a + y * c, f + x * b + y * d)


def _tm(matrix: Matrix) -> bytes:
    return b" ".join(written_number(v) for v in matrix) + b" Tm"


def written_number(value: float) -> bytes:
    """A number as the content streams spelled out for the filter write it: six places,
    as little as single precision still tells apart on a page."""
    return (b"%.6f" % value).rstrip(b"0").rstrip(b".") or b"0"


class FontWidths:
    """The widths of the fonts a page or form names in its resources, each font read by
    MuPDF once for the document. `close` lets go of the fonts it holds."""

    def __init__(self, doc: pymupdf.Document) -> None:
        self._pdf = mupdf.pdf_document_from_fz_document(doc.this)
        self._loaded: dict[int, Widths | None] = {}
        self._held: list[object] = []  # MuPDF's font descriptors of the CID fonts read

    def of(self, resources: mupdf.PdfObj) -> Callable[[bytes], Widths | None]:
        fonts = mupdf.pdf_dict_gets(resources, "Font")

        def widths(name: bytes) -> Widths | None:
            if name[:1] != b"/":
                return None
            font = mupdf.pdf_dict_gets(fonts, name[1:].decode("latin-1"))
            if not mupdf.pdf_is_dict(font):
                return None
            key = mupdf.pdf_to_num(font)
            if not key:  # a font written in the resources themselves
                return self._read(font)
            if key not in self._loaded:
                self._loaded[key] = self._read(font)
            return self._loaded[key]

        return widths

    def close(self) -> None:
        for desc in self._held:
            mupdf.ll_pdf_drop_font(desc)
        self._held.clear()

    def _read(self, font: mupdf.PdfObj) -> Widths | None:
        subtype = mupdf.pdf_to_name(mupdf.pdf_dict_gets(font, "Subtype")).encode()
        encoding = mupdf.pdf_to_name(mupdf.pdf_dict_gets(font, "Encoding")).encode()
        if mupdf.pdf_dict_gets(font, "CharProcs").m_internal:
            return None  # drawn by glyph procedures, as Type 3, whatever it says
        if subtype in _SIMPLE:
            step = 1
        elif subtype == b"Type0" and encoding == _IDENTITY_ENCODING:
            step = 2
        else:
            return None
        try:
            desc = mupdf.ll_pdf_load_font(self._pdf.m_internal, None, font.m_internal)
        except Exception:  # noqa: BLE001 - MuPDF raises its own errors for a broken font
            return None
        if desc.wmode != 0:
            mupdf.ll_pdf_drop_font(desc)
            return None
        if step == 1:  # all 256 codes at once, and the font let go
            table = [_advance(desc, code) for code in range(256)]
            mupdf.ll_pdf_drop_font(desc)
            return Widths(1, table.__getitem__)
        self._held.append(desc)
        advances: dict[int, float | None] = {}

        def advance(code: int) -> float | None:
            if code not in advances:
                advances[code] = _advance(desc, code)
            return advances[code]

        return Widths(2, advance)


def _advance(desc: object, code: int) -> float | None:
    cid = mupdf.ll_pdf_lookup_cmap(desc.encoding, code)  # type: ignore[attr-defined]
    return None if cid < 0 else mupdf.ll_pdf_lookup_hmtx(desc, cid).w


def resources_of(doc: pymupdf.Document, page: pymupdf.Page, form: int | None = None) -> object:
    """The resources a page's content, or a form it draws (by xref), names fonts in: a
    form without its own takes the page's, as MuPDF draws it."""
    own = mupdf.pdf_page_resources(mupdf.pdf_page_from_fz_page(page.this))
    if form is not None:
        pdf = mupdf.pdf_document_from_fz_document(doc.this)
        form_resources = mupdf.pdf_dict_gets(mupdf.pdf_load_object(pdf, form), "Resources")
        if mupdf.pdf_is_dict(form_resources):
            return form_resources
    return own
