"""The action-stream protocol: one event per fact at the table (``docs/protocol.md``).

A stream records **facts, not verdicts**: what a player did, legal or not (a chow from
the wrong seat, a kong of unlike tiles, a discard taken from an exposed meld, a call not
completed, a hand reaching to the wall, a win declared). The referee
(:mod:`referee.machine`) gives each event its verdict.

Every event has ``type``, ``seq`` (strictly increasing within a hand), ``ts`` (ms; the
priority rules ``prio.*`` compare them, so they may run out of ``seq`` order when a
scorer records a gesture late), ``table``, ``hand`` and, for acts, ``seat`` (0–3,
counterclockwise; 下家 = ``(seat + 1) % 4``). Tiles are known (``tiles``) or, at a
physical table, only counted (``count``).

The gestures the priority rules name are events too: a call (:attr:`EventType.CALL`),
a hand touching the wall (:attr:`EventType.TOUCH_WALL`), a drawn tile placed into the
hand (:attr:`EventType.PLACE`, 靠張); a meld exposed is the chow / pung / kong event
itself, a discard made is the discard event.

JSON in, :class:`Event` out: :func:`parse_event`, :func:`parse_stream`; back to JSON:
:func:`event_to_dict`. Errors name the field at fault (``events[7].tiles``).
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .errors import MjrefError
from .kinds import Call, EventType, Mode, ReadyKind
from .melds import MeldKind
from .tiles import FLOWER_BASE, Wind, compact_tiles, format_tiles, parse_tiles

#: protocol version carried by ``hand_start`` (``"v"``) and the JSON Schema's ``$id``
PROTOCOL_VERSION = 1


class EventError(MjrefError, ValueError):
    """An event that cannot be read: unknown type, a missing or malformed field, a seq
    that does not increase. ``field`` names the field (``events[3].tiles``)."""

    code = "invalid_event"


_BY_WIRE = {t.wire: t for t in EventType}


_KONG_KINDS = {"melded": MeldKind.MELDED_KONG, "added": MeldKind.ADDED_KONG, "concealed": MeldKind.CONCEALED_KONG}
_KONG_WIRE = {v: k for k, v in _KONG_KINDS.items()}


@dataclass(frozen=True, slots=True)
class Setup:
    """What ``hand_start`` says about the table and the hand.

    :param mode: :class:`Mode`.
    :param ruleset: profile name (``data/rulesets``); ``rules`` overrides, as sorted pairs.
    :param dealer: the dealer's seat (莊家).
    :param round_wind: 圈風.
    :param streak: N of 連N拉N before this hand (``tai.10``).
    :param streak_marker: what the dealer's dice show, when it differs (``score.streak-marker``).
    :param first_dealer: the match's starting dealer seat (起莊位, ``seat.dealer``): the
        round wind advances when the deal comes back to it.
    :param first_hand: the first hand of the match (``seat.first_hand_east``).
    :param base: / :param per_tai: the stakes (底 / 台, ``100/20``).
    """

    mode: Mode = Mode.DIGITAL
    ruleset: str = "competition"
    rules: tuple[tuple[str, Any], ...] = ()
    dealer: int = 0
    round_wind: Wind = Wind.EAST
    streak: int = 0
    streak_marker: int | None = None
    first_dealer: int = 0
    first_hand: bool = False
    base: int = 100
    per_tai: int = 20


@dataclass(frozen=True, slots=True)
class Event:
    """One fact at the table. Which fields an event type uses: ``docs/protocol.md``.

    ``tiles`` is ``None`` when the table does not know them (physical mode; ``count``
    then says how many); ``kind`` is a :class:`MeldKind` for kongs, a :class:`Call`
    for calls, a :class:`ReadyKind` for ready declarations.
    """

    type: EventType
    seq: int
    ts: int = 0
    seat: int | None = None
    tiles: tuple[int, ...] | None = None
    count: int | None = None
    kind: MeldKind | Call | ReadyKind | None = None
    dice: tuple[int, int, int] | None = None
    exposed: bool = False
    by_other: bool = False
    code: str | None = None
    clause: str | None = None
    note: str | None = None
    setup: Setup | None = None
    table: str = ""
    hand: int = 0

    @property
    def tile(self) -> int | None:
        """The single tile of a draw or discard, when known."""
        tiles = self.tiles
        return tiles[0] if tiles else None

    @property
    def size(self) -> int:
        """How many tiles the event moves: known or counted."""
        return len(self.tiles) if self.tiles is not None else (self.count or 0)


# --- reading JSON ------------------------------------------------------------------------

_COMMON = {"v", "type", "seq", "ts", "table", "hand", "seat"}
#: fields each event type may carry besides the common ones
FIELDS: dict[EventType, frozenset[str]] = {
    EventType.HAND_START: frozenset({"mode", "ruleset", "rules", "dealer", "round_wind", "streak", "streak_marker",
                                     "first_dealer", "first_hand", "base", "per_tai"}),
    EventType.SEAT_DICE: frozenset({"dice"}),
    EventType.DEALER_DICE: frozenset({"dice"}),
    EventType.BREAK_DICE: frozenset({"dice"}),
    EventType.WALL: frozenset({"tiles"}),
    EventType.DEAL: frozenset({"tiles", "tile", "count"}),
    EventType.FLOWER: frozenset({"tiles", "tile"}),
    EventType.DRAW: frozenset({"tiles", "tile", "count"}),
    EventType.TAIL_DRAW: frozenset({"tiles", "tile", "count"}),
    EventType.DISCARD: frozenset({"tiles", "tile", "exposed"}),
    EventType.CHOW: frozenset({"tiles"}),
    EventType.PUNG: frozenset({"tiles"}),
    EventType.KONG: frozenset({"tiles", "count", "kind"}),
    EventType.READY: frozenset({"kind"}),
    EventType.WIN: frozenset({"tiles"}),
    EventType.PASS: frozenset(),
    EventType.SKIP_LAST_TILE: frozenset(),
    EventType.CALL: frozenset({"kind"}),
    EventType.TOUCH_WALL: frozenset(),
    EventType.PLACE: frozenset(),
    EventType.REVEAL: frozenset({"tiles", "tile", "by_other"}),
    EventType.REPORT: frozenset({"code", "clause", "note", "tiles"}),
    EventType.HAND_END: frozenset(),
}
#: event types that need a seat
SEATED = frozenset(set(EventType) - {EventType.HAND_START, EventType.WALL, EventType.HAND_END, EventType.REPORT})


def _err(field: str, message: str, zh: str, value: object = None) -> EventError:
    shown = json.dumps(value, ensure_ascii=False) if value is not None else ""
    return EventError(f"{message}{': ' + shown if shown else ''}", field=field,
                      reason_zh=f"{zh}{'：' + shown if shown else ''}")


def _int(raw: Mapping, key: str, where: str, *, lo: int | None = None, hi: int | None = None,
         required: bool = True) -> int | None:
    if key not in raw or raw[key] is None:
        if required:
            raise _err(f"{where}.{key}", f"missing field {key!r}", f"缺少欄位 {key}")
        return None
    value = raw[key]
    if type(value) is not int or (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f" ({lo}–{hi})" if hi is not None else f" (≥ {lo})" if lo is not None else ""
        raise _err(f"{where}.{key}", f"{key} must be an integer{span}", f"{key} 須為整數{span}", value)
    return value


def _bool(raw: Mapping, key: str, where: str) -> bool:
    value = raw.get(key, False)
    if type(value) is not bool:
        raise _err(f"{where}.{key}", f"{key} must be true or false", f"{key} 須為 true 或 false", value)
    return value


def _str(raw: Mapping, key: str, where: str) -> str | None:
    value = raw.get(key)
    if value is not None and not isinstance(value, str):
        raise _err(f"{where}.{key}", f"{key} must be a string", f"{key} 須為字串", value)
    return value


def _tiles(raw: Mapping, where: str) -> tuple[int, ...] | None:
    """``tiles`` as notation (``"123m 5z"``) or a list of notations / indices; or ``tile``."""
    if "tile" in raw and raw["tile"] is not None:
        if "tiles" in raw and raw["tiles"] is not None:
            raise _err(f"{where}.tile", "give tile or tiles, not both", "tile 與 tiles 只能擇一")
        key, value = "tile", raw["tile"]
        if type(value) is int:
            value = [value]
    elif "tiles" in raw and raw["tiles"] is not None:
        key, value = "tiles", raw["tiles"]
    else:
        return None
    if isinstance(value, str):
        cached = _TILE_TEXT.get(value)
        if cached is not None:
            return cached
        tiles = tuple(parse_tiles(value, field=f"{where}.{key}"))
        if len(value) <= 24 and len(_TILE_TEXT) < 50_000:
            _TILE_TEXT[value] = tiles
        return tiles
    field = f"{where}.{key}"
    if not isinstance(value, list):
        raise _err(field, f"{key} must be tile notation or a list of tiles", f"{key} 須為牌的寫法或牌的清單", value)
    out: list[int] = []
    for i, item in enumerate(value):
        if type(item) is int:
            if not 0 <= item < FLOWER_BASE + 8:
                raise _err(f"{field}[{i}]", "not a tile index (0–41)", "不是牌的編號（0–41）", item)
            out.append(item)
        elif isinstance(item, str):
            out.extend(parse_tiles(item, field=f"{field}[{i}]"))
        else:
            raise _err(f"{field}[{i}]", "a tile is notation or an index", "牌須為寫法或編號", item)
    return tuple(out)


#: short tile texts already read ("5m", "888p"): events repeat them all the time
_TILE_TEXT: dict[str, tuple[int, ...]] = {}


def _enum(raw: Mapping, key: str, where: str, table: Mapping[str, Any], *, required: bool = False) -> Any:
    value = raw.get(key)
    if value is None:
        if required:
            raise _err(f"{where}.{key}", f"missing field {key!r}; one of {sorted(table)}",
                       f"缺少欄位 {key}；可為 {sorted(table)}")
        return None
    if not isinstance(value, str) or value not in table:
        raise _err(f"{where}.{key}", f"{key} must be one of {sorted(table)}", f"{key} 須為 {sorted(table)} 之一", value)
    return table[value]


_WINDS = {"east": Wind.EAST, "south": Wind.SOUTH, "west": Wind.WEST, "north": Wind.NORTH,
          "東": Wind.EAST, "南": Wind.SOUTH, "西": Wind.WEST, "北": Wind.NORTH}


def _setup(raw: Mapping, where: str) -> Setup:
    mode = _enum(raw, "mode", where, {m.value: m for m in Mode}) or Mode.DIGITAL
    ruleset = _str(raw, "ruleset", where) or "competition"
    rules = raw.get("rules") or {}
    if not isinstance(rules, Mapping):
        raise _err(f"{where}.rules", "rules must be an object of parameter overrides", "rules 須為參數覆寫的物件",
                   rules)
    wind = raw.get("round_wind", "east")
    if type(wind) is int and 0 <= wind < 4:
        round_wind = Wind(wind)
    elif isinstance(wind, str) and wind.lower() in _WINDS:
        round_wind = _WINDS[wind.lower()]
    else:
        raise _err(f"{where}.round_wind", "round_wind must be east/south/west/north or 0–3", "圈風須為東南西北或 0–3",
                   wind)
    dealer = _int(raw, "dealer", where, lo=0, hi=3)
    for key in ("base", "per_tai"):
        if key in raw:
            _int(raw, key, where, lo=0)
    return Setup(
        mode=mode,
        ruleset=ruleset,
        rules=tuple(sorted((str(k), v) for k, v in rules.items())),
        dealer=dealer,
        round_wind=round_wind,
        streak=_int(raw, "streak", where, lo=0, required=False) or 0,
        streak_marker=_int(raw, "streak_marker", where, lo=0, required=False),
        first_dealer=_int(raw, "first_dealer", where, lo=0, hi=3, required=False) or 0,
        first_hand=_bool(raw, "first_hand", where),
        base=raw.get("base", 100),
        per_tai=raw.get("per_tai", 20),
    )


def parse_event(raw: Any, *, index: int | None = None) -> Event:
    """Read one event from its JSON object.

    The usual events (a draw, a discard, a deal's take, a claim, a pass, a call ...: every
    type but ``hand_start``, ``hand_end``, ``report``, ``wall`` and the dice) are read by a fast path
    (:func:`_fast_event`) that accepts only what :func:`parse_event_reference` accepts and
    builds the same :class:`Event`; anything it does not take — every error among them — is
    read by the reference, so the errors are the reference's (``tests/test_events.py``
    holds the two equal on valid and invalid input).

    :param index: the event's position in its stream, used in error fields (``events[3]``).
    :raises EventError: naming the field at fault and showing the bad value.
    """
    if type(raw) is dict:
        kind = raw.get("type")
        if type(kind) is str:
            spec = _FAST.get(kind)
            if spec is not None and raw.keys() <= spec[1]:
                event = _fast_event(raw, spec)
                if event is not None:
                    return event
    return parse_event_reference(raw, index=index)


def parse_event_reference(raw: Any, *, index: int | None = None) -> Event:
    """:func:`parse_event` field by field: the reference the fast path is held to, and the
    source of every error it reports.

    :raises EventError: naming the field at fault and showing the bad value.
    """
    where = "event" if index is None else f"events[{index}]"
    if not isinstance(raw, Mapping):
        raise _err(where, "an event is a JSON object", "事件須為 JSON 物件", raw)
    kind = raw.get("type")
    etype = _BY_WIRE.get(kind) if isinstance(kind, str) else None
    if etype is None:
        raise _err(f"{where}.type", f"unknown event type; one of {sorted(_BY_WIRE)}", "不明的事件種類", kind)
    version = raw.get("v", PROTOCOL_VERSION)
    if version != PROTOCOL_VERSION:
        raise _err(f"{where}.v", f"protocol version {PROTOCOL_VERSION} expected", f"協定版本應為 {PROTOCOL_VERSION}",
                   version)
    extra = set(raw) - _COMMON - FIELDS[etype]
    if extra:
        raise _err(f"{where}.{sorted(extra)[0]}", f"field not used by a {etype.wire} event",
                   f"{etype.zh}事件沒有此欄位", sorted(extra)[0])
    seq = _int(raw, "seq", where, lo=0)
    ts = _int(raw, "ts", where, lo=0, required=False) or 0
    seat = _int(raw, "seat", where, lo=0, hi=3, required=etype in SEATED)
    table = _str(raw, "table", where) or ""
    hand = raw.get("hand", 0)
    if type(hand) is not int:
        raise _err(f"{where}.hand", "hand must be an integer", "hand 須為整數", hand)
    fields: dict[str, Any] = {}
    allowed = FIELDS[etype]
    if "tiles" in allowed:
        fields["tiles"] = _tiles(raw, where)
    if "count" in allowed:
        fields["count"] = _int(raw, "count", where, lo=0, hi=144, required=False)
    if "dice" in allowed:
        dice = raw.get("dice")
        if not (isinstance(dice, list) and len(dice) == 3 and all(type(d) is int and 1 <= d <= 6 for d in dice)):
            raise _err(f"{where}.dice", "three dice of 1–6 expected", "須為三顆 1–6 點的骰子", dice)
        fields["dice"] = tuple(dice)
    if etype is EventType.KONG:
        fields["kind"] = _enum(raw, "kind", where, _KONG_KINDS, required=True)
    elif etype is EventType.CALL:
        fields["kind"] = _enum(raw, "kind", where, {c.value: c for c in Call}, required=True)
    elif etype is EventType.READY:
        fields["kind"] = _enum(raw, "kind", where, {r.value: r for r in ReadyKind}, required=True)
    for flag in ("exposed", "by_other"):
        if flag in allowed:
            fields[flag] = _bool(raw, flag, where)
    if etype is EventType.REPORT:
        fields["code"] = _str(raw, "code", where)
        fields["clause"] = _str(raw, "clause", where)
        fields["note"] = _str(raw, "note", where)
        if not fields["code"]:
            raise _err(f"{where}.code", "a report needs a code", "裁判報告須有代碼")
    if etype is EventType.HAND_START:
        fields["setup"] = _setup(raw, where)
    _check_shape(etype, fields, where)
    return Event(etype, seq, ts, seat, table=table, hand=hand, **fields)


_SINGLE = (EventType.DRAW, EventType.TAIL_DRAW, EventType.DISCARD)

# --- the fast path -------------------------------------------------------------------------

assert Event.__slots__ == ("type", "seq", "ts", "seat", "tiles", "count", "kind", "dice", "exposed", "by_other", "code",
                           "clause", "note", "setup", "table", "hand")


class _Draft(Event):
    """An :class:`Event` being filled: Event's own slots, not frozen (the plain
    ``object.__setattr__``), so its ``__init__`` stores each field with one plain attribute
    store; :func:`_fast_event` then sets its ``__class__`` to :class:`Event` (CPython allows it
    between classes of one slot layout). A frozen dataclass's own ``__init__`` calls
    ``object.__setattr__`` per field, and the slots' ``__set__`` called one by one cost about
    11,700 instructions an event; this costs about 4,400 (callgrind, issue #17 item 5).
    A subclass adding no slot, not a class of its own with the same slots: then the
    ``__class__`` assignment need not compare the two classes' 16 slot names (about 400 of its
    600 instructions an event). ``tests/test_events.py`` holds the events made so to the
    reference's (equal, hashed alike, frozen, of class :class:`Event`)."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    def __init__(self, type, seq, ts, seat, tiles, count, kind, exposed, by_other, table, hand):  # noqa: A002
        self.type = type
        self.seq = seq
        self.ts = ts
        self.seat = seat
        self.tiles = tiles
        self.count = count
        self.kind = kind
        self.dice = None
        self.exposed = exposed
        self.by_other = by_other
        self.code = None
        self.clause = None
        self.note = None
        self.setup = None
        self.table = table
        self.hand = hand


