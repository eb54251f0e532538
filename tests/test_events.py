"""The protocol: events in from JSON, out to JSON, errors naming the field (referee/events.py)."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.events import (
    FIELDS, Call, Event, EventError, EventType, Mode, ReadyKind, Setup, event_to_dict, parse_event,
    parse_event_reference, parse_stream, read_events, read_hand_events, read_line, to_jsonl,
)
from referee.events import check_order
from referee.errors import MjrefError
from referee.generator import generate_hand
from referee.melds import MeldKind
from referee.tiles import Wind, parse_tiles

NAMESPACE = {"Event": Event, "EventType": EventType, "Setup": Setup, "Mode": Mode, "Wind": Wind,
             "MeldKind": MeldKind, "Call": Call, "ReadyKind": ReadyKind}


def test_hand_start_reads_the_table_setup():
    ev = parse_event({"type": "hand_start", "seq": 1, "ts": 5, "table": "T1", "hand": 3, "mode": "physical",
                      "ruleset": "app", "rules": {"play.multiple_wins": True}, "dealer": 2, "round_wind": "south",
                      "streak": 1, "first_dealer": 1, "base": 50, "per_tai": 10})
    assert ev.type is EventType.HAND_START and ev.table == "T1" and ev.hand == 3
    s = ev.setup
    assert (s.mode, s.ruleset, s.dealer, s.round_wind, s.streak, s.first_dealer, s.base, s.per_tai) == (
        Mode.PHYSICAL, "app", 2, Wind.SOUTH, 1, 1, 50, 10)
    assert s.rules == (("play.multiple_wins", True),)


@pytest.mark.parametrize("raw, tiles", [
    ({"tile": "5m"}, (4,)),
    ({"tiles": "五萬"}, (4,)),
    ({"tiles": ["5m"]}, (4,)),
    ({"tiles": [4]}, (4,)),
    ({"tile": 4}, (4,)),
])
def test_tiles_in_any_notation(raw, tiles):
    ev = parse_event({"type": "discard", "seq": 3, "seat": 1, **raw})
    assert ev.tiles == tiles and ev.tile == 4


def test_kinds_of_kongs_calls_and_readiness():
    added = parse_event({"type": "kong", "seq": 1, "seat": 0, "kind": "added", "tiles": "5555p"})
    assert added.kind is MeldKind.ADDED_KONG
    assert parse_event({"type": "kong", "seq": 1, "seat": 0, "kind": "concealed", "count": 4}).tiles is None
    assert parse_event({"type": "call", "seq": 1, "seat": 0, "kind": "pung"}).kind is Call.PUNG
    assert parse_event({"type": "ready", "seq": 1, "seat": 0, "kind": "heavenly"}).kind is ReadyKind.HEAVENLY


@pytest.mark.parametrize("raw, field", [
    ({"type": "discrad", "seq": 1, "seat": 0}, "events[0].type"),
    ({"type": "discard", "seat": 0, "tile": "5m"}, "events[0].seq"),
    ({"type": "discard", "seq": 1, "tile": "5m"}, "events[0].seat"),
    ({"type": "discard", "seq": 1, "seat": 4, "tile": "5m"}, "events[0].seat"),
    ({"type": "discard", "seq": 1, "seat": 0, "tile": "5x"}, "events[0].tile"),
    ({"type": "discard", "seq": 1, "seat": 0}, "events[0].tile"),
    ({"type": "discard", "seq": 1, "seat": 0, "tiles": "5m6m"}, "events[0].tiles"),
    ({"type": "draw", "seq": 1, "seat": 0, "dice": [1, 2, 3]}, "events[0].dice"),
    ({"type": "break_dice", "seq": 1, "seat": 0, "dice": [1, 2, 7]}, "events[0].dice"),
    ({"type": "kong", "seq": 1, "seat": 0, "kind": "big", "tiles": "5555m"}, "events[0].kind"),
    ({"type": "wall", "seq": 1, "tiles": "123m"}, "events[0].tiles"),
    ({"type": "hand_start", "seq": 1, "dealer": 0, "round_wind": "up"}, "events[0].round_wind"),
    ({"type": "hand_start", "seq": 1, "dealer": 0, "v": 2}, "events[0].v"),
    ({"type": "chow", "seq": 1, "seat": 0}, "events[0].tiles"),
])
def test_errors_name_the_field_and_show_the_value(raw, field):
    with pytest.raises(MjrefError) as info:
        parse_event(raw, index=0)
    assert info.value.field == field
    assert info.value.reason_zh and info.value.code in ("invalid_event", "invalid_tile")


def test_tile_error_shows_the_position():
    with pytest.raises(Exception) as info:
        parse_event({"type": "discard", "seq": 1, "seat": 0, "tile": "5x"}, index=2)
    assert "5x" in str(info.value) and info.value.field == "events[2].tile"


def test_seq_must_increase_within_a_hand():
    lines = [{"type": "hand_start", "seq": 1, "dealer": 0}, {"type": "hand_end", "seq": 1}]
    with pytest.raises(EventError) as info:
        parse_stream(lines)
    assert info.value.field == "events[1].seq"


def test_stream_as_json_lines_or_array_reads_the_same():
    events = generate_hand(5)
    text = to_jsonl(events)
    assert parse_stream(text) == parse_stream("[" + ",".join(text.splitlines()) + "]")


def test_bad_json_line_is_named():
    with pytest.raises(EventError) as info:
        parse_stream('{"type": "hand_start", "seq": 1, "dealer": 0}\n{oops\n')
    assert info.value.field == "line 2"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_trip_through_json(seed):
    for ev in generate_hand(seed):
        back = parse_event(json.loads(json.dumps(event_to_dict(ev), ensure_ascii=False)))
        assert back == ev


def test_repr_parses_back():
    for ev in generate_hand(11)[:40]:
        assert eval(repr(ev), NAMESPACE) == ev  # noqa: S307 - the repr contract


def test_enum_reprs_name_the_member():
    assert repr(EventType.DISCARD) == "EventType.DISCARD"
    assert repr(Mode.PHYSICAL) == "Mode.PHYSICAL"
    assert repr(Call.WIN) == "Call.WIN"


def test_unknown_field_is_refused():
    with pytest.raises(EventError) as info:
        parse_event({"type": "draw", "seq": 1, "seat": 0, "colour": "red"})
    assert info.value.field == "event.colour"


def test_tiles_parse_like_the_rest_of_the_service():
    ev = parse_event({"type": "wall", "seq": 1, "tiles": " ".join(["1m"] * 144)})
    assert ev.tiles == tuple(parse_tiles("1m" * 144))


def test_events_written_out_follow_the_json_schema():
    """data/protocol.schema.json describes what event_to_dict writes (and the samples hold)."""
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    schema = json.loads((root / "data" / "protocol.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema_rs.validator_for(schema)
    for seed in (1, 2):
        for ev in generate_hand(seed):
            assert validator.is_valid(event_to_dict(ev)), event_to_dict(ev)
    for path in sorted((root / "data" / "samples").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            assert validator.is_valid(json.loads(line)), (path.name, line)
    assert not validator.is_valid({"type": "discard", "seq": 1, "seat": 7, "tile": "5m"})


# --- the fast decoder against the reference (issue #17 item 5) ----------------------------


def _outcome(read, raw):
    """What a decoder makes of *raw*: the event, or the error's class, field and messages."""
    try:
        return read(raw, index=7)
    except MjrefError as exc:
        return (type(exc), exc.field, exc.message, exc.reason_zh)


