"""``flask replay``'s answer line written as UTF-8 bytes from its values (issue #17, the batch's
answer: :func:`api.batch.replay_line`).

:func:`api.batch.replay_line_reference` dumps the answer's head (the outcome with its wins,
scores and settlements), the final table and the penalties as dicts through one JSON encoder
into one text — UCS-2 for its few Chinese words, so every ASCII part is widened on the join —
and encodes it. Here each part is written as bytes: the numbers by ``%d``, the texts that recur
(a clause, a detail, a pattern, a set of the decomposition, a transfer's kind, the next hand)
from bytes kept by their value, each made once from the dict's own dump (``json.dumps`` of
the dict, encoded), in bounded tables emptied when full. Nothing is kept by a whole hand or
a whole line: only values that recur from hand to hand.

A value that is not exactly of the type written here (a bool or a float where an int is, a
name where a seat is, an enum of another class, a ruling given) is not written here: that
part is its dict's dump, encoded (the reference), so the answer is byte for byte
``(replay_text(hand) + "\\n").encode("utf-8", errors)`` whatever it holds.
``tests/test_answer_lines.py`` holds each writer to its dict's dump on generated and irregular
hands, and with their values changed.
"""
from __future__ import annotations

import json
import json.encoder
from operator import getitem
from typing import Any

from penalties.adjudicator import Result
from penalties.rulings import Payment, Rulings
from referee.hand import Hand
from referee.kinds import FirstTurn, FlowerWin, MeldKind, OutcomeKind, Readiness, ReadyKind, WinSource, Wind
from referee.melds import GroupKind, Meld
from referee.outcome import NextHand, WinResult, final_table
from referee.state import meld_text
from referee.scoring.scorer import Score, group_texts, meld_texts, pattern_dict
from referee.scoring.settlement import Settlement, Transfer
from referee.tiles import PAIR_TEXT, format_counts, format_tiles, tile_name

#: ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))`` (api.batch's ``_dumps``)
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
#: a text as a JSON string (ensure_ascii off: json's own writer)
_quoted = json.encoder.encode_basestring
_INT_ONLY = frozenset({int})
_BOOL_ONLY = frozenset({bool})
#: the most entries a table of kept bytes holds before it is emptied
LIMIT = 4096


def _keep(table: dict, key: Any, text: str, errors: str) -> bytes:
    """*text* in UTF-8, kept in *table* by *key* when it encodes under ``strict`` (then every
    error handler gives the same bytes); otherwise encoded under *errors*, not kept (a lone
    surrogate: the handler decides, or raises as the whole text would)."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", errors)
    return _put(table, key, data)


def _put(table: dict, key: Any, value: Any) -> Any:
    """*value* kept in *table* by *key*, the table emptied first when full (:data:`LIMIT`)."""
    if len(table) >= LIMIT:
        table.clear()
    table[key] = value
    return value


def _by_ints(table: dict, key: tuple, make: Any) -> Any:
    """``make(key)``, kept in *table* by *key* when each of its items is exactly an int (``True``
    and ``1.0`` hash as ``1``: a text kept for ints would stand for them); *make* raises for a
    tile out of 0–41 before anything is kept."""
    if not _INT_ONLY.issuperset(map(type, key)):
        return make(key)
    value = table.get(key)
    if value is None:
        value = _put(table, key, make(key))
    return value


#: str → its JSON string in UTF-8
_TEXTS: dict[str, bytes] = {}


def text_line(value: Any, errors: str = "strict") -> bytes:
    """*value*'s JSON text in UTF-8: a ``str`` kept by its value (a clause, a detail, a kind:
    they recur); anything else dumped (a str subclass too: it may write differently, so its dict writes it)."""
    if type(value) is str:
        data = _TEXTS.get(value)
        if data is None:
            data = _keep(_TEXTS, value, _quoted(value), errors)
        return data
    return _dumps(value).encode("utf-8", errors)


def _int_or_null(value: Any) -> bytes | None:
    """An int's text, ``null`` for None; None for anything else (a bool, a float)."""
    if value is None:
        return b"null"
    if type(value) is int:
        return b"%d" % value
    return None


# --- the next hand (twice an answer: the outcome's and the penalties') -----------------------

