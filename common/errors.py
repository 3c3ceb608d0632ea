"""The base of every domain error: a stable machine-readable code and an HTTP status."""


class DomainError(Exception):
    code = "domain_error"
    status = 409

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code:
            self.code = code
