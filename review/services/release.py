"""Approval and release: approve bound to the hashes the reviewer saw, then render,
verify, store and sign the approved marks, and hand out the signed output."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.db import IntegrityError, transaction
from pyhanko.sign import signers

from audit.clock import db_now
from audit.services import Actor
from common.storage import store_content_addressed
from intake.models import Document
from review import metrics
from review.errors import (
    ClaimLost,
    IllegalTransition,
    InvalidDecision,
    NotAllowed,
    NotReady,
    PagesNotSeen,
    PermanentFailure,
    StaleProposal,
)
from review.models import (
    Approval,
    Artifact,
    Claim,
    ClaimPage,
    ItemState,
    Mark,
    Outbox,
    ReviewItem,
)
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.sign import make_signer, sign_pdf
from review.pdf.verify import Failure, verify
from review.selectors import (
    latest_proposal,
    open_claim_for,
    original_bytes,
    proposal_preview,
    redaction_marks,
    signed_artifact,
)
from review.services.claims import claim_end, claim_require
from review.services.decisions import MarkFields, proposal_sha256
from review.services.holds import hold_check
from review.services.outbox import outbox_add
from review.services.retention import output_disposed_check
from review.services.transitions import item_event_emit, item_lock, item_transition


def item_approve(
    *, item_id: int, claim_id: int, reviewer: User, proposal_version: int, preview_sha256: str
) -> Approval:
    """Approve the latest proposal, bound to the source, proposal and preview hashes.

    Who may approve is settled first: the reviewer holding the claim, never the
    submitter of the document. Anyone else writes nothing (not even the HOLD_BLOCKED
    event) and hears nothing about holds; the claim is checked again under the lock."""
    item = ReviewItem.objects.select_related("document__submission").get(pk=item_id)
    if item.document.submission.client_id == reviewer.pk:
        raise NotAllowed("you submitted this document: someone else must review it")
    claim = open_claim_for(item=item, user=reviewer)
    if claim is None or claim.pk != claim_id:
        raise ClaimLost()
    hold_check(item, action="approved", actor=reviewer)
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        claim_require(claim_id=claim_id, item=item, reviewer=reviewer)
        latest = latest_proposal(item.document)
        if latest is None or latest.version != proposal_version:
            raise StaleProposal("a newer version of the marks exists; review it before approving")
        pending = latest.marks.filter(decision=Mark.Decision.PENDING).count()
        if pending:
            raise InvalidDecision(f"{pending} mark(s) are still undecided; decide every mark first")
        expected = proposal_preview(latest).sha256
        if preview_sha256 != expected:
            raise StaleProposal("the preview you saw is not the preview of these marks; reload")
        pages_seen_require(claim_id=claim_id, page_count=item.document.page_count)
        claim_end(claim_id=claim_id, item=item, reviewer=reviewer, outcome=Claim.Outcome.SUBMITTED)
        approval = Approval.objects.create(
            item=item,
            reviewer=reviewer,
            proposal=latest,
            proposal_sha256=latest.proposal_sha256,
            source_sha256=item.document.source_sha256,
            preview_sha256=preview_sha256,
            approved_at=db_now(),
        )
        item_transition(
            item_id=item.pk,
            to_state=ItemState.APPROVED,
            actor=reviewer,
            event_type="APPROVED",
            output_hash=latest.proposal_sha256,
            extra={
                "approval": approval.pk,
                "claim": claim_id,
                "proposal_version": latest.version,
                "preview_sha256": preview_sha256,
                "pages_seen": item.document.page_count,
            },
        )
        outbox_add(item=item, task=Outbox.Task.RENDER_AND_SIGN, reason="approved")
        return approval


def pages_seen_require(*, claim_id: int, page_count: int) -> None:
    """Raise PagesNotSeen, naming them, unless every page was drawn for the reviewer
    under this claim (DESIGN rule 8: nobody approves a page they never received)."""
    seen = set(ClaimPage.objects.filter(claim_id=claim_id).values_list("page", flat=True))
    missing = [page + 1 for page in range(page_count) if page not in seen]
    if missing:
        shown = ", ".join(str(page) for page in missing[:20]) + (" …" if len(missing) > 20 else "")
        raise PagesNotSeen(
            f"page{'s' if len(missing) > 1 else ''} {shown} of {page_count} "
            f"{'were' if len(missing) > 1 else 'was'} never shown to you during this claim; "
            "view every page before approving"
        )


def _store_derivative(data: bytes) -> tuple[str, str]:
    digest = hashlib.sha256(data).hexdigest()
    return store_content_addressed("derivatives", content=ContentFile(data), sha256=digest), digest


def _signer() -> signers.SimpleSigner:
    return make_signer(key_file=settings.SIGNING_KEY_FILE, cert_file=settings.SIGNING_CERT_FILE)


def _certificate_sha256() -> str:
    pem = settings.SIGNING_CERT_FILE.read_bytes()
    der = x509.load_pem_x509_certificate(pem).public_bytes(serialization.Encoding.DER)
    return hashlib.sha256(der).hexdigest()


def artifact_render(*, item_id: int, actor: Actor) -> Artifact | None:
    """Render the approved proposal, verify it, store it, then sign it.

    Only the marks of the proposal named by the item's Approval are burned in, and only
    after the stored original, the proposal and the burned preview still hash to what
    the reviewer approved (DESIGN rule 1). Re-delivery is safe at every step: the
    Artifact is unique per (document, proposal), outputs are content-addressed, and a
    finished step is found, not repeated. A failed release gate raises PermanentFailure.
    Each step commits on its own: a stored output is never rolled back by a later step.
    """
    item = ReviewItem.objects.select_related("document__submission").get(pk=item_id)
    if item.state == ItemState.SIGNED:
        metrics.observe_duplicate_delivery("render_and_sign")  # a redelivery
        return signed_artifact(item.document)
    if item.state != ItemState.APPROVED:
        raise IllegalTransition(f"item {item.pk} is {item.state}, not approved: nothing to render")
    hold_check(item, action="rendered", actor=actor)
    approval = Approval.objects.select_related("proposal").filter(item=item).latest("approved_at")
    artifact = Artifact.objects.filter(document=item.document, proposal=approval.proposal).first()
    if artifact is None:
        artifact = _render_verified(
            item=item,
            approval=approval,
            actor=actor,
            original=original_bytes(item.document),
            marks=redaction_marks(approval.proposal),
        )
    if artifact.signed_at is None:
        artifact = _sign(item=item, artifact=artifact, approval=approval, actor=actor)
    return artifact


def _render_verified(
    *,
    item: ReviewItem,
    approval: Approval,
    actor: Actor,
    original: bytes,
    marks: list[RedactionMark],
) -> Artifact:
    proposal = approval.proposal
    if hashlib.sha256(original).hexdigest() != approval.source_sha256:
        raise PermanentFailure("source_hash_mismatch")
    if proposal_sha256([MarkFields.of(m) for m in proposal.marks.all()]) != (
        approval.proposal_sha256
    ):
        raise PermanentFailure("proposal_hash_mismatch")
    burned = burn_in(original, marks)
    if hashlib.sha256(burned).hexdigest() != approval.preview_sha256:
        raise PermanentFailure("preview_hash_mismatch")
    output = sanitize(burned)
    report = verify(original, output, marks)
    if not report.ok:
        raise PermanentFailure(gate_failure_reason(report.failures))
    path, digest = _store_derivative(output)
    try:
        with transaction.atomic(durable=True):
            artifact = Artifact.objects.create(
                document=item.document,
                proposal=proposal,
                approval=approval,
                storage_path=path,
                output_sha256=digest,
            )
            item_event_emit(
                item,
                "RENDERED",
                actor=actor,
                output_hash=digest,
                extra={"artifact": artifact.pk, "approval": approval.pk, "marks": len(marks)},
            )
            return artifact
    except IntegrityError:
        # A concurrent delivery stored the same output first: use its row.
        return Artifact.objects.get(document=item.document, proposal=proposal)


def gate_failure_reason(failures: Sequence[Failure]) -> str:
    """Which check failed on which pages, for compliance: `verification_failed:` then
    `code@p2,5` per check (pages 1-based), `;`-separated. Codes and pages only: the
    report never carries text. Fits the 200 characters a failure reason keeps."""
    pages: dict[str, set[int]] = {}
    for failure in failures:
        on = pages.setdefault(failure.code, set())
        if failure.page is not None:
            on.add(failure.page + 1)
    checks = [
        code + ("@p" + ",".join(str(p) for p in sorted(on)) if on else "")
        for code, on in sorted(pages.items())
    ]
    reason = "verification_failed:" + ";".join(checks)
    return reason if len(reason) <= 200 else reason[:197] + "..."


def _sign(*, item: ReviewItem, artifact: Artifact, approval: Approval, actor: Actor) -> Artifact:
    hold_check(item, action="signed", actor=actor)
    with storages["derivatives"].open(artifact.storage_path, "rb") as handle:
        unsigned = handle.read()
    if hashlib.sha256(unsigned).hexdigest() != artifact.output_sha256:
        raise PermanentFailure("stored_output_hash_mismatch")
    signed = sign_pdf(
        unsigned, _signer(), reason=f"Redaction approved under approval {approval.pk}"
    )
    signed_path, signed_digest = _store_derivative(signed)
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item.pk)
        artifact = Artifact.objects.select_for_update().get(pk=artifact.pk)
        if artifact.signed_at is not None:
            metrics.observe_duplicate_delivery("render_and_sign")
            return artifact  # another delivery signed first
        artifact.signed_path = signed_path
        artifact.signed_sha256 = signed_digest
        artifact.certificate_sha256 = _certificate_sha256()
        artifact.signature = {"format": "PAdES-B", "field": "RRQSignature"}
        artifact.signed_at = db_now()
        artifact.save(
            update_fields=[
                "signed_path",
                "signed_sha256",
                "certificate_sha256",
                "signature",
                "signed_at",
            ]
        )
        item_transition(
            item_id=item.pk,
            to_state=ItemState.SIGNED,
            actor=actor,
            event_type="SIGNED",
            output_hash=signed_digest,
            extra={
                "artifact": artifact.pk,
                "approval": approval.pk,
                "rendered_sha256": artifact.output_sha256,
                "source_sha256": approval.source_sha256,
                "proposal_sha256": approval.proposal_sha256,
                "preview_sha256": approval.preview_sha256,
                "certificate_sha256": artifact.certificate_sha256,
            },
        )
        return artifact


def artifact_download(*, document: Document, actor: Actor) -> tuple[Artifact, bytes]:
    """The signed output of a document, for its intake client or a compliance officer.
    Refused (and audited) under any hold; only a signed artifact is ever released.
    Gone (410) once the retention schedule disposed of it, hold or no hold."""
    output_disposed_check(document)
    item = ReviewItem.objects.select_related("document__submission").get(document=document)
    hold_check(item, action="downloaded", actor=actor)
    artifact = signed_artifact(document)
    if artifact is None or item.state != ItemState.SIGNED:
        raise NotReady("the document has no signed output yet")
    with storages["derivatives"].open(artifact.signed_path, "rb") as handle:
        data = handle.read()
    if hashlib.sha256(data).hexdigest() != artifact.signed_sha256:
        raise PermanentFailure("signed_output_hash_mismatch")
    with transaction.atomic(durable=True):
        item_event_emit(
            item,
            "DOWNLOADED",
            actor=actor,
            output_hash=artifact.signed_sha256,
            extra={"artifact": artifact.pk},
        )
    return artifact, data
