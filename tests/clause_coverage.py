"""Clause coverage: which rulebook clauses (``data/clauses.tsv``) have a tagged scenario.

A tag is a *clause tag* when it contains a dot or its first segment is a clause family
(``tai``, ``app``, ``prio``...): ``@tai.07``, ``@app.flower-numbering``, ``@prio``.
Other tags (``@wip``, ``@slow``) must be dot-free and are ignored here.

Each ``check_*`` function returns a list of problems (empty when fine).
"""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

STATUSES = ("scenario", "out-of-scope")

# Gherkin keywords (zh-TW and English) that can carry tags, or end a tag's reach.
_KEYWORD = re.compile(
    r"^\s*(?P<kw>功能|Feature|Rule|背景|Background|場景大綱|劇本大綱|Scenario Outline|"
    r"Scenario Template|場景|劇本|Scenario|Example|例子|Examples|Scenarios)\s*:"
)
_KINDS = {
    "功能": "feature", "Feature": "feature",
    "Rule": "rule",
    "背景": "background", "Background": "background",
    "例子": "examples", "Examples": "examples", "Scenarios": "examples",
}  # everything else is a scenario
_TAG = re.compile(r"@([^\s@#]+)")


@dataclass
class Scenario:
    file: str
    line: int
    name: str
    tags: set[str]


def read_tsv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def parse_features(features_dir: Path) -> list[Scenario]:
    """Every scenario (or outline) under ``features_dir`` with its effective tags:
    its own, its Examples', its Rule's and its Feature's."""
    scenarios: list[Scenario] = []
    for path in sorted(Path(features_dir).rglob("*.feature")):
        pending: set[str] = set()
        feature_tags: set[str] = set()
        rule_tags: set[str] = set()
        current: Scenario | None = None
        in_docstring = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith(('"""', "```")):
                in_docstring = not in_docstring
                continue
            if in_docstring:
                continue
            if stripped.startswith("@"):
                pending |= set(_TAG.findall(re.split(r"\s#", stripped)[0]))
                continue
            match = _KEYWORD.match(line)
            if not match:
                continue
            kind = _KINDS.get(match["kw"], "scenario")
            if kind == "feature":
                feature_tags = pending
            elif kind == "rule":
                rule_tags = pending
            elif kind == "examples" and current is not None:
                current.tags |= pending
            elif kind == "scenario":
                name = line[match.end():].strip()
                current = Scenario(str(path), number, name, feature_tags | rule_tags | pending)
                scenarios.append(current)
            pending = set()
    return scenarios


def families(rows: list[dict[str, str]]) -> set[str]:
    return {row["id"].split(".")[0] for row in rows}


def is_clause_tag(tag: str, known_families: set[str]) -> bool:
    return "." in tag or tag.split(".")[0] in known_families


def _tagged(scenarios: list[Scenario]) -> dict[str, list[Scenario]]:
    by_tag: dict[str, list[Scenario]] = {}
    for scenario in scenarios:
        for tag in scenario.tags:
            by_tag.setdefault(tag, []).append(scenario)
    return by_tag


def check_scenarios_present(rows: list[dict[str, str]], scenarios: list[Scenario]) -> list[str]:
    """(a) every clause with status ``scenario`` has a scenario tagged with its id."""
    tagged = _tagged(scenarios)
    return [
        f"{row['id']}: status is scenario but no scenario in features/ is tagged @{row['id']}"
        for row in rows
        if row["status"] == "scenario" and row["id"] not in tagged
    ]


def check_tags_known(rows: list[dict[str, str]], scenarios: list[Scenario]) -> list[str]:
    """(b) every clause tag used in features/ is an id of data/clauses.tsv."""
    ids = {row["id"] for row in rows}
    known_families = families(rows)
    return [
        f"@{tag} ({', '.join(sorted({f'{Path(s.file).name}:{s.line}' for s in used}))}) "
        f"is not a clause id of data/clauses.tsv"
        for tag, used in sorted(_tagged(scenarios).items())
        if is_clause_tag(tag, known_families) and tag not in ids
    ]


