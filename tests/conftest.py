"""Shared fixtures, and the loader of every step module in tests/steps/."""
from __future__ import annotations

from pathlib import Path

import pytest

from app import create_app
from tests.clause_coverage import parse_features

ROOT = Path(__file__).resolve().parent.parent

# Each tests/steps/<area>.py is a pytest plugin: drop a module there and its steps exist.
pytest_plugins = sorted(
    f"tests.steps.{path.stem}"
    for path in (ROOT / "tests" / "steps").glob("*.py")
    if not path.name.startswith("_")
)


def pytest_configure(config):
    # pytest-bdd turns every Gherkin tag (@tai.07, @app.flower-numbering, @wip) into a
    # pytest marker; register them so they neither warn nor break --strict-markers,
    # and so `pytest -m tai.07` selects the scenarios of a clause.
    tags = {tag for scenario in parse_features(ROOT / "features") for tag in scenario.tags}
    for tag in sorted(tags):
        config.addinivalue_line("markers", f"{tag}: Gherkin tag from features/")


@pytest.fixture()
def app(tmp_path):
    """The real app on a fresh SQLite file."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "mjref.sqlite3")})


@pytest.fixture()
def client(app):
    return app.test_client()
