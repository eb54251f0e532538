"""Per-ruleset pattern tables: built once per ruleset, read on every hand.

A :class:`ScoringTable` turns a ruleset's values into what the hot path needs: the
active patterns (台 ≠ 0 and their option on) split into hand-level and reading-level
lists, each pattern's 台, and the exclusions of ``tai.exclusions`` as bit masks:

* ``{"pattern": P, "excludes": [Q, …], "clause": C}`` — when P scores, each Q is not
  counted (``tai.rule`` 必然並存, the "不計 …" of the pattern texts, ``app.replaces.*``);
* ``"scope": "flower_group"`` — P excludes Q of its own flower group only
  (``tai.26`` 改計, ``app.replaces.17``);
* ``{"pattern": P, "with_any": [Q, …], "adjust": d, "clause": C}`` — when P and any Q
  score, the total changes by d once (``tai.13``: 字一色 with 大/小四喜 or 大/小三元, −4).

A pattern excludes as soon as it matches, even if another pattern excludes it: the
data name every pattern a big one replaces, and a replaced pattern's own exclusions
still hold (七搶一 replaces 滿花, and what 滿花 replaces stays replaced).
A pattern whose 台 are 0 neither scores nor excludes.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import RulesetError
from ..ruleset import IMPLIED_EXCLUSIONS
from ..tiles import FLOWER_NUMBERING
from .facts import CHOWS_FLOWERS, CHOWS_HONOURS, CHOWS_NOT_CONCEALED, CHOWS_SELF_DRAW, CHOWS_TWO_SIDED
from .patterns import BY_PARAM, FAMILIES, INDEX, PATTERNS

#: ruleset flower numbering → referee.tiles numbering
_NUMBERING = {"chrysanthemum_3_bamboo_4": "ju3-zhu4", "bamboo_3_chrysanthemum_4": "zhu3-ju4"}
_NUMBERING.update({k: k for k in FLOWER_NUMBERING})

#: patterns that score only when an option is on
_GATES = {
    "ligu": "hands.ligu",
    "seven_rob_one": "hands.seven_rob_one",
    "declared_ready": "play.declared_ready",
    "bao": "bao.enabled",
}


#: the flowers' patterns: none scores in play without flowers (tiles.flowers false, a
#: 136-tile set: no flower 台, no flower win; 無花 and 無字無花 would be every hand's)
_FLOWER_PARAMS = frozenset({"own_flower", "flower_set", "all_flowers", "eight_flowers", "seven_rob_one",
                            "dealt_flower_win", "see_flower_see_tai", "no_flowers", "no_honours_no_flowers"})


@dataclass(frozen=True, slots=True)
class Exclusion:
    """Why pattern ``by`` excludes another: the clause and the ruleset's note."""

    by: int
    clause: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Adjustment:
    """``tai.13``'s −4: when ``pattern`` and any of ``with_any`` score, add ``tai``."""

    pattern: int
    with_any: int  # bit mask
    tai: int
    clause: str
    note: str = ""


def _values(ruleset: object) -> Mapping:
    values = getattr(ruleset, "values", ruleset)
    if callable(values):  # a dict passed as the ruleset itself
        values = ruleset
    return values  # type: ignore[return-value]