_TILE_TEXTS = st.one_of(
    st.sampled_from(["5m", "123m", "9z", "0m", "8z", "9f", "1f", "EE", "東", "五萬", "", " ", "1 2m", "m", "12", "555p",
                     "1m2m", "1m,2m", "3f56z2m43s", "一萬 中中", "x"]),
    st.text(alphabet="0123456789mpszfESWNPFCx ,東萬", max_size=8),
)
_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2, 150),
                    st.sampled_from([1.0, "", "gen", [], [4], ["5m"], {}]))
_FIELD_VALUES = {
    "v": st.one_of(st.just(1), _VALUES),
    "seq": st.one_of(st.integers(0, 500), _VALUES),
    "ts": st.one_of(st.integers(0, 10**6), _VALUES),
    "seat": st.one_of(st.integers(0, 3), _VALUES),
    "table": st.one_of(st.sampled_from(["gen", "T1", ""]), _VALUES),
    "hand": st.one_of(st.integers(0, 9), _VALUES),
    "tile": st.one_of(_TILE_TEXTS, st.integers(-1, 43), _VALUES),
    "tiles": st.one_of(_TILE_TEXTS, st.lists(st.one_of(st.integers(-1, 43), _TILE_TEXTS), max_size=3), _VALUES),
    "count": st.one_of(st.integers(0, 145), _VALUES),
    "kind": st.one_of(st.sampled_from(["melded", "added", "concealed", "chow", "pung", "kong", "win", "heavenly",
                                       "earthly", "declared", "x"]), _VALUES),
    "exposed": st.one_of(st.booleans(), _VALUES),
    "by_other": st.one_of(st.booleans(), _VALUES),
    "dice": st.one_of(st.just([1, 2, 3]), _VALUES),
    "code": st.one_of(st.just("x"), _VALUES),
}


@st.composite
def raw_events(draw):
    """Event objects of every type, mostly well formed, each field now and then wrong or extra."""
    etype = draw(st.sampled_from([t for t in EventType if t not in (EventType.HAND_START, EventType.WALL)]))
    raw: dict = {"type": etype.wire}
    names = ["v", "seq", "ts", "seat", "table", "hand", *sorted(FIELDS[etype])]
    for name in names:
        if name in _FIELD_VALUES and draw(st.integers(0, 9)) < 7:
            raw[name] = draw(_FIELD_VALUES[name])
    if draw(st.integers(0, 19)) == 0:
        raw[draw(st.sampled_from(sorted(_FIELD_VALUES)))] = draw(_VALUES)  # perhaps a field the type does not use
    if draw(st.integers(0, 29)) == 0:
        raw["type"] = draw(st.sampled_from(["Draw", "nope", 3, None]))
    return raw


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw_events())
def test_the_fast_decoder_equals_the_reference(raw):
    assert _outcome(parse_event, raw) == _outcome(parse_event_reference, raw)
    fast = _outcome(parse_event, raw)
    if isinstance(fast, Event):  # made through its draft: a real, frozen Event, hashed as the reference's
        ref = parse_event_reference(raw, index=7)
        assert type(fast) is Event and hash(fast) == hash(ref) and repr(fast) == repr(ref)
        with pytest.raises(AttributeError):
            fast.seq = 99  # type: ignore[misc]


