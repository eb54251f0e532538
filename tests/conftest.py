"""Shared fixtures, and the loader of every step module in tests/steps/."""
from __future__ import annotations

import os
import shutil
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


#: the backend of the ``database`` fixture (and so of ``app`` and ``client``): ``sqlite`` (the
#: default) or ``postgresql`` (a throwaway cluster, tests/pgcluster.py; ``make test-pg``)
BACKEND = os.environ.get("MJREF_TEST_DATABASE", "sqlite").lower()
if BACKEND not in ("sqlite", "postgresql"):
    raise RuntimeError(f"MJREF_TEST_DATABASE must be sqlite or postgresql, not {BACKEND!r}")


def pytest_configure(config):
    config.addinivalue_line("markers", "sqlite_only: reads or writes the SQLite file itself (skipped on PostgreSQL)")
    config.addinivalue_line("markers", "postgresql: needs PostgreSQL whatever the backend (tests/pgcluster.py)")
    config.addinivalue_line("markers", "own_database: stores on the pass's backend through a database of its own "
                                       "(kept in the PostgreSQL pass)")
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


def pytest_collection_modifyitems(config, items):
    """On PostgreSQL (``MJREF_TEST_DATABASE=postgresql``) run the tests that store something
    (those using the ``database`` fixture, through ``app`` and ``client`` too, those whose
    real servers store into a ``server_database``, and those marked ``own_database``, which
    make their own database on the pass's backend: the API fuzz); the others
    never touch a database and ran on SQLite already. Those marked ``postgresql`` use
    PostgreSQL whatever the backend: they ran on it in the SQLite pass, so not again.
    A test marked ``sqlite_only`` looks into the SQLite file itself: skipped there."""
    if BACKEND != "postgresql":
        return
    keep, drop = [], []
    for item in items:
        names = getattr(item, "fixturenames", ())
        stores = ("database" in names or "server_database" in names or item.get_closest_marker("own_database")) \
            and not item.get_closest_marker("postgresql")
        (keep if stores else drop).append(item)
        if item.get_closest_marker("sqlite_only"):
            item.add_marker(pytest.mark.skip(reason="reads the SQLite file itself / 直接讀寫 SQLite 檔案"))
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(scope="session")
def pg_cluster(tmp_path_factory):
    """This test process's own PostgreSQL server (initdb, its own port, an unprivileged user),
    with a migrated template database; stopped and removed at the end."""
    from tests.pgcluster import Cluster, pg_bin

    if pg_bin() is None:
        pytest.fail("PostgreSQL is not installed: apt-get install postgresql (.ci/run does) / 未安裝 PostgreSQL")
    cluster = Cluster().start()
    try:
        cluster.create_template()
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture()
def pg_database(pg_cluster):
    """A PostgreSQL database in the migrated template's state, put back into it afterwards
    (:meth:`tests.pgcluster.Cluster.reset_database`: a few milliseconds, where a new copy of the
    template costs 0.1–0.5 s)."""
    url = pg_cluster.clean_database()
    yield url
    pg_cluster.reset_database(url)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory):
    """A SQLite file migrated once per test process, which :func:`database` copies: a fresh
    file's migration costs 60–100 ms of fsyncs, a copy 2 ms (as ``pg_cluster``'s template
    database does for PostgreSQL). The copy is a real, fully migrated SQLite file; start-up
    still opens and checks it (``store.db.init_db``). Tests of the migrations themselves
    make their own files."""
    from store.db import init_db

    path = tmp_path_factory.mktemp("sqlite-template") / "mjref.sqlite3"
    init_db(path)
    return path


@pytest.fixture()
def database(request, tmp_path):
    """A fresh database for one test: a SQLite file in the test's folder (a copy of
    :func:`sqlite_template`), or (with ``MJREF_TEST_DATABASE=postgresql``) a PostgreSQL
    database in the migrated template's state (:func:`pg_database`)."""
    if BACKEND == "postgresql":
        yield request.getfixturevalue("pg_database")
    else:
        path = tmp_path / "mjref.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield str(path)


@pytest.fixture(scope="session")
def server_database(request):
    """Makes the database of a real server a test starts (``python -m mjref.serve``, a
    module's or a test's own): ``server_database(folder, name)`` is a new SQLite file
    ``folder/<name>.sqlite3``, which the server creates and migrates, or (with
    ``MJREF_TEST_DATABASE=postgresql``) a new database of this test process's cluster, a copy
    of the migrated template (:meth:`tests.pgcluster.Cluster.new_database`), dropped with the
    cluster. A test using it runs in both passes, as one using :func:`database` does."""
    if BACKEND == "postgresql":
        cluster = request.getfixturevalue("pg_cluster")
        return lambda folder, name: cluster.new_database(name.replace("-", "_"))
    return lambda folder, name: str(Path(folder) / f"{name}.sqlite3")


@pytest.fixture()
def app(database, app_clock):
    """The real app on a fresh database (SQLite file, or PostgreSQL), its time read from :func:`app_clock`."""
    from store import close_app

    app = create_app({"TESTING": True, "DATABASE": database, "CLOCK": app_clock})
    yield app
    close_app(app)


@pytest.fixture()
def stateless_app(sqlite_template, tmp_path, app_clock):
    """The real app for tests of what stores nothing (the calculators, the batch CLI): on a
    SQLite file whatever the backend. A module whose tests store nothing imports
    :func:`tests.servicekit.app_storing_nothing` (its ``app``, and so its ``client``); its
    tests then use no ``database``, and the PostgreSQL pass, which runs again every test that
    stores something, leaves them out. After each test its file must still hold no row
    outside ``meta`` (the app's own settings): a test that stores something through it fails
    here, and belongs on :func:`app`."""
    from store import close_app
    from tests.servicekit import stored_rows

    path = tmp_path / "stateless.sqlite3"
    shutil.copyfile(sqlite_template, path)
    app = create_app({"TESTING": True, "DATABASE": str(path), "CLOCK": app_clock})
    yield app
    close_app(app)
    stored = stored_rows(path)
    assert not stored, f"a test on stateless_app stored rows {stored}: give it the app fixture (a database)"


@pytest.fixture()
def client(app):
    return app.test_client()
