"""Penalties: the rulebook's irregularities (相公, 詐胡, 錯槓, 錯碰, 錯打明牌, 眼牌, priority …),
the rulings officials give on them, and what each costs (issue #5).

Pure domain code: no Flask, marshmallow or SQLite here; the ``api`` and ``store``
packages call into it. Data flows one way: table events → :mod:`referee` (replays the
hand, checks each act, scores the wins) → :mod:`penalties` (rules on the irregularities,
cites the clauses, computes who pays) → store → tournament.

    rule(stream_or_adjudication, ruleset=None, stakes=None) -> Rulings

Modules, one concern each: :mod:`.rulings` (the data), :mod:`.codes` (the catalogue),
:mod:`.payments` (arithmetic), :mod:`.pay_all` (包賠), :mod:`.dead_hand`,
:mod:`.false_win`, :mod:`.unfulfilled_call`, :mod:`.peek` (眼牌), :mod:`.wrong_kong`,
:mod:`.wrong_pung`, :mod:`.exposed_discard`, :mod:`.substitute` (代位賠付),
:mod:`.priority`, :mod:`.streak_marker`, :mod:`.side_stakes` (插花), :mod:`.rule` (the
entry point), :mod:`.script` (writing streams by hand), :mod:`.samples`.
"""
from .errors import AdjudicationError, PenaltyError, ReportError, RulingError, SideStakeError
from .rule import REPORTS, rule, rule_record, rule_stream
from .rulings import Effect, Payment, Ruling, Rulings, parse_ruling
from .side_stakes import SideStake

__all__ = [
    "REPORTS", "AdjudicationError", "Effect", "PenaltyError", "Payment", "ReportError", "Ruling", "RulingError",
    "Rulings", "SideStake", "SideStakeError", "parse_ruling", "rule", "rule_record", "rule_stream",
]