@pytest.mark.parametrize("seed", range(3))
def test_the_fast_decoder_reads_generated_hands_as_the_reference(seed):
    for line in to_jsonl(generate_hand(seed)).splitlines():
        raw = json.loads(line)
        assert parse_event(raw) == parse_event_reference(raw)


def _line_outcome(read, line):
    try:
        return ("ok", read(line))
    except ValueError as exc:
        return (type(exc).__name__, getattr(exc, "field", None), str(exc))


def _loads(line, number=3):
    try:
        return json.loads(line)
    except ValueError as exc:
        raise EventError(f"x {type(exc).__name__}", field=f"line {number}") from None


@settings(max_examples=600, deadline=None)
@given(st.one_of(
    st.text(alphabet='{}[]":,0123456789.-eE ntrufalsx\\\t\r\x0c\u00a0\ufeff東', max_size=30),
    st.builds(lambda d, pad: pad + json.dumps(d) + pad[::-1],
              st.dictionaries(st.sampled_from(["type", "seq", "a"]), st.one_of(st.integers(), st.text(max_size=3))),
              st.sampled_from(["", " ", "\t", "\r\n", "\x0c", "\u00a0"])),
))
def test_read_line_decodes_exactly_as_json_loads(line):
    for form in (line, line.encode("utf-8")):
        fast = _line_outcome(lambda x: read_line(x, 3), form)
        ref = _line_outcome(_loads, form)
        assert fast[0] == ref[0] or (fast[0], ref[0]) == ("EventError", "EventError")
        if fast[0] == "ok":
            assert fast == ref and type(fast[1]) is type(ref[1])
        else:
            assert fast[1] == "line 3"


def _lines_outcome(lines, first_line, first_index, reference):
    """What the batch's decoder (or, with *reference*, json.loads and the reference decoder
    line by line) makes of *lines*: the events, or the error's class, field and messages."""
    try:
        if not reference:
            return read_events(lines, first_line, first_index)
        out, i = [], first_index
        for number, line in enumerate(lines, first_line):
            if line.isspace():
                continue
            out.append(parse_event_reference(_loads(line, number), index=i))
            i += 1
        return out
    except MjrefError as exc:
        if exc.field.startswith("line "):  # not JSON: the line named (read_line's words are held above)
            return (type(exc), exc.field)
        return (type(exc), exc.field, exc.message, exc.reason_zh)


_LINES = st.lists(st.one_of(
    raw_events().map(json.dumps),
    raw_events().map(lambda raw: json.dumps(raw, separators=(",", ":"), ensure_ascii=True)),
    st.sampled_from(["", "\n", "  \t", "{", "[1, 2]", "null", '{"type": "draw"} x', "\ufeff{}",
                     '{"type": "draw", "seq": 1, "seat": 0, "seat": 1}']),
), max_size=8)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_LINES, st.integers(1, 50), st.integers(0, 50), st.booleans())
def test_the_batch_decoder_equals_json_loads_and_the_reference(texts, first_line, first_index, as_bytes):
    """read_events (the batch's loop, read_line and parse_event written out) against json.loads
    and parse_event_reference line by line: the same events, or the same error."""
    lines = [t + "\n" for t in texts]
    if as_bytes:
        lines = [line.encode("utf-8") for line in lines]
    fast = _lines_outcome(lines, first_line, first_index, False)
    assert fast == _lines_outcome(lines, first_line, first_index, True)
    if isinstance(fast, list):
        assert all(type(e) is Event for e in fast)


def _order_outcome(events, start):
    try:
        check_order(events, start)
    except EventError as exc:
        return (exc.field, exc.message)
    return None


def _order_reference(events, start):
    last = {}
    for i, event in enumerate(events, start):
        key = (event.table, event.hand)
        if key in last and event.seq <= last[key]:
            return (f"events[{i}].seq", f"seq must strictly increase within a hand (previous {last[key]}): {event.seq}")
        last[key] = event.seq
    return None


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.sampled_from(["a", "b"]), st.integers(0, 1)), max_size=8),
       st.integers(0, 9))
def test_check_order_equals_its_definition(keys, start):
    """check_order's one-hand loop against the definition: seq strictly rising per (table, hand)."""
    events = [Event(EventType.DRAW, seq, 0, 0, table=table, hand=hand) for seq, table, hand in keys]
    assert _order_outcome(events, start) == _order_reference(events, start)


# --- the decoder's "in order" flag (read_hand_events): check_order skipped only when it would pass ---

#: the lines of two generated hands, as the batch reads them (bytes, each ending in a newline)
_HAND_LINES = [[(line + "\n").encode() for line in to_jsonl(generate_hand(seed, hand=seed + 1)).splitlines()]
               for seed in (5, 6)]
_CONTEXT_TEXT = b'"table": "gen", "hand": '


