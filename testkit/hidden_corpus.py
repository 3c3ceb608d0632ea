"""Fixture builders for the hidden-content leak suite: text that no reviewer sees.

Every case is a two-page document: page 0 is ordinary text, page 1 (`HIDDEN_PAGE`)
holds the same ordinary text plus one unique canary (`CANARY` + case name + a
random-looking suffix, letters and digits only) hidden in one way a page can hide text
while still carrying it: outside the crop box, under an opaque fill or image, white on
white, 0.5 pt, clipped away, in an OFF layer, in a hidden annotation, in render mode 3.
Each builder takes `rotated` (page 1 turned 90 degrees) and also builds `control`: the
same document with the hidden text left out (empty string), so a test can prove the
page renders the same with and without the canary, and which words must survive.

Clean documents (nothing hidden; false-alarm probes), owner-password documents and the
word-boundary case for the release gate live here too.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import pymupdf

from review.pdf.redact import RedactionMark
from testkit import corpus, leak_corpus
from testkit.leak_corpus import FILLER, _mark, _new_page

HIDDEN_PAGE = 1
ROTATION = 90
FONT_SIZE = 11
# The crop box leaves a 60 pt strip on each side of the letter page; `_new_page` writes
# its text at x >= 72 and 90 <= y <= 700, well inside it.
CROP = pymupdf.Rect(60, 60, 552, 732)
# Where hidden text goes when nothing else fixes its place: between the filler and the
# footer, with no visible text near it.
HIDDEN_AT = pymupdf.Point(72, 300)
# Wide and tall enough for the longest canary at FONT_SIZE written at HIDDEN_AT.
COVER = pymupdf.Rect(60, 284, 420, 306)

KINDS = (
    "outside_crop_box",
    "covered",
    "invisible",
    "same_colour",
    "tiny",
    "clipped",
    "hidden_layer",
    "hidden_annotation",
)


@dataclass(frozen=True)
class HiddenCase:
    name: str
    kind: str  # one of KINDS
    canary: str
    pdf: bytes
    rotated: bool
    control: bytes  # the same document with the hidden text left out
    page: int = HIDDEN_PAGE


def canary_for(name: str, rotated: bool = False) -> str:
    """`CANARY` + the case name + 8 random-looking characters; ASCII letters and digits."""
    tag = f"{name}-r{ROTATION if rotated else 0}"
    digest = base64.b32encode(hashlib.sha256(tag.encode()).digest()).decode()
    return "CANARY" + name.replace("_", "") + ("r90" if rotated else "") + digest[:8]


# A plant writes `text` (the canary, or "" for the control) into the hidden page.
Plant = Callable[[pymupdf.Document, pymupdf.Page, str], None]


def _document(plant: Plant, text: str, rotated: bool) -> bytes:
    doc = pymupdf.open()
    _new_page(doc)
    page = _new_page(doc)
    plant(doc, page, text)
    if rotated:
        page.set_rotation(ROTATION)
    return doc.tobytes(garbage=1)


def _case(name: str, kind: str, rotated: bool, plant: Plant) -> HiddenCase:
    canary = canary_for(name, rotated)
    return HiddenCase(
        name=name + ("_rotated" if rotated else ""),
        kind=kind,
        canary=canary,
        pdf=_document(plant, canary, rotated),
        rotated=rotated,
        control=_document(plant, "", rotated),
    )


def _write_hidden(page: pymupdf.Page, text: str, **options: object) -> None:
    page.insert_text(HIDDEN_AT, text, fontsize=FONT_SIZE, **options)


def _outside_crop(name: str, rotated: bool, point: tuple[float, float], rotate: int) -> HiddenCase:
    def plant(doc: pymupdf.Document, page: pymupdf.Page, text: str) -> None:
        page.insert_text(point, text, fontsize=FONT_SIZE, rotate=rotate)
        page.set_cropbox(CROP)

    return _case(name, "outside_crop_box", rotated, plant)


# ------------------------------------------------------------------------ leak cases


def outside_crop_left(rotated: bool = False) -> HiddenCase:
    """Running up the left strip (x < 60) between the media box and the crop box."""
    return _outside_crop("outside_crop_left", rotated, (45, 600), rotate=90)


def outside_crop_right(rotated: bool = False) -> HiddenCase:
    return _outside_crop("outside_crop_right", rotated, (590, 600), rotate=90)


def outside_crop_top(rotated: bool = False) -> HiddenCase:
    return _outside_crop("outside_crop_top", rotated, (72, 40), rotate=0)


def outside_crop_bottom(rotated: bool = False) -> HiddenCase:
    return _outside_crop("outside_crop_bottom", rotated, (72, 770), rotate=0)


def outside_media_box(rotated: bool = False) -> HiddenCase:
    """Below the bottom edge of the page; the crop box is the media box."""

    def plant(doc: pymupdf.Document, page: pymupdf.Page, text: str) -> None:
        page.insert_text((72, 840), text, fontsize=FONT_SIZE)

    return _case("outside_media_box", "outside_crop_box", rotated, plant)


def covered_by_rectangle(rotated: bool = False) -> HiddenCase:
    """Whiteout: an opaque white fill, no border, painted after the text."""

    def plant(doc: pymupdf.Document, page: pymupdf.Page, text: str) -> None:
        _write_hidden(page, text)
        page.draw_rect(COVER, color=None, fill=(1, 1, 1), fill_opacity=1)

    return _case("covered_by_rectangle", "covered", rotated, plant)


def covered_by_image(rotated: bool = False) -> HiddenCase:
    """An opaque grey picture (no alpha, no mask) placed after the text."""

    def plant(doc: pymupdf.Document, page: pymupdf.Page, text: str) -> None:
        _write_hidden(page, text)
        grey = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 36, 2), 0)
        grey.clear_with(190)
        page.insert_image(COVER, pixmap=grey, keep_proportion=False)

    return _case("covered_by_image", "covered", rotated, plant)


def covered_by_wide_line(rotated: bool = False) -> HiddenCase:
    """A marker stroke: a black line as wide as the text is tall, drawn after it."""

    def plant(doc: pymupdf.Document, page: pymupdf.Page, text: str) -> None:
        _write_hidden(page, text)
        middle = (COVER.y0 + COVER.y1) / 2
        page.draw_line((COVER.x0, middle), (COVER.x1, middle), color=(0, 0, 0), width=COVER.height)

    return _case("covered_by_wide_line", "covered", rotated, plant)


def white_on_white(rotated: bool = False) -> HiddenCase:
    def plant(doc: pymupdf.Document, page: pymupdf.Page, text: str) -> None:
        _write_hidden(page, text, color=(1, 1, 1))

    return _case("white_on_white", "same_colour", rotated, plant)


def tiny_text(rotated: bool = False) -> HiddenCase:
    """0.5 pt text, alone in the empty middle of the page."""

    def plant(doc: pymupdf.Document, page: pymupdf.Page, text: str) -> None:
        page.insert_text((300, 450), text, fontsize=0.5)

    return _case("tiny_text", "tiny", rotated, plant)


def clipped_text(rotated: bool = False) -> HiddenCase:
    """Shown inside a clipping path (a 10 pt square in the corner) it lies wholly outside.

    Appended to the page's last content stream, which `_new_page` made and which uses
    the /helv font resource it registered.
    """

    def plant(doc: pymupdf.Document, page: pymupdf.Page, text: str) -> None:
        assert any(font[4] == "helv" for font in page.get_fonts())
        xref = page.get_contents()[-1]
        baseline = page.mediabox.height - HIDDEN_AT.y
        block = (
            f"\nq 0 0 10 10 re W n BT /helv {FONT_SIZE} Tf 1 0 0 1 {HIDDEN_AT.x:g} "
            f"{baseline:g} Tm ({text}) Tj ET Q\n"
        )
        doc.update_stream(xref, doc.xref_stream(xref) + block.encode("ascii"))

    return _case("clipped_text", "clipped", rotated, plant)


def hidden_layer(rotated: bool = False) -> HiddenCase:
    """Text in an optional-content group that is OFF in the default configuration."""

    def plant(doc: pymupdf.Document, page: pymupdf.Page, text: str) -> None:
        layer = doc.add_ocg("draft notes", on=False)
        _write_hidden(page, text, oc=layer)

    return _case("hidden_layer", "hidden_layer", rotated, plant)


def _hidden_annotation(
    name: str, rotated: bool, add: Callable[[pymupdf.Page, str], pymupdf.Annot]
) -> HiddenCase:
    def plant(doc: pymupdf.Document, page: pymupdf.Page, text: str) -> None:
        annot = add(page, text)
        annot.set_flags(pymupdf.PDF_ANNOT_IS_HIDDEN)
        annot.update()

    return _case(name, "hidden_annotation", rotated, plant)


def hidden_freetext_annotation(rotated: bool = False) -> HiddenCase:
    return _hidden_annotation(
        "hidden_freetext_annotation",
        rotated,
        lambda page, text: page.add_freetext_annot(COVER, text, fontsize=FONT_SIZE),
    )


def hidden_note_annotation(rotated: bool = False) -> HiddenCase:
    """A sticky note (Text annotation): the canary is its /Contents."""
    return _hidden_annotation(
        "hidden_note_annotation", rotated, lambda page, text: page.add_text_annot((400, 400), text)
    )


def invisible_text(rotated: bool = False) -> HiddenCase:
    """Render mode 3 (neither fill nor stroke), over blank paper, not over an image."""

    def plant(doc: pymupdf.Document, page: pymupdf.Page, text: str) -> None:
        _write_hidden(page, text, render_mode=3)

    return _case("invisible_text", "invisible", rotated, plant)


BUILDERS: tuple[Callable[..., HiddenCase], ...] = (
    outside_crop_left,
    outside_crop_right,
    outside_crop_top,
    outside_crop_bottom,
    outside_media_box,
    covered_by_rectangle,
    covered_by_image,
    covered_by_wide_line,
    white_on_white,
    tiny_text,
    clipped_text,
    hidden_layer,
    hidden_freetext_annotation,
    hidden_note_annotation,
    invisible_text,
)


def case_names() -> list[str]:
    """Every case name: each builder upright and on a page rotated 90 degrees."""
    return [f"{b.__name__}{suffix}" for b in BUILDERS for suffix in ("", "_rotated")]


def build(name: str) -> HiddenCase:
    base = name.removesuffix("_rotated")
    builder = next(b for b in BUILDERS if b.__name__ == base)
    return builder(rotated=name != base)


def visible_words(pdf: bytes) -> list[list[str]]:
    """The words each page shows (crop box clip, as a reader's text tools report them)."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [[w[4] for w in page.get_text("words")] for page in doc]


# ------------------------------------------------------------------ clean documents


def clean_cropped(rotated: bool = False) -> bytes:
    """A crop box smaller than the media box, with nothing in the strips."""
    doc = pymupdf.open()
    page = _new_page(doc)
    page.set_cropbox(CROP)
    page.set_rotation(ROTATION if rotated else 0)
    return doc.tobytes(garbage=1)


def clean_background() -> bytes:
    """A full-page tinted background painted BEFORE the text, like letterhead paper."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.draw_rect(page.rect, color=None, fill=(0.96, 0.94, 0.86))
    page.draw_rect(pymupdf.Rect(50, 60, 562, 140), color=None, fill=(0.2, 0.3, 0.5))
    page.insert_text((72, 110), "Office of Records Disclosure", fontsize=18, color=(1, 1, 1))
    corpus.write_lines(page, list(FILLER), x=72, y=200, fontsize=10, leading=16)
    return doc.tobytes(garbage=1)


TABLE_ROWS = (
    ("Item", "Received", "Status"),
    ("Letter", "2024-01-09", "Released"),
    ("Memo", "2024-02-14", "Withheld"),
    ("Invoice", "2024-03-03", "Partial"),
    ("Report", "2024-04-22", "Released"),
)


def clean_table() -> bytes:
    """A coloured table: header and zebra-row fills and cell borders first, text after."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    corpus.write_lines(page, [FILLER[0]], x=72, y=90, fontsize=10)
    left, top, width, height = 72.0, 120.0, 150.0, 22.0
    for row in range(len(TABLE_ROWS)):
        y = top + row * height
        fill = (0.25, 0.35, 0.55) if row == 0 else (0.9, 0.93, 0.97) if row % 2 else (1, 1, 1)
        page.draw_rect(
            pymupdf.Rect(left, y, left + 3 * width, y + height), color=(0.5, 0.5, 0.5), fill=fill
        )
        for column in range(1, 3):
            x = left + column * width
            page.draw_line((x, y), (x, y + height), color=(0.5, 0.5, 0.5))
    for row, cells in enumerate(TABLE_ROWS):
        colour = (1, 1, 1) if row == 0 else (0, 0, 0)
        for column, cell in enumerate(cells):
            point = (left + column * width + 6, top + row * height + 15)
            page.insert_text(point, cell, fontsize=10, color=colour)
    return doc.tobytes(garbage=1)


def clean_documents() -> dict[str, bytes]:
    """Name -> PDF with nothing hidden: these builders plus the project's own corpora."""
    documents = {
        "clean_cropped": clean_cropped(),
        "clean_cropped_rotated": clean_cropped(rotated=True),
        "clean_background": clean_background(),
        "clean_table": clean_table(),
        "simple_pdf": corpus.simple_pdf(list(FILLER)),
        "simple_pdf_rotated_cropped": corpus.simple_pdf(
            list(FILLER), 270, cropbox=pymupdf.Rect(36, 30, 560, 700)
        ),
        "leak_page_text": leak_corpus.page_text().pdf,
        "leak_split_runs": leak_corpus.split_runs().pdf,
        "leak_rotated_90": leak_corpus.rotated_90().pdf,
        "leak_text_document": leak_corpus.text_document(2)[0],
    }
    for doc in corpus.labelled_corpus():
        documents[f"labelled_{doc.name}"] = doc.pdf
    return documents


# -------------------------------------------------------- owner-password documents

ALL_PERMISSIONS = (
    pymupdf.PDF_PERM_PRINT
    | pymupdf.PDF_PERM_MODIFY
    | pymupdf.PDF_PERM_COPY
    | pymupdf.PDF_PERM_ANNOTATE
    | pymupdf.PDF_PERM_FORM
    | pymupdf.PDF_PERM_ACCESSIBILITY
    | pymupdf.PDF_PERM_ASSEMBLE
    | pymupdf.PDF_PERM_PRINT_HQ
)
OWNER_ONLY_PERMISSIONS: dict[str, int] = {
    "owner_no_copy": ALL_PERMISSIONS & ~pymupdf.PDF_PERM_COPY,
    "owner_no_print": ALL_PERMISSIONS & ~(pymupdf.PDF_PERM_PRINT | pymupdf.PDF_PERM_PRINT_HQ),
    "owner_no_text_access": ALL_PERMISSIONS
    & ~(pymupdf.PDF_PERM_COPY | pymupdf.PDF_PERM_ACCESSIBILITY),
    "owner_nothing_allowed": 0,
}


@dataclass(frozen=True)
class EncryptedCase:
    name: str
    pdf: bytes
    user_password: bool  # True: cannot be opened without a password


def _encrypted(name: str, *, user_pw: str, permissions: int) -> EncryptedCase:
    doc = pymupdf.open()
    _new_page(doc)
    pdf = doc.tobytes(
        garbage=1,
        encryption=pymupdf.PDF_ENCRYPT_AES_256,
        owner_pw="owner",
        user_pw=user_pw,
        permissions=permissions,
    )
    return EncryptedCase(name, pdf, user_password=bool(user_pw))


def encrypted_cases() -> list[EncryptedCase]:
    """AES-256 files whose owner password restricts use, and one needing a user password."""
    cases = [
        _encrypted(name, user_pw="", permissions=permissions)
        for name, permissions in OWNER_ONLY_PERMISSIONS.items()
    ]
    cases.append(_encrypted("user_password", user_pw="user", permissions=ALL_PERMISSIONS))
    return cases


# --------------------------------------------------------------- word boundaries


@dataclass(frozen=True)
class WordBoundaryCase:
    pdf: bytes
    mark: RedactionMark  # covers "Ann" only, not the "Ann" at the start of "Annex."
    word: str = "Ann"


def ann_and_annex() -> WordBoundaryCase:
    """ "Ann signed the Annex." with a mark over the first word only."""
    doc = pymupdf.open()
    page = _new_page(doc)
    page.insert_text((72, 300), "Ann signed the Annex.", fontsize=FONT_SIZE)
    ann = [pymupdf.Rect(w[:4]) for w in page.get_text("words") if w[4] == "Ann"]
    assert len(ann) == 1
    return WordBoundaryCase(doc.tobytes(garbage=1), _mark(page, ann[0], margin=1.0))
