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