@st.composite
def hand_lines(draw):
    """A stretch of a generated hand's lines (from its start, or not), now and then changed: seqs
    swapped, repeated, lowered or raised; the table or the hand changed, or dropped, on a line or on
    the rest; a line of another hand of the same table; irregular lines put in (events of every
    type, bad JSON, blank lines); the whole put in the order the batch reads it."""
    lines = draw(st.sampled_from(_HAND_LINES))
    start = draw(st.sampled_from([0, 0, draw(st.integers(0, len(lines) - 1))]))
    lines = list(lines[start:start + draw(st.integers(1, 40))])
    for _ in range(draw(st.integers(0, 4))):
        k = draw(st.integers(0, len(lines) - 1))
        change = draw(st.integers(0, 8))
        line = lines[k]
        if change == 0 and len(lines) > 1:  # two lines swapped: their seqs go down
            j = draw(st.integers(0, len(lines) - 1))
            lines[k], lines[j] = lines[j], lines[k]
        elif change == 1:  # a line repeated: its seq too
            lines.insert(k, line)
        elif change == 2:  # a seq changed (lower, the same as the one before, higher, a new hand's)
            lines[k] = re.sub(rb'"seq": \d+', b'"seq": %d' % draw(st.sampled_from([0, 1, 2, 50, 10**6])), line)
        elif change in (3, 4):  # another hand or table, or no context, on this line or from here on
            new = draw(st.sampled_from([b'"table": "gen", "hand": 2', b'"table": "T2", "hand": 1', b'"hand": 1',
                                        b'"table": "gen"', b'"table": "", "hand": 0', b""]))
            for j in range(k, k + 1 if change == 3 else len(lines)):
                text = re.sub(rb'"table": "gen", "hand": \d+(, |})', lambda m: new + (m[1] if new else b""),
                              lines[j])
                lines[j] = text.replace(b", }", b"}").replace(b"{, ", b"{")
        elif change in (5, 6):  # an irregular line: an event of any type, or a line that is not one
            lines.insert(k, (draw(_LINES.filter(bool).map(lambda texts: texts[0])) + "\n").encode())
        elif change == 7:
            lines.insert(k, draw(st.sampled_from([b"\n", b"  \n", b"{\n", b"[]\n"])))
        else:  # a line of the same table's next hand put in
            lines.insert(k, line.replace(_CONTEXT_TEXT + b"1", _CONTEXT_TEXT + b"2"))
    return lines


def _decode_outcome(lines, first_line, first_index, reference):
    """The events of *lines* with their order checked, or the error (class, field, message):
    by read_hand_events, check_order run only when the flag says the events may be out of order
    (what api.batch.decode does), or, with *reference*, by json.loads and parse_event_reference
    line by line, then check_order."""
    try:
        if reference:
            events = _lines_outcome(lines, first_line, first_index, True)
            if not isinstance(events, list):
                return events
            check_order(events, first_index)
            return events
        events, in_order = read_hand_events(lines, first_line, first_index)
        if in_order:  # the flag may say so only when check_order passes them
            assert _order_reference(events, first_index) is None
        else:
            check_order(events, first_index)
        return events
    except MjrefError as exc:
        if exc.field.startswith("line "):
            return (type(exc), exc.field)
        return (type(exc), exc.field, exc.message, exc.reason_zh)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_lines(), st.integers(1, 50), st.integers(0, 50))
def test_the_in_order_flag_skips_only_what_check_order_passes(lines, first_line, first_index):
    """read_hand_events' flag (each seq above the one before, kept in its loop) against
    check_order: when true, check_order passes the events; when false, check_order run after the
    decoding gives the reference's own result (the same events, or the same error, a line's error
    before an order's). Twice: the second time, the lines' pieces are learnt."""
    for _ in range(2):
        assert _decode_outcome(lines, first_line, first_index, False) == \
            _decode_outcome(lines, first_line, first_index, True)


def test_the_in_order_flag_is_true_for_a_generated_hand():
    """A hand as the generator writes it is found in order, read by its pieces or not (the flag is
    not merely safe: the batch skips check_order for the usual hand)."""
    for lines in _HAND_LINES:
        for _ in range(2):
            events, in_order = read_hand_events(lines, 1, 0)
            assert in_order and len(events) == len(lines)


@pytest.mark.parametrize("lines, in_order, passes", [
    # seqs rising over several tables and hands: in order (each hand's seqs rise with the whole's)
    (['{"type": "hand_end", "seq": 1, "ts": 2, "table": "a", "hand": 1}',
      '{"type": "draw", "seq": 2, "ts": 3, "seat": 0}',
      '{"type": "draw", "seq": 3, "ts": 4, "table": "a", "hand": 2, "seat": 0}'], True, True),
    # a seq repeated or lower in another hand: not known in order, and check_order passes them
    (['{"type": "draw", "seq": 5, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
      '{"type": "draw", "seq": 5, "ts": 3, "table": "a", "hand": 2, "seat": 0}',
      '{"type": "draw", "seq": 1, "ts": 4, "table": "b", "hand": 1, "seat": 0}'], False, True),
    # a seq repeated or lower in the same hand, by each of the loop's ways: check_order's error
    (['{"type": "draw", "seq": 1, "ts": 2, "seat": 0}', '{"type": "draw", "seq": 1, "ts": 3, "seat": 0}'],
     False, False),
    (['{"type": "draw", "seq": 2, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
      '{"type": "draw", "seq": 3, "ts": 3, "table": "a", "hand": 1, "seat": 0}',
      '{"type": "draw", "seq": 1, "ts": 4, "table": "a", "hand": 1, "seat": 0}'], False, False),
    (['{"type": "draw", "seq": 2, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
      '{"type": "draw", "seq": 1, "ts": 3, "table": "b", "hand": 1, "seat": 0}',
      '{"type": "hand_end", "seq": 2, "ts": 4, "table": "a", "hand": 1}'], False, False),
    (['{"type": "draw", "seq": 2, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
      '{"type":"draw","seq":2,"ts":3,"table":"a","hand":1,"seat":0}'], False, False),
    (['{"type":"draw","seq":2,"ts":3,"table":"a","hand":1,"seat":0}',
      '{"type": "draw", "seq": 0, "ts": 2, "table": "a", "hand": 1, "seat": 0}'], False, False),
    # seq 0 first (the loop starts below every seq), then blank lines and a line the full decoder reads
    (['{"type": "draw", "seq": 0, "ts": 2, "seat": 0}', '', '  ',
      '{"type":"draw","seq":1,"ts":3,"seat":0}', '{"type": "draw", "seq": 7, "ts": 3, "seat": 0}'], True, True),
])
def test_the_in_order_flag_on_lines_read_each_way(lines, in_order, passes):
    data = [(t + "\n").encode() for t in lines]
    for _ in range(2):  # the second time, the lines' pieces are known
        events, flag = read_hand_events(data, 1, 0)
        assert flag is in_order and (_order_outcome(events, 0) is None) is passes
        assert _decode_outcome(data, 1, 0, False) == _decode_outcome(data, 1, 0, True)