class _Blank(_Draft):
    """A :class:`_Draft` with no field set, made by calling the class (``_Blank()``): its
    ``__init__`` is ``object.__init__``, so the call runs no bytecode, and it costs about a
    quarter less than ``object.__new__(_Draft)`` (``timeit``, issue #17). :func:`read_events`
    then stores each field and sets its ``__class__`` to :class:`Event` (the same slots, one
    solid base)."""

    __slots__ = ()
    __init__ = object.__init__


_EVENT = Event
_KINDS_OF = {EventType.KONG: _KONG_KINDS, EventType.CALL: {c.value: c for c in Call},
             EventType.READY: {r.value: r for r in ReadyKind}}
#: shape checks (:func:`_check_shape`) per type: 1 one tile at most, a discard's given; 2 tiles given;
#: 3 tiles or a count; 4 a kong's (tiles unless concealed); 0 none
_SHAPE = {EventType.DRAW: 1, EventType.TAIL_DRAW: 1, EventType.DISCARD: 1, EventType.FLOWER: 2, EventType.CHOW: 2,
          EventType.PUNG: 2, EventType.REVEAL: 2, EventType.DEAL: 3, EventType.KONG: 4}
#: wire name → (type, the keys it may carry, tiles?, count?, kind table, exposed?, by_other?, shape)
_FAST: dict[str, tuple] = {
    t.wire: (t, frozenset(_COMMON | FIELDS[t]), "tiles" in FIELDS[t], "count" in FIELDS[t], _KINDS_OF.get(t),
             "exposed" in FIELDS[t], "by_other" in FIELDS[t], _SHAPE.get(t, 0))
    for t in EventType
    if t not in (EventType.HAND_START, EventType.HAND_END, EventType.REPORT, EventType.WALL, EventType.SEAT_DICE,
                 EventType.DEALER_DICE, EventType.BREAK_DICE)
}
assert all(t in SEATED for t, *_ in _FAST.values())  # the fast path requires a seat


