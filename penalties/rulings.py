"""Rulings as data: what the officials decide about an irregularity, and what it costs.

A :class:`Ruling` is frozen and its ``repr`` parses back (:func:`parse_ruling`)::

    Ruling(code='false_win', clause='pen.false-win.1', offender=1, evidence=(41,),
           effects=(Effect(kind='win_void', seat=1), Effect(kind='hand_ended'), ...),
           payments=(Payment(payer=1, payee=0, amount=300, base=100, tai=10, kind='pay_all'), ...),
           text_zh='1 號座詐胡：…', text='Seat 1 declared a false win: …', cites=('pen.false-win.3',),
           cause='not_winning')

* ``code`` — stable ASCII (:data:`penalties.codes.CODES`); ``clause`` — the clause id it
  applies (``pen.*``, ``prio.*``, ``score.streak-marker``, ``bet.chahua``); ``cites`` —
  further clause ids it rests on; ``cause`` — the ASCII reason within the code (the 相公
  cause, why a win was false).
* ``offender`` — the seat at fault (``None`` for a priority decision that blames nobody);
  ``evidence`` — the event seqs, the act itself first.
* ``effects`` — :class:`Effect` entries on the hand (:data:`EFFECTS`): dead hand, tile
  restored, order kept or changed, hand ended, dealer passes or keeps without counting the
  streak, a liability window opened ...
* ``payments`` — :class:`Payment` transfers, each from one party to another, so every
  ruling's payments sum to zero; a party is a seat (0–3) or an outside side-staker's name.
* ``text_zh`` — one sentence an official can read out; ``text`` — its English.

:class:`Rulings` is the answer for a hand: the rulings in order, every payment in effect
(the win's settlement as the referee scored it, adjusted by the rulings), the net per seat
and per outside party (always summing to zero), and who deals next.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, fields
from typing import Any

from .errors import RulingError

#: a seat (0–3) or an outside side-staker (外插者) by name
Party = int | str

_CLAUSE = re.compile(r"[a-z]+(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*\Z")
_ASCII = re.compile(r"[a-z][a-z0-9_]*\Z")

#: effect kind → (zh-TW, English): what a ruling does to the hand
EFFECTS: dict[str, tuple[str, str]] = {
    "dead_hand": ("判相公：此後僅得依序摸牌（得自槓、補花）並擇牌打出，不得吃碰、搶花或胡牌",
                  "dead hand: from now on only draws and discards (own kongs and flower replacement allowed); no chow, "
                  "pung, robbing a flower or win"),
    "restore": ("強制復原", "restored as it was"),
    "tile_to_tail": ("所補之牌歸回槓上", "the replacement tile goes back onto the tail"),
    "random_tile_to_tail": ("無法確定哪張牌：由他人任抽一牌置回槓上", "the tile cannot be identified: another player "
                                                                      "draws one at random and puts it back onto the "
                                                                      "tail"),
    "drawn_tile_returned": ("所摸之牌退回牌牆", "the drawn tile goes back to the wall"),
    "claim_undone": ("吃碰取消，牌歸原處", "the claim is undone and the tiles go back"),
    "order_kept": ("牌局依原順序繼續", "play goes on in the original order"),
    "order_changed": ("牌局依新順序繼續", "play goes on in the new order"),
    "hand_ended": ("本盤終止", "the hand ends"),
    "dealer_passes": ("莊家下莊", "the dealer passes the deal"),
    "dealer_keeps_no_streak": ("莊家續莊，但本盤不計連莊序", "the dealer keeps the deal, without counting this hand in "
                                                             "the streak"),
    "forced_pung": ("已亮出對子，必須履行碰牌", "the pair is shown: the pung must be made"),
    "must_discard": ("強制改打", "must discard instead"),
    "no_claim": ("此張錯誤捨牌不得吃碰", "this wrong discard may not be claimed"),
    "tiles_exposed": ("該刻子見光死：亮出門前，不得作為安張打出", "the pung is dead once seen: it stays exposed and "
                                                                  "may not be discarded as safe tiles"),
    "win_void": ("胡牌無效", "the win is void"),
    "passed_win": ("視為過水不胡", "counts as a passed win"),
    "priority": ("取得優先權", "has priority"),
    "liability": ("負代位賠付責任", "is liable in place of the usual payer"),
    "walking_eye": ("眼牌：起身觀看各家暗牌，受眼牌限制", "walking eye: stands to look at the hands, under the "
                                                          "walking-eye restrictions"),
    "streak_marker": ("連莊示記與實際不符：莊家以較低者計收、較高者計付", "the streak marker differs from the real "
                                                                          "streak: the dealer collects by the lower "
                                                                          "and pays by the higher"),
    "side_stake_void": ("外插者影響行牌：該次贏無效，輸照付", "the side-staker influenced play: his winnings this hand "
                                                              "are void, losses paid"),
}

#: payment kinds: what a transfer is for
PAYMENT_KINDS: dict[str, tuple[str, str]] = {
    "win": ("胡牌計付", "the settlement of a win"),
    "pay_all": ("包賠", "paying for all (包賠)"),
    "fine": ("罰台", "a fine in 台"),
    "walking_eye": ("眼牌者付胡牌者 1 台", "the walking eye pays the winner 1 台"),
    "substitute": ("代位賠付", "paid in place of the usual payer"),
    "side_stake": ("插花", "a side stake"),
}

#: liability windows (代位賠付, ``pen.substitute``)
WINDOWS: dict[str, tuple[str, str]] = {
    "next_draws": ("其後摸序 {draws} 張以內他人之自摸", "others' self-draws within the next {draws} draws"),
    "kong_tail": ("本盤內涉及槓上之自摸、原牌放銃", "self-draws on a tail tile and deal-ins with a tail tile discarded "
                                                    "as drawn, for the rest of the hand"),
    "tail_tile": ("其後該張槓上牌發生的自摸、原牌放銃", "a self-draw on that tail tile, or a deal-in with it discarded "
                                                        "as drawn"),
    "any_win": ("其後他人之自摸與胡銃", "others' self-draws and wins on a discard"),
}


def _seat_ok(value: object) -> bool:
    return type(value) is int and 0 <= value < 4


def _party_ok(value: object) -> bool:
    return _seat_ok(value) or (isinstance(value, str) and bool(value.strip()))


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of a ruling on the hand.

    :param kind: a key of :data:`EFFECTS`.
    :param seat: whom it concerns (the dead hand, the player with priority ...).
    :param tiles: tiles it concerns (the tile restored, the tile to discard instead).
    :param window: for ``liability``: a key of :data:`WINDOWS`.
    :param draws: for a ``next_draws`` window: how many draws it covers.
    :param seq: the event it takes effect from (a window opens after it).
    """

    kind: str
    seat: int | None = None
    tiles: tuple[int, ...] = ()
    window: str | None = None
    draws: int | None = None
    seq: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in EFFECTS:
            raise RulingError(f"unknown effect kind {self.kind!r}; one of {sorted(EFFECTS)}", field="effects.kind",
                              reason_zh=f"不明的處置種類 {self.kind!r}")
        if self.seat is not None and not _seat_ok(self.seat):
            raise RulingError(f"effect seat must be 0–3, got {self.seat!r}", field="effects.seat",
                              reason_zh="座位須為 0–3")
        if not isinstance(self.tiles, tuple) or not all(type(t) is int and 0 <= t < 42 for t in self.tiles):
            raise RulingError(f"effect tiles must be a tuple of tile indices, got {self.tiles!r}",
                              field="effects.tiles",
                              reason_zh="牌須為牌的編號")
        if (self.kind == "liability") != (self.window is not None):
            raise RulingError("a liability effect names its window, and only it", field="effects.window",
                              reason_zh="代位賠付須指明時段，其他處置不得指明")
        if self.window is not None and self.window not in WINDOWS:
            raise RulingError(f"unknown window {self.window!r}; one of {sorted(WINDOWS)}", field="effects.window",
                              reason_zh=f"不明的時段 {self.window!r}")
        if (self.window == "next_draws") != (self.draws is not None):
            raise RulingError("a next_draws window says how many draws, no other does", field="effects.draws",
                              reason_zh="摸序時段須指明張數")

    def describe(self) -> tuple[str, str]:
        """zh-TW and English words for the effect."""
        zh, en = EFFECTS[self.kind]
        if self.window is not None:
            wzh, wen = WINDOWS[self.window]
            zh, en = f"{zh}：{wzh.format(draws=self.draws)}", f"{en}: {wen.format(draws=self.draws)}"
        return zh, en

    def to_dict(self) -> dict[str, Any]:
        from referee.tiles import format_tiles

        zh, en = self.describe()
        out: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.tiles:
            out["tiles"] = format_tiles(self.tiles, sort=False)
        if self.window is not None:
            out["window"] = self.window
        if self.draws is not None:
            out["draws"] = self.draws
        if self.seq is not None:
            out["seq"] = self.seq
        out["zh"], out["en"] = zh, en
        return out


