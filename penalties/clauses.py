"""The rulebook's clauses as an official cites them (issue #13 item 4): heading, number and
text from ``data/clauses.tsv`` (the rulebook's own ``clauses.tsv``, ids as cited everywhere).

    >>> cite_zh("pen.wrong-pon.2")[:12]
    '依〈錯碰之處理〉第 2 條：'
"""
from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path

CLAUSES_TSV = Path(__file__).resolve().parent.parent / "data" / "clauses.tsv"
_NUMBERED = re.compile(r"^(?P<heading>.+?) (?P<number>\d+)(?: (?P<name>.+))?$")
_LEADING_NUMBER = re.compile(r"^\d+[.、．]\s*")


@lru_cache(maxsize=1)
def clauses() -> dict[str, tuple[str, str]]:
    """clause id → (section heading as the rulebook gives it, text)."""
    with open(CLAUSES_TSV, encoding="utf-8", newline="") as f:
        return {row["id"]: (row["section"], row.get("text") or "")
                for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)}


def cite_zh(clause: str) -> str:
    """「依〈錯碰之處理〉第 2 條：「…」」 — the clause's heading, number and text; 「依〈詐胡〉：「…」」
    for an unnumbered one; 「依規則 <id>」 when the clause is not in the rulebook's list."""
    entry = clauses().get(clause)
    if entry is None:
        return f"依規則 {clause}"
    section, text = entry
    m = _NUMBERED.match(section)
    if m and not m.group("name"):
        return f"依〈{m.group('heading')}〉第 {m.group('number')} 條：「{_LEADING_NUMBER.sub('', text)}」"
    return f"依〈{section}〉：「{text}」"


__all__ = ["CLAUSES_TSV", "cite_zh", "clauses"]
