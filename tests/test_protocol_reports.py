"""docs/protocol.md lists every report code an official can enter, with its clause and an
example (issue #13 item 4): the doc's list is the code's (:data:`penalties.rule.REPORTS`) and
holds every report that stops play (:data:`referee.state.CATCH_CODES`), and each example, put
into a hand, is ruled on (not left unruled, no error)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from penalties.adjudicator import adjudicate_hands
from penalties.rule import REPORTS
from referee.state import CATCH_CODES
from referee.verdicts import CODES, code_table
from testkit.script import Script

_ROW = re.compile(r"^\| `(?P<code>[a-z_]+)` \| `(?P<clause>[^`]+)` \| (?P<zh>[^|]+) \| (?P<en>[^|]+) \| "
                  r"`(?P<example>\{.*\})` \|$")


def _rows() -> dict[str, dict[str, str]]:
    text = Path("docs/protocol.md").read_text(encoding="utf-8")
    section = text.split("## 裁判報告代碼 Report codes an official can enter", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = _ROW.match(line)
        if m:
            assert m["code"] not in rows, m["code"]
            rows[m["code"]] = m.groupdict()
    return rows


def test_the_docs_report_codes_are_the_codes_penalties_rule_on():
    rows = _rows()
    assert sorted(rows) == sorted(REPORTS)
    assert sorted(CATCH_CODES - set(rows)) == [], "a report that stops play is missing from docs/protocol.md"
    for code, row in rows.items():
        clause, zh, en = REPORTS[code]
        assert row["clause"] == clause and row["zh"].strip() == zh and row["en"].strip() == en, code
        example = json.loads(row["example"])
        assert example["type"] == "report" and example["code"] == code


@pytest.mark.parametrize("code", sorted(REPORTS))
def test_each_examples_report_is_ruled_on_in_a_hand(code):
    """The example entered after a few turns of a physical hand: read without error, and not
    listed as a report nobody rules on."""
    example = json.loads(_rows()[code]["example"])
    s = Script(dealer=0).deal().discard(0, "5m").draw(1).place(1).discard(1, "9p")
    s.report(example["code"], example.get("seat"), example.get("note"))
    s.draw(2).place(2).discard(2, "1z")
    (hand,) = adjudicate_hands(s.end().jsonl())
    assert not any(entry[0] == f"report:{code}" for entry in hand.rulings.unruled)


def test_the_docs_verdicts_table_is_what_officials_hear():
    """docs/protocol.md's table of the referee's codes (「判定 Verdicts」) is
    :func:`referee.verdicts.code_table`: every code, its clause, and its sentences with the
    seats named as they are read out (by wind, never 「N 號座」, issue #13 item 4)."""
    text = Path("docs/protocol.md").read_text(encoding="utf-8")
    section = text.split("## 判定 Verdicts", 1)[1].split("\n## ", 1)[0]
    lines = section.splitlines()
    start = lines.index("| code | clause | 中文 | English |")
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("| ")), len(lines))
    rows = lines[start:end]
    table = code_table()
    assert rows == table, "\n".join(table)
    assert len(table) == len(CODES) + 2 and "號座" not in section and "seat {" not in section.lower()