# --- the usual lines (read_usual_line): lines as to_jsonl writes them, and near misses -------------

_PROTOCOL_ORDER = ["type", "seq", "ts", "table", "hand", "seat", "tiles", "tile", "count", "kind", "dice", "exposed",
                   "by_other", "code", "clause", "note", "v"]
#: well-formed events of generated hands, as dicts (the usual lines' events: every one but the wall,
#: hand_start and hand_end among them)
_POOL = [json.loads(line) for seed in (0, 1) for line in to_jsonl(generate_hand(seed)).splitlines()
         if '"type": "wall"' not in line]
_TABLES = st.sampled_from(["gen", "T1", "", "東1", 'a"b', "a\\b", "t\x01", "x, \"seat\": 1", 7, None])


@st.composite
def usual_texts(draw):
    """A few lines of one event as ``to_jsonl`` writes it (the protocol's key order, ``", "`` and
    ``": "``), seq and ts changed from line to line, so that read_events learns the pieces of the
    first and reads the next by them; now and then changed: compact separators, two keys swapped,
    a key or a text escaped (``\\u``), a key repeated, a value of the wrong type, the line cut."""
    raw = dict(draw(st.sampled_from(_POOL))) if draw(st.integers(0, 4)) else draw(raw_events())
    if draw(st.integers(0, 4)) == 0:  # one field of the wrong type or out of range, or not the type's
        key = draw(st.sampled_from(sorted(_FIELD_VALUES)))
        raw[key] = draw(_FIELD_VALUES[key])
    if draw(st.integers(0, 3)) == 0:
        raw["table"] = draw(_TABLES)
    if draw(st.integers(0, 5)) == 0:
        raw["hand"] = draw(st.sampled_from([-3, 0, 12, 10**20, "1", 1.0]))
    if draw(st.integers(0, 5)) == 0:
        raw.pop(draw(st.sampled_from(["table", "hand", "seat", "ts"])), None)
    keys = sorted(raw, key=lambda k: _PROTOCOL_ORDER.index(k) if k in _PROTOCOL_ORDER else 99)
    members = [[f'"{k}"', json.dumps(raw[k], ensure_ascii=draw(st.integers(0, 9)) == 0)] for k in keys]
    change = draw(st.integers(0, 9))
    if change == 0 and len(members) > 2:  # two keys swapped
        i = draw(st.integers(0, len(members) - 2))
        members[i], members[i + 1] = members[i + 1], members[i]
    elif change == 1:  # a key escaped
        i = draw(st.integers(0, len(members) - 1))
        members[i][0] = '"\\u00' + f"{ord(members[i][0][1]):02x}" + members[i][0][2:]
    elif change == 2:  # a key repeated, perhaps with another value
        key = draw(st.sampled_from(["type", "seq", "ts", "table", "hand", "seat", "tiles", "count", "v"]))
        members.insert(draw(st.integers(0, len(members))),
                       [f'"{key}"', json.dumps(draw(_FIELD_VALUES.get(key, _VALUES)))])
    sep, colon = ((", ", ": ") if draw(st.integers(0, 4))
                  else draw(st.sampled_from([(",", ":"), (",  ", ": "), (", ", " : ")])))
    out = []
    for _ in range(draw(st.integers(1, 3))):
        seq = draw(st.one_of(st.integers(0, 300), st.integers(0, 10**20)))
        ts = draw(st.one_of(st.integers(0, 10**6), st.sampled_from([-1, 0, 10**18, 10**19])))
        line = [m if m[0] not in ('"seq"', '"ts"') else [m[0], str(seq if m[0] == '"seq"' else ts)] for m in members]
        text = "{" + sep.join(k + colon + v for k, v in line) + "}"
        if draw(st.integers(0, 14)) == 0:
            text = text[:draw(st.integers(0, len(text)))]  # the line cut
        out.append(text + draw(st.sampled_from(["", " ", "\r", "\t "])))
    return out


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(usual_texts(), min_size=1, max_size=4), st.integers(1, 50), st.integers(0, 50))
def test_the_usual_line_reader_equals_json_loads_and_the_reference(groups, first_line, first_index):
    """read_events with its usual-line reader (the pieces learnt from the lines before: within
    the example and from earlier ones) against json.loads and parse_event_reference line by
    line: the same events (frozen Events), or the same error."""
    lines = [(t + "\n").encode("utf-8") for group in groups for t in group]
    fast = _lines_outcome(lines, first_line, first_index, False)
    assert fast == _lines_outcome(lines, first_line, first_index, True)
    if isinstance(fast, list):
        ref = _lines_outcome(lines, first_line, first_index, True)
        assert all(type(e) is Event and hash(e) == hash(r) and repr(e) == repr(r) for e, r in zip(fast, ref))


