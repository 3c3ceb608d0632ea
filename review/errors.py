"""The review queue's domain errors: each carries a stable machine-readable code for the API
and pages."""

from common.errors import DomainError


class IllegalTransition(DomainError):
    code = "illegal_transition"


class ClaimLost(DomainError):
    """The claim a write acts under is no longer this user's open, unexpired claim."""

    code = "claim_lost"

    def __init__(self, message: str = "") -> None:
        super().__init__(
            message
            or "Your claim on this item expired or was taken back; nothing was changed. "
            "Claim the item again to continue."
        )


class StaleProposal(DomainError):
    code = "stale_proposal"


class HoldActive(DomainError):
    """A legal hold or a queue hold stops approval, rendering, signing and download."""

    code = "hold_active"
    status = 423


class NotAllowed(DomainError):
    code = "not_allowed"
    status = 403


class InvalidDecision(DomainError):
    code = "invalid_decision"
    status = 400


class NotReady(DomainError):
    code = "not_signed"
    status = 409


class OutputDisposed(DomainError):
    """The bytes asked for were disposed of under the retention schedule."""

    code = "disposed"
    status = 410


class PermanentFailure(Exception):
    """A failure that retrying cannot fix (corrupt input, a failed release gate)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnrenderableDocument(DomainError):
    """A page of the document cannot be drawn for a reviewer: the item was moved to the
    dead-letter queue and the reviewer's claim ended. `reason` is the dead letter's."""

    code = "unrenderable_page"
    status = 409

    def __init__(self, reason: str, *, item_id: int) -> None:
        super().__init__(
            "A page of this document cannot be shown, so it cannot be reviewed. The document "
            "was moved aside for compliance and your claim on it is free."
        )
        self.reason = reason
        self.item_id = item_id


class PagesNotSeen(DomainError):
    """Approval needs every page drawn for the approving reviewer during their claim."""

    code = "pages_not_seen"
    status = 409
