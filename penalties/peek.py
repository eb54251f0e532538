"""眼牌 (``pen.peek``, GLOSSARY: walking_eye): a ready player who stands and looks at the
hands and the tail's first tile.

「聽牌後得起身遊走觀看各家暗牌與槓上第一張牌，不得過水、換牌或明暗槓等，不得帶牌走動，亦不得透露他人或本身牌情。
他人胡牌時應付胡牌者1台。眼牌者摸得或補得之牌不得靠入手牌，如非自摸應原牌打出。海底牌不得棄摸。眼牌違規視同相公，
違規二次應就其底注與台數其包賠三家，莊連拉照算。未聽牌而眼牌者計違規一次，再次違規則包賠。
眼牌者胡牌後如回溯發現曾經過水(含花胡)，應判包賠。天聽、地聽不強制眼牌。」

An official reports the walk (``report`` code ``walking_eye``, ``seat``). From then on:

* walking while not ready is a violation (found from the hand when the referee knows it,
  or reported as ``walking_eye_not_ready``);
* violations found in the stream: a chow, pung or kong (換牌, 明暗槓), the drawn tile placed
  into the hand or another tile discarded (靠張, 換牌), the last tile left (海底牌不得棄摸),
  a winning tile let go (過水, when the hand is known); others are reported
  (``walking_eye_violation``, the note naming it: carrying a tile, telling tiles ...);
* the first violation makes a dead hand; the second pays for all three, the dealer's 台 as
  usual, and ends the hand;
* when someone else wins, each walking eye pays the winner 1 台 (no base);
* a walking eye who wins and is then found to have let a winning tile go earlier pays for
  all three; his win is void;
* 天聽 / 地聽 need not walk (不強制眼牌): readiness declared is no walk (R-pen-10).
"""
from __future__ import annotations

from referee.events import Event, EventType
from referee.hand import keys_of
from referee.restrictions import wins_with
from referee.tiles import KINDS

from .dead_hand import violate
from .docket import Docket
from .face import face_value
from .payments import fine
from .rulings import Effect, Payment

#: violation → (zh-TW, English)
VIOLATIONS: dict[str, tuple[str, str]] = {
    "not_ready": ("未聽牌而眼牌", "walked without a ready hand"),
    "passed_win": ("過水", "let a winning tile go"),
    "changed_tile": ("換牌", "changed a tile"),
    "kong": ("明暗槓", "made a kong"),
    "placed_tile": ("摸得之牌靠入手牌", "placed the drawn tile into the hand"),
    "skipped_last_tile": ("海底牌棄摸", "left the last tile undrawn"),
    "carried_tile": ("帶牌走動", "walked carrying a tile"),
    "told": ("透露牌情", "told what tiles someone holds"),
}


def _words(cause: str) -> dict[str, str]:
    zh, en = VIOLATIONS.get(cause, (cause, cause))
    return {"why_zh": zh, "why": en}


class Walk:
    """One walking eye: his waiting hand (when known) and what he last drew."""

    __slots__ = ("seat", "seq", "keys16", "drawn", "drawn_seq")

    def __init__(self, seat: int, seq: int, keys16: tuple[int, int, int, int] | None) -> None:
        self.seat = seat
        self.seq = seq
        self.keys16 = keys16
        self.drawn: int | None = None
        self.drawn_seq: int | None = None


def start(docket: Docket, report: Event, walks: dict[int, Walk]) -> None:
    """``walking_eye`` (or ``walking_eye_not_ready``) reported: the walk begins."""
    seat = report.seat
    if seat is None or seat in walks:
        return
    docket.ruled.add(report.seq)
    st = docket.record.adjudication.state
    s = st.report_faces.get(report.seq) if st is not None else None  # the seat's table at the report
    if s is None:
        return
    keys16 = None
    ready = report.code != "walking_eye_not_ready"
    if s.unknown == 0 and sum(s.hand) + 3 * len(s.melds) == 16:
        keys16 = keys_of(s.hand)
        if not any(wins_with(keys16, t) for t in range(KINDS) if s.hand[t] < 4):
            ready = False
    walks[seat] = Walk(seat, report.seq, keys16)
    docket.walking[seat] = report.seq
    if not ready:
        violation(docket, seat, report.seq, (report.seq,), "not_ready")


def violation(docket: Docket, seat: int, seq: int, evidence: tuple[int, ...], cause: str) -> None:
    violate(docket, seat, seq, evidence, code="walking_eye_violation", cause=cause, walking=True,
            cites=("pen.dead-hand",), **_words(cause))


