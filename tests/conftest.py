"""Shared fixtures, and the loader of every step module in tests/steps/."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from app import create_app
from tournament.clocksource import FixedClock
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


#: the tests' "now": no test depends on today's date (``CLOCK``, tournament.clocksource)
TEST_NOW = datetime(2026, 11, 30, 0, 0, tzinfo=timezone.utc)


@pytest.fixture()
def app_clock():
    """The app's clock, stopped at :data:`TEST_NOW` until a test moves it."""
    return FixedClock(TEST_NOW)


@pytest.fixture()
def app(tmp_path, app_clock):
    """The real app on a fresh SQLite file, its time read from :func:`app_clock`."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "mjref.sqlite3"), "CLOCK": app_clock})


@pytest.fixture()
def client(app):
    return app.test_client()