#: (dealer, streak, round wind, first dealer, three flags), each exactly typed → the text
_NEXT: dict[tuple, bytes] = {}


def next_hand_line(n: Any, errors: str = "strict") -> bytes:
    """``NextHand.to_dict()``'s dump in UTF-8 (``null`` for None), kept by its values once
    each is exactly an int, a :class:`~referee.kinds.Wind` or a bool (so equal keys write
    equal texts: ``True == 1`` would not)."""
    if n is None:
        return b"null"
    if type(n) is NextHand:
        key = (n.dealer, n.streak, n.first_dealer, n.round_wind, n.dealer_repeats, n.streak_counted, n.match_over)
        if (_INT_ONLY.issuperset(map(type, key[:3])) and type(key[3]) is Wind
                and _BOOL_ONLY.issuperset(map(type, key[4:]))):
            data = _NEXT.get(key)
            if data is None:
                data = _keep(_NEXT, key, _dumps(n.to_dict()), errors)
            return data
    return _dumps(n.to_dict()).encode("utf-8", errors)


# --- the outcome ------------------------------------------------------------------------------

_RESULT = (b'{"kind":%b,"clause":%b,"seq":%b,"detail_zh":%b,"detail":%b,"wins":[%b],"voided":%b,"upheld":%b,'
           b'"payments":[%d,%d,%d,%d],"win_payments":[%d,%d,%d,%d],"next":%b}')


def outcome_line(result: Any, errors: str = "strict") -> bytes:
    """``Result.to_dict()``'s dump in UTF-8 (:class:`penalties.adjudicator.Result`: the
    answer's ``outcome``), written from its values; a result with a value of another type
    than the usual is its dict's dump."""
    if type(result) is Result:
        kind = result.kind
        seq = _int_or_null(result.seq)
        payments, win_payments = result.payments, result.win_payments
        voided, upheld = result.voided, result.upheld
        if (type(kind) is OutcomeKind and seq is not None and type(payments) is tuple and len(payments) == 4
                and type(win_payments) is tuple and len(win_payments) == 4
                and _INT_ONLY.issuperset(map(type, payments + win_payments))
                and type(voided) is tuple and type(upheld) is tuple and type(result.wins) is tuple):
            return _RESULT % (
                text_line(kind._value_, errors), text_line(result.clause, errors), seq,
                text_line(result.detail_zh, errors), text_line(result.detail, errors),
                b",".join([win_line(w, errors) for w in result.wins]),
                _dumps([v.to_dict() for v in voided]).encode("utf-8", errors) if voided else b"[]",
                _dumps(list(upheld)).encode("utf-8", errors) if upheld else b"[]",
                *payments, *win_payments, next_hand_line(result.next, errors))
    return _dumps(result.to_dict()).encode("utf-8", errors)


#: (the source's value, the tile) → ``"source":…,"source_zh":…,"tile":…,"tile_zh":…``
_CLAIMS: dict[tuple, bytes] = {}
#: (flower win, readiness, first turn: their values) → their members' text
_FLAGS: dict[tuple, bytes] = {}


def win_line(w: Any, errors: str = "strict") -> bytes:
    """``WinResult.to_dict()``'s dump in UTF-8: the claim's names and flags from texts kept by
    their values, the hand's text, the score and the settlement written by their own writers;
    another shape (a value of another type) is its dict's dump."""
    if type(w) is WinResult:
        c = w.claim
        seat, seq, tile, discarder = c.seat, c.seq, c.tile, c.discarder
        source, flower_win, readiness, first_turn = c.source, c.flower_win, c.readiness, c.first_turn
        if (type(seat) is int and type(seq) is int and (tile is None or type(tile) is int)
                and (discarder is None or type(discarder) is int) and type(source) is WinSource
                and type(flower_win) is FlowerWin and type(readiness) is Readiness and type(first_turn) is FirstTurn):
            key = (source._value_, tile)
            claim = _CLAIMS.get(key)
            if claim is None:
                claim = _keep(_CLAIMS, key, _dumps({
                    "source": source.value, "source_zh": source.zh,
                    "tile": tile_name(tile) if tile is not None else None,
                    "tile_zh": tile_name(tile, "zh") if tile is not None else None})[1:-1], errors)
            key = (flower_win._value_, readiness._value_, first_turn._value_)
            flags = _FLAGS.get(key)
            if flags is None:
                flags = _keep(_FLAGS, key, _dumps({"flower_win": flower_win.value, "readiness": readiness.value,
                                                   "first_turn": first_turn.value})[1:-1], errors)
            parts = [b'{"seat":%d,"seq":%d,%b,"discarder":%b,%b' % (
                seat, seq, claim, b"null" if discarder is None else b"%d" % discarder, flags)]
            if c.readiness_note:
                parts.append(b',"readiness_note":' + text_line(c.readiness_note, errors))
            if w.hand is not None:
                parts.append(b',"hand":' + _quoted(hand_text(w.hand)).encode("utf-8", errors))
            if w.score is not None:
                parts.append(b',"score":' + score_line(w.score, errors))
            if w.settlement is not None:
                parts.append(b',"settlement":' + settlement_line(w.settlement, errors))
            if w.unscored:
                parts.append(b',"unscored":' + text_line(w.unscored, errors))
            parts.append(b"}")
            return b"".join(parts)
    return _dumps(w.to_dict()).encode("utf-8", errors)


