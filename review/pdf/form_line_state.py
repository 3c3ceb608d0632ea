"""Form XObjects stroke with the line state they set themselves, after MuPDF's filter
(Django-free).

The line width, cap, join, miter limit and dash pattern are part of the graphics
state: a form XObject inherits them from where it is drawn. MuPDF's content filter,
which every redaction and every cleaning save runs, rewrites each form as if it started
from the default state, so it drops a form's own "0 J" or "1 w" as saying nothing; the
form then strokes with whatever its caller set. openhtmltopdf starts each page with
"2 J" (square caps) and draws an SVG's dashed border in a form that says "0 J": any
burn-in, on any page, nearly closed the gaps between its dashes
(openhtmltopdf's issue-493-svg-styles.pdf).

`line_state_set_for_forms` writes, before the filter runs, around each "Do" of such a
form, the defaults of the line state operators the form sets before it first strokes:
"q 0 J /Fm0 Do Q". The filter keeps them in the caller wherever the caller's state
differs, and the form then strokes as it said. A form that sets none of them keeps
inheriting its caller's.
"""

from __future__ import annotations

import re

import pymupdf

from review.pdf.content_streams import read_content
from review.pdf.content_tokens import DRAWS, TOKEN_END, operations
from review.pdf.resources import form_xref
from review.pdf.user_space import FILL_AND_STROKES, STROKES

# The line state operators, with their default values.
DEFAULTS = {b"w": b"1", b"J": b"0", b"j": b"0", b"M": b"10", b"d": b"[] 0"}
# What uses the line state: a stroke, or a form drawn, which inherits it.
_USES = (*STROKES, *FILL_AND_STROKES, b"Do")
# Where a form may set its line state: where `_reset` has work.
_LINE_STATE = re.compile(rb"(?<![^\x00\t\n\f\r )\]>])[wJjMd]" + TOKEN_END)


def line_state_set_for_forms(doc: pymupdf.Document) -> None:
    """Write the defaults of what each form drawn on the pages sets of the line state
    before it strokes around each "Do" that draws it (module docstring). Every form
    must name its own resources (`resources.name_every_resource`)."""
    forms = {xref for page in doc for xref, *_ in page.get_xobjects()}
    resets = {xref: _reset(read_content(doc, xref) or b"") for xref in forms}
    if not any(resets.values()):
        return
    owners = {(page.xref, xref) for page in doc for xref in page.get_contents()}
    owners |= {(xref, xref) for xref in forms}
    for owner, stream in owners:
        data = read_content(doc, stream)
        if not data or b"Do" not in data:
            continue

        def wrapped(match: re.Match[bytes], owner: int = owner) -> bytes:
            name = match[1].decode("latin-1")
            form = form_xref(doc, doc.xref_get_key(owner, f"Resources/XObject/{name}")[1])
            reset = resets.get(form) if form is not None else None
            # Spaced off: a producer may write the name right after an operator ("0 TL/Fm17").
            return b" q " + reset + b" " + match[0] + b" Q " if reset else match[0]

        changed = DRAWS.sub(wrapped, data)
        if changed != data:
            doc.update_stream(stream, changed)


def _reset(data: bytes) -> bytes:
    """The defaults of the line state operators `data` runs before it first uses the
    line state (strokes, or draws a form), as the operators that set them; empty when
    it sets none first."""
    if not _LINE_STATE.search(data):
        return b""  # not lexed: most forms set none, and some are large
    found: set[bytes] = set()
    for operation in operations(data):
        if operation.operator in _USES:
            break
        if operation.operator in DEFAULTS:
            found.add(operation.operator)
    return b" ".join(DEFAULTS[op] + b" " + op for op in sorted(found))
