"""Content streams written out for MuPDF's content filter (Django-free):
`spell_out_for_the_filter` writes out the operators that the filter, which every
redaction runs, would draw otherwise (quote operators, moves back to the start of a
line, colours it takes for the last one); `content_tokens` reads them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pymupdf

from review.pdf.carried_offsets import CARRIED_OFFSET, offsets_carried_forward
from review.pdf.content_streams import contents_as_one, read_content
from review.pdf.content_tokens import NAME, SHOWS, TOKEN_END, WHITE, operations
from review.pdf.empty_clips import EMPTY_CLIP, empty_clips_spelled_out
from review.pdf.painted_clips import PAINTED_CLIP, painted_clips_spelled_out
from review.pdf.size_changes import (
    FontWidths,
    Widths,
    may_change_size,
    resources_of,
    sizes_placed,
    written_number,
)

# A quote operator follows its string operand; apostrophes inside strings do not.
_QUOTE_AFTER_STRING = re.compile(rb"[)>][\x00\t\n\f\r ]*['\"]")
# User space units: `line_starts_spelled_out` moves by this, as little as the filter's
# single-precision arithmetic still tells apart from no move up to some 8,000 units.
_NUDGE = 1e-3
# A colour space named in the resources set for filling or stroking ("/Cs8 cs"), not a
# device space or /Pattern, and what sets a colour: where `colours_spelled_out` has work.
_NAMED_SPACE = re.compile(
    rb"/(?!Device(?:Gray|RGB|CMYK)\b|Pattern\b)" + NAME[1:] + WHITE + rb"*(?:cs|CS)" + TOKEN_END
)
_COLOURS_IN_A_SPACE = (b"sc", b"scn", b"SC", b"SCN")
_COLOURS = (*_COLOURS_IN_A_SPACE, b"g", b"rg", b"k", b"G", b"RG", b"K")
_COLOUR_NUDGE = 1e-5
# An operator that may set the leading, as far as a pattern can tell.
_SETS_LEADING = re.compile(rb"T[LD]" + TOKEN_END)
# What sets the leading ("TL", and "TD" by its second operand), "T*", and "Q" (which may
# restore a leading of 0), for `_t_star_without_leading`. A number starts a token and is
# read once: tried from every digit of a long run of digits and split every way, a run
# of thousands (an inline image's dark grey bytes) took hours.
_LEADING_OPS = re.compile(
    rb"(?<![0-9.+-])([-+]?+(?:\d++(?:\.\d*+)?|\.\d++))[\x00\t\n\f\r ]*+T[LD](?![A-Za-z*])"
    rb"|T\*|(?<![A-Za-z0-9_.])Q(?![A-Za-z0-9_.])"
)
# What sets a text object's line matrix ("Td", "TD", "Tm", and "BT" and "ET" around
# it): for `_returns_to_a_line`. Found by the operator, then its operands read back: a
# pattern that matched the six numbers of "Tm" took seconds on a book (pdf.js's
# freeculture.pdf).
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_LINE_MOVES = re.compile(rb"(?<![A-Za-z])(T[dDm]|BT|ET)" + TOKEN_END)
_OPERANDS_REACH = 160  # bytes: six numbers as long as any producer writes them
# A text object that may show text before any move ("BT /F0 9 Tf [...] TJ", placed by
# "cm"), as far as a pattern can tell: where `text_objects_placed` has work.
_SHOWN_UNPLACED = re.compile(
    rb"(?<![A-Za-z0-9*/])BT(?:"
    + WHITE
    + rb"*(?:"
    + NAME
    + rb"|[-+]?(?:\d+(?:\.\d*)?|\.\d+)|(?!(?:T[dDm*]|ET|BI)(?![A-Za-z*'\"]))[A-Za-z][A-Za-z*]*)"
    + TOKEN_END
    + rb")*+"  # possessive: a shorter run of operands and operators is no show either
    + WHITE
    + rb"*[\[(<]"
)
_MOVES = (b"Td", b"TD", b"Tm", b"T*", b"'", b'"')
_INLINE_IMAGE = re.compile(rb"(?<![A-Za-z0-9_.*'\"])BI" + TOKEN_END)


def spell_out_for_the_filter(doc: pymupdf.Document) -> set[int]:
    """Rewrite the content streams of every page, and the form XObjects they draw, where
    MuPDF 1.28's content filter, which every redaction and every save that cleans
    content runs, would draw them differently:

    - text shown with "'" or '"' (move to the next line, then show) becomes "T*" and
      "Tj" ('"' sets its word and character spacing first with "Tw" and "Tc"): the
      filter turned the pending line move before such an operator into "TD", which also
      sets the leading, so every later line landed elsewhere, often off the page
      (pdf.js's bug1337429.pdf lost all its text);
    - a move to the start of the line that moves no further ("0 0 Td", "0 0 TD", "T*"
      with a leading of 0, "Tm" with the line's own matrix) becomes "Tm" with the line's
      matrix nudged: the filter took it for no move at all, but after text is shown it
      returns to where the line began. Typeset formulas draw a glyph over another that
      way ("ħ" as a bar and an "h": PyMuPDF's test_3780.pdf lost it to an "h" beside a
      bar), and tagged LaTeX sets the same matrix again after a space glyph and a change
      of font (pdf.js's bug1997343.pdf: the rest of the line moved a space right). So
      does a move back to any line text was shown on in the text object: once the
      glyphs drawn since were redacted, the filter took it for none and carried their
      width on from where the last text ended (iText's iPhone guide, "2.028 0 TD (i)Tj
      -2.028 0 TD");
    - a text object that shows text before any move (placed by "cm") starts with "0 0
      Td": where the last glyphs of a text object were redacted, the filter carried
      their width into the next text object's first show, which then landed that far
      along (a Chinese invoice's table head moved 5 pt right for a mark on its title,
      pdf2docx's demo-table-lattice-one-cell.pdf);
    - the first colour set after a colour space named in the resources ("/Cs8 cs 0
      scn") is nudged (`colours_spelled_out`): the filter writes the "cs" but leaves out
      a colour equal to the last one it wrote, and "cs" alone sets the space's initial
      colour, full ink for a separation (an Adobe technical note, pdfcpu's
      5116.DCT_Filter.pdf: white boxes of tint 0 under its logo and address came out
      black);
    - the numbers that end a "TJ" move into the next text shown where the font size
      changed in between (`carried_offsets`), and the text after such a change is
      placed with "Tm" where it is drawn (`size_changes`);
    - a clip to no path gets an empty rectangle (`empty_clips`);
    - a path that clips and is painted is painted, then made the clip with "W n"
      (`painted_clips`).

    Returns the streams that draw an inline image (for `inline_images`, which would
    otherwise read every stream again)."""
    streams: dict[int, float | None] = {}
    resources: dict[int, object] = {}  # the resources each stream names its fonts in
    fresh: set[int] = set()  # the streams that start with the default text state
    for page in doc:
        leading: float | None = 0.0  # a page starts with no leading
        for n, xref in enumerate(contents_as_one(doc, page)):
            streams.setdefault(xref, leading)
            resources.setdefault(xref, resources_of(doc, page))
            if n == 0:
                fresh.add(xref)
            # Streams that could not be made one run on as one: the next starts with
            # this one's leading, 0 still where no stream before it sets one.
            if leading is not None and _SETS_LEADING.search(read_content(doc, xref) or b""):
                leading = None
        for form in page.get_xobjects():
            streams.setdefault(form[0], None)  # a form inherits it
            resources.setdefault(form[0], resources_of(doc, page, form[0]))
    inline_images: set[int] = set()
    widths = FontWidths(doc)
    try:
        for xref, leading in streams.items():
            fonts = widths.of(resources[xref])
            _spell_out(doc, xref, leading, fonts, xref in fresh, inline_images)
    finally:
        widths.close()
    return inline_images


def _spell_out(
    doc: pymupdf.Document,
    xref: int,
    leading: float | None,
    fonts: Callable[[bytes], Widths | None],
    fresh: bool,
    inline_images: set[int],
) -> None:
    """One stream of `spell_out_for_the_filter`; `fonts`: its fonts' widths by name;
    `fresh`: whether it starts with the default text state."""
    data = read_content(doc, xref)
    if not data:
        return
    if _INLINE_IMAGE.search(data):
        inline_images.add(xref)
    spelled = quotes_spelled_out(data) if _QUOTE_AFTER_STRING.search(data) else data
    if may_change_size(spelled):
        spelled = sizes_placed(spelled, operations(spelled), fonts, fresh=fresh)
    if _returns_to_a_line(spelled) or (b"T*" in spelled and _t_star_without_leading(spelled)):
        spelled = line_starts_spelled_out(spelled, leading)
    if _NAMED_SPACE.search(spelled):
        spelled = colours_spelled_out(spelled)
    if _SHOWN_UNPLACED.search(spelled):
        spelled = text_objects_placed(spelled)
    if CARRIED_OFFSET.search(spelled):
        spelled = offsets_carried_forward(spelled, operations(spelled))
    if EMPTY_CLIP.search(spelled):
        spelled = empty_clips_spelled_out(spelled, operations(spelled))
    if PAINTED_CLIP.search(spelled):
        spelled = painted_clips_spelled_out(spelled, operations(spelled))
    if spelled != data:
        doc.update_stream(xref, spelled)


def text_objects_placed(data: bytes) -> bytes:
    """`data` with "0 0 Td" after each "BT" whose text object shows text before any move
    (`spell_out_for_the_filter`)."""
    out: list[bytes] = []
    cursor = 0
    opened: int | None = None  # where the last "BT" ended, until its text object moves
    for op in operations(data):
        if op.operator == b"BT":
            opened = op.end
        elif opened is not None and op.operator in (*_MOVES, b"ET"):
            opened = None
        elif opened is not None and op.operator in SHOWS:
            out.append(data[cursor:opened] + b" 0 0 Td")
            cursor, opened = opened, None
    out.append(data[cursor:])
    return b"".join(out)


def line_starts_spelled_out(data: bytes, leading: float | None = None) -> bytes:
    """`data` with each move to the start of the line that moves no further written as
    "Tm" with the line's matrix (`spell_out_for_the_filter`). `leading`: the leading in
    force where `data` starts, None when not known (then "T*" is left until "TL" or
    "TD" sets it)."""
    out: list[bytes] = []
    cursor = 0
    line: list[float] | None = None  # the text line matrix, when known
    saved: list[float | None] = []
    shown = False  # text shown since the line matrix was last set: a move back is one
    lines_shown: list[list[float]] = []  # the line matrices text was shown at, in this object
    for op in operations(data):
        numbers = _floats(op.operands)
        replacement = None
        if op.operator == b"q":
            saved.append(leading)
        elif op.operator == b"Q":
            leading = saved.pop() if saved else None
        elif op.operator in SHOWS:
            shown = True
            if line is not None and _among(line, lines_shown) is None:
                lines_shown.append(line)
        elif op.operator == b"BT":
            line, shown, lines_shown = list(_IDENTITY), False, []
        elif op.operator == b"ET":
            line = None
        elif op.operator == b"TL":
            leading = numbers[0] if numbers and len(numbers) == 1 else None
        elif op.operator == b"Tm":
            matrix = numbers if numbers and len(numbers) == 6 else None
            back = _among(matrix, lines_shown) if matrix is not None else None
            if back is not None:  # the line again, or one before
                replacement = _nudged(back, len(out))
            line, shown = matrix, False
        elif op.operator in (b"Td", b"TD", b"T*"):
            if op.operator == b"T*":
                move = None if leading is None else (0.0, -leading)
            else:
                move = (numbers[0], numbers[1]) if numbers and len(numbers) == 2 else None
                if op.operator == b"TD":
                    leading = None if move is None else -move[1]
            if line is None or move is None:
                line = None
            elif move == (0.0, 0.0) and not shown:
                if op.operator == b"TD":
                    replacement = b"0 TL"  # no move, but the leading it sets
            elif move == (0.0, 0.0):
                replacement = _nudged(line, len(out))
                if op.operator == b"TD":
                    replacement = b"0 TL " + replacement
            else:
                tx, ty = move
                a, b, c, d, e, f = line
                line = [a, b, c, d, tx * a + ty * c + e, tx * b + ty * d + f]
                back = _among(line, lines_shown)
                if back is not None:  # back to a line text was shown on
                    replacement = _nudged(back, len(out))
                    if op.operator == b"TD":
                        replacement = b"%s TL %s" % (written_number(-ty or 0.0), replacement)
            shown = False
        if replacement is not None:
            out.append(data[cursor : op.start] + replacement)
            cursor = op.end
    out.append(data[cursor:])
    return b"".join(out)


def colours_spelled_out(data: bytes) -> bytes:
    """`data` with the first colour set after each colour space named in the resources
    ("/Cs8 cs", "/Cs8 CS") nudged (`spell_out_for_the_filter`): its first component
    moved by 0.00001 (relative beyond 1), or by a few times that, towards the middle of
    a 0 to 1 range, to a colour the stream sets nowhere else, so the filter cannot take
    it for the one it last wrote."""
    out: list[bytes] = []
    cursor = 0
    named = {True: False, False: False}  # by filling: a named space set, no colour since
    used: dict[bool, set[tuple[float, ...]]] = {True: set(), False: set()}
    for op in operations(data):
        if op.operator in (b"cs", b"CS"):
            space = op.operands[0] + b" " + op.operator if op.operands else b""
            named[op.operator == b"cs"] = _NAMED_SPACE.fullmatch(space) is not None
        elif op.operator in _COLOURS:
            filling = op.operator.islower()
            numbers = _floats(op.operands)  # None for a pattern, [] for none at all
            if numbers:
                if named[filling] and op.operator in _COLOURS_IN_A_SPACE:
                    numbers = _colour_nudged(numbers, used[filling])
                    nudged = b" ".join(map(written_number, numbers))
                    out.append(data[cursor : op.start] + nudged + b" ")
                    cursor = op.end - len(op.operator)
                used[filling].add(_colour_key(numbers))
            named[filling] = False
    out.append(data[cursor:])
    return b"".join(out)


def _colour_nudged(numbers: list[float], used: set[tuple[float, ...]]) -> list[float]:
    first = numbers[0]
    step = max(_COLOUR_NUDGE, abs(first) * _COLOUR_NUDGE) * (1 if first < 0.5 else -1)
    times = 1
    while _colour_key(nudged := [first + times * step, *numbers[1:]]) in used:
        times += 1
    return nudged


def _colour_key(numbers: list[float]) -> tuple[float, ...]:
    """A colour as `written_number` writes it."""
    return tuple(round(v, 6) for v in numbers)


def _t_star_without_leading(data: bytes) -> bool:
    """Whether some "T*" may come with a leading of 0: none set before it since the
    stream began or since the last "Q". Read by pattern, not parsed (the parse costs
    some 0.4 s a megabyte): a string or name that looks like "T*" or "Q" only makes
    the answer yes. A producer may mean such a "T*" as a move back to the line's start
    (EFSA's journal, in camelot's eu-016.pdf: after a tab, so the footer moved a tab's
    width right)."""
    leading_set = False
    for match in _LEADING_OPS.finditer(data):
        if match[1] is not None:
            leading_set = float(match[1]) != 0
        elif match[0] == b"Q":
            leading_set = False
        elif not leading_set:
            return True
    return False


def _among(line: list[float], lines: list[list[float]]) -> list[float] | None:
    """The one of `lines` that `line` is, as the filter's single-precision arithmetic may
    find it ("2.028 0 TD" then "-2.028 0 TD"), or None. A move back is nudged off that
    line, not off where the move lands: a move a first pass of the filter wrote as 0.0002
    (a nudge), nudged back the other way, landed on the filter's own single-precision
    figure for the line, and the second pass dropped it (Virginia's form instructions:
    a line after a tab glyph moved a tab right)."""
    return next(
        (
            other
            for other in lines
            if all(
                abs(v - w) <= _NUDGE / 10 * max(1.0, abs(v))
                for v, w in zip(line, other, strict=True)
            )
        ),
        None,
    )


def _returns_to_a_line(data: bytes) -> bool:
    """Whether a "Td", "TD" or "Tm" may set a text object's line matrix back to one it
    had since its "BT". Read by pattern, the operands of "Tm" read back (the parse costs
    some 0.4 s a megabyte): "T*" is not followed, and a string or name that looks like
    a move only makes the answer yes."""
    line: tuple[float, ...] | None = _IDENTITY
    visited: set[tuple[float, ...]] = {_IDENTITY}
    for match in _LINE_MOVES.finditer(data):
        operator, start = match[1], match.start()
        if operator in (b"BT", b"ET"):
            line, visited = _IDENTITY, {_IDENTITY}
            continue
        count = 6 if operator == b"Tm" else 2
        numbers = _floats(data[max(0, start - _OPERANDS_REACH) : start].split()[-count:])
        if not numbers or len(numbers) != count:
            line = None
        elif operator == b"Tm":
            line = tuple(numbers)
        elif line is not None:
            tx, ty = numbers
            a, b, c, d, e, f = line
            line = (a, b, c, d, tx * a + ty * c + e, tx * b + ty * d + f)
        if line is None:
            continue
        key = tuple(round(v, 3) for v in line)
        if key in visited:
            return True
        visited.add(key)
    return False


def _nudged(line: list[float], parity: int) -> bytes:
    """The line's matrix as a "Tm", moved by far less than a pixel one way or the other
    by `parity`: the filter drops a "Tm" equal to the last one it wrote."""
    nudge = _NUDGE if parity % 2 else -_NUDGE
    return b" ".join(written_number(v) for v in [*line[:4], line[4] + nudge, line[5]]) + b" Tm"


def quotes_spelled_out(data: bytes) -> bytes:
    """`data` with each "'" and '"' operator written out as "T*" and "Tj"."""
    out: list[bytes] = []
    cursor = 0  # end of the previous operation
    for op in operations(data):
        if op.operator == b"'" and len(op.operands) == 1:
            # White space first: the operator before may end where the string starts
            # ("0.78 Tw(These are files)'" in PyMuPDF's own manual).
            (text,) = op.operands
            out.append(data[cursor : op.start] + b" T* " + text + b" Tj")
        elif op.operator == b'"' and len(op.operands) == 3:
            word, char, text = op.operands
            out.append(
                data[cursor : op.start] + b" " + word + b" Tw " + char + b" Tc T* " + text + b" Tj"
            )
        else:
            out.append(data[cursor : op.end])
        cursor = op.end
    out.append(data[cursor:])
    return b"".join(out)


def _floats(operands: list[bytes]) -> list[float] | None:
    try:
        return [float(x) for x in operands]
    except ValueError:
        return None