#: a winning hand's meld (kind, lowest tile: its tiles follow) → ``str(meld)``
_HAND_MELDS: dict[tuple, str] = {}
#: flowers (a tuple of exact ints) → ``format_tiles(flowers)``, sorted: the eight flowers' few
#: hundred sets recur
_SORTED_FLOWERS: dict[tuple, str] = {}


def flowers_text(flowers: Any) -> str:
    """``format_tiles(flowers)`` (sorted), kept by the flowers' tuple when each is an int."""
    return _by_ints(_SORTED_FLOWERS, tuple(flowers), format_tiles)


def hand_text(hand: Any) -> str:
    """``str(hand)`` (:meth:`referee.hand.Hand.__str__`: the concealed tiles, each meld, the
    flowers), the melds' texts kept by kind and lowest tile and the flowers' by their values,
    for a :class:`~referee.hand.Hand` whose melds are :class:`~referee.melds.Meld` of a
    :class:`~referee.kinds.MeldKind` and an int tile; any other: ``str(hand)``."""
    if type(hand) is not Hand:
        return str(hand)
    parts = [format_counts(hand.concealed)]
    for m in hand.melds:
        kind, tile = m.kind, m.tile
        if type(m) is not Meld or type(kind) is not MeldKind or type(tile) is not int:
            return str(hand)
        text = _HAND_MELDS.get((kind, tile))
        if text is None:
            text = _put(_HAND_MELDS, (kind, tile), str(m))
        parts.append(text)
    if hand.flowers:
        parts.append(flowers_text(hand.flowers))
    return " ".join(parts)


# --- the score ----------------------------------------------------------------------------------

_SCORE = (b'{"tai":%d,"dealer_tai":%d,"robbed_tai":%d,"patterns":[%b],"excluded":[],"adjustments":[],'
          b'"decomposition":%b,"flowers":%b%b}')
#: (scoring table, pattern index, count, 台, scope) → the pattern's dict's text (the table is
#: held, so its identity is not reused while kept)
_PATTERNS: dict[tuple, bytes] = {}


def score_line(s: Any, errors: str = "strict") -> bytes:
    """``Score.to_dict()``'s dump in UTF-8: each counted pattern's text kept by its table,
    index, count, 台 and scope; the decomposition's sets from texts kept by kind and tile. A
    score with an excluded pattern or an adjustment (rare), or a value of another type, is its
    dict's dump."""
    if type(s) is Score and type(s.adjustments) is tuple and not s.adjustments:
        table = s.table
        tai = table.tai
        ex = s.excluded
        robbed = s.robbed_tai
        numbers = (s.tai, s.dealer_tai, robbed, s.face_tai)
        if _INT_ONLY.issuperset(map(type, numbers)) and type(ex) is int:
            sro = table.seven_rob_one_idx
            patterns = []
            for i, c in s.items:
                if (ex >> i) & 1:
                    break  # an excluded pattern: written by the dict
                patterns.append(_pattern_line(table, i, c, tai[i] * c, "robbed" if robbed and i == sro else "face",
                                              errors))
            else:
                for i, c in s.dealer_items:
                    patterns.append(_pattern_line(table, i, c, tai[i] * c, "dealer", errors))
                decomposition = decomposition_line(s, errors)
                if decomposition is not None:
                    capped = (b',"capped_from":%d,"cap_clause":"app.no-cap"' % s.face_tai
                              if s.face_tai != s.tai else b"")
                    return _SCORE % (s.tai, s.dealer_tai, robbed, b",".join(patterns), decomposition,
                                     _quoted(flowers_text(s.flowers)).encode("utf-8", errors), capped)
    return _dumps(s.to_dict()).encode("utf-8", errors)


