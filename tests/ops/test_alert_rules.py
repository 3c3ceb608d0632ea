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
    "RRQOldestOpenItemOld",
    "RRQParseFailures",
}
RUNBOOK = Path(settings.BASE_DIR) / "docs" / "runbook.md"
README = Path(settings.BASE_DIR) / "README.md"
UNIT_TESTS = Path(__file__).with_name("alert_rules_test.yml")


def _rules() -> list[dict]:
    return [
        rule for group in yaml.safe_load(RULES.read_text())["groups"] for rule in group["rules"]
    ]


def test_alert_rules_cover_dead_letters_stalls_the_outbox_breaches_old_items_and_parsing():
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


def _anchor(heading: str) -> str:
    """GitHub's anchor for a Markdown heading (lower case, spaces to hyphens)."""
    return re.sub(r"[^a-z0-9 -]", "", heading.strip().lower()).replace(" ", "-")


def test_every_alert_has_a_runbook_section_and_links_to_it():
    text = RUNBOOK.read_text()
    sections = {
        heading: body
        for heading, body in re.findall(r"^## ([^\n]+)\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    }
    for rule in _rules():
        name = rule["alert"]
        assert name in sections, f"no runbook section for {name}"
        body = sections[name]
        for part in ("**What it means.**", "**Ledger first.**", "**Action.**", "**Threshold: "):
            assert part in body, (name, part)
        assert f"**Threshold: {rule['labels']['owner']}.**" in body, name
        assert rule["annotations"]["runbook_url"] == f"docs/runbook.md#{_anchor(name)}"


def test_runbook_links_resolve_and_the_readme_links_the_runbook():
    text = RUNBOOK.read_text()
    anchors = {_anchor(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}
    for link in re.findall(r"\]\(#([^)]+)\)", text):
        assert link in anchors, link
    assert "docs/runbook.md" in README.read_text()


def test_runbook_names_only_commands_and_admin_pages_that_exist():
    from django.core.management import get_commands
    from django.urls import resolve

    text = RUNBOOK.read_text()
    commands = set(re.findall(r"manage\.py ([a-z_]+)", text))
    assert commands and commands <= set(get_commands()), commands - set(get_commands())
    for page in set(re.findall(r"`(/admin/[a-z_/]+/)", text)):
        resolve(page)  # raises Resolver404 for a page that does not exist


@pytest.mark.skipif(shutil.which("promtool") is None, reason="promtool not installed")
def test_promtool_unit_tests_fire_the_early_warning_alerts_at_their_thresholds():
    result = subprocess.run(
        ["promtool", "test", "rules", str(UNIT_TESTS)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
