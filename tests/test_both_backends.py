"""Every test that stores something runs on SQLite and on PostgreSQL (issue #16 item 4).

The PostgreSQL pass (``MJREF_TEST_DATABASE=postgresql``, ``conftest.pytest_collection_modifyitems``)
keeps the tests that use the ``database`` fixture or, for a real server they start
(``python -m mjref.serve``), the ``server_database`` fixture. A module that starts servers on a
SQLite file it names itself would never reach PostgreSQL, silently: this test finds such modules
by what they call and asks each either to take its database from a fixture or to say here why it
is SQLite's alone.
"""
from __future__ import annotations

import re

from tests.conftest import ROOT

#: calls that start a real server on a database the caller gives
SERVER_STARTS = re.compile(r"\b(?:start_server|official_server|start_uwsgi_server)\(")
#: fixtures that give a server its database on the pass's backend (or on PostgreSQL whatever it is)
BACKEND_FIXTURES = re.compile(r"\b(?:server_database|pg_database|pg_cluster)\b|\bCluster\(")

#: the modules whose servers run on a SQLite file of their own, and why
SQLITE_ONLY = {
    "test_crash.py": "SIGKILL of a server during a burst on SQLite's file (its WAL, the write lock "
                     "file); PostgreSQL's crash test is tests/test_crash_pg.py",
    "test_idempotency_crash.py": "a SIGKILL between SQLite's commit and the answer, read back from "
                                 "the file itself; PostgreSQL's: tests/test_ingest_pg.py (the commit "
                                 "in, the answer lost)",
    "test_serve.py": "the SQLite file and its folder owned by the service's user (--user), and the "
                     "front's own answers, which store nothing",
    "test_calculators_browser.py": "the calculators store nothing",
    "test_tiles_svg.py": "the tile pictures store nothing",
}


def _modules() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted((ROOT / "tests").glob("test_*.py"))}


def test_every_module_that_starts_a_server_gives_it_the_pass_s_database():
    modules = _modules()
    alone = sorted(name for name, text in modules.items()
                   if SERVER_STARTS.search(text) and name not in SQLITE_ONLY and not BACKEND_FIXTURES.search(text))
    assert not alone, (f"{alone} start servers on a database of their own: take it from the "
                       "server_database fixture (tests/conftest.py), or list the module in SQLITE_ONLY with why")


def test_each_module_listed_as_sqlite_only_still_starts_a_server():
    modules = _modules()
    stale = sorted(name for name in SQLITE_ONLY if name not in modules or not SERVER_STARTS.search(modules[name]))
    assert not stale, f"{stale} are listed in SQLITE_ONLY but start no server: drop them from the list"