def _pattern_line(table: Any, i: int, count: Any, tai: Any, scope: str, errors: str) -> bytes:
    """One pattern's dict's text (``pattern_dict``), kept when its count and 台 are ints."""
    if type(count) is int and type(tai) is int:
        key = (table, i, count, tai, scope)
        data = _PATTERNS.get(key)
        if data is None:
            data = _keep(_PATTERNS, key, _dumps(pattern_dict(i, count, tai, scope, table)), errors)
        return data
    return _dumps(pattern_dict(i, count, tai, scope, table)).encode("utf-8", errors)


#: (kind, lowest tile) → a decomposition's set's, or meld's, dict's text (the keys of
#: ``referee.scoring.scorer.group_texts`` / ``meld_texts``: apart, GroupKind.CHOW == MeldKind.CHOW)
_GROUPS: dict[tuple, bytes] = {}
_MELDS: dict[tuple, bytes] = {}
#: the winning tile → ``"winning_tile":…,"winning_tile_zh":…``
_WINNING: dict[int, bytes] = {}


def _set_line(table: dict, texts: Any, kinds: type, item: Any, errors: str) -> bytes | None:
    """A set's or meld's dict in the decomposition, its text kept by the key its *texts* keep;
    None when its kind is not of *kinds* or its tile not exactly an int (``True`` and ``1.0``
    hash as ``1``: a kept text would stand for them): the caller dumps the dict."""
    if type(item.tile) is not int or type(item.kind) is not kinds:
        return None
    key = (item.kind, item.tile)
    data = table.get(key)
    if data is None:
        kind, kind_zh, tiles = texts(item)
        data = _keep(table, key, _dumps({"kind": kind, "kind_zh": kind_zh, "tiles": tiles}), errors)
    return data


def decomposition_line(s: Score, errors: str = "strict") -> bytes | None:
    """``Score.decomposition_dict()``'s dump in UTF-8; None when its values are not the usual
    (``ligu`` not a bool, the winning tile or a set's tile not an int, a set's kind of another
    class): the caller dumps the dict."""
    if s.groups is None:
        return b"null"
    ligu = s.ligu
    tile = s.ctx.winning_tile
    if (ligu is not True and ligu is not False) or type(tile) is not int:
        return None
    winning = _WINNING.get(tile)
    if winning is None:
        winning = _keep(_WINNING, tile, _dumps({"winning_tile": tile_name(tile),
                                                "winning_tile_zh": tile_name(tile, "zh")})[1:-1], errors)
    sets = [_set_line(_GROUPS, group_texts, GroupKind, g, errors) for g in s.groups]
    sets += [_set_line(_MELDS, meld_texts, MeldKind, m, errors) for m in s.hand.melds]
    if None in sets:
        return None
    n = len(s.groups)
    groups, melds = b",".join(sets[:n]), b",".join(sets[n:])
    return b'{"groups":[%b],"melds":[%b],"ligu":%b,%b}' % (groups, melds, b"true" if ligu else b"false", winning)


# --- the settlement -----------------------------------------------------------------------------

_TRANSFER = b'{"payer":%d,"payee":%d,"amount":%d,"base":%d,"tai":%d,"dealer_tai":%d,"streak":%d}'
_TRANSFER_FOR = b'{"payer":%d,"payee":%d,"amount":%d,"base":%d,"tai":%d,"dealer_tai":%d,"streak":%d,"on_behalf_of":%d}'


