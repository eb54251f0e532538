"""The referee's enums live in one leaf module and their hot-path aliases in one beside it
(issue #19 item 3): ``referee.kinds`` and ``referee.kinds_fast``.

* every enum is defined in :mod:`referee.kinds`, which imports nothing of the referee, and is
  still the same class under the name it had before (``referee.state.Phase`` …);
* every name in :mod:`referee.kinds_fast` is the member its spelling names (member, then the
  enum's name in capitals without ``Kind`` / ``Type``), so there is one spelling per member;
* no other product module binds an enum member to a module-level name (the aliases stand in one
  place), and a module that imports an alias under another name is listed here with why;
* members still pickle (the batch ``--jobs`` and Dask workers ship events and verdicts) and their
  reprs parse back.
"""
from __future__ import annotations

import ast
import enum
import importlib
import pickle
import re
from pathlib import Path

import pytest

from referee import kinds, kinds_fast

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("referee", "penalties", "tournament", "store", "services", "api", "web", "clocks")
ENUMS = [v for v in vars(kinds).values()
         if isinstance(v, type) and issubclass(v, enum.Enum) and v.__module__ == kinds.__name__]

#: where each enum was defined before it moved, and is still imported from
OLD_HOMES = {
    "referee.tiles": ("Suit", "Wind"),
    "referee.melds": ("MeldKind", "GroupKind"),
    "referee.tables": ("WaitShape",),
    "referee.events": ("EventType", "Mode", "Call", "ReadyKind"),
    "referee.state": ("Phase", "Intake", "Source", "WindowKind"),
    "referee.verdicts": ("Status",),
    "referee.outcome": ("OutcomeKind",),
    "referee.scoring.context": ("WinSource", "FlowerWin", "Readiness", "FirstTurn"),
    "referee.scoring": ("WinSource", "FlowerWin", "Readiness", "FirstTurn"),
}

#: modules importing aliases under their old local names, with why; the list only shrinks
RENAMED: dict[str, str] = {}


def _tag(cls: type) -> str:
    """``MeldKind`` → ``MELD``, ``WinSource`` → ``WIN_SOURCE``."""
    name = re.sub(r"(Kind|Type)$", "", cls.__name__)
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


def product_files() -> list[Path]:
    return [p for package in PRODUCT for p in sorted((ROOT / package).rglob("*.py"))]


def test_every_enum_of_the_referee_is_defined_in_kinds():
    found = []
    for path in sorted((ROOT / "referee").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and any(getattr(b, "id", "").endswith("Enum") for b in node.bases):
                found.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert [f for f in found if not f.startswith("referee/kinds.py:")] == []
    assert len(ENUMS) == 19


def test_kinds_imports_nothing_of_the_referee():
    tree = ast.parse((ROOT / "referee" / "kinds.py").read_text(encoding="utf-8"))
    modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert set(modules) <= {"__future__", "enum"}


@pytest.mark.parametrize("module", sorted(OLD_HOMES))
def test_the_old_import_paths_give_the_same_classes(module):
    mod = importlib.import_module(module)
    for name in OLD_HOMES[module]:
        assert getattr(mod, name) is getattr(kinds, name)


def test_each_fast_name_is_the_member_it_spells():
    names = {n: v for n, v in vars(kinds_fast).items() if n.isupper() and not n.startswith("_")}
    assert names
    for name, member in names.items():
        assert isinstance(member, enum.Enum), name
        assert type(member) in ENUMS, name
        assert name == f"{member.name}_{_tag(type(member))}", name
        assert getattr(type(member), member.name) is member


def test_no_other_module_binds_an_enum_member_to_a_module_name():
    enum_names = {cls.__name__ for cls in ENUMS}
    found = []
    for path in product_files():
        if path == ROOT / "referee" / "kinds_fast.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.Assign):
                continue
            target, value = node.targets[0], node.value
            unpacked = isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
            for value in value.elts if unpacked else [value]:  # `_X = Phase.PLAY`, `_X, _Y = A.B, C.D`
                if (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
                        and value.value.id in enum_names and value.attr.isupper()):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def _renaming_modules() -> set[str]:
    found = set()
    for path in product_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("kinds_fast"):
                if any(a.asname and a.asname != a.name for a in node.names):
                    found.add(str(path.relative_to(ROOT)))
    return found


def test_aliases_are_imported_under_their_own_names():
    assert _renaming_modules() - set(RENAMED) == set()


def test_each_renaming_exemption_is_still_needed():
    assert set(RENAMED) - _renaming_modules() == set()


@pytest.mark.parametrize("cls", ENUMS, ids=lambda c: c.__name__)
def test_members_pickle_and_their_reprs_parse_back(cls):
    for member in cls:
        assert pickle.loads(pickle.dumps(member)) is member
        if "__repr__" in cls.__dict__:  # the enums with a repr of their own print as their name
            assert eval(repr(member), vars(kinds)) is member
