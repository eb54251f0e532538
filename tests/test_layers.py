"""The house's layers point down only (issue #19 item 1):

    domain: referee ← penalties ← tournament   (no Flask, marshmallow or database code)
    store                                      (all SQL; the only importer of a database driver)
    services                                   (what api/, web/ and clocks/ share)
    api / web / clocks                         (peers: none imports another)
    app                                        (create_app)
    mjref                                      (the command, the server launcher)

Every import in every product module is read from its syntax tree — at the top, inside a
function, under ``TYPE_CHECKING`` alike — so that no import dodges a cycle by hiding in a
function. Test support (``testkit``, ``tests``, ``bench``) is never imported by the product.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: package → its rank; a module may import its own package and any of lower rank
RANK = {"referee": 0, "penalties": 1, "tournament": 2, "store": 3, "services": 4,
        "api": 5, "web": 5, "clocks": 5, "app": 6, "mjref": 7}
DOMAIN = ("referee", "penalties", "tournament")
#: what the domain may not use (issue #19; the developers' guide: "Domain packages import no
#: flask, marshmallow or database code")
NOT_IN_DOMAIN = ("flask", "flask_smorest", "marshmallow", "sqlite3", "sqlite_utils", "psycopg", "psycopg_pool",
                 "werkzeug", "apscheduler")
TEST_SUPPORT = ("testkit", "tests", "bench")
#: the database drivers: all database code lives in store/ (the developers' guide; issue #16 item 1)
DATABASE_DRIVERS = ("sqlite3", "sqlite_utils", "psycopg", "psycopg_pool")
#: modules still importing a peer, with why; each must still need its exemption (the list only shrinks)
NOT_YET: dict[str, str] = {}


def product_modules() -> list[Path]:
    files = [ROOT / "app.py"]
    for package in RANK:
        if package != "app":
            files += sorted((ROOT / package).rglob("*.py"))
    return files


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, top-level name) for every absolute import in the file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


def package_of(path: Path) -> str:
    rel = path.relative_to(ROOT)
    return "app" if rel.parts == ("app.py",) else rel.parts[0]


def violations() -> list[str]:
    wrong = []
    for path in product_modules():
        own = package_of(path)
        for line, name in imports(path):
            where = f"{path.relative_to(ROOT)}:{line} imports {name}"
            if name in TEST_SUPPORT:
                wrong.append(f"{where}: test support in the product")
            elif name in RANK and name != own and RANK[name] >= RANK[own]:
                wrong.append(f"{where}: {own} (rank {RANK[own]}) may import only lower layers")
            elif own in DOMAIN and name in NOT_IN_DOMAIN:
                wrong.append(f"{where}: the domain imports no web, schema or database code")
            elif own != "store" and name in DATABASE_DRIVERS:
                wrong.append(f"{where}: all database code lives in store/")
    return wrong


def test_every_import_points_down():
    assert [v for v in violations() if v.split(":")[0] not in NOT_YET] == []


def test_each_exemption_is_still_needed():
    wrong = {v.split(":")[0] for v in violations()}
    assert set(NOT_YET) <= wrong, f"no longer importing upwards: {sorted(set(NOT_YET) - wrong)}"


def test_the_checker_sees_an_import_hidden_in_a_function(tmp_path, monkeypatch):
    """The check itself can fail: a store module importing the API inside a function, and a
    referee module importing flask, are both reported."""
    fake = tmp_path / "store"
    fake.mkdir()
    (fake / "x.py").write_text("def f():\n    from api.auth import check_read\n", encoding="utf-8")
    (tmp_path / "referee").mkdir()
    (tmp_path / "referee" / "y.py").write_text("import flask\nfrom .tiles import KINDS\n", encoding="utf-8")
    (tmp_path / "app.py").write_text("import mjref.cli\n", encoding="utf-8")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    found = violations()
    assert "store/x.py:2 imports api: store (rank 3) may import only lower layers" in found
    assert "referee/y.py:1 imports flask: the domain imports no web, schema or database code" in found
    assert "app.py:1 imports mjref: app (rank 6) may import only lower layers" in found
    assert len(found) == 3


@pytest.mark.parametrize("package", sorted(set(RANK) - {"app"}))
def test_each_layer_exists(package):
    assert (ROOT / package / "__init__.py").is_file()