def check_rows(rows: list[dict[str, str]]) -> list[str]:
    """(c) ids are unique, statuses valid, every out-of-scope row gives a reason."""
    problems = []
    seen: set[str] = set()
    for row in rows:
        if row["id"] in seen:
            problems.append(f"{row['id']}: duplicate id")
        seen.add(row["id"])
        if row["status"] not in STATUSES:
            problems.append(f"{row['id']}: status {row['status']!r} is not one of {STATUSES}")
        if row["status"] == "out-of-scope" and not (row.get("reason") or "").strip():
            problems.append(f"{row['id']}: out-of-scope without a reason")
    return problems


def check_no_tagged_out_of_scope(rows: list[dict[str, str]], scenarios: list[Scenario]) -> list[str]:
    """(d) a clause that has a tagged scenario must have status ``scenario``."""
    tagged = _tagged(scenarios)
    return [
        f"{row['id']}: tagged in features/ but marked out-of-scope; set its status to scenario"
        for row in rows
        if row["status"] != "scenario" and row["id"] in tagged
    ]


def check_same_ids(ours: list[dict[str, str]], shared: list[dict[str, str]]) -> list[str]:
    """(e) data/clauses.tsv lists exactly the ids of the shared rulebook."""
    our_ids = list(dict.fromkeys(row["id"] for row in ours))
    shared_ids = list(dict.fromkeys(row["id"] for row in shared))
    problems = [f"{i}: in the shared rulebook, missing from data/clauses.tsv" for i in shared_ids if i not in our_ids]
    problems += [f"{i}: in data/clauses.tsv, not in the shared rulebook" for i in our_ids if i not in shared_ids]
    return problems


#: where the code that decides a clause may live: the domain packages and the rulesets' data
CODE_PLACES = ("referee", "penalties", "tournament", "data/rulesets")


def cites(text: str, clause_id: str) -> int:
    """How often *text* names *clause_id* itself (``play.kong`` not inside ``play.kong.exposed``)."""
    return len(re.findall(r"(?<![\w.-])" + re.escape(clause_id) + r"(?![\w-]|\.\d|\.[a-z])", text))


def code_files(root: Path) -> dict[str, str]:
    """path (from *root*) → text, for every file in :data:`CODE_PLACES`."""
    files = {}
    for place in CODE_PLACES:
        for path in sorted((root / place).rglob("*")):
            if path.suffix in (".py", ".json"):
                files[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
    return files


def code_sites(clause_id: str, files: dict[str, str], limit: int = 3) -> list[str]:
    """The files that cite *clause_id* most (modules before data): what its ``code`` column lists."""
    hits = sorted(((cites(text, clause_id), not path.endswith(".py"), path) for path, text in files.items()),
                  key=lambda h: (-h[0], h[1], h[2]))
    return [path for count, _data, path in hits if count][:limit]


def check_code_column(rows: list[dict[str, str]], files: dict[str, str]) -> list[str]:
    """(f) where each rule lives (issue #19 item 4): every clause with a scenario names in its
    ``code`` column the files that decide it, and each file named exists and cites the id."""
    problems = []
    for row in rows:
        listed = (row.get("code") or "").split()
        if row["status"] == "scenario" and not listed:
            problems.append(f"{row['id']}: no code listed (the column `code`: "
                            f"{' '.join(code_sites(row['id'], files))})")
        for path in listed:
            if path not in files:
                problems.append(f"{row['id']}: code {path} does not exist under {CODE_PLACES}")
            elif not cites(files[path], row["id"]):
                problems.append(f"{row['id']}: {path} does not cite {row['id']}")
    return problems


def write_code_column(path: Path, root: Path) -> None:
    """Fill ``code`` in *path* (data/clauses.tsv) from the citations: ``python -m tests.clause_coverage``."""
    rows = read_tsv(path)
    files = code_files(root)
    for row in rows:
        row["code"] = " ".join(code_sites(row["id"], files))
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]), delimiter="\t", quoting=csv.QUOTE_NONE,
                                lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    _root = Path(__file__).resolve().parent.parent
    write_code_column(_root / "data" / "clauses.tsv", _root)
