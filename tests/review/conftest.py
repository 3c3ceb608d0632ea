import pytest
from django.test import Client

from review.roles import COMPLIANCE_OFFICER
from testkit.builders import user_create


@pytest.fixture
def officer(db):
    """A compliance officer who may use the admin."""
    user = user_create("olga", role=COMPLIANCE_OFFICER)
    user.is_staff = True
    user.save()
    return user


@pytest.fixture
def officer_client(officer):
    client = Client()
    client.force_login(officer)
    return client
