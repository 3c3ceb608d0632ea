"""Form XObjects draw their text with the spacing they set themselves, after MuPDF's
filter (Django-free).

Character and word spacing, horizontal scaling, leading, rise and render mode are part
of the graphics state: a form XObject inherits them from where it is drawn. MuPDF's
content filter, which every redaction and every cleaning save runs, rewrites each form
as if it started from the default text state, so it drops a form's own "0 Tw" or
"0 Tc" as saying nothing; the form then draws with whatever the page last set. A CMS
form's footer, a form that resets word spacing to 0 under a page that last set it to
-0.278, ran its words together in the release ("FormCMS-1490S(version01/18)"), which
the word-based gate did not see.

`explicit_text_state` records, before a save, which of these operators the document's
forms set before they first show text; `restore_text_state` then draws each form that
shows text, in the saved file, as `q <those operators at their defaults> /Form Do Q`:
the state the filter assumed when it rewrote the form (the q and Q keep the reset from
the content after it). A redaction gives a form it rewrites a new object and a new
name, so this is recorded for the document, not per form: a form of the same document
that relied on inheriting one of these from the page would draw with the default.
"""

from __future__ import annotations

import re

import pymupdf

from review.pdf.content_streams import read_content
from review.pdf.content_tokens import DRAWS, SHOWS, TOKEN_END, operations
from review.pdf.resources import form_xref

# The text state operators a form can set, with their default values.
DEFAULTS = {b"Tc": b"0", b"Tw": b"0", b"Tz": b"100", b"TL": b"0", b"Ts": b"0", b"Tr": b"0"}
_TEXT_STATE = re.compile(rb"(?<![^\x00\t\n\f\r ()<>\[\]{}/%])T[cwzLsr]" + TOKEN_END)
# Bytes before a "Do" searched for the text state set for it.
_WINDOW = 200


def explicit_text_state(doc: pymupdf.Document) -> frozenset[bytes]:
    """The text state operators that forms drawn on the pages set before they first
    show text, or that are set for them where they are drawn ("q 0 Tw /Fm0 Do Q", as
    `restore_text_state` writes it and as some producers do)."""
    found: set[bytes] = set()
    forms = {xref for page in doc for xref, *_ in page.get_xobjects()}
    for xref in forms:
        found |= _set_before_text(read_content(doc, xref) or b"")
    for xref in forms | {xref for page in doc for xref in page.get_contents()}:
        found |= _set_for_forms(read_content(doc, xref) or b"")
    return frozenset(found)


def restore_text_state(pdf: bytes, operators: frozenset[bytes], save_options: dict) -> bytes:
    """`pdf` with each form that shows text drawn from the defaults of `operators`,
    saved with `save_options` (which must not clean content: that would drop them
    again); `pdf` itself when there is nothing to restore."""
    if not operators:
        return pdf
    reset = b" ".join(DEFAULTS[op] + b" " + op for op in sorted(operators))
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    try:
        shows_text: dict[int, bool] = {}
        rewritten: set[int] = set()
        for page in doc:
            owners = [(page.xref, xref) for xref in page.get_contents()]
            owners += [(xref, xref) for xref, *_ in page.get_xobjects()]
            for owner, stream in owners:
                if stream not in rewritten:
                    rewritten.add(stream)
                    _reset_around_forms(doc, owner, stream, reset, shows_text)
        return doc.tobytes(**save_options) if rewritten else pdf
    finally:
        doc.close()


def _reset_around_forms(
    doc: pymupdf.Document, owner: int, stream: int, reset: bytes, shows_text: dict[int, bool]
) -> None:
    """Rewrite each "/Name Do" in `stream` (whose resources are those of `owner`) that
    draws a form showing text as "q `reset` /Name Do Q"."""
    data = read_content(doc, stream)
    if not data or b"Do" not in data:
        return

    def wrapped(match: re.Match[bytes]) -> bytes:
        value = doc.xref_get_key(owner, "Resources/XObject/" + match[1].decode("latin-1"))[1]
        form = form_xref(doc, value)
        if form is None:
            return match[0]
        if form not in shows_text:
            content = read_content(doc, form)
            shows_text[form] = content is not None and b"BT" in content
        return b" q " + reset + b" " + match[0] + b" Q " if shows_text[form] else match[0]

    changed = DRAWS.sub(wrapped, data)
    if changed != data:
        doc.update_stream(stream, changed)


def _set_for_forms(data: bytes) -> set[bytes]:
    """The text state operators `data` sets just before it draws an XObject: between
    the last "q" before a "Do" and the "Do"."""
    found: set[bytes] = set()
    if b"Do" not in data or not _TEXT_STATE.search(data):
        return found
    for draw in DRAWS.finditer(data):
        window = data[max(0, draw.start() - _WINDOW) : draw.start()]
        saved = window.rfind(b"q")
        if saved >= 0:
            found.update(m[0] for m in _TEXT_STATE.finditer(window, saved))
    return found


def _set_before_text(data: bytes) -> set[bytes]:
    """The text state operators `data` runs before its first text-showing one."""
    if b"BT" not in data or not _TEXT_STATE.search(data):
        return set()  # not lexed: most forms set none, and some are large
    found = set()
    for operation in operations(data):
        if operation.operator in SHOWS:
            break
        if operation.operator in DEFAULTS:
            found.add(operation.operator)
    return found