@pytest.mark.parametrize("lines", [
    # a tail repeating seq / ts / table / hand / seat / type: never learnt, so the second line is the reference's
    ['{"type": "draw", "seq": 1, "ts": 2, "seat": 0, "seq": 1}',
     '{"type": "draw", "seq": 5, "ts": 2, "seat": 0, "seq": 1}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "seat": 0, "ts": 2}',
     '{"type": "draw", "seq": 5, "ts": 9, "seat": 0, "ts": 2}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "hand": 1, "seat": 0, "hand": 1}',
     '{"type": "draw", "seq": 2, "ts": 3, "hand": 2, "seat": 0, "hand": 1}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "seat": 0, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "seat": 0, "seat": 9}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "seat": 0, "type": "draw"}',
     '{"type": "draw", "seq": 2, "ts": 3, "seat": 0, "type": "x"}'],
    # the same tail after a bad seq, ts, table or hand
    ['{"type": "discard", "seq": 1, "ts": 2, "seat": 0, "tiles": "5m"}',
     '{"type": "discard", "seq": 01, "ts": 2, "seat": 0, "tiles": "5m"}'],
    ['{"type": "discard", "seq": 1, "ts": 2, "seat": 0, "tiles": "5m"}',
     '{"type": "discard", "seq": 2, "ts": -2, "seat": 0, "tiles": "5m"}'],
    ['{"type": "discard", "seq": 1, "ts": 2, "table": "a", "seat": 0, "tiles": "5m"}',
     '{"type": "discard", "seq": 2, "ts": 3, "table": "a\\u0000", "seat": 0, "tiles": "5m"}'],
    # a bad ts after the same opening (type and seq) and tail were learnt: a leading zero, a sign, a fraction
    ['{"type": "discard", "seq": 1, "ts": 2, "seat": 0, "tiles": "5m"}',
     '{"type": "discard", "seq": 1, "ts": 02, "seat": 0, "tiles": "5m"}'],
    ['{"type": "discard", "seq": 1, "ts": 2, "seat": 0, "tiles": "5m"}',
     '{"type": "discard", "seq": 1, "ts": 00, "seat": 0, "tiles": "5m"}'],
    ['{"type": "discard", "seq": 1, "ts": 2, "seat": 0, "tiles": "5m"}',
     '{"type": "discard", "seq": 1, "ts": +2, "seat": 0, "tiles": "5m"}'],
    ['{"type": "discard", "seq": 1, "ts": 2, "seat": 0, "tiles": "5m"}',
     '{"type": "discard", "seq": 1, "ts": 2.0, "seat": 0, "tiles": "5m"}'],
    ['{"type": "discard", "seq": 1, "ts": 2, "seat": 0, "tiles": "5m"}',
     '{"type": "discard", "seq": 1, "ts": 1e3, "seat": 0, "tiles": "5m"}'],
    ['{"type": "hand_end", "seq": 1, "ts": 2, "hand": 1}', '{"type": "hand_end", "seq": 1, "ts": 02, "hand": 1}'],
    ['{"type": "hand_end", "seq": 1, "ts": 2}', '{"type": "hand_end", "seq": 1, "ts": 02}'],
    # the opening (type and seq) learnt, then the ts key spelt otherwise or missing
    ['{"type": "discard", "seq": 1, "ts": 2, "seat": 0, "tiles": "5m"}',
     '{"type": "discard", "seq": 1, "ts":2, "seat": 0, "tiles": "5m"}'],
    ['{"type": "discard", "seq": 1, "ts": 2, "seat": 0, "tiles": "5m"}',
     '{"type": "discard", "seq": 1, "seat": 0, "tiles": "5m", "ts": 2}'],
    ['{"type": "discard", "seq": 1, "ts": 2, "hand": 1, "seat": 0, "tiles": "5m"}',
     '{"type": "discard", "seq": 2, "ts": 3, "hand": 1.5, "seat": 0, "tiles": "5m"}'],
    ['{"type": "discard", "seq": 1, "ts": 2, "seat": 0, "tiles": "5m"}',
     '{"type": "discard", "seq": 2, "ts": 3, "seat": 0, "tiles": "5m"} x'],
    # hand_end (the tail is the closing brace): after a learnt context, a trailing comma, junk, no context
    ['{"type": "hand_end", "seq": 1, "ts": 2, "table": "a", "hand": 1}',
     '{"type": "hand_end", "seq": 2, "ts": 3, "table": "a", "hand": 1, }'],
    ['{"type": "hand_end", "seq": 1, "ts": 2, "table": "a", "hand": 1}',
     '{"type": "hand_end", "seq": 2, "ts": 3, "table": "a", "hand": 1} }'],
    ['{"type": "hand_end", "seq": 1, "ts": 2, "table": "a", "hand": 1}', '{"type": "hand_end", "seq": 2, "ts": 3, }'],
    ['{"type": "hand_end", "seq": 1, "ts": 2, "table": "a}", "hand": 1}',
     '{"type": "hand_end", "seq": 2, "ts": 3, "table": "a}", "hand": 1, "x": 1}'],
    ['{"type": "hand_end", "seq": 1, "ts": 2, "hand": 1}',
     '{"type": "hand_end", "seq": 2, "ts": 3, "hand": 1, "hand": 2}'],
    ['{"type": "hand_end", "seq": 1, "ts": 2, "table": "a", "hand": 1}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "a", "hand": 1}'],
    # hand_start (the tail starts at "v"): a tail repeating the context, a seat in it, a rule's value that is a list
    ['{"type": "hand_start", "seq": 1, "ts": 2, "hand": 1, "v": 1, "dealer": 0}',
     '{"type": "hand_start", "seq": 1, "ts": 2, "hand": 1, "v": 1, "dealer": 0, "hand": 3}'],
    ['{"type": "hand_start", "seq": 1, "ts": 2, "v": 1, "dealer": 0, "seat": 1}',
     '{"type": "hand_start", "seq": 1, "ts": 5, "v": 1, "dealer": 0, "seat": 1}'],
    ['{"type": "hand_start", "seq": 1, "ts": 2, "v": 1, "dealer": 0, "rules": {"a": [1]}}',
     '{"type": "hand_start", "seq": 1, "ts": 3, "v": 1, "dealer": 0, "rules": {"a": [1]}}'],
    ['{"type": "hand_start", "seq": 1, "ts": 2, "v": 1, "dealer": 0}',
     '{"type": "hand_start", "seq": 1, "ts": 3, "v": 2, "dealer": 0}'],
    # the context of the line before kept (read_events: no look-up while it repeats), then another, then
    # the first again; a context of the same length; a bad context between two good ones
    ['{"type": "draw", "seq": 1, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 1, "ts": 4, "table": "a", "hand": 2, "seat": 0}',
     '{"type": "draw", "seq": 3, "ts": 5, "table": "b", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 4, "ts": 6, "table": "a", "hand": 1, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "a", "hand": 01, "seat": 0}',
     '{"type": "draw", "seq": 3, "ts": 4, "table": "a", "hand": 1, "seat": 0}'],
    # the middle of the last seated line read by its pieces (read_events: `, "table": …, "seat": `, the
    # next seated lines of that context cut twice): then a line of no context, of one member, of
    # another, of a bad one, one with a member or a bad ts before the middle, the middle repeated
    ['{"type": "draw", "seq": 1, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 3, "ts": 4, "seat": 0}',
     '{"type": "draw", "seq": 4, "ts": 5, "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 5, "ts": 6, "table": "a", "seat": 0}',
     '{"type": "draw", "seq": 6, "ts": 7, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 7, "ts": 8, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 3, "ts": 4, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 4, "ts": 5, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 3, "ts": 03, "table": "a", "hand": 1, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 3, "ts": 4, "x": 1, "table": "a", "hand": 1, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 3, "ts": 4, "hand": 1, "table": "a", "hand": 1, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 3, "ts": 4, "table": "a", "hand": 1, "seat": 0, "table": "a", "hand": 1, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "hand_end", "seq": 2, "ts": 3, "table": "b", "hand": 1}',
     '{"type": "draw", "seq": 3, "ts": 4, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 4, "ts": 5, "table": "b", "hand": 1, "seat": 0}'],
    # a context or a seq not seen yet, read from its text: a new hand, an escape, a bad number, a large seq
    ['{"type": "draw", "seq": 1, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "b", "hand": 7, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "\\u0062", "hand": 7, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "a", "hand": 07, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "table": "a", "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 2, "ts": 3, "table": "a", "hand": -0, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 123456, "ts": 3, "hand": 1, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 0123, "ts": 3, "hand": 1, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": -5, "ts": 3, "hand": 1, "seat": 0}'],
    ['{"type": "draw", "seq": 1, "ts": 2, "hand": 1, "seat": 0}',
     '{"type": "draw", "seq": 1234567890123456789, "ts": 3, "hand": 1, "seat": 0}'],
])
def test_the_usual_line_reader_never_takes_a_line_the_reference_reads_otherwise(lines):
    data = [(t + "\n").encode() for t in lines]
    for _ in range(2):  # the second time, every piece the first lines could teach is known
        assert _lines_outcome(data, 1, 0, False) == _lines_outcome(data, 1, 0, True)
        assert _lines_outcome(data[1:], 1, 0, False) == _lines_outcome(data[1:], 1, 0, True)