@dataclass(frozen=True, slots=True)
class Payment:
    """One transfer: *payer* gives *payee* *amount* (``base + tai × per_tai``).

    :param kind: a key of :data:`PAYMENT_KINDS`.
    :param base: / :param tai: what the amount counts (for the official's breakdown).
    :param instead_of: 代位賠付: the seat that would have paid, relieved by this payment
        (its own transfer to the same payee is cancelled by :func:`penalties.rule`).
    """

    payer: Party
    payee: Party
    amount: int
    base: int = 0
    tai: int = 0
    kind: str = "pay_all"
    instead_of: int | None = None

    def __post_init__(self) -> None:
        if not _party_ok(self.payer) or not _party_ok(self.payee):
            raise RulingError(f"a party is a seat 0–3 or a side-staker's name: {self.payer!r} → {self.payee!r}",
                              field="payments.payer", reason_zh="付款方、收款方須為座位 0–3 或外插者的名字")
        if self.payer == self.payee:
            raise RulingError(f"{self.payer!r} cannot pay itself", field="payments.payee", reason_zh="不能付給自己")
        if type(self.amount) is not int or self.amount < 0:
            raise RulingError(f"a payment is a whole amount ≥ 0, got {self.amount!r}", field="payments.amount",
                              reason_zh="金額須為 0 以上的整數")
        if self.kind not in PAYMENT_KINDS:
            raise RulingError(f"unknown payment kind {self.kind!r}; one of {sorted(PAYMENT_KINDS)}",
                              field="payments.kind",
                              reason_zh=f"不明的付款種類 {self.kind!r}")
        if self.instead_of is not None and not _seat_ok(self.instead_of):
            raise RulingError("instead_of is a seat 0–3", field="payments.instead_of", reason_zh="代付對象須為座位 0–3")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"payer": self.payer, "payee": self.payee, "amount": self.amount, "base": self.base,
                               "tai": self.tai, "kind": self.kind}
        if self.instead_of is not None:
            out["instead_of"] = self.instead_of
        return out


