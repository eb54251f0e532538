"""Narrow errors of the penalties package (misuse, not irregularities: those are rulings).

Each derives from :class:`referee.errors.MjrefError` (``field``, ``reason_zh``) and from
``ValueError``, so the API's one problem+json handler reports them like any domain error.
"""
from __future__ import annotations

from referee.errors import MjrefError


class PenaltyError(MjrefError, ValueError):
    """Base of the penalties errors."""

    code = "invalid_penalty_input"


class RulingError(PenaltyError):
    """A ruling, effect or payment that cannot exist (an unknown code, a seat out of
    range, a payment of a negative amount, a repr that does not parse back)."""

    code = "invalid_ruling"


class ReportError(PenaltyError):
    """An official's ``report`` event that cannot be ruled on: an unknown report code,
    a report that needs a seat and names none, a malformed note."""

    code = "invalid_report"


class SideStakeError(PenaltyError):
    """A side stake (插花, ``bet.chahua``) that cannot be recorded: a bad principal seat,
    a negative stake, a note that does not follow ``outside NAME BASE/PER_TAI`` or
    ``inside UNITS``."""

    code = "invalid_side_stake"


class AdjudicationError(PenaltyError):
    """The input to :func:`penalties.rule` is neither a stream nor the referee's
    adjudication of one."""

    code = "invalid_adjudication"


__all__ = ["AdjudicationError", "PenaltyError", "ReportError", "RulingError", "SideStakeError"]
