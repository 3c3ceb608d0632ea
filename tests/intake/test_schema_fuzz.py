"""Schemathesis against the published OpenAPI schema: no 5xx, no response outside it."""

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

from tests.intake.conftest import make_api_client

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", get_wsgi_application())


@pytest.fixture
def token_header(db):
    # Called as a plain WSGI app, Django would close the test's database connection after
    # each request (the test client switches that off; do the same here).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    api = make_api_client("fuzzing-client")
    yield {"Authorization": api._credentials["HTTP_AUTHORIZATION"]}
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api_conforms_to_its_schema_and_never_answers_5xx(case, token_header):
    cache.clear()  # keep the throttle out of the way of the generated requests
    # Random "binary" parts are never real PDFs, so a schema-valid upload is rightly
    # refused with a 400: the positive-data check does not apply to content validation.
    case.call_and_validate(headers=token_header, excluded_checks=[positive_data_acceptance])