class ScoringTable:
    """Everything per ruleset that scoring needs, precomputed.

    :raises RulesetError: for a ``tai.exclusions`` entry naming an unknown pattern, or a
        missing ``tai.*`` parameter.
    """

    def __init__(self, ruleset: object):
        values = _values(ruleset)
        self.profile = getattr(ruleset, "profile", None)
        n = len(PATTERNS)
        tai = [0] * n
        for i, p in enumerate(PATTERNS):
            key = f"tai.{p.param}"
            try:
                tai[i] = int(values[key])
            except KeyError:
                raise RulesetError(f"ruleset has no {key}", field=f"params.{key}",
                                   reason_zh=f"規則組缺少參數 {key}") from None
        self.tai = tuple(tai)
        source = getattr(ruleset, "source", None)
        #: pattern index → the clause ids its 台 come from in this ruleset (tai.18.alt …)
        self.sources = tuple(
            tuple(source(f"tai.{p.param}")) if callable(source) else (p.clause,) for p in PATTERNS
        )
        gates_off = {code for code, option in _GATES.items() if not values.get(option, False)}
        #: tiles.flowers (deal.walls): the eight flowers are played (else a 136-tile set)
        self.flowers = bool(values.get("tiles.flowers", True))
        if not self.flowers:
            gates_off |= _FLOWER_PARAMS
        active = [i for i, p in enumerate(PATTERNS) if tai[i] != 0 and p.param not in gates_off]
        self.active_mask = sum(1 << i for i in active)
        #: (gate, ((index, function), …)) per family: hand-level, per-reading, and what a
        #: flower win whose hand is not shown scores
        self.hand_level = _families(i for i in active if not PATTERNS[i].reading and PATTERNS[i].scope == "face")
        self.reading_level = _families(i for i in active if PATTERNS[i].reading)
        self.unshown = _families(i for i in active if not PATTERNS[i].shown and PATTERNS[i].scope == "face")
        self.dealer_idx = INDEX["dealer"]
        self.streak_idx = INDEX["streak_per_n"]
        self.seven_rob_one_idx = INDEX["seven_rob_one"]
        self.dealer_fn = PATTERNS[self.dealer_idx].fn
        #: 作莊 and 連N拉N per N, 0 when not scored (tai.09, tai.10)
        self.dealer_unit = tai[self.dealer_idx] if (self.active_mask >> self.dealer_idx) & 1 else 0
        self.streak_unit = tai[self.streak_idx] if (self.active_mask >> self.streak_idx) & 1 else 0

        self.ligu = bool(values.get("hands.ligu", False))
        self.seven_rob_one = bool(values.get("hands.seven_rob_one", True))
        self.declared_ready = bool(values.get("play.declared_ready", False))
        self.bao = bool(values.get("bao.enabled", False))
        self.bao_max = int(values.get("bao.max_tiles", 5))
        self.cap = int(values.get("scoring.cap", 0) or 0)
        self.zero_tai_win = bool(values.get("scoring.zero_tai_win", True))
        self.all_chows_concealed = bool(values.get("scoring.all_chows_requires_concealed", False))
        #: scoring.all_chows_* (tai.07): Facts.all_chows_opts
        self.all_chows_opts = (
            CHOWS_HONOURS * bool(values.get("scoring.all_chows_allows_honours", False))
            | CHOWS_FLOWERS * bool(values.get("scoring.all_chows_allows_flowers", False))
            | CHOWS_SELF_DRAW * bool(values.get("scoring.all_chows_allows_self_draw", False))
            | CHOWS_NOT_CONCEALED * bool(values.get("scoring.all_chows_forbids_concealed", False))
            | CHOWS_TWO_SIDED * bool(values.get("scoring.all_chows_requires_two_sided_wait", False))
        )
        if self.all_chows_concealed and self.all_chows_opts & CHOWS_NOT_CONCEALED:
            raise RulesetError(
                "scoring.all_chows_requires_concealed and scoring.all_chows_forbids_concealed cannot both be true",
                field="params.scoring.all_chows_forbids_concealed",
                reason_zh="平胡不能既須門清又不可門清（scoring.all_chows_requires_concealed 與 "
                          "scoring.all_chows_forbids_concealed）",
            )
        #: settle.liability (包牌): none | feeder | shared
        self.liability = values.get("settle.liability", "none")
        if self.liability not in ("none", "feeder", "shared"):
            raise RulesetError(f"unknown settle.liability {self.liability!r}", field="params.settle.liability",
                               reason_zh="包牌參數無效")
        self.liable_patterns = sum(1 << INDEX[c] for c in ("big_three_dragons", "big_four_winds"))
        #: scoring.discard_tile_completes_pung (tai.16)
        self.discard_pung = bool(values.get("scoring.discard_tile_completes_pung", False))
        #: 起胡 (scoring.min_tai); no 屁胡 (scoring.zero_tai_win false) is at least 1
        self.min_tai = max(int(values.get("scoring.min_tai", 0)), 0 if values.get("scoring.zero_tai_win", True) else 1)
        self.flower_win_optional = bool(values.get("flowers.flower_win_optional", True))
        self.heavenly_dealer = bool(values.get("ready.heavenly_dealer", False))
        #: play.melded_kong_replacement_self_draw (play.restrict.2, app.kong.limits)
        self.melded_kong_replacement_self_draw = bool(values.get("play.melded_kong_replacement_self_draw", True))
        self.streak_marker = values.get("settle.streak_marker", "dealer_bears_error")
        if self.streak_marker not in ("dealer_bears_error", "actual"):
            raise RulesetError(f"unknown settle.streak_marker {self.streak_marker!r}",
                               field="params.settle.streak_marker", reason_zh="連莊示記參數無效")
        if values.get("settle.mutual_pay", False):
            raise RulesetError(
                "settle.mutual_pay=true is not supported: non-winners never pay each other (app.no-mutual-pay)",
                field="params.settle.mutual_pay", reason_zh="不支援互付：未胡牌的各家之間不互付（app.no-mutual-pay）",
            )
        numbering = _NUMBERING.get(values.get("flowers.numbering", "chrysanthemum_3_bamboo_4"))
        if numbering is None:
            raise RulesetError(f"unknown flowers.numbering {values.get('flowers.numbering')!r}",
                               field="params.flowers.numbering", reason_zh="花牌編號參數無效")
        self.numbering = FLOWER_NUMBERING[numbering]

        rules = [_entry(e) for e in _exclusion_entries(ruleset, values)]
        excl = [0] * n
        reasons: list[list[Exclusion]] = [[] for _ in range(n)]
        adjustments: list[Adjustment] = []
        for k, rule in enumerate(rules):
            field = f"params.tai.exclusions[{k}]"
            by = self._param(rule["pattern"], field)
            clause = rule["clause"]
            note = rule["note"]
            if rule["with_any"]:
                any_mask = 0
                for q in rule["with_any"]:
                    for j in self._param(q, field):
                        any_mask |= 1 << j
                for i in by:
                    adjustments.append(Adjustment(i, any_mask, int(rule["adjust"]), clause, note))
                continue
            per_group = rule["scope"] == "flower_group"
            for i in by:
                if tai[i] == 0 or not (self.active_mask >> i) & 1:
                    continue  # a pattern that does not score does not exclude
                for q in rule["excludes"]:
                    for j in self._param(q, field):
                        if i == j or (per_group and PATTERNS[j].flower_group != PATTERNS[i].flower_group):
                            continue
                        excl[i] |= 1 << j
                        reasons[j].append(Exclusion(i, clause, note))
        self.excl = tuple(excl)
        self.reasons = tuple(tuple(r) for r in reasons)
        self.adjustments = tuple(a for a in adjustments if (self.active_mask >> a.pattern) & 1)
        #: patterns whose presence may trigger an adjustment
        self.adjust_mask = sum(1 << a.pattern for a in self.adjustments)

    @staticmethod
    def _param(code: object, field: str) -> tuple[int, ...]:
        found = BY_PARAM.get(code) if isinstance(code, str) else None
        if found is None:
            raise RulesetError(f"tai.exclusions names an unknown pattern {code!r}", field=field,
                               reason_zh=f"不另計規則中有不明的名堂 {code!r}")
        return found


