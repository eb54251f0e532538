"""Generate ``docs/rulesets.md`` from ``data/rulesets/*.json``.

    python -m referee.ruleset_docs            # write docs/rulesets.md
    python -m referee.ruleset_docs --check    # exit 1 if docs/rulesets.md is stale

``tests/test_ruleset.py`` asserts the committed file equals :func:`render`, so the
document cannot drift from the data.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .ruleset import (
    EXCLUSIONS, Exclusion, ParameterDef, Ruleset, available_profiles, parameters, profile_info, value_sources,
)

DOCS_FILE = Path(__file__).resolve().parent.parent / "docs" / "rulesets.md"
#: column order; any other profile follows, alphabetically
PREFERRED_ORDER = ("competition", "competition-000", "app")
DIFFERS = "⚠︎"

INTRO_ZH = """\
規則文字彼此不一（五暗刻 12 或 13 台、地聽 4 或 6 台、暗槓是否解除過水、菊 3 或竹 3⋯⋯），
每一處不同或可選的做法都是一個參數，不寫死在程式裡。參數在 `data/rulesets/parameters.json`
定義一次（型別、中英文意義、出處條文）；各規則設定檔 `data/rulesets/<設定>.json` 給每個參數一個值，
可延伸（`extends`）另一設定檔再覆寫，載入後一定完整。條文編號見規則書 `clauses.tsv`。

- `tai.<名堂>` 是該名堂的台數；**0 表示此設定不計此名堂**（計台時略過，不列出）。沒有任何值是 null。
- 要另行開啟的牌型、動作或玩法（嚦咕嚦咕 `hands.ligu`、七搶一 `hands.seven_rob_one`、
  宣告聽牌 `play.declared_ready`、寶牌 `bao.enabled`）另有開關；開關關閉時該名堂不會成立，
  其台數保留條文所載之值，只要覆寫開關即可使用。
- `tai.exclusions` 列出某名堂成立時哪些名堂不另計（取代），以及台數增減（字一色 −4），每條附條文；
  見下方「不另計」表。
- 總表中 ⚠︎ 與粗體表示各設定的值不同；值旁的 ‹條文› 表示此值出自該條文，而非參數所列的第一個條文；
  ‹†› 表示此值出自公開來源（引擎的檔案、牌桌公布的規則），見文末「規則設定檔的出處」。
- 條文沒有說的慣例（起胡、平胡的變化、選用名堂⋯⋯）預設皆為比賽規則的做法，參數說明列有其公開出處。
- 賽事可在設定檔之上覆寫個別參數，例如 `Ruleset.load("competition", {"scoring.cap": 8})`。"""

INTRO_EN = """\
The rule texts disagree (五暗刻 12 or 13 台, 地聽 4 or 6, whether a concealed kong releases a
passed win, 菊 3 or 竹 3 ...); every disagreement or option is a parameter, never a hard-coded
choice. `data/rulesets/parameters.json` defines each parameter once (type, meaning in zh-TW and
English, the clauses it comes from); each profile `data/rulesets/<profile>.json` gives every
parameter a value, possibly extending another profile and overriding it; a loaded profile is
always complete. Clause ids are those of the rulebook's `clauses.tsv`.

- `tai.<pattern>` is what the pattern scores in 台; **0 means the profile does not score it**
  (the scorer skips it and never lists it). No value is ever null.
- Hands, actions or features that must be switched on (嚦咕嚦咕 `hands.ligu`, 七搶一
  `hands.seven_rob_one`, 宣告聽牌 `play.declared_ready`, 寶牌 `bao.enabled`) have a bool switch;
  with the switch off the pattern cannot arise, and its `tai.*` keeps the value the texts give,
  so overriding the switch alone turns it on.
- `tai.exclusions` lists which pattern, when scored, excludes which others (不另計 / 取代) and
  the adjustments (字一色 −4), each entry with its clause: see the exclusions table below.
