"""Poison documents: small PDFs that open, pass admission's open-check and carry text for
detection, but that cannot be drawn for a reviewer. Written as raw bytes by code, so no
PDF library "repairs" them on the way out.

    from testkit.poison_corpus import poison_corpus, POISON_KINDS

    for case in poison_corpus():     # tuple[PoisonCase, ...], built once
        case.pdf                     # bytes
        case.bad_pages               # 0-based pages that cannot be rendered

Each document has an ordinary first page of text (what detection reads) and the poison
on the page named by `bad_pages`:

- self_drawing_form: a form XObject that draws itself, through fifteen copies of itself
  each drawing the next four times (6 KB): MuPDF's cycle check stops the loop only after
  4^16 draws.
- deep_nesting: an array nested 200,000 deep in the page's content (400 KB).
- huge_image: a 30000 x 30000 image (2.7 GB of pixels) in a few kilobytes of twice
  deflated zeros.
- huge_page: a 14400 x 14400 pt page (200 inches square, the largest the format
  allows): 400 million pixels at the reviewer's 100 dpi, and too large to show legibly
  at any resolution that fits the pixel limit.
- huge_user_unit_page: the same page with UserUnit 10 (2000 inches square). Admission
  refuses it now (`user_unit`); it still shows the render limits hold.
- broken_page_tree: the page tree counts three pages; its third kid is the tree's own
  root.
- tiled_pixel: one pixel drawn 120,000 times (a CSS background repeated as images): it
  draws in a second, but every pass over the page's painting pays for each placement.
"""

from __future__ import annotations

import functools
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from testkit.raw_pdf import stream, write_pdf

POISON_KINDS = (
    "self_drawing_form",
    "deep_nesting",
    "huge_image",
    "huge_page",
    "huge_user_unit_page",
    "broken_page_tree",
    "tiled_pixel",
)

LETTER = "[0 0 612 792]"
FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
TEXT_LINES = (
    "Records release, reference 2024-0042",
    "Requester contact: jo@example.com",
    "The office searched the records of the program and found these pages.",
)


@dataclass(frozen=True)
class PoisonCase:
    name: str
    pdf: bytes
    bad_pages: tuple[int, ...]


def _text_stream(lines: tuple[str, ...] = TEXT_LINES) -> bytes:
    ops = [b"BT /F1 11 Tf 72 720 Td 14 TL"]
    for line in lines:
        ops.append(b"(" + line.encode("latin-1") + b") Tj T*")
    ops.append(b"ET")
    return b"\n".join(ops)