@dataclass(frozen=True, slots=True)
class Ruling:
    """The officials' ruling on one irregularity (see the module docstring)."""

    code: str
    clause: str
    offender: int | None = None
    evidence: tuple[int, ...] = ()
    effects: tuple[Effect, ...] = ()
    payments: tuple[Payment, ...] = ()
    text_zh: str = ""
    text: str = ""
    cites: tuple[str, ...] = ()
    cause: str = ""

    def __post_init__(self) -> None:
        from .codes import CODES

        if self.code not in CODES:
            raise RulingError(f"unknown ruling code {self.code!r}", field="code", reason_zh=f"不明的裁定代碼 "
                                                                                            f"{self.code!r}")
        for clause in (self.clause, *self.cites):
            if not isinstance(clause, str) or not _CLAUSE.match(clause):
                raise RulingError(f"not a clause id: {clause!r}", field="clause", reason_zh=f"不是條文編號：{clause!r}")
        if self.offender is not None and not _seat_ok(self.offender):
            raise RulingError(f"offender must be a seat 0–3, got {self.offender!r}", field="offender",
                              reason_zh="違規者須為座位 0–3")
        if not isinstance(self.evidence, tuple) or not all(type(s) is int and s >= 0 for s in self.evidence):
            raise RulingError(f"evidence is a tuple of event seqs, got {self.evidence!r}", field="evidence",
                              reason_zh="證據須為事件序號")
        if not isinstance(self.effects, tuple) or not all(isinstance(e, Effect) for e in self.effects):
            raise RulingError("effects must be a tuple of Effect", field="effects", reason_zh="處置須為 Effect 的序列")
        if not isinstance(self.payments, tuple) or not all(isinstance(p, Payment) for p in self.payments):
            raise RulingError("payments must be a tuple of Payment", field="payments", reason_zh="付款須為 Payment 的序"
                                                                                                 "列")
        if self.cause and not _ASCII.match(self.cause):
            raise RulingError(f"cause must be lower-case ASCII, got {self.cause!r}", field="cause",
                              reason_zh="原因代碼須為英文小寫")

    # ---- reading
    def has(self, kind: str) -> bool:
        """True when the ruling has an effect of this kind."""
        return any(e.kind == kind for e in self.effects)

    def effect(self, kind: str) -> Effect | None:
        for e in self.effects:
            if e.kind == kind:
                return e
        return None

    @property
    def ends_hand(self) -> bool:
        return self.has("hand_ended")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "clause": self.clause}
        if self.cites:
            out["cites"] = list(self.cites)
        if self.cause:
            out["cause"] = self.cause
        out.update({
            "offender": self.offender,
            "evidence": list(self.evidence),
            "effects": [e.to_dict() for e in self.effects],
            "payments": [p.to_dict() for p in self.payments],
            "text_zh": self.text_zh,
            "text": self.text,
        })
        return out


