"""The shipped alert rules parse and name only series the service exposes."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from django.conf import settings

RULES = Path(settings.BASE_DIR) / "config" / "alerts.yml"
EXPECTED = {
    "RRQDeadLettersWaiting",
    "RRQDeadLetterOld",
    "RRQHandoffStalled",
    "RRQOutboxNotRelayed",
    "RRQBreachUnresolved",
}


def _rules() -> list[dict]:
    return [
        rule for group in yaml.safe_load(RULES.read_text())["groups"] for rule in group["rules"]
    ]


def test_alert_rules_cover_dead_letters_stalls_the_outbox_and_breaches():
    rules = _rules()
    assert {rule["alert"] for rule in rules} == EXPECTED
    assert all(rule["labels"]["owner"] in {"compliance", "operations"} for rule in rules)


@pytest.mark.django_db
def test_every_series_an_alert_names_is_served_at_metrics(admin_client):
    served = {
        line.split("{")[0].split(" ")[0]
        for line in admin_client.get("/metrics").content.decode().splitlines()
        if line and not line.startswith("#")
    }
    for rule in _rules():
        named = set(re.findall(r"\brrq_[a-z_]+", rule["expr"]))
        assert named and named <= served, (rule["alert"], named - served)


@pytest.mark.skipif(shutil.which("promtool") is None, reason="promtool not installed")
def test_promtool_accepts_the_alert_rules():
    result = subprocess.run(
        ["promtool", "check", "rules", str(RULES)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
