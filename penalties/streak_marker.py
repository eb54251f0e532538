"""連莊示記 (``score.streak-marker``): dice showing a streak lower or higher than the real one.

「莊家連莊時應於本身之暗牌前以骰子示記連莊序，如所示低於實際連莊序，則莊家胡牌以所示計收，放銃或他人自摸時以實際計付。
如所示高於實際連莊序，則反之計收計付。」

The marker counts against the dealer: he collects by the lower of the two and pays by the
higher. The referee's settlement (:mod:`referee.scoring.settlement`) and every payment
penalties makes with the dealer (:func:`penalties.payments.share`) already apply it; this
ruling tells the table which N was used (``settle.streak_marker`` = ``actual`` turns the
rule off: the real N both ways).
"""
from __future__ import annotations

from .docket import Docket
from .rulings import Effect, Ruling


def rule_marker(docket: Docket) -> Ruling | None:
    record = docket.record
    marker, streak = record.marker, record.streak
    if marker is None or marker == streak or record.ruleset.values["settle.streak_marker"] == "actual":
        return None
    code = "streak_marker_low" if marker < streak else "streak_marker_high"
    return docket.make(code, offender=record.dealer, evidence=(record.events[0].seq,),
                       effects=(Effect("streak_marker", seat=record.dealer),), marker=marker, streak=streak)


__all__ = ["rule_marker"]