def settlement_line(st: Any, errors: str = "strict") -> bytes:
    """``Settlement.to_dict()``'s dump in UTF-8, its numbers by ``%d`` when each is an int."""
    if type(st) is Settlement:
        payments, transfers = st.payments, st.transfers
        if type(payments) is tuple and len(payments) == 4 and _INT_ONLY.issuperset(map(type, payments)):
            parts = []
            for t in transfers:
                if type(t) is Transfer and _INT_ONLY.issuperset(map(type, t[:7])):
                    behalf = t[7]
                    if behalf is None:
                        parts.append(_TRANSFER % t[:7])
                        continue
                    if type(behalf) is int:
                        parts.append(_TRANSFER_FOR % t)
                        continue
                break
            else:
                return b'{"payments":[%d,%d,%d,%d],"transfers":[%b]}' % (*payments, b",".join(parts))
    return _dumps(st.to_dict()).encode("utf-8", errors)


# --- the penalties ------------------------------------------------------------------------------

_QUIET = (b'{"rulings":[],"transfers":[%b],"payments":[%d,%d,%d,%d],"outside":{},"hand_ended":%b,'
          b'"next_dealer":%b,"next_streak":%b,"next":%b,"unruled":[]}')
_PAYMENT = b'{"payer":%d,"payee":%d,"amount":%d,"base":%d,"tai":%d,"kind":%b}'


def penalties_line(rulings: Any, given: Any, errors: str = "strict") -> bytes:
    """The answer's ``penalties`` in UTF-8: ``Rulings.to_dict()`` with ``rulings`` the rulings
    as given (``Given.to_dict()`` each). A quiet hand's — no ruling given, nothing outside or
    unruled: its transfers are the wins' payments — is written from its values; any other is
    its dict's dump."""
    if type(rulings) is Rulings and type(given) is tuple and not given:
        payments = rulings.payments
        hand_ended = rulings.hand_ended
        dealer, streak = _int_or_null(rulings.next_dealer), _int_or_null(rulings.next_streak)
        outside, unruled, transfers = rulings.outside, rulings.unruled, rulings.transfers
        if (type(outside) is tuple and not outside and type(unruled) is tuple and not unruled
                and type(transfers) is tuple and type(payments) is tuple and len(payments) == 4
                and _INT_ONLY.issuperset(map(type, payments)) and (hand_ended is True or hand_ended is False)
                and dealer is not None and streak is not None):
            parts = []
            for p in transfers:
                if type(p) is not Payment or p.instead_of is not None:
                    break
                numbers = (p.payer, p.payee, p.amount, p.base, p.tai)
                if not _INT_ONLY.issuperset(map(type, numbers)):
                    break
                parts.append(_PAYMENT % (*numbers, text_line(p.kind, errors)))
            else:
                return _QUIET % (b",".join(parts), *payments, b"true" if hand_ended else b"false", dealer, streak,
                                 next_hand_line(rulings.next, errors))
    penalties = rulings.to_dict()
    penalties["rulings"] = [g.to_dict() for g in given]
    return _dumps(penalties).encode("utf-8", errors)


# --- the final table ----------------------------------------------------------------------------

#: tile → next tile (0–41, or the end at index 42, read as -1) → the tile's compact text in
#: ASCII bytes (``referee.tiles.PAIR_TEXT``): a tuple indexed in C, no tuple key hashed
_ROWS = tuple(tuple(PAIR_TEXT[t, n].encode("ascii") for n in range(42)) + (PAIR_TEXT[t, -1].encode("ascii"),)
              for t in range(42))
_END = [-1]


def tiles_line(tiles: Any) -> bytes:
    """``format_tiles(tiles, sort=False)`` in ASCII bytes (a pond, flowers: as they came), each
    tile's text from it and the next (:data:`_ROWS`, read in C); tiles that are not exactly
    ints in 0–41 are left to ``format_tiles`` and its error. ``tests/test_answer_lines.py``
    holds it to ``format_tiles_reference``."""
    seq = list(tiles)
    if _INT_ONLY.issuperset(map(type, seq)) and (not seq or min(seq) >= 0):
        try:
            return b"".join(map(getitem, map(_ROWS.__getitem__, seq), seq[1:] + _END))
        except IndexError:
            pass  # a tile past 41: format_tiles raises its error
    return format_tiles(seq, sort=False).encode("ascii")


