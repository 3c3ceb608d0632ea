"""Who may call what: the authorization matrix, role × endpoint × object, in one table.

Every page of the reviewer site (`review:` URL names) and every REST endpoint has one
`Rule` here, under its URL name. The role check is enforced from this table before the
view runs: for pages by `review.middleware.AuthorizationMiddleware` (which also answers
404 for an unknown item and 403 for the submitter of the item's document), for the API
by `Authorized` (the default DRF permission). An endpoint missing from the table is
refused to everyone (fail closed). The object check (whose claim, whose submission) is
made by the service or selector behind the endpoint, under the item's lock where it
matters; `Rule.objects` says which objects the caller reaches, in words, and
`Rule.other_object` what the caller is told about anyone else's.

`tests/security/test_authorization_matrix.py` runs every role (including "no role",
"anonymous" and "intake client") against every endpoint from this table; the README's
table is generated from it (`matrix_markdown`) and checked against it.

Duties are separate (DESIGN rule 10): an intake client acts only through its API token
(a session never carries the intake role), humans never submit, and nobody claims,
decides or approves an item of a document they submitted. Roles are the groups a user
is in; a superuser counts as a compliance officer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import User
from django.db.models import F
from rest_framework.authentication import SessionAuthentication
from rest_framework.authentication import TokenAuthentication as DrfTokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import BasePermission

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

# The role groups (made by migration, see review.roles.install_roles).
INTAKE_CLIENT = "intake_client"
REVIEWER = "reviewer"
SENIOR_REVIEWER = "senior_reviewer"
COMPLIANCE_OFFICER = "compliance_officer"
# Callers with no role group: never logged in, or logged in without any role.
ANONYMOUS = "anonymous"
NO_ROLE = "no_role"

HUMAN_ROLES = (REVIEWER, SENIOR_REVIEWER, COMPLIANCE_OFFICER)
ROLE_GROUPS = (INTAKE_CLIENT, *HUMAN_ROLES)
CALLERS = (ANONYMOUS, NO_ROLE, INTAKE_CLIENT, REVIEWER, SENIOR_REVIEWER, COMPLIANCE_OFFICER)
REVIEWERS = frozenset(HUMAN_ROLES)

# What an endpoint acts on (the third axis of the matrix).
NO_OBJECT = "none"
CLAIMED_ITEM = "claimed_item"
FREE_ITEM = "free_item"
VIEWABLE_ITEM = "viewable_item"
OWN_SUBMISSION = "own_submission"
ANY_OBJECT = "any"
OBJECT_WORDS = {
    NO_OBJECT: "—",
    CLAIMED_ITEM: "the caller's open claim, never an item the caller submitted",
    FREE_ITEM: "an unclaimed item of the caller's queues, never one the caller submitted",
    VIEWABLE_ITEM: "the caller's open claim; any item for a compliance officer",
    OWN_SUBMISSION: "the intake client's own submissions; any for a compliance officer",
    ANY_OBJECT: "any",
}


@dataclass(frozen=True)
class Rule:
    method: str
    path: str  # for people: where the endpoint is (the URL name is the key)
    roles: frozenset[str]
    objects: str = NO_OBJECT
    other_object: str = ""  # what a caller with the role gets for someone else's object
    json: bool = False  # refusals answer in the API's JSON error shape

    @property
    def api(self) -> bool:
        return self.path.startswith("/api/")


def _rule(method: str, path: str, roles: frozenset[str] | tuple[str, ...], **kw: Any) -> Rule:
    return Rule(method, path, frozenset(roles), **kw)


COMPLIANCE = (COMPLIANCE_OFFICER,)
CLIENT_OR_COMPLIANCE = (INTAKE_CLIENT, COMPLIANCE_OFFICER)
PUBLIC = frozenset(CALLERS)

MATRIX: dict[str, Rule] = {
    # Reviewer pages (sessions).
    "review:queue": _rule("GET", "/", REVIEWERS),
    "review:claim_next": _rule("POST", "/claim-next/", REVIEWERS, objects=FREE_ITEM),
    "review:item": _rule(
        "GET", "/items/<id>/", REVIEWERS, objects=VIEWABLE_ITEM, other_object="403"
    ),
    "review:page_image": _rule(
        "GET", "/items/<id>/pages/<n>.png", REVIEWERS, objects=VIEWABLE_ITEM, other_object="403"
    ),
    "review:decisions": _rule(
        "POST",
        "/items/<id>/decisions/",
        REVIEWERS,
        objects=CLAIMED_ITEM,
        other_object="409 claim_lost",
        json=True,
    ),
    "review:heartbeat": _rule(
        "POST",
        "/items/<id>/heartbeat/",
        REVIEWERS,
        objects=CLAIMED_ITEM,
        other_object="409 claim_lost",
        json=True,
    ),
    "review:claim_again": _rule(
        "POST",
        "/items/<id>/claim-again/",
        REVIEWERS,
        objects=FREE_ITEM,
        other_object="409 claimed",
        json=True,
    ),
    "review:release": _rule(
        "POST",
        "/items/<id>/release/",
        REVIEWERS,
        objects=CLAIMED_ITEM,
        other_object="302 to the queue: claim lost",
    ),
    "review:approve": _rule(
        "POST",
        "/items/<id>/approve/",
        REVIEWERS,
        objects=CLAIMED_ITEM,
        other_object="302 to the queue: claim lost",
    ),
    "review:escalate": _rule(
        "POST",
        "/items/<id>/escalate/",
        REVIEWERS,
        objects=CLAIMED_ITEM,
        other_object="302 to the queue: claim lost",
    ),
    # Compliance pages (sessions).
    "review:ops_runs": _rule("GET", "/ops/", COMPLIANCE),
    "review:ops_run": _rule("GET", "/ops/runs/<id>/", COMPLIANCE, objects=ANY_OBJECT),
    "review:ops_item": _rule("GET", "/ops/items/<id>/", COMPLIANCE, objects=ANY_OBJECT),
    "review:document_output": _rule(
        "GET", "/documents/<id>/output", COMPLIANCE, objects=ANY_OBJECT
    ),
    "review:document_redaction_log": _rule(
        "GET", "/documents/<id>/redaction-log.csv", COMPLIANCE, objects=ANY_OBJECT
    ),
    # The REST API (intake clients by token; compliance officers by session or token).
    "submission-create": _rule("POST", "/api/v1/submissions/", (INTAKE_CLIENT,), json=True),
    "submission-detail": _rule(
        "GET",
        "/api/v1/submissions/<id>/",
        CLIENT_OR_COMPLIANCE,
        objects=OWN_SUBMISSION,
        other_object="404",
        json=True,
    ),
    "submission-health": _rule(
        "GET",
        "/api/v1/submissions/<id>/health",
        CLIENT_OR_COMPLIANCE,
        objects=OWN_SUBMISSION,
        other_object="404",
        json=True,
    ),
    "document-detail": _rule(
        "GET",
        "/api/v1/documents/<id>/",
        CLIENT_OR_COMPLIANCE,
        objects=OWN_SUBMISSION,
        other_object="404",
        json=True,
    ),
    "document-events": _rule(
        "GET",
        "/api/v1/documents/<id>/events/",
        CLIENT_OR_COMPLIANCE,
        objects=OWN_SUBMISSION,
        other_object="404",
        json=True,
    ),
    "document-evidence": _rule(
        "GET",
        "/api/v1/documents/<id>/evidence",
        CLIENT_OR_COMPLIANCE,
        objects=OWN_SUBMISSION,
        other_object="404",
        json=True,
    ),
    "document-output": _rule(
        "GET",
        "/api/v1/documents/<id>/output",
        CLIENT_OR_COMPLIANCE,
        objects=OWN_SUBMISSION,
        other_object="404",
        json=True,
    ),
    "document-redaction-log": _rule(
        "GET",
        "/api/v1/documents/<id>/redaction-log.csv",
        CLIENT_OR_COMPLIANCE,
        objects=OWN_SUBMISSION,
        other_object="404",
        json=True,
    ),
    # The ledger (audit.apis.CanReadLedger: the audit.view_auditevent permission).
    "audit-events": _rule("GET", "/api/v1/audit/", COMPLIANCE, objects=ANY_OBJECT, json=True),
    # The published schema and its viewer: public, as API documentation is.
    "schema": _rule("GET", "/api/v1/schema/", PUBLIC, json=True),
    "api-docs": _rule("GET", "/api/v1/docs/", PUBLIC),
}


def caller_roles(user: Any, *, via_session: bool) -> frozenset[str]:
    """The matrix roles of a caller. The intake role counts only off a session (an API
    token): an intake client's password, if it has one, never submits from a browser."""
    if user is None or not user.is_authenticated:
        return frozenset({ANONYMOUS})
    groups = getattr(user, "role_groups", None)  # read with an API token (below)
    if groups is None:
        groups = set(user.groups.values_list("name", flat=True))
    roles = {role for role in HUMAN_ROLES if role in groups}
    if user.is_superuser:
        roles.add(COMPLIANCE_OFFICER)
    if INTAKE_CLIENT in groups and not via_session:
        roles.add(INTAKE_CLIENT)
    return frozenset(roles or {NO_ROLE})