def _fast_event(raw: dict, spec: tuple) -> Event | None:
    """The event of *raw* when every field is as the usual events have it; None otherwise
    (the reference then reads it, and raises its error). Mirrors :func:`parse_event_reference`
    for these types: keep the two in step."""
    etype, _keys, has_tiles, has_count, kinds, has_exposed, has_by_other, shape = spec
    get = raw.get
    if get("v", PROTOCOL_VERSION) != PROTOCOL_VERSION:
        return None
    seq = get("seq")
    if type(seq) is not int or seq < 0:
        return None
    ts = get("ts")
    if ts is None:
        ts = 0
    elif type(ts) is not int or ts < 0:
        return None
    seat = get("seat")
    if type(seat) is not int or not 0 <= seat <= 3:
        return None
    table = get("table")
    if table is None:
        table = ""
    elif type(table) is not str:
        return None
    hand = get("hand", 0)
    if type(hand) is not int:
        return None
    tiles = None
    if has_tiles:
        value = get("tile")
        if value is not None:
            if get("tiles") is not None:
                return None
            if type(value) is int:
                if not 0 <= value < FLOWER_BASE + 8:
                    return None
                tiles = (value,)
        else:
            value = get("tiles")
        if value is not None and tiles is None:
            if type(value) is not str:
                return None  # a list of tiles: the reference reads it
            tiles = _TILE_TEXT.get(value)
            if tiles is None:
                try:
                    tiles = tuple(parse_tiles(value))
                except MjrefError:
                    return None
                if len(value) <= 24 and len(_TILE_TEXT) < 50_000:
                    _TILE_TEXT[value] = tiles
    count = None
    if has_count:
        count = get("count")
        if count is not None and (type(count) is not int or not 0 <= count <= 144):
            return None
    kind = None
    if kinds is not None:
        kind = get("kind")
        if type(kind) is not str:
            return None
        kind = kinds.get(kind)
        if kind is None:
            return None
    exposed = by_other = False
    if has_exposed:
        exposed = get("exposed", False)
        if type(exposed) is not bool:
            return None
    if has_by_other:
        by_other = get("by_other", False)
        if type(by_other) is not bool:
            return None
    if shape:
        if shape == 1:
            if (tiles is not None and len(tiles) != 1) or count not in (None, 1) or \
                    (tiles is None and etype is EventType.DISCARD):
                return None
        elif shape == 2:
            if not tiles:
                return None
        elif shape == 3:
            if tiles is None and count is None:
                return None
        elif tiles is None and kind is not MeldKind.CONCEALED_KONG:
            return None
    event = _Draft(etype, seq, ts, seat, tiles, count, kind, exposed, by_other, table, hand)
    event.__class__ = _EVENT  # the same slots: now a frozen Event (see _Draft)
    return event


