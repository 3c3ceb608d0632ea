"""Schemathesis against the published OpenAPI schema, every operation, as each kind of
caller (an intake client's token, a compliance officer's token, a reviewer's token and
no credentials): no 5xx, no response outside the schema. The example count stays small
in the default run; FUZZ_EXAMPLES=500 (say) searches harder."""

import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import positive_data_acceptance

from intake.models import ThrottleWindow
from review.roles import COMPLIANCE_OFFICER, REVIEWER
from testkit.builders import user_create
from tests.intake.conftest import make_api_client

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", get_wsgi_application())


CALLERS = ["intake_client", COMPLIANCE_OFFICER, REVIEWER, "anonymous"]


@pytest.fixture(params=CALLERS)
def token_header(request, db):
    # Called as a plain WSGI app, Django would close the test's database connection after
    # each request (the test client switches that off; do the same here).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    if request.param == "intake_client":
        api = make_api_client("fuzzing-client")
        yield {"Authorization": api._credentials["HTTP_AUTHORIZATION"]}
    elif request.param == "anonymous":
        yield {}
    else:
        user = user_create(f"fuzzing-{request.param}", role=request.param)
        yield {"Authorization": f"Token {Token.objects.create(user=user).key}"}
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "10")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api_conforms_to_its_schema_and_never_answers_5xx(case, token_header):
    ThrottleWindow.objects.all().delete()  # the throttle stays out of the generated requests' way
    # Random "binary" parts are never real PDFs, so a schema-valid upload is rightly
    # refused with a 400: the positive-data check does not apply to content validation.
    case.call_and_validate(headers=token_header, excluded_checks=[positive_data_acceptance])
