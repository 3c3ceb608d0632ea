"""The authorization matrix (`common.authz.MATRIX`), proved over real HTTP: every caller
(anonymous, no role, intake client, reviewer, senior reviewer, compliance officer) against
every endpoint of the table, pages and API, on the caller's own object, someone else's and,
for item writes, an item the caller submitted. A refusal writes no audit event and never
says anything about holds.

The world of each case is made the way the service makes it: an intake client's document,
admitted and detected; the caller's own claim taken through Claim next; "someone else's"
is claimed by another reviewer and under a legal hold.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import Resolver404, get_resolver, resolve
from rest_framework.authtoken.models import Token

from audit.models import AuditEvent
from common.authz import (
    ANONYMOUS,
    ANY_OBJECT,
    CALLERS,
    CLAIMED_ITEM,
    COMPLIANCE_OFFICER,
    FREE_ITEM,
    HUMAN_ROLES,
    INTAKE_CLIENT,
    MATRIX,
    NO_ROLE,
    OWN_SUBMISSION,
    VIEWABLE_ITEM,
    matrix_markdown,
)
from intake.models import Submission
from review.models import ReviewItem
from review.selectors import latest_proposal, proposal_preview
from review.services.claims import claim_next
from review.services.holds import legal_hold_place
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items
from tests.intake.conftest import pdf_bytes, upload

README = Path(__file__).resolve().parents[2] / "README.md"
CLEAN = simple_pdf(["Nothing to withhold on this page."])

MINE, THEIRS, SUBMITTED = "mine", "theirs", "submitted"
# What a hold is and why: never told to a caller refused on someone else's item.
HOLD_WORDS = re.compile(r"legal.hold|litigation|sla.breach|dead.letter|\(\w+\)", re.I)


@dataclass
class World:
    item: ReviewItem
    other_client: Any  # another intake client
    claim_id: int = 0

    @property
    def document_id(self) -> str:
        return str(self.item.document_id)

    @property
    def submission_id(self) -> str:
        return str(self.item.document.submission_id)


def _approve_form(w: World) -> dict[str, Any]:
    proposal = latest_proposal(w.item.document)
    return {
        "claim_id": w.claim_id,
        "proposal_version": proposal.version,
        "preview_sha256": proposal_preview(proposal).sha256,
    }


@dataclass(frozen=True)
class Call:
    """How the test calls an endpoint, and what its caller with the right gets for the
    state the world is in (an unsigned document has no output yet: 409, not 200)."""

    url: Callable[[World], str]
    data: Callable[[World], Any] | None = None
    json: bool = False
    ok: int = 200
    before: Callable[[Client, World], None] | None = None  # what the caller does first


def _look_at_every_page(client: Client, w: World) -> None:
    """A reviewer approves what they saw: the item page loads every page image."""
    for page in range(w.item.document.page_count):
        client.get(f"/items/{w.item.pk}/pages/{page}.png")


CALLS: dict[str, Call] = {
    "review:queue": Call(lambda w: "/"),
    "review:claim_next": Call(lambda w: "/claim-next/", ok=302),
    "review:item": Call(lambda w: f"/items/{w.item.pk}/"),
    "review:page_image": Call(lambda w: f"/items/{w.item.pk}/pages/0.png"),
    "review:decisions": Call(
        lambda w: f"/items/{w.item.pk}/decisions/",
        lambda w: {
            "claim_id": w.claim_id,
            "base_version": latest_proposal(w.item.document).version,
            "changes": {},
        },
        json=True,
    ),
    "review:heartbeat": Call(
        lambda w: f"/items/{w.item.pk}/heartbeat/", lambda w: {"claim_id": w.claim_id}
    ),
    "review:claim_again": Call(lambda w: f"/items/{w.item.pk}/claim-again/", lambda w: {}),
    "review:release": Call(
        lambda w: f"/items/{w.item.pk}/release/", lambda w: {"claim_id": w.claim_id}, ok=302
    ),
    "review:approve": Call(
        lambda w: f"/items/{w.item.pk}/approve/",
        _approve_form,
        ok=302,
        before=_look_at_every_page,
    ),
    "review:escalate": Call(
        lambda w: f"/items/{w.item.pk}/escalate/",
        lambda w: {
            "claim_id": w.claim_id,
            "to_queue": "compliance_review",
            "reason": "legal_question",
            "note": "Is the letterhead exempt?",
        },
        ok=302,
    ),
    "review:ops_runs": Call(lambda w: "/ops/"),
    "review:ops_run": Call(lambda w: f"/ops/runs/{w.submission_id}/"),
    "review:ops_item": Call(lambda w: f"/ops/items/{w.item.pk}/"),
    "review:document_output": Call(lambda w: f"/documents/{w.document_id}/output", ok=409),
    "review:document_redaction_log": Call(
        lambda w: f"/documents/{w.document_id}/redaction-log.csv", ok=404
    ),
    "submission-create": Call(
        lambda w: "/api/v1/submissions/",
        lambda w: {
            "external_ref": "FOIA-MATRIX",
            "jurisdiction": "US-FED",
            "files": [upload("letter.pdf", pdf_bytes())],
        },
        ok=201,
    ),
    "submission-detail": Call(lambda w: f"/api/v1/submissions/{w.submission_id}/"),
    "submission-health": Call(lambda w: f"/api/v1/submissions/{w.submission_id}/health"),
    "document-detail": Call(lambda w: f"/api/v1/documents/{w.document_id}/"),
    "document-events": Call(lambda w: f"/api/v1/documents/{w.document_id}/events/"),
    "document-evidence": Call(lambda w: f"/api/v1/documents/{w.document_id}/evidence"),
    "document-output": Call(lambda w: f"/api/v1/documents/{w.document_id}/output", ok=409),
    "document-redaction-log": Call(
        lambda w: f"/api/v1/documents/{w.document_id}/redaction-log.csv", ok=409
    ),
    "audit-events": Call(lambda w: "/api/v1/audit/"),
    "schema": Call(lambda w: "/api/v1/schema/"),
    "api-docs": Call(lambda w: "/api/v1/docs/"),
}


def _sees_every_object(caller: str, endpoint: str) -> bool:
    return caller == COMPLIANCE_OFFICER and MATRIX[endpoint].objects in (
        VIEWABLE_ITEM,
        OWN_SUBMISSION,
        ANY_OBJECT,
    )


def _objects(caller: str, endpoint: str) -> list[str]:
    rule = MATRIX[endpoint]
    if not rule.other_object or _sees_every_object(caller, endpoint):
        return [MINE]
    if rule.objects in (CLAIMED_ITEM, FREE_ITEM):
        return [MINE, THEIRS, SUBMITTED]
    return [MINE, THEIRS]


CASES = [
    pytest.param(caller, endpoint, obj, id=f"{caller}-{endpoint}-{obj}")
    for endpoint in MATRIX
    for caller in CALLERS
    for obj in _objects(caller, endpoint)
]


def _expected(caller: str, endpoint: str, obj: str) -> tuple[int, bool]:
    """The status the matrix promises, and whether it is a refusal."""
    rule, call = MATRIX[endpoint], CALLS[endpoint]
    if caller not in rule.roles:
        if caller == ANONYMOUS:
            return (401 if rule.api else 302), True
        return 403, True
    if obj == SUBMITTED:
        return 403, True
    if obj == THEIRS:
        return int(rule.other_object.split()[0]), True
    return call.ok, False


def _world(caller: str, user: Any, endpoint: str, obj: str) -> World:
    (item,) = admitted_items({"letter.pdf": CLEAN})
    world = World(item=item, other_client=user_create(role=INTAKE_CLIENT))
    on_an_item = "/items/" in MATRIX[endpoint].path
    if obj == THEIRS:
        claim_next(reviewer=user_create("otto", role="reviewer"))
        legal_hold_place(reason="litigation", actor="system:test", document=item.document)
    elif caller in HUMAN_ROLES and on_an_item:
        world.claim_id = claim_next(reviewer=user).pk
    if obj == SUBMITTED and user is not None:
        Submission.objects.filter(pk=item.document.submission_id).update(client=user)
    world.item = ReviewItem.objects.select_related("document__submission").get(pk=item.pk)
    return world


def _client(caller: str, user: Any, world: World, *, api: bool) -> Client:
    client = Client()
    if caller == INTAKE_CLIENT:
        if api:  # an intake client acts through its token...
            owner = world.item.document.submission.client if user is None else user
            token, _ = Token.objects.get_or_create(user=owner)
            client.defaults["HTTP_AUTHORIZATION"] = f"Token {token.key}"
        else:  # ...and a session of its account carries no role
            client.force_login(world.item.document.submission.client)
    elif user is not None:
        client.force_login(user)
    return client


def _caller_user(caller: str) -> Any:
    if caller == ANONYMOUS or caller == INTAKE_CLIENT:
        return None  # anonymous; the intake client is the document's own (or another)
    return user_create(f"caller-{caller}", role=None if caller == NO_ROLE else caller)


@pytest.mark.django_db
@pytest.mark.parametrize(("caller", "endpoint", "obj"), CASES)
def test_every_caller_gets_what_the_matrix_says_and_a_refusal_writes_nothing(caller, endpoint, obj):
    # Given the world of this object, seen by this caller
    rule, call = MATRIX[endpoint], CALLS[endpoint]
    user = _caller_user(caller)
    world = _world(caller, user, endpoint, obj)
    url, data = call.url(world), call.data(world) if call.data else None
    try:
        resolve(url)
    except Resolver404:
        pytest.skip(f"{endpoint} is in the matrix but not routed in this tree")
    if caller == INTAKE_CLIENT and obj == THEIRS:
        user = world.other_client
    client = _client(caller, user, world, api=rule.api)
    if call.before:
        call.before(client, world)
    events_before = AuditEvent.objects.count()
    expected, refused = _expected(caller, endpoint, obj)

    # When it calls the endpoint
    if rule.method == "GET":
        response = client.get(url)
    elif call.json:
        response = client.post(url, data, content_type="application/json")
    else:
        response = client.post(url, data or {})

    # Then it gets what the matrix says
    assert response.status_code == expected, getattr(response, "content", b"")[:300]
    if caller == ANONYMOUS and not rule.api and expected == 302:
        assert "/accounts/login/" in response["Location"]
    if refused:
        # ...and a refusal wrote nothing and said nothing of why anything is held.
        assert AuditEvent.objects.count() == events_before
        said = " ".join(str(m) for m in get_messages(response.wsgi_request))
        said += "" if response.streaming else response.content.decode(errors="replace")
        assert not HOLD_WORDS.search(said), said[:300]
    if expected in (401, 403) and rule.json:
        assert set(response.json()) == {"code", "message", "errors"}


def test_every_page_and_api_endpoint_is_in_the_matrix_and_has_a_call():
    names = set()
    for pattern in get_resolver().url_patterns:
        namespace = getattr(pattern, "namespace", None)
        if namespace == "review":
            names |= {f"review:{p.name}" for p in pattern.url_patterns}
        elif str(pattern.pattern).startswith("api/"):
            names |= {p.name for p in getattr(pattern, "url_patterns", []) if p.name}
    assert names <= set(MATRIX), (
        f"endpoints missing from common.authz.MATRIX: {names - set(MATRIX)}"
    )
    assert set(MATRIX) == set(CALLS)


def test_readme_shows_the_matrix_of_the_code():
    text = README.read_text()
    block = re.search(
        r"<!-- authz-matrix:start -->\n(.*?)<!-- authz-matrix:end -->", text, re.DOTALL
    )
    assert block, "README.md needs the authorization matrix between its markers"
    assert block.group(1) == matrix_markdown(), (
        "README's authorization matrix is out of date: paste common.authz.matrix_markdown()"
    )