# --- parsing a repr back (safely: only these three constructors and literals) ---------------

_CONSTRUCTORS = {"Ruling": Ruling, "Effect": Effect, "Payment": Payment}


def parse_ruling(text: str) -> Ruling:
    """Read a :class:`Ruling` back from its ``repr``.

    Only ``Ruling``/``Effect``/``Payment`` calls with keyword arguments, strings, ints,
    ``None`` and tuples are accepted; nothing is evaluated.

    :raises RulingError: for anything else.
    """
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise RulingError(f"not a ruling repr: {exc.msg}", field="ruling", reason_zh="不是裁定的表示式") from None
    value = _build(tree.body)
    if not isinstance(value, Ruling):
        raise RulingError("the text is not a Ruling(...)", field="ruling", reason_zh="內容不是 Ruling(...)")
    return value


def _build(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and (node.value is None or type(node.value) in (int, str, bool)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) is int:
        return -node.operand.value
    if isinstance(node, ast.Tuple):
        return tuple(_build(e) for e in node.elts)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CONSTRUCTORS
            and not node.args):
        cls = _CONSTRUCTORS[node.func.id]
        names = {f.name for f in fields(cls)}
        kwargs = {}
        for kw in node.keywords:
            if kw.arg not in names:
                raise RulingError(f"{node.func.id} has no field {kw.arg!r}", field="ruling",
                                  reason_zh=f"{node.func.id} 沒有欄位 {kw.arg}")
            kwargs[kw.arg] = _build(kw.value)
        try:
            return cls(**kwargs)
        except TypeError as exc:
            raise RulingError(f"bad {node.func.id}: {exc}", field="ruling",
                              reason_zh=f"{node.func.id} 欄位不全") from None
    raise RulingError(f"unexpected {ast.dump(node)[:60]} in a ruling repr", field="ruling", reason_zh="裁定表示式中有不"
                                                                                                      "允許的內容")


# --- the answer for a hand ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rulings:
    """Every ruling on a hand and the money in the end.

    :param rulings: in the order of their evidence.
    :param transfers: every payment in effect: the win's settlement (kind ``win``) less
        the transfers a ruling relieved (代位賠付) or voided (a void win), plus the
        rulings' payments.
    :param payments: net per seat (+ received, − paid).
    :param outside: net per outside side-staker, as sorted ``(name, amount)`` pairs;
        ``sum(payments) + sum(outside amounts) == 0``.
    :param hand_ended: a ruling ended the hand (詐胡, 包賠, the second deal-in of 錯打明牌).
    :param next_dealer: / :param next_streak: who deals next and the streak N he starts
        with (the referee's, unless a ruling says the dealer passes or keeps without
        counting the streak); ``None`` when the hand is not over.
    :param unruled: ``(code, seq)`` of the referee's irregularities no ruling applies to
        (data errors such as a tile the wall does not have).
    """

    rulings: tuple[Ruling, ...] = ()
    transfers: tuple[Payment, ...] = ()
    payments: tuple[int, int, int, int] = (0, 0, 0, 0)
    outside: tuple[tuple[str, int], ...] = ()
    hand_ended: bool = False
    next_dealer: int | None = None
    next_streak: int | None = None
    unruled: tuple[tuple[str, int], ...] = field(default=())
    #: the next hand (:class:`referee.outcome.NextHand`: dealer, streak, round wind)
    next: Any = None
    #: claim seqs of the referee's wins that stand and are paid as it settled them
    standing: tuple[int, ...] = ()
    #: WIN event seqs the referee refused that a priority ruling upheld (paid by that ruling)
    upheld: tuple[int, ...] = ()
    #: the standing wins' share of :attr:`transfers` (what no ruling moved): the outcome's money
    win_transfers: tuple[Payment, ...] = ()

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.rulings)

    def by_code(self, code: str) -> tuple[Ruling, ...]:
        return tuple(r for r in self.rulings if r.code == code)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rulings": [r.to_dict() for r in self.rulings],
            "transfers": [p.to_dict() for p in self.transfers],
            "payments": list(self.payments),
            "outside": dict(self.outside),
            "hand_ended": self.hand_ended,
            "next_dealer": self.next_dealer,
            "next_streak": self.next_streak,
            "next": self.next.to_dict() if self.next is not None else None,
            "unruled": [{"code": c, "seq": s} for c, s in self.unruled],
        }