def _two_pages(poison_page: bytes, extra: list[bytes]) -> bytes:
    """Catalog 1, Pages 2, font 3, a text page 4 with its content 5, the poison page 6,
    then `extra` from object 7 on."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>",
        FONT,
        b"<< /Type /Page /Parent 2 0 R /MediaBox " + LETTER.encode() + b" "
        b"/Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
        stream(b"", _text_stream()),
        poison_page,
        *extra,
    ]
    return write_pdf(objects)


FORM_COPIES = 16
FORM_FANOUT = 4


def self_drawing_form() -> PoisonCase:
    # Objects 8.. are copies of one form: each draws the next FORM_FANOUT times, and the
    # last draws the first. MuPDF refuses a form that draws itself while it is being
    # drawn (its cycle check), so the loop closes only after 4^16 draws: hours of work.
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox " + LETTER.encode() + b" "
        b"/Resources << /Font << /F1 3 0 R >> /XObject << /X0 8 0 R >> >> /Contents 7 0 R >>"
    )
    content = stream(b"", _text_stream(("A page with a picture",)) + b"\nq /X0 Do Q")
    forms = []
    for copy in range(FORM_COPIES):
        following = 8 + (copy + 1) % FORM_COPIES
        forms.append(
            stream(
                b"/Type /XObject /Subtype /Form /BBox " + LETTER.encode() + b" "
                b"/Resources << /XObject << /X0 %d 0 R >> >>" % following,
                b"0 0 1 rg 0 0 4 4 re f" + b" q 0.9 0 0 0.9 1 1 cm /X0 Do Q" * FORM_FANOUT,
            )
        )
    return PoisonCase("self_drawing_form", _two_pages(page, [content, *forms]), (1,))


DEPTH = 200_000


def deep_nesting() -> PoisonCase:
    nested = b"[" * DEPTH + b"]" * DEPTH
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox " + LETTER.encode() + b" "
        b"/Resources << /Font << /F1 3 0 R >> >> /Contents 7 0 R >>"
    )
    content = stream(b"", _text_stream(("A page with a long array",)) + b"\n" + nested + b" TJ")
    return PoisonCase("deep_nesting", _two_pages(page, [content]), (1,))


IMAGE_SIDE = 30_000


def _deflated_zeros(size: int) -> bytes:
    """A zlib stream of `size` zero bytes, made in a fraction of a second: after a full
    flush the compressor starts afresh, so every further chunk of zeros deflates to the
    same bytes, which are repeated. The Adler-32 of n zeros is (n mod 65521) << 16 | 1."""
    chunk = bytes(1 << 22)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = packer.compress(chunk) + packer.flush(zlib.Z_FULL_FLUSH)
    again = packer.compress(chunk) + packer.flush(zlib.Z_FULL_FLUSH)
    whole, rest = divmod(size, len(chunk))
    tail = packer.compress(chunk[:rest]) + packer.flush()
    adler = ((size % 65521) << 16) | 1
    return b"\x78\xda" + first + again * (whole - 1) + tail + struct.pack(">I", adler)


def huge_image() -> PoisonCase:
    once = _deflated_zeros(IMAGE_SIDE * IMAGE_SIDE * 3)
    twice = zlib.compress(once, 9)
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox " + LETTER.encode() + b" "
        b"/Resources << /Font << /F1 3 0 R >> /XObject << /Im0 8 0 R >> >> /Contents 7 0 R >>"
    )
    content = stream(b"", b"q 540 0 0 540 36 126 cm /Im0 Do Q")
    image = stream(
        b"/Type /XObject /Subtype /Image /Width %d /Height %d " % (IMAGE_SIDE, IMAGE_SIDE)
        + b"/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter [/FlateDecode /FlateDecode]",
        twice,
    )
    return PoisonCase("huge_image", _two_pages(page, [content, image]), (1,))


def _huge_page(name: str, user_unit: bytes) -> PoisonCase:
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] " + user_unit + b" "
        b"/Resources << /Font << /F1 3 0 R >> >> /Contents 7 0 R >>"
    )
    content = stream(b"", _text_stream(("A very large page",)))
    return PoisonCase(name, _two_pages(page, [content]), (1,))


def huge_page() -> PoisonCase:
    return _huge_page("huge_page", b"")


def huge_user_unit_page() -> PoisonCase:
    return _huge_page("huge_user_unit_page", b"/UserUnit 10")


def broken_page_tree() -> PoisonCase:
    # Three pages are counted; the third kid is the page tree's own root.
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R 6 0 R 2 0 R] /Count 3 >>",
        FONT,
        b"<< /Type /Page /Parent 2 0 R /MediaBox " + LETTER.encode() + b" "
        b"/Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
        stream(b"", _text_stream()),
        b"<< /Type /Page /Parent 2 0 R /MediaBox " + LETTER.encode() + b" "
        b"/Resources << /Font << /F1 3 0 R >> >> /Contents 7 0 R >>",
        stream(b"", _text_stream(("The second page",))),
    ]
    return PoisonCase("broken_page_tree", write_pdf(objects), (2,))


PIXEL_TILES = 120_000


def tiled_pixel() -> PoisonCase:
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox " + LETTER.encode() + b" "
        b"/Resources << /Font << /F1 3 0 R >> /XObject << /Im0 8 0 R >> >> /Contents 7 0 R >>"
    )
    tiles = b"".join(
        b"q 0.75 0 0 0.75 %d %d cm /Im0 Do Q\n" % (36 + tile % 540, 36 + tile // 540)
        for tile in range(PIXEL_TILES)
    )
    content = stream(b"/Filter /FlateDecode", zlib.compress(tiles, 9))
    pixel = stream(
        b"/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray "
        b"/BitsPerComponent 8",
        b"\x80",
    )
    return PoisonCase("tiled_pixel", _two_pages(page, [content, pixel]), (1,))


def slow_page() -> PoisonCase:
    """Not one of the poison kinds: a page that passes every check made before drawing
    (16,384 form draws, under the limit) and then takes far longer than a page may, as
    each draw fills the page 2,000 times. Only the sandboxed check's alarm stops it."""
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox " + LETTER.encode() + b" "
        b"/Resources << /XObject << /X0 8 0 R >> >> /Contents 7 0 R >>"
    )
    levels = 8
    forms = [
        stream(
            b"/Type /XObject /Subtype /Form /BBox " + LETTER.encode() + b" "
            b"/Resources << /XObject << /X0 %d 0 R >> >>" % (9 + level),
            b"/X0 Do " * FORM_FANOUT,
        )
        for level in range(levels - 1)
    ]
    forms.append(
        stream(
            b"/Type /XObject /Subtype /Form /BBox " + LETTER.encode(),
            b"0 0 1 rg " + b"10 10 500 700 re f " * 2000,
        )
    )
    return PoisonCase("slow_page", _two_pages(page, [stream(b"", b"/X0 Do"), *forms]), (1,))


BUILDERS: dict[str, Callable[[], PoisonCase]] = {
    "self_drawing_form": self_drawing_form,
    "deep_nesting": deep_nesting,
    "huge_image": huge_image,
    "huge_page": huge_page,
    "huge_user_unit_page": huge_user_unit_page,
    "broken_page_tree": broken_page_tree,
    "tiled_pixel": tiled_pixel,
    "slow_page": slow_page,
}


@functools.cache
def poison_case(name: str) -> PoisonCase:
    return BUILDERS[name]()


def poison_corpus() -> tuple[PoisonCase, ...]:
    return tuple(poison_case(name) for name in POISON_KINDS)
