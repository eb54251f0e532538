"""Rulesets as data: every disagreement between the rule texts, and every option, is a
parameter; a *profile* gives each parameter a value.

The texts disagree (五暗刻 12 or 13 台, 地聽 4 or 6, whether 暗槓 releases 過水, 菊 3 or
竹 3 ...); none of that is hard-coded. ``data/rulesets/parameters.json`` defines every
parameter once (type, meaning in zh-TW and English, the clause ids it comes from);
``data/rulesets/<profile>.json`` gives the values (``competition``, ``competition-000``,
``app``), citing a clause beside a value when it comes from another clause than the
parameter's default (its first). A profile may ``extend`` another and override; the
loaded profile is always complete. ``docs/rulesets.md`` (``python -m
referee.ruleset_docs``) shows them side by side.

    >>> rules = Ruleset.load("competition")
    >>> rules["tai.five_concealed_pungs"], Ruleset.load("competition-000")["tai.five_concealed_pungs"]
    (13, 12)
    >>> Ruleset.load("competition", {"scoring.cap": 8})["scoring.cap"]
    8

Conventions
-----------
* ``tai.<code>`` is what pattern *code* scores, in 台. **0 means the pattern is not
  scored** in this profile: the scorer skips it and never lists it. No value is null.
* A pattern that needs a hand, an action or a feature a profile may switch off has a
  separate bool switch: ``hands.ligu``, ``hands.seven_rob_one``, ``play.declared_ready``,
  ``bao.enabled``. With the switch off the pattern cannot arise; its ``tai.*`` keeps
  the value the texts give, so a single override turns the feature on.
* ``tai.exclusions`` lists, per profile, which scored pattern excludes which others
  (不另計 / 取代) and the adjustments (字一色 −4), each entry citing its clause;
  :meth:`Ruleset.apply_exclusions` applies them.

Hot path: :attr:`Ruleset.values` is a read-only view of a plain dict; scoring reads it
directly (``rules.values["tai.self_draw"]``). ``rules[name]`` is the same lookup with
a helpful error for a misspelt name. Profiles are read from disk once and cached.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .errors import RulesetError

#: where parameters.json and the profiles live
DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "rulesets"
PARAMETERS_FILE = "parameters.json"
#: the profile used when none is named
DEFAULT_PROFILE = "competition"
#: parameter types
TYPES = ("int", "bool", "enum", "exclusions")
#: how far an exclusion reaches: the whole hand, or only the flower group of the
#: excluding pattern (花槓 replaces the own flower of its own group, ``tai.26``)
SCOPES = ("hand", "flower_group")
EXCLUSIONS = "tai.exclusions"

_NAME = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+\Z")
_CLAUSE = re.compile(r"[a-z]+(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*\Z")
_PROFILE = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
_MISSING: Any = object()

_TYPE_ZH = {"int": "整數", "bool": "是非值（true/false）", "enum": "選項", "exclusions": "不另計清單"}


# --- definitions -------------------------------------------------------------------------


@dataclass(frozen=True)
class ParameterDef:
    """One parameter as ``parameters.json`` defines it."""

    name: str
    type: str
    #: the Chinese term (名堂 or rule), short
    term: str
    meaning_zh: str
    meaning_en: str
    #: clause ids it comes from; the first is the default source of a profile's value
    clauses: tuple[str, ...]
    min: int | None = None
    max: int | None = None
    #: enum values, in order
    values: tuple[str, ...] = ()
    #: enum value → {"zh": ..., "en": ...}
    value_meanings: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: MappingProxyType({}))
    #: public sources beside the clauses (an engine's file, a table's convention), for
    #: what the rule texts do not say
    sources: tuple[str, ...] = ()

    @property
    def default_clause(self) -> str:
        return self.clauses[0]

    def describe_type(self) -> str:
        """``int 0–16``, ``bool``, ``enum: a | b``, ``exclusions``."""
        if self.type == "int":
            return f"int {self.min}–{self.max}"
        if self.type == "enum":
            return "enum: " + " | ".join(self.values)
        return self.type

    def expected(self) -> tuple[str, str]:
        """What a valid value looks like, in English and zh-TW."""
        if self.type == "int":
            return f"an integer {self.min}–{self.max}", f"介於 {self.min} 至 {self.max} 的整數"
        if self.type == "bool":
            return "true or false", "true 或 false"
        if self.type == "enum":
            listed = ", ".join(repr(v) for v in self.values)
            return f"one of {listed}", f"下列之一：{'、'.join(self.values)}"
        return "a list of exclusion entries", "不另計條目的清單"

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"name": self.name, "term": self.term, "type": self.type}
        if self.type == "int":
            out.update(min=self.min, max=self.max)
        if self.type == "enum":
            out["values"] = {v: dict(self.value_meanings.get(v, {})) for v in self.values}
        out["meaning"] = {"zh": self.meaning_zh, "en": self.meaning_en}
        out["clauses"] = list(self.clauses)
        if self.sources:
            out["sources"] = list(self.sources)
        return out


@dataclass(frozen=True)
class Exclusion:
    """One entry of ``tai.exclusions``.

    Either *pattern* ``excludes`` others (when *pattern* is scored they are not), or,
    with ``with_any``, the total is adjusted by ``adjust`` when *pattern* and any of
    those are scored (字一色 with 大/小四喜 or 大/小三元: −4, ``tai.13``). Patterns are the
    codes of ``tai.<code>`` parameters.
    """

    pattern: str
    clause: str
    excludes: tuple[str, ...] = ()
    with_any: tuple[str, ...] = ()
    adjust: int = 0
    scope: str = "hand"
    note: str = ""

    @property
    def is_adjustment(self) -> bool:
        return bool(self.with_any)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"pattern": self.pattern}
        if self.is_adjustment:
            out.update(with_any=list(self.with_any), adjust=self.adjust)
        else:
            out["excludes"] = list(self.excludes)
        if self.scope != "hand":
            out["scope"] = self.scope
        out["clause"] = self.clause
        if self.note:
            out["note"] = self.note
        return out


#: entries every profile has, whatever its ``tai.exclusions``: optional patterns that
#: contain one another (``tai.rule``: 必然並存之二種以上，僅得計台數較高的一種)
IMPLIED_EXCLUSIONS = (
    Exclusion("no_honours_no_flowers", "tai.rule", excludes=("no_flowers",),
              note="無字無花必然無花，僅計較高者 / 無字無花 implies 無花: only the higher"),
)


@dataclass(frozen=True)
class ExclusionResult:
    """What :meth:`Ruleset.apply_exclusions` leaves: the patterns to score, the ones
    dropped (each with the entry that dropped it, for the official's breakdown) and the
    adjustment to add to the total."""

    kept: frozenset[str]
    dropped: Mapping[str, Exclusion]
    adjust: int
    adjustments: tuple[Exclusion, ...]


@dataclass(frozen=True)
class ProfileInfo:
    """A profile's own description (not its values)."""

    name: str
    extends: str | None
    title_zh: str
    title_en: str
    description_zh: str
    description_en: str
    #: public sources the profile's values come from: key → text (an engine's file, a
    #: table's published rules); a value cites one as ``{"value": …, "source": key}``
    sources: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class _Catalogue:
    params: Mapping[str, ParameterDef]
    #: pattern codes: ``x`` for every int parameter ``tai.x``
    patterns: frozenset[str]


# --- errors ------------------------------------------------------------------------------


def _data_error(where: str, message: str, zh: str) -> RulesetError:
    return RulesetError(f"{where}: {message}", field="ruleset", reason_zh=f"{where}：{zh}")


def _did_you_mean(name: object, choices: Iterable[str]) -> tuple[str, str]:
    """The hint naming up to three *choices* close to *name*, in English and zh-TW ("" and ""
    when none is close)."""
    import difflib  # only on the error path

    close = difflib.get_close_matches(str(name), list(choices), n=3, cutoff=0.6)
    if not close:
        return "", ""
    return f"; did you mean {', '.join(repr(c) for c in close)}?", f"；是否為 {'、'.join(close)}？"


def _unknown_parameter(name: object, field_name: str) -> RulesetError:
    hint, hint_zh = _did_you_mean(name, _catalogue().params)
    return RulesetError(
        f"unknown ruleset parameter {name!r}{hint}",
        field=field_name,
        reason_zh=f"沒有「{name}」這個規則參數{hint_zh}",
    )


def _bad_value(defn: ParameterDef, value: object, field_name: str) -> RulesetError:
    en, zh = defn.expected()
    return RulesetError(
        f"parameter {defn.name!r} must be {en}, got {value!r} ({type(value).__name__})",
        field=field_name,
        reason_zh=f"參數「{defn.name}」須為{zh}，收到 {value!r}",
    )


# --- reading files -----------------------------------------------------------------------


def _read_json(path: Path) -> Any:
    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise _data_error(path.name, f"key {key!r} given twice", f"鍵「{key}」重複")
            out[key] = value
        return out

    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as exc:
        raise _data_error(path.name, f"not valid JSON: {exc}", f"JSON 格式錯誤：{exc}") from exc


def _check_keys(raw: Mapping, allowed: set[str], required: set[str], where: str) -> None:
    extra = set(raw) - allowed
    if extra:
        raise _data_error(where, f"unknown keys {sorted(extra)}", f"不明的鍵 {sorted(extra)}")
    missing = required - set(raw)
    if missing:
        raise _data_error(where, f"missing keys {sorted(missing)}", f"缺少鍵 {sorted(missing)}")


def _text_pair(raw: object, where: str) -> tuple[str, str]:
    if not isinstance(raw, Mapping) or set(raw) != {"zh", "en"} \
            or not all(isinstance(v, str) and v.strip() for v in raw.values()):
        raise _data_error(where, 'expects {"zh": "...", "en": "..."}', '須為 {"zh": "…", "en": "…"}')
    return raw["zh"], raw["en"]


def _clause_list(raw: object, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not raw or not all(isinstance(c, str) and _CLAUSE.match(c) for c in raw):
        raise _data_error(where, f"clauses must be a non-empty list of clause ids, got {raw!r}",
                          f"條文須為條文編號的清單，收到 {raw!r}")
    if len(set(raw)) != len(raw):
        raise _data_error(where, f"clause listed twice in {raw!r}", f"條文重複：{raw!r}")
    return tuple(raw)


def _parse_parameter(raw: object, index: int) -> ParameterDef:
    where = f"{PARAMETERS_FILE} parameters[{index}]"
    if not isinstance(raw, Mapping):
        raise _data_error(where, "must be an object", "須為物件")
    _check_keys(raw, {"name", "term", "type", "min", "max", "values", "meaning", "clauses", "sources"},
                {"name", "term", "type", "meaning", "clauses"}, where)
    name = raw["name"]
    if not isinstance(name, str) or not _NAME.match(name):
        raise _data_error(where, f"name {name!r} is not a dotted ASCII name (e.g. 'tai.self_draw')",
                          f"名稱 {name!r} 須為以點分隔的英文小寫名稱")
    where = f"{PARAMETERS_FILE} {name}"
    kind = raw["type"]
    if kind not in TYPES:
        raise _data_error(where, f"type {kind!r} is not one of {TYPES}", f"型別 {kind!r} 不在 {TYPES} 之中")
    term = raw["term"]
    if not isinstance(term, str) or not term.strip():
        raise _data_error(where, "term must be a non-empty string", "term 須為非空字串")
    zh, en = _text_pair(raw["meaning"], where)
    clauses = _clause_list(raw["clauses"], where)
    lo = hi = None
    values: tuple[str, ...] = ()
    meanings: dict[str, Mapping[str, str]] = {}
    if kind == "int":
        lo, hi = raw.get("min"), raw.get("max")
        if type(lo) is not int or type(hi) is not int or lo > hi:
            raise _data_error(where, "an int parameter needs integer min ≤ max", "整數參數須有 min ≤ max")
    elif "min" in raw or "max" in raw:
        raise _data_error(where, "only int parameters have min/max", "只有整數參數有 min/max")
    if kind == "enum":
        raw_values = raw.get("values")
        if not isinstance(raw_values, Mapping) or len(raw_values) < 2:
            raise _data_error(where, "an enum needs 'values': {value: {zh, en}} with at least two values",
                              "選項參數須列出至少兩個值")
        for value, text in raw_values.items():
            if not re.fullmatch(r"[a-z][a-z0-9_-]*", value):
                raise _data_error(where, f"enum value {value!r} must be lower-case ASCII",
                                  f"選項值 {value!r} 須為英文小寫")
            meanings[value] = MappingProxyType(dict(zip(("zh", "en"), _text_pair(text, f"{where} {value}"))))
        values = tuple(raw_values)
    elif "values" in raw:
        raise _data_error(where, "only enum parameters have values", "只有選項參數有 values")
    sources = raw.get("sources", [])
    if not isinstance(sources, list) or not all(isinstance(x, str) and x.strip() for x in sources):
        raise _data_error(where, "sources must be a list of non-empty strings", "sources 須為非空字串的清單")
    return ParameterDef(name, kind, term, zh, en, clauses, lo, hi, values, MappingProxyType(meanings), tuple(sources))


@lru_cache(maxsize=1)
def _catalogue() -> _Catalogue:
    raw = _read_json(DATA_DIR / PARAMETERS_FILE)
    if not isinstance(raw, Mapping) or raw.get("format") != 1 or not isinstance(raw.get("parameters"), list):
        raise _data_error(PARAMETERS_FILE, 'expects {"format": 1, "parameters": [...]}',
                          '須為 {"format": 1, "parameters": […]}')
    _check_keys(raw, {"format", "about", "parameters"}, {"format", "parameters"}, PARAMETERS_FILE)
    params: dict[str, ParameterDef] = {}
    for index, item in enumerate(raw["parameters"]):
        defn = _parse_parameter(item, index)
        if defn.name in params:
            raise _data_error(PARAMETERS_FILE, f"parameter {defn.name!r} defined twice", f"參數「{defn.name}」重複定義")
        params[defn.name] = defn
    if params.get(EXCLUSIONS) is None or params[EXCLUSIONS].type != "exclusions":
        raise _data_error(PARAMETERS_FILE, f"{EXCLUSIONS!r} must be defined with type 'exclusions'",
                          f"須定義 {EXCLUSIONS}（型別 exclusions）")
    patterns = frozenset(n[4:] for n, d in params.items() if n.startswith("tai.") and d.type == "int")
    return _Catalogue(MappingProxyType(params), patterns)


# --- values ------------------------------------------------------------------------------


def _check_value(defn: ParameterDef, value: Any, field_name: str) -> Any:
    """The value, validated and made immutable; raises :class:`RulesetError`."""
    kind = defn.type
    if kind == "int":
        if type(value) is not int or not defn.min <= value <= defn.max:  # type: ignore[operator]
            raise _bad_value(defn, value, field_name)
        return value
    if kind == "bool":
        if type(value) is not bool:
            raise _bad_value(defn, value, field_name)
        return value
    if kind == "enum":
        if type(value) is not str or value not in defn.values:
            raise _bad_value(defn, value, field_name)
        return value
    return _check_exclusions(value, field_name)


def _pattern(code: object, field_name: str) -> str:
    patterns = _catalogue().patterns
    if type(code) is not str or code not in patterns:
        hint, hint_zh = _did_you_mean(code, patterns)
        raise RulesetError(
            f"unknown pattern {code!r}: a pattern is the code of a tai.<code> parameter{hint}",
            field=field_name,
            reason_zh=f"沒有「{code}」這個名堂（名堂即 tai.<代碼> 參數的代碼）{hint_zh}",
        )
    return code


def _pattern_list(raw: object, field_name: str, *, not_: str) -> tuple[str, ...]:
    if not isinstance(raw, (list, tuple)) or not raw:
        raise RulesetError(f"{field_name} must be a non-empty list of pattern codes, got {raw!r}", field=field_name,
                           reason_zh=f"須為名堂代碼的清單，收到 {raw!r}")
    codes = tuple(_pattern(code, f"{field_name}[{i}]") for i, code in enumerate(raw))
    if len(set(codes)) != len(codes) or not_ in codes:
        raise RulesetError(f"{field_name} lists a pattern twice or the entry's own pattern: {list(codes)}",
                           field=field_name, reason_zh=f"名堂重複或包含自身：{list(codes)}")
    return codes


def _check_exclusions(value: Any, field_name: str) -> tuple[Exclusion, ...]:
    if not isinstance(value, (list, tuple)):
        raise RulesetError(
            f"parameter {EXCLUSIONS!r} must be a list of exclusion entries, got {value!r} ({type(value).__name__})",
            field=field_name, reason_zh=f"參數「{EXCLUSIONS}」須為不另計條目的清單，收到 {value!r}",
        )
    entries = []
    for i, raw in enumerate(value):
        where = f"{field_name}[{i}]"
        if isinstance(raw, Exclusion):
            raw = raw.to_dict()
        if not isinstance(raw, Mapping):
            raise RulesetError(f"{where} must be an object, got {raw!r}", field=where,
                               reason_zh=f"條目須為物件，收到 {raw!r}")
        extra = set(raw) - {"pattern", "excludes", "with_any", "adjust", "scope", "clause", "note"}
        if extra:
            raise RulesetError(f"{where} has unknown keys {sorted(extra)}", field=where,
                               reason_zh=f"條目有不明的鍵 {sorted(extra)}")
        pattern = _pattern(raw.get("pattern"), f"{where}.pattern")
        clause = raw.get("clause")
        if type(clause) is not str or not _CLAUSE.match(clause):
            raise RulesetError(f"{where}.clause must be a clause id, got {clause!r}", field=f"{where}.clause",
                               reason_zh=f"條目須註明條文編號，收到 {clause!r}")
        note = raw.get("note", "")
        if type(note) is not str:
            raise RulesetError(f"{where}.note must be text, got {note!r}", field=f"{where}.note",
                               reason_zh="note 須為文字")
        scope = raw.get("scope", "hand")
        if scope not in SCOPES:
            raise RulesetError(f"{where}.scope must be one of {SCOPES}, got {scope!r}", field=f"{where}.scope",
                               reason_zh=f"scope 須為 {'、'.join(SCOPES)} 之一，收到 {scope!r}")
        if ("excludes" in raw) == ("with_any" in raw):
            raise RulesetError(f"{where} needs either 'excludes' or 'with_any' with 'adjust'", field=where,
                               reason_zh="條目須有 excludes，或 with_any 加 adjust（二擇一）")
        if "excludes" in raw:
            if "adjust" in raw:
                raise RulesetError(f"{where}: 'adjust' goes with 'with_any', not 'excludes'", field=f"{where}.adjust",
                                   reason_zh="adjust 只能與 with_any 並用")
            excludes = _pattern_list(raw["excludes"], f"{where}.excludes", not_=pattern)
            entries.append(Exclusion(pattern, clause, excludes=excludes, scope=scope, note=note))
        else:
            with_any = _pattern_list(raw["with_any"], f"{where}.with_any", not_=pattern)
            adjust = raw.get("adjust")
            if type(adjust) is not int or adjust == 0 or scope != "hand":
                raise RulesetError(f"{where}.adjust must be a non-zero integer (hand scope), got {adjust!r}",
                                   field=f"{where}.adjust", reason_zh=f"adjust 須為非零整數，收到 {adjust!r}")
            entries.append(Exclusion(pattern, clause, with_any=with_any, adjust=adjust, note=note))
    return tuple(entries)


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [e.to_dict() if isinstance(e, Exclusion) else e for e in value]
    return value


# --- profiles ----------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _profile_names() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in DATA_DIR.glob("*.json") if p.name != PARAMETERS_FILE))


def available_profiles() -> tuple[str, ...]:
    """The profile names, sorted (``app``, ``competition``, ``competition-000``)."""
    return _profile_names()


def _unknown_profile(name: object) -> RulesetError:
    names = _profile_names()
    hint, _hint_zh = _did_you_mean(name, names)  # zh-TW lists every profile instead
    return RulesetError(
        f"unknown ruleset profile {name!r}{hint} (available: {', '.join(names)})",
        field="ruleset",
        reason_zh=f"沒有「{name}」這個規則設定（可用：{'、'.join(names)}）",
    )


@lru_cache(maxsize=None)
def _profile_file(name: str) -> tuple[ProfileInfo, Mapping[str, Any]]:
    if type(name) is not str or name not in _profile_names():
        raise _unknown_profile(name)
    where = f"{name}.json"
    raw = _read_json(DATA_DIR / where)
    if not isinstance(raw, Mapping):
        raise _data_error(where, "must be an object", "須為物件")
    _check_keys(raw, {"profile", "extends", "title", "description", "sources", "values"},
                {"profile", "title", "description", "values"}, where)
    if raw["profile"] != name or not _PROFILE.match(name):
        raise _data_error(where, f"'profile' is {raw['profile']!r}, the file name says {name!r}",
                          f"profile 為 {raw['profile']!r}，與檔名 {name!r} 不符")
    extends = raw.get("extends")
    if extends is not None and extends not in _profile_names():
        raise _data_error(where, f"extends unknown profile {extends!r}", f"延伸的規則設定 {extends!r} 不存在")
    title = _text_pair(raw["title"], f"{where} title")
    description = _text_pair(raw["description"], f"{where} description")
    if not isinstance(raw["values"], Mapping):
        raise _data_error(where, "'values' must be an object", "values 須為物件")
    sources = raw.get("sources", {})
    if not isinstance(sources, Mapping) or not all(
            isinstance(k, str) and _PROFILE.match(k) and isinstance(v, str) and v.strip() for k, v in sources.items()):
        raise _data_error(where, "'sources' must map a key (lower-case ASCII) to its text",
                          "sources 須為「鍵: 出處文字」的物件")
    info = ProfileInfo(name, extends, title[0], title[1], description[0], description[1],
                       MappingProxyType(dict(sources)))
    return info, raw["values"]


@lru_cache(maxsize=None)
def _resolved(name: str) -> tuple[Mapping[str, Any], Mapping[str, tuple[str, ...]], Mapping[str, str]]:
    """A profile's complete values, the clause each one comes from, and the public
    source of those that cite one instead of a clause."""
    chain = [name]
    while (parent := _profile_file(chain[-1])[0].extends) is not None:
        if parent in chain:
            raise _data_error(f"{name}.json", f"extends itself: {' → '.join(chain + [parent])}",
                              f"循環延伸：{' → '.join(chain + [parent])}")
        chain.append(parent)
    params = _catalogue().params
    values: dict[str, Any] = {}
    sources: dict[str, tuple[str, ...]] = {}
    citations: dict[str, tuple[str, str]] = {}
    for profile in reversed(chain):
        where = f"{profile}.json"
        for pname, entry in _profile_file(profile)[1].items():
            defn = params.get(pname)
            if defn is None:
                err = _unknown_parameter(pname, "ruleset")
                raise _data_error(where, err.message, err.reason_zh)
            clause = defn.default_clause
            if isinstance(entry, Mapping):
                if set(entry) == {"value", "source"}:
                    # a public source, not a clause: the profile's own list names it
                    key = entry["source"]
                    known = _profile_file(profile)[0].sources
                    if key not in known:
                        raise _data_error(where,
                                          f"{pname} cites source {key!r}, not in the profile's sources {sorted(known)}",
                                          f"{pname} 引用的出處 {key!r} 不在此設定檔的 sources 之中")
                    citations[pname] = (profile, key)
                    sources[pname] = ()
                    try:
                        values[pname] = _check_value(defn, entry["value"], f"params.{pname}")
                    except RulesetError as exc:
                        raise _data_error(where, exc.message, exc.reason_zh) from None
                    continue
                if set(entry) != {"value", "clause"}:
                    raise _data_error(where, f"{pname}: a cited value is {{\"value\": ..., \"clause\": ...}} "
                                      f"or {{\"value\": ..., \"source\": ...}}, got keys {sorted(entry)}",
                                      f"{pname}：附出處的值須為 {{\"value\": …, \"clause\": …}} "
                                      f"或 {{\"value\": …, \"source\": …}}")
                clause, entry = entry["clause"], entry["value"]
                if clause not in defn.clauses:
                    raise _data_error(where, f"{pname} cites {clause!r}, which is not among the parameter's clauses "
                                      f"{list(defn.clauses)}",
                                      f"{pname} 引用的條文 {clause!r} 不在該參數的條文 {list(defn.clauses)} 之中")
            try:
                values[pname] = _check_value(defn, entry, f"params.{pname}")
            except RulesetError as exc:
                raise _data_error(where, exc.message, exc.reason_zh) from None
            sources[pname] = (clause,)
            citations.pop(pname, None)
    missing = [p for p in params if p not in values]
    if missing:
        raise _data_error(f"{name}.json", f"profile is incomplete, no value for {missing}",
                          f"規則設定不完整，缺少 {missing}")
    ordered = {p: values[p] for p in params}
    cited = {p: _profile_file(prof)[0].sources[key] for p, (prof, key) in citations.items()}
    return MappingProxyType(ordered), MappingProxyType({p: sources[p] for p in params}), MappingProxyType(cited)


def profile_info(name: str) -> ProfileInfo:
    """Title, description and parent of a profile; :class:`RulesetError` if unknown."""
    if type(name) is not str:
        raise _unknown_profile(name)
    return _profile_file(name)[0]


def value_sources(name: str) -> Mapping[str, str]:
    """Parameter → the public source (text) of profile *name*'s value, for the values that
    cite one instead of a clause (``{"value": …, "source": key}``, the key among the
    profile's ``sources``); :class:`RulesetError` for an unknown profile."""
    if type(name) is not str:
        raise _unknown_profile(name)
    return _resolved(name)[2]


def parameters() -> Mapping[str, ParameterDef]:
    """Every parameter definition, in the order of ``parameters.json``."""
    return _catalogue().params


def clear_cache() -> None:
    """Forget everything read from ``data/rulesets`` (for tests that edit the data)."""
    for cached in (_catalogue, _profile_names, _profile_file, _resolved, _base):
        cached.cache_clear()


# --- the ruleset -------------------------------------------------------------------------


@dataclass(frozen=True, eq=False, repr=False)
class Ruleset:
    """A complete, immutable set of parameter values: a profile plus overrides.

    Build it with :meth:`load`. ``rules[name]`` and ``rules.values[name]`` read a value;
    ``rules.get(name)`` raises for an unknown name unless given a default.
    """

    #: the profile name (``competition``, ``competition-000``, ``app``)
    profile: str
    #: name → value, every parameter; read-only (``types.MappingProxyType``)
    values: Mapping[str, Any]
    #: the overrides given to :meth:`load`, validated
    overrides: Mapping[str, Any]
    #: name → the clause ids the value comes from (empty for an override)
    sources: Mapping[str, tuple[str, ...]]
    _exclusions: tuple[Exclusion, ...] = field(default=(), repr=False)
    _hand_exclusions: tuple[Exclusion, ...] = field(default=(), repr=False)
    _adjustments: tuple[Exclusion, ...] = field(default=(), repr=False)

    # construction ---------------------------------------------------------------------

    @classmethod
    def load(cls, profile_name: str = DEFAULT_PROFILE, overrides: Mapping[str, Any] | None = None) -> Ruleset:
        """The profile *profile_name* with *overrides* (parameter name → value) applied.

        :raises RulesetError: unknown profile (field ``ruleset``), unknown parameter or a
            bad value (field ``params.<name>``), overrides not a mapping (``params``).
        """
        if type(profile_name) is not str:
            raise _unknown_profile(profile_name)
        base = _base(profile_name)
        if overrides is None:
            return base
        if not isinstance(overrides, Mapping):
            raise RulesetError(
                f"overrides must be an object of parameter → value, got {overrides!r}",
                field="params", reason_zh=f"覆寫須為「參數: 值」的物件，收到 {overrides!r}",
            )
        if not overrides:
            return base
        params = _catalogue().params
        checked: dict[str, Any] = {}
        for name, value in overrides.items():
            defn = params.get(name) if type(name) is str else None
            if defn is None:
                raise _unknown_parameter(name, f"params.{name}")
            checked[name] = _check_value(defn, value, f"params.{name}")
        values = dict(base.values)
        values.update(checked)
        sources = dict(base.sources)
        sources.update({name: () for name in checked})
        return _build(base.profile, values, checked, sources)

    def with_overrides(self, overrides: Mapping[str, Any]) -> Ruleset:
        """This ruleset's profile with its overrides and *overrides* on top."""
        return Ruleset.load(self.profile, {**self.overrides, **overrides})

    # reading --------------------------------------------------------------------------

    def __getitem__(self, name: str) -> Any:
        try:
            return self.values[name]
        except (KeyError, TypeError):
            raise _unknown_parameter(name, f"params.{name}") from None

    def get(self, name: str, default: Any = _MISSING) -> Any:
        """The value of *name*; for an unknown name, *default* if given, else
        :class:`RulesetError` (a misspelt name never passes silently)."""
        try:
            return self.values[name]
        except (KeyError, TypeError):
            if default is _MISSING:
                raise _unknown_parameter(name, f"params.{name}") from None
            return default

    def __contains__(self, name: object) -> bool:
        return type(name) is str and name in self.values

    def tai(self, code: str) -> int:
        """``rules.tai("self_draw")`` is ``rules["tai.self_draw"]``."""
        return self[f"tai.{code}"]

    def describe(self, name: str) -> ParameterDef:
        """The definition of parameter *name* (type, meaning, clauses)."""
        defn = _catalogue().params.get(name) if type(name) is str else None
        if defn is None:
            raise _unknown_parameter(name, f"params.{name}")
        return defn

    def source(self, name: str) -> tuple[str, ...]:
        """The clause ids this profile's value of *name* comes from (``()`` if overridden)."""
        self.describe(name)
        return self.sources[name]

    def info(self) -> ProfileInfo:
        return profile_info(self.profile)

    def to_dict(self) -> dict[str, Any]:
        """name → value, JSON-ready (exclusions as lists of objects)."""
        return {name: _to_json(value) for name, value in self.values.items()}

    # exclusions -----------------------------------------------------------------------

    @property
    def exclusions(self) -> tuple[Exclusion, ...]:
        """The entries in force: ``tai.exclusions`` plus those other parameters imply
        (``scoring.small_four_winds_adds_winds`` off: 小四喜 excludes the wind pungs)."""
        return self._exclusions

    @property
    def patterns(self) -> frozenset[str]:
        """Every pattern code (``x`` for each ``tai.x``), scored or not."""
        return _catalogue().patterns

    def apply_exclusions(self, present: Iterable[str]) -> ExclusionResult:
        """Which of the *present* patterns (codes whose conditions the hand meets, with
        a non-zero value) are scored.

        A present pattern excludes its entries' patterns whether or not it is itself
        excluded (the order of entries does not matter). Entries of scope
        ``flower_group`` are not applied here: the scorer applies them per flower group
        (花槓 replaces the own flower of its group only); see :attr:`exclusions`.
        """
        present = frozenset(present)
        unknown = present - _catalogue().patterns
        if unknown:
            _pattern(sorted(unknown)[0], "patterns")  # raises, naming the unknown code
        dropped: dict[str, Exclusion] = {}
        for entry in self._hand_exclusions:
            if entry.pattern in present:
                for code in entry.excludes:
                    if code in present and code not in dropped:
                        dropped[code] = entry
        kept = present.difference(dropped)
        applied = tuple(a for a in self._adjustments if a.pattern in kept and not kept.isdisjoint(a.with_any))
        return ExclusionResult(kept, MappingProxyType(dropped), sum(a.adjust for a in applied), applied)

    # identity -------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ruleset):
            return NotImplemented
        return self.profile == other.profile and dict(self.values) == dict(other.values)

    def __hash__(self) -> int:
        return hash((self.profile, tuple(self.values.items())))

    def __repr__(self) -> str:
        return f"Ruleset(profile={self.profile!r}, overrides={dict(self.overrides)!r})"


def _build(profile: str, values: dict[str, Any], overrides: dict[str, Any],
           sources: dict[str, tuple[str, ...]]) -> Ruleset:
    entries: tuple[Exclusion, ...] = values[EXCLUSIONS]
    if not values["scoring.small_four_winds_adds_winds"]:
        entries += (Exclusion(
            "small_four_winds", "app.replaces.18", excludes=("round_wind_pung", "seat_wind_pung"),
            note="scoring.small_four_winds_adds_winds = false",
        ),)
    entries += IMPLIED_EXCLUSIONS
    return Ruleset(
        profile,
        MappingProxyType(values),
        MappingProxyType(overrides),
        MappingProxyType(sources),
        entries,
        tuple(e for e in entries if not e.is_adjustment and e.scope == "hand"),
        tuple(e for e in entries if e.is_adjustment),
    )


@lru_cache(maxsize=None)
def _base(name: str) -> Ruleset:
    if type(name) is not str or name not in _profile_names():
        raise _unknown_profile(name)
    values, sources, _cited = _resolved(name)
    return _build(name, dict(values), {}, dict(sources))


__all__ = [
    "DEFAULT_PROFILE",
    "Exclusion",
    "ExclusionResult",
    "ParameterDef",
    "ProfileInfo",
    "Ruleset",
    "available_profiles",
    "clear_cache",
    "parameters",
    "profile_info",
    "value_sources",
]