- In the table, ⚠︎ and bold mark parameters whose values differ between profiles; ‹clause›
  beside a value means it comes from that clause rather than the parameter's first one; ‹†›
  means it comes from a public source (an engine's file, a table's published rules), listed
  under "Profile sources" at the end.
- Conventions the rule texts do not state (起胡, 平胡 variants, optional patterns ...) default
  to what the rulebook does; the parameter meanings give their public sources.
- A tournament may override single parameters on top of a profile, e.g.
  `Ruleset.load("competition", {"scoring.cap": 8})`."""


def _profiles() -> list[str]:
    names = available_profiles()
    first = [p for p in PREFERRED_ORDER if p in names]
    return first + [p for p in names if p not in first]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _value_text(defn: ParameterDef, value: object) -> str:
    if defn.type == "bool":
        return "✓" if value else "✗"
    if defn.type == "enum":
        return f"`{value}`"
    if defn.type == "exclusions":
        return f"{len(value)} 條 entries ↓"  # type: ignore[arg-type]
    return str(value)


def _pattern_label(code: str) -> str:
    return f"{parameters()[f'tai.{code}'].term} `{code}`"


def _parameter_table(rulesets: dict[str, Ruleset]) -> list[str]:
    names = list(rulesets)
    lines = [
        "| | 參數 parameter | 名堂／規則 term | " + " | ".join(f"`{n}`" for n in names) + " | 條文 clauses |",
        "|---|---|---|" + "---|" * len(names) + "---|",
    ]
    for name, defn in parameters().items():
        values = [rulesets[n].values[name] for n in names]
        differs = any(v != values[0] for v in values)
        cells = []
        for n, value in zip(names, values):
            text = _value_text(defn, value)
            if differs:
                text = f"**{text}**"
            source = rulesets[n].sources[name]
            if source and source[0] != defn.default_clause:
                text += f" ‹{source[0]}›"
            elif name in value_sources(n):
                text += " ‹†›"
            cells.append(text)
        row = [DIFFERS if differs else "", f"`{name}`", defn.term, *cells, ", ".join(defn.clauses)]
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    return lines


def _exclusion_rows(entries: tuple[Exclusion, ...]) -> dict[tuple, str]:
    """(pattern, kind, other, detail) → clause, one row per excluded pattern."""
    rows: dict[tuple, str] = {}
    for e in entries:
        if e.is_adjustment:
            rows[(e.pattern, "adjust", tuple(e.with_any), e.adjust)] = e.clause
        else:
            for other in e.excludes:
                rows.setdefault((e.pattern, "excludes", other, e.scope), e.clause)
    return rows


def _exclusion_table(rulesets: dict[str, Ruleset]) -> list[str]:
    names = list(rulesets)
    per_profile = {n: _exclusion_rows(rulesets[n].values[EXCLUSIONS]) for n in names}
    order = {code: i for i, code in enumerate(p[4:] for p in parameters() if p.startswith("tai."))}
    keys = sorted(
        {k for rows in per_profile.values() for k in rows},
        key=lambda k: (order[k[0]], k[1], order[k[2]] if k[1] == "excludes" else -1, str(k)),
    )
    lines = [
        "| | 名堂 pattern | 不另計 excludes | " + " | ".join(f"`{n}`" for n in names) + " |",
        "|---|---|---|" + "---|" * len(names),
    ]
    for key in keys:
        pattern, kind, other, detail = key
        if kind == "adjust":
            what = f"與 with any of {'、'.join(_pattern_label(c) for c in other)} 並存：{detail:+d} 台"
        else:
            what = _pattern_label(other) + ("（同組花 same flower group）" if detail == "flower_group" else "")
        cells = [per_profile[n].get(key, "—") for n in names]
        differs = any((c == "—") != (cells[0] == "—") for c in cells)
        row = [DIFFERS if differs else "", _pattern_label(pattern), what, *cells]
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    return lines


def _meanings() -> list[str]:
    lines: list[str] = []
    for name, defn in parameters().items():
        lines += [
            f"### `{name}` {defn.term}",
            "",
            f"- 型別 type: {defn.describe_type()}",
            f"- {defn.meaning_zh}",
            f"- {defn.meaning_en}",
            f"- 條文 clauses: {', '.join(defn.clauses)}",
            *(f"- 出處 source: {src}" for src in defn.sources),
        ]
        for value in defn.values:
            text = defn.value_meanings[value]
            lines.append(f"  - `{value}`: {text['zh']} / {text['en']}")
        lines.append("")
    return lines


def _profile_sources(names: list[str]) -> list[str]:
    lines: list[str] = []
    for n in names:
        cited = value_sources(n)
        info = profile_info(n)
        if not cited and not info.sources:
            continue
        lines += [f"### `{n}` {info.title_zh} {info.title_en}", ""]
        for key, text in info.sources.items():
            lines.append(f"- `{key}`: {text}")
        if cited:
            lines.append("")
            lines.append("| 參數 parameter | 值 value | 出處 source |")
            lines.append("|---|---|---|")
            values = Ruleset.load(n).values
            defs = parameters()
            for name, text in cited.items():
                lines.append("| " + " | ".join(_cell(c) for c in (f"`{name}`", _value_text(defs[name], values[name]),
                                                                  text)) + " |")
        lines.append("")
    return lines or ["（無 none）", ""]


def render() -> str:
    """The whole of ``docs/rulesets.md``."""
    names = _profiles()
    rulesets = {n: Ruleset.load(n) for n in names}
    lines = [
        "<!-- 本檔由 `python -m referee.ruleset_docs` 依 data/rulesets/*.json 產生，請勿手改。 -->",
        "<!-- Generated by `python -m referee.ruleset_docs` from data/rulesets/*.json; do not edit. -->",
        "",
        "# 規則設定 Rulesets",
        "",
        "## 說明",
        "",
        INTRO_ZH,
        "",
        "## About",
        "",
        INTRO_EN,
        "",
        "## 規則設定檔 Profiles",
        "",
        "| 設定 profile | 延伸 extends | 說明 | description |",
        "|---|---|---|---|",
    ]
    for n in names:
        info = profile_info(n)
        row = [f"`{n}`", f"`{info.extends}`" if info.extends else "—", f"{info.title_zh}：{info.description_zh}",
               f"{info.title_en}: {info.description_en}"]
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    lines += [
        "",
        "## 參數總表 Parameters × profiles",
        "",
        f"{DIFFERS} 值不同 values differ · ✓ 是 yes · ✗ 否 no · ‹條文› 值的出處 the clause this value comes from",
        "",
        *_parameter_table(rulesets),
        "",
        "## 不另計（取代） Exclusions",
        "",
        "`tai.exclusions`：左欄名堂計台時，中欄名堂不另計（或台數增減）；格內為條文，— 表示此設定無此條。",
        "When the left pattern is scored, the middle one is not (or the total is adjusted); cells give",
        "the clause, — means the profile has no such entry. "
        "`scoring.small_four_winds_adds_winds` = ✗ adds 小四喜 → 圈風, 門風 (app.replaces.18).",
        "",
        *_exclusion_table(rulesets),
        "",
        "## 參數說明 Parameter meanings",
        "",
        *_meanings(),
        "## 規則設定檔的出處 Profile sources",
        "",
        "‹†› 表示該值出自公開來源而非條文，列於下方 · "
        "‹†› marks a value taken from a public source, not a clause, listed here.",
        "",
        *_profile_sources(names),
    ]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = render()
    if args == ["--check"]:
        current = DOCS_FILE.read_text(encoding="utf-8") if DOCS_FILE.exists() else ""
        if current != text:
            print(f"{DOCS_FILE} is stale: run python -m referee.ruleset_docs", file=sys.stderr)
            return 1
        return 0
    if args:
        print("usage: python -m referee.ruleset_docs [--check]", file=sys.stderr)
        return 2
    DOCS_FILE.parent.mkdir(parents=True, exist_ok=True)
    DOCS_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {DOCS_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