def _families(indexes) -> tuple[tuple, tuple]:
    """The active patterns by family: (common, rare), each a tuple of
    ``(gate, key, ((index, function), …), memo)``."""
    groups: dict[str, list] = {}
    for i in indexes:
        groups.setdefault(PATTERNS[i].family, []).append((i, PATTERNS[i].fn))
    common, rare = [], []
    for name, found in groups.items():
        fam = FAMILIES[name]
        (rare if fam.rare else common).append((fam.gate, fam.key, tuple(found), {}))
    return tuple(common), tuple(rare)


def _exclusion_entries(ruleset: object, values: Mapping) -> list:
    """The entries in force: :attr:`Ruleset.exclusions` (which adds those other
    parameters imply), or, for a plain mapping, ``tai.exclusions`` plus 小四喜's."""
    entries = getattr(ruleset, "exclusions", None)
    if entries is not None and not callable(entries):
        return list(entries)
    entries = list(values.get("tai.exclusions", ()) or ())
    if not values.get("scoring.small_four_winds_adds_winds", True):
        entries.append({"pattern": "small_four_winds", "excludes": ["round_wind_pung", "seat_wind_pung"],
                        "clause": "app.replaces.18", "note": "scoring.small_four_winds_adds_winds = false"})
    return entries + list(IMPLIED_EXCLUSIONS)


def _entry(e: object) -> dict:
    """An exclusion entry (a :class:`referee.ruleset.Exclusion` or its JSON) as a dict."""
    get = e.get if isinstance(e, Mapping) else (lambda k, d=None: getattr(e, k, d))
    return {
        "pattern": get("pattern"),
        "excludes": tuple(get("excludes", ()) or ()),
        "with_any": tuple(get("with_any", ()) or ()),
        "adjust": get("adjust", 0) or 0,
        "scope": get("scope", "hand") or "hand",
        "clause": get("clause", "tai.rule") or "tai.rule",
        "note": get("note", "") or "",
    }


_CACHE: dict[int, tuple[object, ScoringTable]] = {}


def table_for(ruleset: object) -> ScoringTable:
    """The :class:`ScoringTable` of a ruleset, built on first use and kept."""
    hit = _CACHE.get(id(ruleset))
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    table = ScoringTable(ruleset)
    if len(_CACHE) >= 64:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[id(ruleset)] = (ruleset, table)
    return table


__all__ = ["Adjustment", "Exclusion", "ScoringTable", "table_for"]