def _check_shape(etype: EventType, fields: dict, where: str) -> None:
    """Sizes the protocol fixes (a draw is one tile, a wall 144 — or 136 for play without
    flowers, ``tiles.flowers``, which the referee checks against the ruleset); not legality."""
    tiles = fields.get("tiles")
    count = fields.get("count")
    if etype in _SINGLE:
        if tiles is not None and len(tiles) != 1:
            raise _err(f"{where}.tiles", f"a {etype.wire} moves one tile", f"{etype.zh}只有一張牌",
                       format_tiles(tiles, sort=False))
        if etype is EventType.DISCARD and tiles is None:
            raise _err(f"{where}.tile", "a discard is seen by everyone: give its tile", "捨牌人人可見，須寫出是哪張牌")
        if count not in (None, 1):
            raise _err(f"{where}.count", f"a {etype.wire} moves one tile", f"{etype.zh}只有一張牌", count)
    elif etype is EventType.WALL and (tiles is None or len(tiles) not in (144, 136)):
        raise _err(f"{where}.tiles", "a wall is 144 tiles (deal.walls), or 136 without flowers (tiles.flowers)",
                   "牌牆須為 144 張（deal.walls），無花玩法為 136 張（tiles.flowers）", len(tiles or ()))
    elif etype in (EventType.FLOWER, EventType.CHOW, EventType.PUNG, EventType.REVEAL) and not tiles:
        raise _err(f"{where}.tiles", f"a {etype.wire} event shows its tiles", f"{etype.zh}須寫出牌張")
    elif etype is EventType.DEAL and tiles is None and count is None:
        raise _err(f"{where}.count", "a deal gives its tiles or their count", "配牌須寫出牌張或張數")
    elif etype is EventType.KONG and tiles is None and fields["kind"] is not MeldKind.CONCEALED_KONG:
        raise _err(f"{where}.tiles", "an exposed kong shows its tiles", "明槓須寫出牌張")


