"""Would this PDF release? One file through the steps the service takes, every proposed
mark accepted (Django-free). `manage.py release_check` runs it in a child process per
file, so a file that hangs or crashes MuPDF is reported, not fatal:

    python -m review.pdf.trial FILE MAX_PAGES [--ner]

prints one JSON object: the outcome, the reason when it did not release, and counts.
"""

from __future__ import annotations

import json
import secrets
import sys
from typing import Any

import pymupdf

from review.pdf.detect import HIDDEN_CONTENT, DetectionError, DetectionPolicy, detect
from review.pdf.geometry import Box
from review.pdf.opencheck import MAGIC_WINDOW, PdfRejected, has_pdf_magic, open_check, pages_check
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.render import unrenderable_reason
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

RELEASED = "released"
REFUSED = "refused"  # at admission, as the intake API would
UNRENDERABLE = "unrenderable"  # a page the reviewer could not be shown
DETECTION_FAILED = "detection_failed"
NOT_RELEASED = "not_released"  # the release gate refused the output
STAMP = "(b)(6)"  # stamped on every burned box, as a jurisdiction's exemption code is


def trial(pdf: bytes, *, max_pages: int, ner: bool = False) -> dict[str, Any]:
    """Admission's checks, detection's page check, detection, then burn-in of every
    proposed mark (hidden content is removed, not burned, as in the service), sanitize
    and the release gate. Reasons are codes and page numbers only, as the service's."""
    if not has_pdf_magic(pdf[:MAGIC_WINDOW]):
        return {"outcome": REFUSED, "reason": "not_pdf"}
    try:
        pages = open_check(pdf, max_pages=max_pages).page_count
    except PdfRejected as refused:
        return {"outcome": REFUSED, "reason": refused.code}
    unrenderable = pages_check(pdf)
    if unrenderable:
        return {
            "outcome": UNRENDERABLE,
            "pages": pages,
            "reason": unrenderable_reason(unrenderable),
        }
    try:
        result = detect(pdf, DetectionPolicy(salt=secrets.token_bytes(16), ner=ner))
    except DetectionError as failed:
        return {"outcome": DETECTION_FAILED, "pages": pages, "reason": str(failed)}
    marks = [
        RedactionMark(page=m.page, box=Box(*(round(v, 6) for v in m.box)), legal_reason=STAMP)
        for m in result.marks
        if m.category != HIDDEN_CONTENT
    ]
    report = verify(pdf, sanitize(burn_in(pdf, marks)), marks)
    return {
        "outcome": RELEASED if report.ok else NOT_RELEASED,
        "pages": pages,
        "marks": len(result.marks),
        "hidden": len(result.marks) - len(marks),
        "pages_ocred": len(result.pages_ocred),
        "failures": [[failure.code, failure.page] for failure in report.failures],
    }


if __name__ == "__main__":
    pymupdf.TOOLS.mupdf_display_errors(False)
    with open(sys.argv[1], "rb") as source:
        outcome = trial(source.read(), max_pages=int(sys.argv[2]), ner="--ner" in sys.argv)
    print(json.dumps(outcome))