@pytest.mark.parametrize("last, field", [
    ('{"type": "draw", "seq": -1, "seat": 0}', "events[10].seq"),
    ('{"type": "draw", "seq": 3, "seat": 0', "line 8"),
])
def test_usual_only_counts_the_lines_given_none_as_lines_not_as_events(last, field):
    """read_events(usual_only=True): a line that is not a usual one is given None and counts as a
    line (the numbers in errors) but not as an event (the indices), as a blank line does; the
    loop counts neither per line, only when the full decoder needs them."""
    lines = [b'{"type": "draw", "seq": 1, "ts": 2, "x": 1, "seat": 0}\n', b"\n",
             b'{"type": "draw", "seq": 2, "ts": 2, "y": 1, "seat": 0}\n', last]
    with pytest.raises(EventError) as caught:
        read_events(lines, 5, 10, usual_only=True)
    assert caught.value.field == field


def test_usual_lines_of_generated_hands_are_read_by_their_pieces():
    """Lines as to_jsonl writes them are read by the usual-line reader once learnt (not by chance
    through the full decoder): every one of a second hand with the first's pieces but seq and ts."""
    from referee import events as ev

    first = [line.encode() for line in to_jsonl(generate_hand(4)).splitlines()]
    read_events(first)
    usual = [line for line in first if b'"type": "wall"' not in line]
    assert any(b"hand_start" in line for line in usual) and any(b"hand_end" in line for line in usual)
    assert all(ev.read_usual_line(line) == parse_event_reference(json.loads(line)) for line in usual)
    # another hand of the table (a context not seen yet): its lines too, the context read from its text
    other = [line.replace(b'"hand": 1, ', b'"hand": 977, ').replace(b'"hand": 1}', b'"hand": 977}') for line in usual]
    assert all(ev.read_usual_line(line) == parse_event_reference(json.loads(line)) for line in other)
    assert all(e.hand == 977 for e in map(ev.read_usual_line, other))