#: a seat's flowers, as they came (a tuple of ints) → their text: a few hundred orders of the
#: eight flowers recur from hand to hand
_FLOWERS: dict[tuple, bytes] = {}
#: a table meld's kind and tiles (``meld_text``'s key) → its text as a JSON string in UTF-8
_TABLE_MELDS: dict[tuple, bytes] = {}

_FINAL = (b'{"dealer":%d,"east":%d,"wall":{"drawn":%d,"replacements":%d,"kongs":%d,"live":%d,'
          b'"remaining":%d},"seats":[%b]}')
_SEAT = (b'{"seat":%d,"tiles":"%b","unknown":%d,"melds":[%b],"flowers":"%b","pond":"%b","passed_win":%b,'
         b'"ready":%b,"dead_hand":%b}')


def final_table_line(st: Any, errors: str = "strict") -> bytes:
    """``json.dumps(final_table(st))`` in UTF-8 (``referee.outcome.final_table_text`` as
    bytes), written from the values: the tile texts as ASCII bytes (digits and suit letters:
    nothing to escape), the melds' and flowers' texts kept by their values; numbers by ``%d``
    only when each is an int, flags by identity with True / False, a ready declared only when
    it is a :class:`~referee.kinds.ReadyKind`; anything else: ``final_table``'s dump."""
    w = st.wall
    numbers = [st.dealer, st.east, w.front, w.tail, w.kongs, w.live, w.remaining]
    seats = []
    for s in st.seats:
        dead, ready, flowers = s.dead_hand, s.ready, s.flowers
        if (dead is not True and dead is not False) or (ready is not None and type(ready) is not ReadyKind):
            break
        numbers.append(s.seat)
        numbers.append(s.unknown)
        flowers_line = _by_ints(_FLOWERS, tuple(flowers), tiles_line)
        melds = []
        for m in s.melds:
            key = m[:2]
            text = _TABLE_MELDS.get(key)
            if text is None:
                text = _keep(_TABLE_MELDS, key, _quoted(meld_text(m)), errors)
            melds.append(text)
        seats.append(_SEAT % (
            s.seat, format_counts(s.hand).encode("ascii"), s.unknown, b",".join(melds), flowers_line,
            tiles_line(s.pond), b"false" if s.passed is None else b"true",
            b"null" if ready is None else text_line(ready._value_, errors), b"true" if dead else b"false"))
    else:
        if _INT_ONLY.issuperset(map(type, numbers)):
            return _FINAL % (*numbers[:7], b",".join(seats))
    return _dumps(final_table(st)).encode("utf-8", errors)


# --- the whole line -----------------------------------------------------------------------------


def replay_line(hand: Any, verdicts_line: Any, errors: str = "strict") -> bytes:
    """``flask replay``'s answer line for *hand* (a :class:`penalties.adjudicator.HandResult`)
    in UTF-8 under *errors*, with its newline: the members of ``HandResult.to_dict`` in its
    order, each written as bytes; *verdicts_line* writes the verdicts
    (:func:`api.batch.verdicts_line`)."""
    adj = hand.adjudication
    number = adj.hand
    closed_at = _int_or_null(hand.closed_at)
    irregularities = adj.irregularities
    st = adj.state
    return b"".join((
        b'{"table":', text_line(adj.table, errors),
        b',"hand":%d' % number if type(number) is int else b',"hand":' + _dumps(number).encode("utf-8", errors),
        b',"mode":', text_line(adj.mode, errors), b',"ruleset":', text_line(adj.ruleset, errors),
        b',"outcome":', outcome_line(hand.result, errors),
        b',"closed_at":', closed_at if closed_at is not None else _dumps(hand.closed_at).encode("utf-8", errors),
        b',"irregularities":', (_dumps([i.to_dict() for i in irregularities]).encode("utf-8", errors)
                                 if irregularities else b"[]"),
        b',"verdicts":', verdicts_line(adj.verdicts, errors),
        b',"final":', final_table_line(st, errors) if st is not None else b"{}",
        b',"penalties":', penalties_line(hand.rulings, hand.given, errors),
        b"}\n"))


__all__ = ["LIMIT", "decomposition_line", "final_table_line", "flowers_text", "hand_text", "next_hand_line",
           "outcome_line", "penalties_line", "replay_line", "score_line", "settlement_line", "text_line", "tiles_line",
           "win_line"]
