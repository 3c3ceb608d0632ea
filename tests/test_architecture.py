"""The layers are import-linter contracts (pyproject.toml) run by `make lint`. These tests
prove the contracts hold today and that breaking one is caught."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
SOURCES = ["common", "audit", "intake", "review", "config", "pyproject.toml"]


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def tree_copy(tmp_path):
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    return tmp_path


def _append_import(tree: Path, module: str, statement: str) -> None:
    path = tree / (module.replace(".", "/") + ".py")
    path.write_text(path.read_text() + f"\n{statement}  # noqa: E402,F401\n")


def test_the_import_contracts_hold():
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "statement", "contract"),
    [
        (
            "review.selectors",
            "from review.services.claims import claim_next",
            "Reads never import writes",
        ),
        ("review.pdf.redact", "from django.conf import settings", "review.pdf is Django-free"),
        ("intake.services.admission", "from review.models import ReviewItem", "Apps in layers"),
        ("audit.services", "from intake.models import Document", "Apps in layers"),
        ("review.services.claims", "from review.views import queue", "Within each app"),
        ("review.services.transitions", "from review.services import holds", "No import cycles"),
    ],
)
def test_breaking_a_contract_fails_the_lint(tree_copy, module, statement, contract):
    _append_import(tree_copy, module, statement)

    result = _lint_imports(tree_copy)

    assert result.returncode != 0
    broken = result.stdout.split("Broken contracts", 1)[1]
    assert contract in broken
