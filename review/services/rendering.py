"""Page images for reviewers: draw a page under the renderer's limits, remember that the
claimant received it (approval needs every page), and take a document whose page cannot
be drawn out of the queue at once (`failures.item_quarantine`)."""

from __future__ import annotations

from django.contrib.auth.models import User

from audit.clock import db_now
from review.errors import UnrenderableDocument
from review.models import ClaimPage, ReviewItem
from review.pdf.opencheck import pages_check
from review.pdf.render import (
    MIN_LEGIBLE_DPI,
    REVIEW_DPI,
    PdfUnrenderable,
    unrenderable_reason,
)
from review.selectors import open_claim_for, original_bytes, page_png
from review.services.failures import item_quarantine

UNRENDERABLE_DOCUMENT = "unrenderable_document"


def page_image_render(
    *, item: ReviewItem, page: int, preview: bool, dpi: int = REVIEW_DPI, viewer: User
) -> bytes:
    """Page `page` (or its redacted preview) as PNG for `viewer`, who holds the claim or
    may see held items (the caller checked). A legible drawing (a thumbnail is not) for
    the claimant is recorded under the claim. A page that cannot be drawn quarantines
    the item and raises UnrenderableDocument."""
    try:
        png = page_png(item=item, page=page, preview=preview, dpi=dpi)
    except PdfUnrenderable as failure:
        raise document_quarantine(item=item, failures=[failure], actor=viewer) from failure
    claim = open_claim_for(item=item, user=viewer) if dpi >= MIN_LEGIBLE_DPI else None
    if claim is not None:
        # Several page requests arrive at once: the unique (claim, page) keeps one row.
        ClaimPage.objects.bulk_create(
            [ClaimPage(claim=claim, page=page, rendered_at=db_now())], ignore_conflicts=True
        )
    return png


def document_quarantine(
    *, item: ReviewItem, failures: list[PdfUnrenderable], actor: User
) -> UnrenderableDocument:
    """Park the item with `unrenderable_page@p…` and return the error to raise."""
    reason = unrenderable_reason(failures)
    item_quarantine(item_id=item.pk, reason=reason, actor=actor)
    return UnrenderableDocument(reason, item_id=item.pk)


def document_check_quarantine(
    *, item_id: int, actor: User, mupdf_failed: bool
) -> UnrenderableDocument | None:
    """After a failure on the item's document somewhere other than a page image (the
    item page's layout, the redacted preview a decision save or an approval builds):
    draw every page in the sandboxed check, and quarantine the item with the pages that
    fail. When every page draws but MuPDF itself failed (`mupdf_failed`), the document
    still cannot be reviewed: quarantined as `unrenderable_document`. Otherwise return
    None: the failure was something else, and the caller lets it surface."""
    item = ReviewItem.objects.select_related("document__submission").get(pk=item_id)
    failures = pages_check(original_bytes(item.document))
    if failures:
        return document_quarantine(item=item, failures=failures, actor=actor)
    if not mupdf_failed:
        return None
    item_quarantine(item_id=item.pk, reason=UNRENDERABLE_DOCUMENT, actor=actor)
    return UnrenderableDocument(UNRENDERABLE_DOCUMENT, item_id=item.pk)