def allowed(endpoint: str, roles: frozenset[str]) -> bool:
    """Whether any of `roles` may call `endpoint`. Unknown endpoints: nobody."""
    rule = MATRIX.get(endpoint)
    return rule is not None and bool(rule.roles & roles)


def refusal_message(endpoint: str) -> str:
    rule = MATRIX.get(endpoint)
    if rule is None:
        return "this endpoint is not open to anyone"
    names = ", ".join(r.replace("_", " ") + "s" for r in CALLERS if r in rule.roles)
    how = " (with an API token)" if rule.roles == {INTAKE_CLIENT} else ""
    return f"only {names}{how} may use this"


class TokenAuthentication(DrfTokenAuthentication):
    """DRF's token authentication, reading the caller's groups in the statement that reads
    the token and its user (one row per group): the matrix needs the role groups on every
    request, and an intake client's admission should not pay a round trip, or a statement
    the ORM takes long to build, for them. Read afresh on each request, so a role taken
    away counts at once."""

    def authenticate_credentials(self, key: str) -> tuple[User, Token]:
        rows = list(
            Token.objects.select_related("user")
            .filter(key=key)
            .annotate(group=F("user__groups__name"))
        )
        if not rows:
            raise AuthenticationFailed("Invalid token.")
        token = rows[0]
        if not token.user.is_active:
            raise AuthenticationFailed("User inactive or deleted.")
        token.user.role_groups = frozenset(row.group for row in rows if row.group in ROLE_GROUPS)
        return token.user, token


class Authorized(BasePermission):
    """The matrix's role check for DRF views, looked up by the request's URL name."""

    message = "not allowed"

    def has_permission(self, request: Request, view: APIView) -> bool:
        match = request.resolver_match
        endpoint = match.view_name if match else ""
        via_session = isinstance(request.successful_authenticator, SessionAuthentication)
        if allowed(endpoint, caller_roles(request.user, via_session=via_session)):
            return True
        self.message = refusal_message(endpoint)
        return False


def matrix_markdown() -> str:
    """The matrix as the README shows it: one row per endpoint, one column per caller."""
    header = ["Endpoint", *(c.replace("_", " ") for c in CALLERS), "Objects", "Others' objects"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for rule in MATRIX.values():
        cells = [f"`{rule.method} {rule.path}`"]
        for caller in CALLERS:
            if caller in rule.roles:
                cells.append("yes")
            elif caller == ANONYMOUS:
                cells.append("401" if rule.api else "login")
            else:
                cells.append("403")
        cells += [OBJECT_WORDS[rule.objects], rule.other_object or "—"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