# --- filled whole (issue #17) ----------------------------------------------------------------
#
# A frozen dataclass's ``__init__`` stores each field through ``object.__setattr__`` (a call
# per field); a hand's close makes a :class:`Rulings` and its win's :class:`Payment`\ s. These
# drafts have the same slots, not frozen: their ``__init__`` stores the fields with plain
# attribute stores, then the object's ``__class__`` becomes the frozen class (CPython allows
# it between classes of one slot layout), as :class:`referee.events.Event` and
# :class:`referee.hand.Hand` are made. ``tests/test_penalties_rulings.py`` holds what they make to the
# constructors.


class _RulingsDraft:
    """A :class:`Rulings` being filled (:func:`rulings_of`)."""

    __slots__ = Rulings.__slots__

    def __init__(self, rulings, transfers, payments, outside, hand_ended, next_dealer, next_streak, unruled, next,
                 standing, upheld, win_transfers):
        self.rulings = rulings
        self.transfers = transfers
        self.payments = payments
        self.outside = outside
        self.hand_ended = hand_ended
        self.next_dealer = next_dealer
        self.next_streak = next_streak
        self.unruled = unruled
        self.next = next
        self.standing = standing
        self.upheld = upheld
        self.win_transfers = win_transfers


assert Rulings.__slots__ == tuple(f.name for f in fields(Rulings)) == (
    "rulings", "transfers", "payments", "outside", "hand_ended", "next_dealer", "next_streak", "unruled", "next",
    "standing", "upheld", "win_transfers")


def rulings_of(rulings: tuple, transfers: tuple, payments: tuple, outside: tuple, hand_ended: bool,
               next_dealer: int | None, next_streak: int | None, unruled: tuple, next: Any, standing: tuple,
               upheld: tuple, win_transfers: tuple) -> Rulings:
    """``Rulings(…)`` with every field given in order, filled through :class:`_RulingsDraft`
    (:class:`Rulings` has no checks to run)."""
    made = _RulingsDraft(rulings, transfers, payments, outside, hand_ended, next_dealer, next_streak, unruled, next,
                         standing, upheld, win_transfers)
    made.__class__ = Rulings
    return made


class _PaymentDraft:
    """A :class:`Payment` being filled (:func:`payment_of`)."""

    __slots__ = Payment.__slots__

    def __init__(self, payer, payee, amount, base, tai, kind, instead_of):
        self.payer = payer
        self.payee = payee
        self.amount = amount
        self.base = base
        self.tai = tai
        self.kind = kind
        self.instead_of = instead_of


assert Payment.__slots__ == tuple(f.name for f in fields(Payment)) == (
    "payer", "payee", "amount", "base", "tai", "kind", "instead_of")


def payment_of(payer: Party, payee: Party, amount: int, base: int, tai: int, kind: str,
               instead_of: int | None = None) -> Payment:
    """``Payment(payer, payee, amount, base, tai, kind, instead_of)`` filled through
    :class:`_PaymentDraft`, then checked by its own ``__post_init__`` (the same errors).

    :raises RulingError: as :class:`Payment` does.
    """
    made = _PaymentDraft(payer, payee, amount, base, tai, kind, instead_of)
    made.__class__ = Payment
    made.__post_init__()
    return made


__all__ = ["EFFECTS", "PAYMENT_KINDS", "WINDOWS", "Effect", "Party", "Payment", "Ruling", "Rulings", "parse_ruling",
           "payment_of", "rulings_of"]