# --- the wall line read by its pieces (its tiles cut from the bytes, issue #17 item 5) -------------

#: the walls of a few generated hands, as to_jsonl writes their lines
_WALLS = [line for seed in (0, 1, 2) for line in to_jsonl(generate_hand(seed)).splitlines()
          if line.startswith('{"type": "wall"')]


@st.composite
def wall_texts(draw):
    """A wall's line as ``to_jsonl`` writes it, seq and ts changed, now and then changed: its tiles
    cut short (143, 136, 135) or a piece put in or put for another (a space, a comma, an honour letter,
    a bad digit, a digit or a letter alone, an escape, a quote), the table or hand changed, a member
    put before or after the tiles, the closing brace followed by spaces or junk, the line cut."""
    line = draw(st.sampled_from(_WALLS))
    head, tiles_key, rest = line.partition('"tiles": "')
    text, _quote, end = rest.partition('"')
    change = draw(st.integers(0, 12))
    if change == 0:
        text = text[:-draw(st.sampled_from([1, 2, 3]))]  # a tile or its letter off
    elif change == 1:  # 136 tiles: the flowers taken out (a wall without flowers); 135
        text = "".join(g for g in text.replace("f", "f|").split("|") if not g.endswith("f"))
        if draw(st.booleans()):
            text = text[1:] if text[0] != text[1] and text[1].isdigit() else text
    elif change == 2:
        i = draw(st.integers(0, len(text)))
        piece = draw(st.sampled_from([" ", ",", "E", "0", "8", "9", "m", "z", "f", "x", "\\u0031", '\\"', "\t",
                                      "東", "1m", "0m", "8z", "9f", ""]))
        text = text[:i] + piece + text[i + draw(st.integers(0, 2)):]
    elif change == 3:
        head = head.replace('"hand": 1, ', draw(st.sampled_from(['"hand": 07, ', '"hand": 2, ', "", '"hand": -1, ',
                                                                 '"hand": 1, "hand": 2, ', '"hand": 1.0, '])))
    elif change == 4:
        head = head.replace('"table": "gen", ', draw(st.sampled_from(['"table": "T", ', "", '"table": 7, ',
                                                                     '"table": "g\\u0065n", '])))
    elif change == 5:
        head += draw(st.sampled_from(['"v": 1, ', '"v": 2, ', '"seat": 0, ', '"count": 4, ', '"x": 1, ',
                                      '"tiles": "1m", ']))
    elif change == 6:
        end = draw(st.sampled_from(['}', '} ', '}\r', '}\t ', '} x', '}}', ', "v": 1}', ', "seat": 1}',
                                    ', "tiles": "1m"}', ' }', ',}']))
    seq = draw(st.one_of(st.integers(0, 300), st.sampled_from(["03", "-1", "1.0"])))
    ts = draw(st.one_of(st.integers(0, 10**6), st.sampled_from(["02", "-2", "1e3"])))
    head = head.replace('"seq": 3, ', f'"seq": {seq}, ', 1)
    head = head.replace(head[head.index('"ts": '):head.index(", ", head.index('"ts": ')) + 2], f'"ts": {ts}, ', 1)
    out = head + tiles_key + text + '"' + end
    if draw(st.integers(0, 14)) == 0:
        out = out[:draw(st.integers(0, len(out)))]  # the line cut
    return out


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(wall_texts(), min_size=1, max_size=3), st.integers(1, 50), st.integers(0, 50))
def test_the_wall_read_by_its_pieces_equals_json_loads_and_the_reference(texts, first_line, first_index):
    """read_events over wall lines (their tiles cut from the bytes when they are a usual wall's)
    against json.loads and parse_event_reference line by line: the same events, or the same error."""
    lines = [(t + "\n").encode("utf-8") for t in texts]
    fast = _lines_outcome(lines, first_line, first_index, False)
    ref = _lines_outcome(lines, first_line, first_index, True)
    assert fast == ref
    if isinstance(fast, list):
        assert all(type(e) is Event and hash(e) == hash(r) and repr(e) == repr(r) for e, r in zip(fast, ref))


def test_generated_walls_are_read_by_their_pieces():
    """A wall as to_jsonl writes it is read by its pieces (not by chance through the full
    decoder), its seq, ts, table and hand as the reference reads them; not when its tiles have
    a space, or the line a member after the tiles."""
    from referee import events as ev

    for line in _WALLS:
        data = (line + "\n").encode()
        assert ev.read_usual_line(data) == parse_event_reference(json.loads(line))
        other = data.replace(b'"hand": 1, ', b'"hand": 977, ').replace(b'"seq": 3, ', b'"seq": 41, ')
        assert ev.read_usual_line(other) == parse_event_reference(json.loads(other))
        assert ev.read_usual_line(data.replace(b"m", b"m ", 1)) is None
        assert ev.read_usual_line(data.replace(b'"}', b'", "v": 1}')) is None
