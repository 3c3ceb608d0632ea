"""Domain errors: each carries a stable machine-readable code for the API and pages."""


class DomainError(Exception):
    code = "domain_error"
    status = 409

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code:
            self.code = code


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