def parse_stream(source: str | bytes | Iterable[Any]) -> list[Event]:
    """Read a whole stream: JSON Lines text, a JSON array text, or a list of objects.

    Blank lines are skipped. ``seq`` must strictly increase within a hand.

    :raises EventError: for unreadable JSON (naming the line) or a bad event.
    """
    if isinstance(source, bytes):
        source = source.decode("utf-8")
    if isinstance(source, str):
        text = source.strip()
        if text.startswith("["):
            try:
                items: Iterable[Any] = json.loads(text)
            except json.JSONDecodeError as exc:
                raise _err("events", f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})",
                           f"不是有效的 JSON（第 {exc.lineno} 行第 {exc.colno} 欄）") from None
        else:
            items = [read_line(line, number) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    else:
        items = source
    events = [parse_event(raw, index=i) for i, raw in enumerate(items)]
    check_order(events)
    return events


_SCAN = json.JSONDecoder().scan_once


def read_line(line: str | bytes, number: int) -> Any:
    """One line of JSON Lines, decoded (not yet an event: :func:`parse_event` reads it),
    exactly as :func:`json.loads` decodes it.

    :raises EventError: for a line that is not JSON (or not UTF-8), naming the line.
    """
    try:  # the C scanner straight away (json.loads around it costs three times as much)
        text = line.decode() if line.__class__ is bytes else line
        text = text.strip(" \t\n\r")  # JSON's whitespace, as json.loads skips it
        value, end = _SCAN(text, 0)
        if end == len(text):
            return value
    except (ValueError, StopIteration, AttributeError):
        pass
    try:  # the reference: json.loads accepts or names the error
        return json.loads(line)
    except ValueError as exc:  # JSONDecodeError, or UnicodeDecodeError for bytes
        if isinstance(line, bytes):
            line = line.decode("utf-8", "replace")
        why = exc.msg if isinstance(exc, json.JSONDecodeError) else "not UTF-8"
        raise _err(f"line {number}", f"not a JSON object ({why})", f"第 {number} 行不是 JSON 物件",
                   line.rstrip("\r\n")[:80]) from None


# --- the usual lines, read by their text (issue #17 item 5) ----------------------------------
#
# ``to_jsonl`` — and a table writing the protocol as documented — writes an event as
#
#     {"type": "discard", "seq": 27, "ts": 20087, "table": "gen", "hand": 1, "seat": 3, "tiles": "2z"}
#
# the keys in the protocol's order, ``", "`` and ``": "`` between them. Of such a line only seq
# and ts change from one event to the next; the table and hand stay for a whole hand, and what
# follows ``"seat": `` (the seat, the tiles, a count, a kind: the *tail*) is one of a few hundred
# texts over a whole log. So :func:`read_usual_line` cuts the line at ``"seat": `` and at its first
# three ``", "`` (:func:`_usual_pieces`; it finds them as ``, "ts": ``, the next ``", "`` and
# ``"seat": ``), and looks each piece up in a table of pieces already read: the head
# (``{"type": "discard"``) and the seq (``"seq": 27``) as one opening piece, the table and hand
# (``"table": "gen", "hand": 1, ``), the tail; only ts is converted each time (a seq or a
# context not in its table is read from its text: a new hand's lines need no full decoding). A line with no seat —
# ``hand_start``, ``hand_end`` — has its tail from ``"v": `` on, or from its closing ``}``
# (:func:`_usual_pieces`). A tail is put in its table by :func:`learn_usual_line`, from a line
# the full decoder has just read, and only when what the pieces say agrees with the event
# decoded. The tables are bounded (:data:`_USUAL_LIMIT`).
#
# Why the line is then read as the full decoder reads it: the head, seq, ts and context pieces are
# exactly the members ``"type": "…"``, ``"seq": n``, ``"ts": n``, ``"table": "…"``, ``"hand": n``
# (checked character by character when learnt), so the line is ``{`` those members and the tail's
# members; a tail is learnt only when its members repeat none of those keys, so
# the event's other fields — and whether it is valid at all — depend on the type and the tail
# alone (``parse_event_reference`` reads nothing else for them). Events read so are made as the
# fast path's (:class:`_Draft`). Anything else — another key order, other spacing, an escape, an
# unseen tail, every error — is read by the full decoder; ``tests/test_events.py`` holds
# :func:`read_events` to ``json.loads`` + :func:`parse_event_reference` over generated lines of
# every such kind.

#: the head piece of each type (``{"type": "discard"``) → that type's tails: tail (what follows
#: ``"seat": ``, ``3, "tiles": "2z"}\n``; in a line without a seat, from ``"v": `` or from the
#: closing ``}`` on: see :func:`_usual_pieces`) → the event's fields but seq, ts, table and hand
_USUAL_HEADS: dict[bytes, dict[bytes, tuple]] = {f'{{"type": "{t.wire}"'.encode(): {} for t in EventType}
#: ``"seq": 27`` → 27
_USUAL_SEQS: dict[bytes, int] = {}
#: ``"table": "gen", "hand": 1, `` (either member may be missing) → ("gen", 1)
_USUAL_CONTEXTS: dict[bytes, tuple[str, int]] = {}
#: entries per table (each type's tails counted apart); a full table is emptied and filled anew
#: (a log of 100,000 hands has as many contexts)
_USUAL_LIMIT = 4096
_SEQ_PIECE = re.compile(rb'"seq": (0|[1-9][0-9]{0,17})')
_TS_PIECE = re.compile(rb'"ts": (0|[1-9][0-9]{0,17})')
_CONTEXT_PIECE = re.compile(rb'(?:"table": "([^"\\\x00-\x1f]*)", )?(?:"hand": (-?(?:0|[1-9][0-9]{0,17})), )?')
#: keys a tail may not hold: the pieces before it said them
_CONTEXT_KEYS = frozenset({"type", "seq", "ts", "table", "hand"})
#: values a learnt hand_start's ``rules`` may hold (its Setup is shared by the lines read by it)
_PLAIN = (str, int, float, bool, type(None))


def _usual_pieces(line: bytes) -> tuple[bytes, bytes, bytes, bytes, bytes] | None:
    """A line cut as :func:`read_usual_line` cuts it: ``(head, seq, ts, context, tail)``, the
    context always ending in ``", "`` (the key it is looked up by); None when it has not the
    shape. The tail is what follows ``"seat": ``; in a line with no seat, from ``"v": `` on
    (``hand_start``), else from the last ``}`` on (``hand_end``: the line ends after the
    context). No tail of one kind is a tail of another: a seat's value starts with neither
    ``"v": `` nor ``}`` in a line JSON reads."""
    head, seat, tail = line.partition(b'"seat": ')
    if seat:
        pieces = head.split(b", ", 3)
        if len(pieces) != 4:
            return None
        first, seq, ts, context = pieces
        return first, seq, ts, context, tail
    pieces = line.split(b", ", 3)
    if len(pieces) != 4:
        return None
    first, seq, ts, rest = pieces
    context, tail = _unseated(rest)
    return None if context is None else (first, seq, ts, context, tail)


def _read_context(context: bytes) -> tuple[str, int] | None:
    """The table and hand a context piece says (``"table": "gen", "hand": 1, ``), exactly as
    JSON reads those members (no escape in the table's text: else None); remembered."""
    read = _CONTEXT_PIECE.fullmatch(context)
    if read is None:
        return None
    table, hand = read.groups()
    try:
        table = "" if table is None else table.decode()  # JSON text is UTF-8 (json.loads: also lone surrogates)
    except ValueError:
        return None
    where = (table, 0 if hand is None else int(hand))
    if len(_USUAL_CONTEXTS) >= _USUAL_LIMIT:
        _USUAL_CONTEXTS.clear()
    _USUAL_CONTEXTS[context] = where
    return where


def _read_number(piece: bytes, size: int) -> int | None:
    """The JSON integer ≥ 0 after the piece's key (*size* bytes: ``"seq": ``), as _SEQ_PIECE reads
    it (no sign, no leading zero, at most 18 digits); None otherwise."""
    digits = piece[size:]
    if not digits.isdigit() or (digits[0] == 48 and len(digits) > 1) or len(digits) > 18:
        return None
    return int(digits)


def _read_opening(opening: bytes) -> tuple[Mapping[bytes, tuple], int]:
    """A line's opening (``{"type": "discard", "seq": 27``: its head and seq pieces) as
    :func:`read_usual_line` reads it — the type's tails and the seq — or :data:`_NO_OPENING`
    (no tails: no line is read by its pieces) when either piece is not one
    (:data:`_USUAL_HEADS`, :data:`_SEQ_PIECE`); remembered when it is one."""
    first, comma, seq = opening.partition(b", ")
    tails = _USUAL_HEADS.get(first)
    if tails is None or not comma:
        return _NO_OPENING
    number = _USUAL_SEQS.get(seq)
    if number is None:
        if seq[:7] != b'"seq": ':
            return _NO_OPENING
        number = _read_number(seq, 7)
        if number is None:
            return _NO_OPENING
        if len(_USUAL_SEQS) >= _USUAL_LIMIT:
            _USUAL_SEQS.clear()
        _USUAL_SEQS[seq] = number
    known = (tails, number)
    if len(_USUAL_OPENINGS) >= _USUAL_LIMIT:
        _USUAL_OPENINGS.clear()
    _USUAL_OPENINGS[opening] = known
    return known


#: a line's opening, its head and seq pieces (``{"type": "discard", "seq": 27``) → (the type's
#: tails, 27): one look-up for the two (:func:`_read_opening`)
_USUAL_OPENINGS: dict[bytes, tuple[dict[bytes, tuple], int]] = {}
#: what :func:`_read_opening` gives a line's opening that is not one: no tails (read-only), so the
#: loop needs no test for "no opening" per line (issue #17); the seq is never read
_NO_OPENING: tuple[Mapping[bytes, tuple], int] = (MappingProxyType({}), -1)


def read_usual_line(line: bytes) -> Event | None:
    """The event of a usual line (see above) whose head and tail are known, or of a usual wall
    (:func:`_wall_pieces`: its tiles cut from the bytes); None for any other line (the full
    decoder reads it, and :func:`learn_usual_line` may then learn its pieces).
    A seq or a context not seen yet is read from its text. An event it returns is the one
    ``json.loads`` + :func:`parse_event_reference` read.

    The line is cut as :func:`_usual_pieces` cuts it, in another order (issue #17: fewer pieces
    and look-ups): at its first ``, "ts": `` (the opening before it, one piece for the head and
    the seq), then after the ts at ``", "``, then at ``"seat": `` — the same pieces, as the
    opening and the ts, once read, hold neither ``", "`` nor ``"seat": `` past their own.
    A seated line of the same context as the last seated line read so is cut twice: at
    ``, "ts": ``, then at that line's middle (``, "table": "gen", "hand": 1, "seat": ``, the
    comma, a context already read and ``"seat": ``); what precedes the middle must then be the
    ts's digits alone, so the pieces are the same (a context read holds no quote, so no
    ``"seat": ``).
    The reading is written out in :func:`read_events`' loop (no call per line); this is that
    loop given the one line."""
    return read_hand_events((line,), usual_only=True)[0][0]


def _unseated(after: bytes) -> tuple[bytes, bytes] | tuple[None, None]:
    """The context and tail of a usual line with no seat (``hand_start``, ``hand_end``: once a
    hand), from what follows its ts and ``", "``: as :func:`_usual_pieces` cuts them."""
    k = after.find(b'"v": ')
    if k >= 0:
        return after[:k], after[k:]
    k = after.rfind(b"}")
    if k <= 0:
        return None, None
    return after[:k] + b", ", after[k:]


#: the wall's tails (:data:`_USUAL_HEADS`): a line of that head whose tail is not among them is
#: tried as a usual wall line (:func:`_wall_pieces`)
_WALL_TAILS = _USUAL_HEADS[b'{"type": "wall"']


def _wall_pieces(after: bytes) -> tuple[bytes, tuple] | tuple[None, None]:
    """The context and the fields of a usual ``wall`` line, from what follows its ts and ``", "``:
    ``"table": "gen", "hand": 1, "tiles": "7m85p…"}`` — its tiles in compact notation
    (:func:`referee.tiles.compact_tiles`), 144 or 136 of them, then the closing brace and JSON's
    whitespace; (None, None) for any other (the full decoder reads it, and names any error).

    A wall's tiles are a text of its own in each hand, so no table can hold them: they are cut
    from the bytes (issue #17 item 5: the full decoder and :func:`parse_tiles` cost about 300 k
    instructions a hand). The line is then ``{`` the head, seq, ts and context members (the context
    is checked as every line's is: only ``"table"`` and ``"hand"``, each once) and ``"tiles"``,
    whose text holds no quote, backslash or control character: what the reference reads of a wall
    of those fields."""
    context, key, rest = after.partition(b'"tiles": "')
    text, quote, end = rest.partition(b'"')
    if not quote or end.rstrip(b" \t\n\r") != b"}":
        return None, None
    tiles = compact_tiles(text)
    if tiles is None or len(tiles) not in (144, 136):
        return None, None
    return context, (EventType.WALL, None, tiles, None, None, None, False, False, None, None, None, None)


def learn_usual_line(line: bytes, event: Event) -> None:
    """Remember the pieces of *line*, which the full decoder read as *event*, when the line is
    a usual one and its pieces say what *event* holds (see above); otherwise nothing."""
    pieces = _usual_pieces(line)
    if pieces is None:
        return
    first, seq, ts, context, tail = pieces
    tails = _USUAL_HEADS.get(first)
    seq_read, ts_read = _SEQ_PIECE.fullmatch(seq), _TS_PIECE.fullmatch(ts)
    context_read = _CONTEXT_PIECE.fullmatch(context)
    if tails is None or seq_read is None or ts_read is None or context_read is None:
        return
    table, hand = context_read.groups()
    try:
        table = "" if table is None else table.decode()  # JSON text is UTF-8 (json.loads: also lone surrogates)
        # the tail's members: after "seat": (the seat then the rest), or from "v" / the brace on
        members = json.loads((b'{"seat": ' if b'"seat": ' in line else b"{") + tail, object_pairs_hook=list)
    except ValueError:
        return
    if type(members) is not list or _CONTEXT_KEYS.intersection(key for key, _value in members):
        return
    where = (table, 0 if hand is None else int(hand))
    if (event.seq, event.ts, event.table, event.hand) != (int(seq_read[1]), int(ts_read[1]), *where) or \
            f'{{"type": "{event.type.wire}"'.encode() != first:
        return
    setup = event.setup
    if setup is not None and not all(type(value) in _PLAIN for _key, value in setup.rules):
        return  # a rule's value that is a list or an object: each line gets its own
    for table_of, key, value in ((_USUAL_SEQS, seq, event.seq), (_USUAL_CONTEXTS, context, where),
                                 (tails, tail, (event.type, event.seat, event.tiles, event.count, event.kind,
                                                event.dice, event.exposed, event.by_other, event.code, event.clause,
                                                event.note, setup))):
        if len(table_of) >= _USUAL_LIMIT:
            table_of.clear()
        table_of[key] = value


def read_events(lines: Iterable[str | bytes], first_line: int = 1, first_index: int = 0, *,
                usual_only: bool = False) -> list[Event]:
    """The events of JSON Lines *lines* (text or bytes; blank lines skipped): exactly
    ``[parse_event(read_line(line, n), index=i) ...]`` with *n* counted from *first_line* and
    *i* from *first_index* (this is the batch's decoding, ``flask replay`` / ``flask rule``):
    :func:`read_hand_events`' events.

    :param usual_only: None in the list for each line that is not a usual line of known pieces,
        instead of its event (:func:`read_usual_line`).
    :raises EventError: the first line that is not JSON (naming the line) or not an event
        (naming the field, ``events[i].tiles``).
    """
    return read_hand_events(lines, first_line, first_index, usual_only=usual_only)[0]


def read_hand_events(lines: Iterable[str | bytes], first_line: int = 1, first_index: int = 0, *,
                     usual_only: bool = False) -> tuple[list[Event], bool]:
    """The events of JSON Lines *lines* (text or bytes; blank lines skipped): exactly
    ``[parse_event(read_line(line, n), index=i) ...]`` with *n* counted from *first_line* and
    *i* from *first_index* (this is the batch's decoding, ``flask replay`` / ``flask rule``).
    A usual line of known pieces, or a usual wall, is read by its pieces (:func:`read_usual_line`,
    written out here: a call per line costs about a tenth of the line's instructions, issue #17 item 5);
    any other by the C scanner and :func:`parse_event` (both calls written out in the loop), and
    then :func:`learn_usual_line` learns its pieces. ``tests/test_events.py`` holds it to
    ``json.loads`` + :func:`parse_event_reference`, line by line.

    Returns the events and whether they are *in order*: their seqs strictly rising from each to
    the next, whatever their tables and hands — then each hand's seqs rise too, so
    :func:`check_order` passes them, and the batch need not walk them again (issue #17: ≈ 50 k
    instructions a hand). The loop has each event's seq in a local as it makes it, so the flag
    costs one compare an event. False says only "not known to be in order" (a seq that does not
    rise may belong to another hand, whose own order is still fine): the caller then runs
    :func:`check_order`, which passes them or names the error. ``tests/test_events.py`` holds
    the flag to :func:`check_order`.

    :param usual_only: None in the list for each line that is not a usual line of known pieces,
        instead of its event (:func:`read_usual_line`).
    :raises EventError: the first line that is not JSON (naming the line) or not an event
        (naming the field, ``events[i].tiles``).
    """
    events: list[Event] = []
    append = events.append
    scan, fast = _SCAN, _FAST
    openings, contexts, read_opening, read_context = _USUAL_OPENINGS, _USUAL_CONTEXTS, _read_opening, _read_context
    blank, event_class, wall_tails = _Blank, _EVENT, _WALL_TAILS
    # lines passed over so far: blank ones, and (usual_only) those given None; a line's number and
    # its event's index are counted from them and the events only when the full decoder needs them
    # (no counter per line: issue #17)
    blanks = nones = 0
    last_context = last_where = None
    # the seated lines' middle, from after the ts to the seat's value (``, "table": "gen", "hand": 1,
    # "seat": ``), as read by the last seated line read by its pieces, and the table and hand it says;
    # at first the empty context's (no table, no hand), which _read_context reads as ("", 0)
    middle, middle_where = b', "seat": ', ("", 0)
    # in order so far: the seqs strictly rising, the last one previous (check_order then passes the
    # events, whatever their tables and hands: each hand's seqs rise with the whole's)
    ordered, previous = True, -1
    for line in lines:
        is_bytes = type(line) is bytes  # text lines are not cut (json.loads reads text and bytes apart)
        if is_bytes:  # a usual line by its pieces (read_usual_line's docstring says how it is cut)
            opening, _ts_key, rest = line.partition(b', "ts": ')
            # get, not a subscript with KeyError caught: a line not of the usual shape (compact
            # separators, another key order) misses every time, and a raise costs ≈ 2.5 k (issue #17)
            known = openings.get(opening) or read_opening(opening)
            # a seated line of the same context as the last: two cuts, not three (see read_usual_line);
            # its event is built here and again below, written out: one build after both cuts (flags
            # for which cut read the line) cost ≈ 430 instructions an event more (bench_decode --loop)
            digits, seat, tail = rest.partition(middle)
            if seat and digits.isdigit() and (digits[0] != 48 or len(digits) == 1) and \
                    len(digits) <= 18:
                try:
                    fields = known[0][tail]
                except KeyError:  # a tail not learnt: the line is cut as below
                    pass
                else:
                    event = blank()
                    (event.type, event.seat, event.tiles, event.count, event.kind, event.dice, event.exposed,
                     event.by_other, event.code, event.clause, event.note, event.setup) = fields
                    event.seq = seq = known[1]
                    event.ts = int(digits)
                    event.table, event.hand = middle_where
                    event.__class__ = event_class  # the same slots: now a frozen Event (see _Draft)
                    if seq <= previous:
                        ordered = False
                    previous = seq
                    append(event)
                    continue
            digits, comma, after = rest.partition(b", ")
            context, seat, tail = after.partition(b'"seat": ')
            if not seat:
                context, tail = _unseated(after)
            # ts: a JSON integer ≥ 0 (no sign, no leading zero), as _TS_PIECE
            if comma and digits.isdigit() and (digits[0] != 48 or len(digits) == 1) and \
                    len(digits) <= 18:
                fields = known[0].get(tail)
                if fields is None and known[0] is wall_tails:  # a wall: its tiles cut from the bytes
                    context, fields = _wall_pieces(after)
                if fields is not None:
                    if context != last_context:  # a hand's lines share theirs: no hash per line
                        last_context, last_where = context, contexts.get(context) or read_context(context)
                    where = last_where
                    if where is not None:
                        if seat:  # the next seated lines of this context are cut at its middle
                            middle, middle_where = b", " + context + seat, where
                        event = blank()
                        (event.type, event.seat, event.tiles, event.count, event.kind, event.dice, event.exposed,
                         event.by_other, event.code, event.clause, event.note, event.setup) = fields
                        event.seq = seq = known[1]
                        event.ts = int(digits)
                        event.table, event.hand = where
                        event.__class__ = event_class  # the same slots: now a frozen Event (see _Draft)
                        if seq <= previous:
                            ordered = False
                        previous = seq
                        append(event)
                        continue
            if usual_only:
                append(None)
                nones += 1
                continue
        if line.isspace():
            blanks += 1
            continue
        raw = None
        try:  # read_line, inline
            text = (line.decode() if is_bytes else line).strip(" \t\n\r")
            value, end = scan(text, 0)
            if end == len(text):
                raw = value
        except (ValueError, StopIteration, AttributeError):
            pass
        if raw is None:  # the reference's decoding, or its error naming the line
            raw = read_line(line, first_line + len(events) + blanks)
        event = None
        if type(raw) is dict:  # parse_event, inline
            kind = raw.get("type")
            if type(kind) is str:
                spec = fast.get(kind)
                if spec is not None and raw.keys() <= spec[1]:
                    event = _fast_event(raw, spec)
        if event is None:
            event = parse_event_reference(raw, index=first_index + len(events) - nones)
        if is_bytes:
            learn_usual_line(line, event)
        seq = event.seq
        if seq <= previous:
            ordered = False
        previous = seq
        append(event)
    return events, ordered


def check_order(events: Sequence[Event], start: int = 0) -> None:
    """:raises EventError: when ``seq`` does not strictly increase within a hand (*start*:
    the index of ``events[0]`` in its stream, for the error's field).

    A hand's events, one table and hand with seqs rising, pass one plain loop; anything else
    (several hands, a seq that does not rise) is checked by the loop below from the start, so
    the error is the same."""
    if events:
        first = events[0]
        table, hand, previous = first.table, first.hand, -1
        for event in events:
            if event.seq <= previous or event.hand != hand or event.table != table:
                break
            previous = event.seq
        else:
            return
    last: dict[tuple[str, int], int] = {}
    for i, event in enumerate(events, start):
        key = (event.table, event.hand)
        previous = last.get(key)
        if previous is not None and event.seq <= previous:
            raise _err(f"events[{i}].seq", f"seq must strictly increase within a hand (previous {previous})",
                       f"同一盤內 seq 須嚴格遞增（前一個為 {previous}）", event.seq)
        last[key] = event.seq


# --- writing JSON ------------------------------------------------------------------------


def event_to_dict(event: Event) -> dict[str, Any]:
    """The event as the protocol writes it (compact tile notation, in the order given)."""
    out: dict[str, Any] = {"type": event.type.wire, "seq": event.seq, "ts": event.ts}
    if event.table:
        out["table"] = event.table
    if event.hand:
        out["hand"] = event.hand
    if event.seat is not None:
        out["seat"] = event.seat
    if event.tiles is not None:
        out["tiles"] = format_tiles(event.tiles, sort=False)
    if event.count is not None:
        out["count"] = event.count
    if event.kind is not None:
        out["kind"] = _KONG_WIRE[event.kind] if isinstance(event.kind, MeldKind) else event.kind.value
    if event.dice is not None:
        out["dice"] = list(event.dice)
    if event.exposed:
        out["exposed"] = True
    if event.by_other:
        out["by_other"] = True
    for key in ("code", "clause", "note"):
        if getattr(event, key) is not None:
            out[key] = getattr(event, key)
    if event.setup is not None:
        s = event.setup
        out.update({"v": PROTOCOL_VERSION, "mode": s.mode.value, "ruleset": s.ruleset, "dealer": s.dealer,
                    "round_wind": s.round_wind.name.lower(), "streak": s.streak, "first_dealer": s.first_dealer,
                    "base": s.base, "per_tai": s.per_tai})
        if s.rules:
            out["rules"] = dict(s.rules)
        if s.streak_marker is not None:
            out["streak_marker"] = s.streak_marker
        if s.first_hand:
            out["first_hand"] = True
    return out


def to_jsonl(events: Iterable[Event]) -> str:
    """A stream as JSON Lines."""
    return "".join(json.dumps(event_to_dict(e), ensure_ascii=False) + "\n" for e in events)
