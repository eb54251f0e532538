"""A tournament's state as the JSON the tournament endpoints answer with (no writes here)."""
from __future__ import annotations

from dataclasses import asdict

from services.problems import bad_request
from store import get_db
from store import tournaments as tstore
from tournament.codec import encode
from tournament.events import AuditEntry, Record
from tournament.results import HandResult, check_balances
from tournament.schedule import RoundPlan, Schedule, check_schedule
from referee.tiles import Wind

_WIND_BY_NAME = {w.name: w for w in Wind} | {w.zh: w for w in Wind}


def wind_of(text: str) -> Wind:
    """``EAST`` or ``東`` as a wind (the schemas allow only these)."""
    try:
        return _WIND_BY_NAME[text]
    except KeyError:
        raise bad_request("invalid_body", "wind", f"unknown wind {text!r}", f"不明的風位 {text!r}") from None


def settings_dict(settings) -> dict | None:
    return asdict(settings) if settings is not None else None


def record_dict(record: Record) -> dict:
    return {"seq": record.seq, "by": record.by, "at": record.at, "event": encode(record.event)}


def hand_dict(result: HandResult) -> dict:
    return {"payments": list(result.payments),
            "wins": [{"seat": w.seat, "tai": w.tai, "deal_in": w.deal_in, "self_draw": w.self_draw}
                     for w in result.wins],
            "penalty": result.penalty, "describe": result.describe()}


def summary(loaded) -> dict:
    """An event's settings and where it stands."""
    state = loaded.state
    players = [p for p in state.players if not p.substitute]
    return {
        "id": loaded.row["id"], "name": loaded.row["name"], "created_at": loaded.row["created_at"],
        "settings": settings_dict(state.settings),
        "players": len(players), "substitutes": len(state.players) - len(players),
        "withdrawn": sum(1 for p in state.players if p.withdrawn_before is not None),
        "rounds_seated": [p.round for p in state.rounds],
        "hands": len(state.hands), "links": len(loaded.provenance.links), "last_seq": state.last_seq,
        "balanced": not check_balances((h.key, h.result.payments) for h in state.hands),
    }


def plan_dict(loaded, plan: RoundPlan) -> dict:
    """A round: each table's seats in wind order (names too), and each 將's seats after 搬風."""
    state = loaded.state
    names = {p.player_id: p.name for p in state.players}
    seatings = dict(state.match_seatings)
    tables = []
    for t in plan.tables:
        matches = []
        for m in range(1, state.settings.matches_per_round + 1):
            seating = seatings.get((plan.round, t.table, m))
            drawn = loaded.provenance.draws.get((plan.round, t.table, m))
            matches.append({"match": m, "seats": list(seating.players) if seating else None,
                            "east": seating.east if seating else None,
                            "dealer": drawn.dealer_draw.dealer if drawn else None,
                            "linked_table": loaded.provenance.linked.get((plan.round, t.table, m))})
        tables.append({"table": t.table, "seats": list(t.seats),
                       "names": [names.get(p) if p else None for p in t.seats],
                       "describe": t.describe(), "matches": matches})
    return {"round": plan.round, "tables": tables}


def quality(schedule: Schedule) -> dict:
    """``check_schedule``: problems, repeats, max meetings, repeat-free rounds, wind balance."""
    check = check_schedule(schedule)
    return {"ok": check.ok, "problems": list(check.problems), "rounds": check.rounds, "repeats": check.repeats,
            "max_meetings": check.max_meetings, "repeat_free_rounds": check.repeat_free_rounds,
            "winds_balanced": check.winds_balanced, "substitute_pairs": check.substitute_pairs,
            "wind_counts": {k: list(v) for k, v in check.wind_counts.items()}}


def audit_dict(loaded, entries: list[AuditEntry]) -> list[dict]:
    """The audit trail with each actor's role and label (never a token's secret)."""
    ids = sorted({int(e.by) for e in entries if e.by.isdigit()})
    who = tstore.token_labels(get_db(), ids)
    out = []
    for e in entries:
        row = {"seq": e.seq, "kind": e.kind, "by": e.by,
               "by_label": who.get(int(e.by), {}).get("label") if e.by.isdigit() else None,
               "by_role": who.get(int(e.by), {}).get("role") if e.by.isdigit() else None, "at": e.at,
               "in_effect": e.in_effect, "reason": e.reason,
               "result": hand_dict(e.result) if e.result is not None else None}
        if e.result is not None:
            key = loaded.records[e.seq - 1].event.key
            entered = loaded.provenance.entry_with(e.seq, key)
            if entered is not None:
                row["entry"] = asdict(entered.entry)
            arranged = loaded.provenance.arrangement_with(e.seq, key)
            if arranged is not None:
                row["house_arrangement"] = arranged.reason
        out.append(row)
    return out