def on_event(docket: Docket, ev: Event, walks: dict[int, Walk]) -> None:
    """Check one event against the walking eyes' restrictions."""
    record = docket.record
    if ev.type is EventType.REPORT:
        if ev.code == "walking_eye_violation" and ev.seat in walks:
            cause = (ev.note or "").split()[0] if ev.note else "told"
            violation(docket, ev.seat, ev.seq, (ev.seq,), cause if cause.isascii() and cause.isidentifier() else "told")
        return
    for walk in walks.values():
        w = walk.seat
        if ev.seq <= walk.seq:
            continue
        if ev.seat == w:
            t = ev.type
            if t in (EventType.DRAW, EventType.TAIL_DRAW):
                walk.drawn, walk.drawn_seq = ev.tile, ev.seq
                if (walk.keys16 is not None and ev.tile is not None and ev.tile < KINDS
                        and wins_with(walk.keys16, ev.tile)):
                    if not _declares(record, ev.seq, w):
                        violation(docket, w, ev.seq, (ev.seq,), "passed_win")
            elif t is EventType.KONG:
                violation(docket, w, ev.seq, (ev.seq,), "kong")
            elif t in (EventType.CHOW, EventType.PUNG):
                violation(docket, w, ev.seq, (ev.seq,), "changed_tile")
            elif t is EventType.PLACE:
                violation(docket, w, ev.seq, (ev.seq,), "placed_tile")
            elif t is EventType.SKIP_LAST_TILE:
                violation(docket, w, ev.seq, (ev.seq,), "skipped_last_tile")
            elif t is EventType.DISCARD:
                if (walk.drawn is not None and ev.tile is not None and ev.tile != walk.drawn
                        and ev.seq not in docket.ruled):
                    violation(docket, w, ev.seq, (walk.drawn_seq, ev.seq), "changed_tile")
                walk.drawn = None
        elif ev.type is EventType.DISCARD and walk.keys16 is not None and ev.tile is not None and ev.tile < KINDS:
            if wins_with(walk.keys16, ev.tile) and not _won_on(record, ev.seq):
                violation(docket, w, ev.seq, (ev.seq,), "passed_win")


def _declares(record, seq: int, seat: int) -> bool:
    """After a draw at *seq*, the seat's next act is a win."""
    for ev in record.after(seq):
        if ev.seat == seat and ev.type in (EventType.WIN, EventType.DISCARD, EventType.KONG, EventType.PLACE,
                                            EventType.FLOWER):
            return ev.type is EventType.WIN
        if ev.type is EventType.CALL and ev.seat == seat and ev.kind is not None and ev.kind.value == "win":
            return True
    return False


def _won_on(record, discard_seq: int) -> bool:
    """Someone won on the discard at *discard_seq* (before the next discard)."""
    for ev in record.after(discard_seq):
        if ev.type is EventType.WIN:
            return True
        if ev.type is EventType.DISCARD:
            return False
    return False


def fees(docket: Docket, winner: int) -> tuple[Payment, ...]:
    """Each walking eye other than the winner pays him 1 台."""
    stakes = docket.record.stakes
    return tuple(fine(w, winner, tai=1, stakes=stakes, kind="walking_eye")
                 for w in sorted(docket.walking) if w != winner)


def retro_passed(docket: Docket, win, walks: dict[int, Walk]) -> int | None:
    """A walking eye's standing win: the seq of a winning tile he let go since walking
    (found from the hand he won with), or ``None``."""
    claim = win.claim
    walk = walks.get(claim.seat)
    if walk is None or claim.concealed is None or claim.tile is None:
        return None
    counts = list(claim.concealed)
    if not counts[claim.tile]:
        return None
    counts[claim.tile] -= 1
    keys16 = keys_of(counts)
    record = docket.record
    for ev in record.after(walk.seq, claim.seq - 1):
        if ev.type is EventType.DISCARD and ev.seq != claim.window_seq and ev.tile is not None and ev.tile < KINDS:
            if wins_with(keys16, ev.tile) and ev.seat != claim.seat:
                return ev.seq
        if ev.type is EventType.DRAW and ev.seat == claim.seat and ev.tile is not None and ev.tile < KINDS:
            if wins_with(keys16, ev.tile) and not _declares(record, ev.seq, claim.seat):
                return ev.seq
        if ev.type is EventType.REPORT and ev.code == "passed_win" and ev.seat == claim.seat:
            return ev.seq
    return None


def passed_win_ruling(docket: Docket, win, evidence: int) -> None:
    seat = win.claim.seat
    face = win.score.tai if win.score is not None else face_value(docket.record, seat, win.claim.seq)[0]
    docket.make("walking_eye_passed_win", offender=seat, evidence=(win.claim.seq, evidence),
                effects=(Effect("win_void", seat=seat), *docket.dealer_effects(seat)),
                payments=docket.pay_all(seat, face), cites=("pen.pay-all",), face=face)


__all__ = ["VIOLATIONS", "Walk", "fees", "on_event", "passed_win_ruling", "retro_passed", "start", "violation"]
