"""PDF files written byte by byte, for structures a PDF library would rewrite on saving
(an empty name, a broken object, a lost page tree)."""

from __future__ import annotations


def stream(body: bytes, data: bytes) -> bytes:
    """A stream object: `body` is the dictionary's entries without /Length."""
    return b"<< " + body + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def write_pdf(objects: list[bytes], *, root: int = 1) -> bytes:
    """A PDF file of `objects` (object n is objects[n - 1]), with a correct xref table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\n" % (len(objects) + 1, root)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def one_page(
    content: bytes,
    *objects: bytes,
    size: tuple[int, int] = (300, 200),
    resources: bytes = b"<< /Font << /F1 5 0 R >> >>",
) -> bytes:
    """A PDF file of one page drawing `content` (object 4), with `objects` after it
    (object 5 on), which `resources` may name."""
    return write_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents 4 0 R"
            b" /Resources %s >>" % (*size, resources),
            stream(b"", content),
            *objects,
        ]
    )
