"""Streaming batch (issue #17 items 1–3): ``flask replay`` / ``flask rule`` over logs, hand by hand.

The reference is the whole-stream path the API answers with (:func:`api.adjudications.adjudication_document`,
:func:`api.rulings.rulings_document`): every hand of the streamed, parallel path must equal it.
"""
from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api import batch
from api.adjudications import adjudication_document
from api.rulings import rulings_document
from referee.errors import MjrefError
from referee.events import to_jsonl
from referee.generator import generate_hands
from tests.servicekit import app_storing_nothing  # noqa: F401  (the app here: these tests store nothing)
from tests.test_events import _decode_outcome, hand_lines

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"
#: streams with rulings in them (a generated hand is legal: its rulings are few)
RULED = sorted(SAMPLES.glob("pen_*.jsonl"))[:12]
HANDS = 160


@pytest.fixture(scope="module")
def generated() -> str:
    return "".join(to_jsonl(events) for events in generate_hands(HANDS, seed=1000))


@pytest.fixture(scope="module")
def log(generated) -> str:
    """The generated hands, then sample hands with rulings (each its own table key)."""
    return generated + "".join(p.read_text(encoding="utf-8") for p in RULED)


@pytest.fixture(scope="module")
def expected_replay(generated) -> list[dict]:
    hands = adjudication_document(generated)["hands"]
    for path in RULED:
        hands += adjudication_document(path.read_text(encoding="utf-8"))["hands"]
    return hands


@pytest.fixture(scope="module")
def expected_rule(generated) -> list[dict]:
    hands = rulings_document(generated)["hands"]
    for path in RULED:
        hands += rulings_document(path.read_text(encoding="utf-8"))["hands"]
    return hands


def lines(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def invoke(app, *args, **kw):
    return app.test_cli_runner().invoke(args=list(args), **kw)


@pytest.fixture()
def log_file(tmp_path, log) -> Path:
    path = tmp_path / "log.jsonl"
    path.write_text(log, encoding="utf-8")
    return path


def test_replay_jobs_2_equals_jobs_1_equals_the_whole_stream_answer(app, log_file, expected_replay):
    one = invoke(app, "replay", str(log_file), "--jobs", "1")
    two = invoke(app, "replay", str(log_file), "--jobs", "2")
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    assert one.stdout == two.stdout
    assert lines(one) == expected_replay
    assert len(expected_replay) == HANDS + len(RULED)
    assert any(hand["penalties"]["rulings"] for hand in expected_replay)
    assert all("\n" not in line and ": " not in line[:40] for line in one.stdout.splitlines())  # compact


def test_rule_jobs_2_equals_the_whole_stream_answer(app, log_file, expected_rule):
    two = invoke(app, "rule", str(log_file), "--jobs", "2")
    assert two.exit_code == 0, two.output
    assert lines(two) == expected_rule


def test_gzip_a_directory_and_stdin_read_the_same_hands(app, tmp_path, log, expected_replay):
    cut = log.index('{"type": "hand_start"', len(log) // 2)
    folder = tmp_path / "logs"
    (folder / "day2").mkdir(parents=True)
    (folder / "a.jsonl").write_text(log[:cut], encoding="utf-8")
    (folder / "day2" / "b.jsonl.gz").write_bytes(gzip.compress(log[cut:].encode("utf-8")))
    (folder / "notes.txt").write_text("not a log", encoding="utf-8")
    whole_gz = tmp_path / "log.jsonl.gz"
    whole_gz.write_bytes(gzip.compress(log.encode("utf-8")))
    from_dir = invoke(app, "replay", str(folder), "--jobs", "2")
    from_gz = invoke(app, "replay", str(whole_gz), "--jobs", "1")
    from_stdin = invoke(app, "replay", "-", "--jobs", "2", input=gzip.compress(log.encode("utf-8")))
    for result in (from_dir, from_gz, from_stdin):
        assert result.exit_code == 0, result.output
        assert lines(result) == expected_replay


def test_an_unreadable_line_is_reported_with_its_line_number(app, tmp_path, log, expected_replay):
    text = log.splitlines(keepends=True)
    starts = [i for i, line in enumerate(text) if '"type": "hand_start"' in line]
    hand = 7  # the eighth hand: its fifth line broken
    bad_line = starts[hand] + 4
    text[bad_line] = '{"type": "draw", "seq": \n'
    path = tmp_path / "broken.jsonl"
    path.write_text("".join(text), encoding="utf-8")
    result = invoke(app, "replay", str(path), "--jobs", "2")
    assert result.exit_code == 2
    out = lines(result)
    assert len(out) == len(expected_replay)
    problem = out[hand]
    assert problem["line"] == starts[hand] + 1 and problem["source"] == str(path)
    assert problem["problem"]["field"] == f"line {bad_line + 1}"
    assert problem["problem"]["code"] == "invalid_event" and problem["problem"]["detail_zh"]
    assert out[:hand] + out[hand + 1:] == expected_replay[:hand] + expected_replay[hand + 1:]
    summary = result.stderr
    assert f"line {starts[hand] + 1}" in summary and f"line {bad_line + 1}" in summary
    assert "unreadable 1" in summary and "無法讀取" in summary


def test_a_bad_event_names_its_field_by_its_index_in_the_source(app, tmp_path, log):
    text = log.splitlines(keepends=True)
    starts = [i for i, line in enumerate(text) if '"type": "hand_start"' in line]
    at = starts[3] + 2
    seq = json.loads(text[at])["seq"]
    text[at] = json.dumps({"type": "discard", "seq": seq, "table": "gen", "hand": 4, "seat": 0, "tile": "9x"}) + "\n"
    path = tmp_path / "bad_field.jsonl"
    path.write_text("".join(text), encoding="utf-8")
    result = invoke(app, "rule", str(path), "--jobs", "1", "--quiet")
    assert result.exit_code == 2
    problem = lines(result)[3]["problem"]
    assert problem["field"] == f"events[{at}].tile" and "9x" in problem["detail"]
    assert result.stderr == ""  # --quiet: no summary


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_lines(), st.integers(1, 50), st.integers(0, 50))
def test_decode_checks_the_order_as_check_order_after_the_lines(lines, first_line, first_index):
    """batch.decode (check_order skipped when the decoder found the seqs rising) against the plain
    path: json.loads and parse_event_reference line by line, then check_order — the same events, or
    the same error (a line's error before an order's). Twice: the second time, the pieces are learnt."""
    hand = batch.HandText("-", first_line, first_index, tuple(lines))
    for _ in range(2):
        try:
            out = batch.decode(hand)
        except MjrefError as exc:
            out = (type(exc), exc.field) if exc.field.startswith("line ") else \
                (type(exc), exc.field, exc.message, exc.reason_zh)
        assert out == _decode_outcome(lines, first_line, first_index, True)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_summary_counts_hands_irregularities_and_rulings(app, log_file, expected_replay, jobs):
    """Counted from each answer here (``--jobs 1``), or from each unit's counts (``Lines``: ``--jobs 2``)."""
    result = invoke(app, "replay", str(log_file), "--jobs", jobs)
    summary = result.stderr
    assert f"共 {len(expected_replay)} 盤" in summary and f"{len(expected_replay)} hands" in summary
    ruled = sum(bool(h["penalties"]["rulings"]) for h in expected_replay)
    assert f"hands with rulings: {ruled}" in summary
    codes = [i["code"] for h in expected_replay for i in h["irregularities"]]
    assert len(set(codes)) > 3
    for code in set(codes):
        assert f"{code} {codes.count(code)}" in summary


def test_one_hand_is_one_document_as_before(app, client):
    sample = RULED[0]
    result = invoke(app, "replay", str(sample))
    assert result.exit_code == 0 and result.stderr == ""
    assert json.loads(result.stdout) == adjudication_document(sample.read_text(encoding="utf-8"))
    assert result.stdout.startswith('{\n  "protocol": 1')  # indented, as before


def test_format_document_streams_the_whole_document(app, log_file, generated, expected_replay):
    result = invoke(app, "replay", str(log_file), "--format", "document", "--jobs", "2")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"protocol": 1, "hands": expected_replay}
    single = invoke(app, "replay", str(RULED[0]), "--format", "lines")
    assert len(single.stdout.splitlines()) == 1


def test_an_empty_log_and_a_lone_bad_hand_are_problems(app, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    result = invoke(app, "replay", str(empty))
    assert result.exit_code == 2 and json.loads(result.stderr)["code"] == "invalid_stream"
    before = tmp_path / "before.jsonl"
    before.write_text('{"type": "draw", "seq": 1, "seat": 0}\n', encoding="utf-8")
    result = invoke(app, "rule", str(before))
    assert result.exit_code == 2 and json.loads(result.stderr)["field"] == "events[0].type"


def test_a_json_array_is_still_read(app, tmp_path):
    sample = RULED[1]
    events = [json.loads(line) for line in sample.read_text(encoding="utf-8").splitlines() if line.strip()]
    path = tmp_path / "array.json"
    path.write_text(json.dumps(events), encoding="utf-8")
    result = invoke(app, "rule", str(path))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == rulings_document(sample.read_text(encoding="utf-8"))


def test_the_pool_reads_ahead_only_a_bounded_number_of_hands(log):
    """Memory bounded by the chunks in flight: an endless log still yields answers."""
    import io

    one_hand = log[: log.index('{"type": "hand_start"', 1)].encode("utf-8")
    pulled = 0

    hand = next(batch._source_hands("-", io.BytesIO(one_hand), io.BytesIO(), None))

    def endless():
        nonlocal pulled
        while True:
            pulled += 1
            yield hand

    got = list(itertools.islice(batch.answers(endless(), batch.Settings("rule"), jobs=2), 200))
    assert len(got) == 200 and all(a.problem is None for a in got)
    assert pulled <= 200 + batch.CHUNK * (batch.IN_FLIGHT * 2 + 2)


def test_hand_boundaries_are_found_without_decoding_other_lines():
    import io

    text = (b'{"type": "hand_start", "seq": 1, "dealer": 0}\n\n{"type": "report", "seq": 2, "code": "x", '
            b'"note": "hand_start"}\n{"type": "hand\\u005fstart", "seq": 1, "dealer": 0}\nnot json hand_start\n')
    hands = list(batch._source_hands("s", io.BytesIO(text), io.BytesIO(), None))
    assert [(h.line, h.index, len(h.lines)) for h in hands] == [(1, 0, 3), (4, 2, 2)]


def test_the_answers_verdicts_written_directly_equal_each_verdicts_own():
    """The answer's verdicts written directly (``VerdictLog.to_dicts``, issue #17) are every
    verdict's own ``to_dict``, on hands with irregularities and on legal ones (the tile
    writer is held to its reference in ``tests/test_tiles.py``)."""
    from penalties.adjudicator import HandAdjudicator
    from referee.events import parse_event
    from testkit.irregular import irregular_hand

    streams = [[parse_event(raw) for raw in irregular_hand(seed, 7, 1 + seed % 4, physical=seed % 2 == 0)]
               for seed in range(40)] + [list(events) for events in generate_hands(10, seed=5)]
    odd = 0
    for events in streams:
        try:
            result = HandAdjudicator().feed_all(events)
        except Exception:  # noqa: BLE001 - a stream refused: no answer to write
            continue
        log = result.adjudication.verdicts
        odd += bool(log.odd)
        assert log.to_dicts() == [v.to_dict(seq) for seq, v in log]
    assert odd > 10  # irregular verdicts were among them


def test_the_answers_written_as_text_equal_json_dumps_of_the_answers_dicts():
    """``replay_text`` / ``rule_text`` (the verdicts written as text, issue #17) are byte for
    byte ``json.dumps`` of ``replay_answer`` / ``rule_answer``, compact, on hands with
    irregularities, rulings and names (non-ASCII text) and on legal ones."""
    from penalties.adjudicator import HandAdjudicator
    from referee.events import parse_event
    from testkit.irregular import irregular_hand

    streams = [[parse_event(raw) for raw in irregular_hand(seed, 7, 1 + seed % 4, physical=seed % 2 == 0)]
               for seed in range(40)] + [list(events) for events in generate_hands(10, seed=6)]
    odd = ruled = 0
    for n, events in enumerate(streams):
        names = ("王小明", None, "Lee", "林") if n % 3 == 0 else None
        try:
            result = HandAdjudicator(names=names).feed_all(events)
        except Exception:  # noqa: BLE001 - a stream refused: no answer to write
            continue
        odd += bool(result.adjudication.verdicts.odd)
        ruled += bool(result.given)
        for text, answer in ((batch.replay_text, batch.replay_answer), (batch.rule_text, batch.rule_answer)):
            assert text(result) == json.dumps(answer(result), ensure_ascii=False, separators=(",", ":"))
        for line, text in ((batch.replay_line, batch.replay_text), (batch.rule_line, batch.rule_text)):
            for errors in ("strict", "surrogateescape", "backslashreplace"):  # the lines written as bytes
                assert line(result, errors) == (text(result) + "\n").encode("utf-8", errors)
        pairs = list(result.adjudication.verdicts)  # a list of pairs: written by each verdict's to_dict
        assert batch.verdicts_text(pairs) == json.dumps([v.to_dict(s) for s, v in pairs], ensure_ascii=False,
                                                              separators=(",", ":"))
    assert odd > 10 and ruled > 5  # irregular verdicts and rulings were among them


def test_the_final_table_written_as_text_equals_json_dumps_of_its_dict():
    """``final_table_text`` (the answer's final table written from its values, issue #17) is
    byte for byte ``json.dumps`` of ``final_table``, compact, on irregular (physical and
    digital) and legal hands' last tables, and with their flags and numbers changed: a dead
    hand, a ready declared, a win passed, a flag that is not a bool, a number that is a bool
    or out of the usual range."""
    from penalties.adjudicator import HandAdjudicator
    from referee.events import ReadyKind, parse_event
    from referee.outcome import final_table, final_table_text
    from testkit.irregular import irregular_hand

    def dumps(value):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    streams = [[parse_event(raw) for raw in irregular_hand(seed, 7, 1 + seed % 4, physical=seed % 2 == 0)]
               for seed in range(30)] + [list(events) for events in generate_hands(10, seed=7)]
    changes = [
        lambda st, s: None,
        lambda st, s: (setattr(s, "dead_hand", True), setattr(s, "ready", ReadyKind.DECLARED), setattr(s, "passed", 9)),
        lambda st, s: setattr(s, "dead_hand", 1),
        lambda st, s: setattr(s, "unknown", 2 ** 70),
        lambda st, s: setattr(st, "dealer", True),
        lambda st, s: setattr(s, "unknown", False),
    ]
    tables = 0
    for n, events in enumerate(streams):
        try:
            st = HandAdjudicator().feed_all(events).adjudication.state
        except Exception:  # noqa: BLE001 - a stream refused: no table
            continue
        if st is None:
            continue
        tables += 1
        seat = st.seats[n % 4]
        kept = {name: getattr(seat, name) for name in ("dead_hand", "ready", "passed", "unknown")}
        dealer = st.dealer
        # one change at a time, the table as it was before each: after an odd value every later
        # change would take the dict's path
        for change in changes:
            change(st, seat)
            assert final_table_text(st) == dumps(final_table(st))
            for name, value in kept.items():
                setattr(seat, name, value)
            st.dealer = dealer
    assert tables > 20


def test_the_accepted_verdicts_text_table_equals_json_dumps_past_its_limit():
    """verdicts_text writes accepted verdicts from a table of texts by seq (issue #17): the same
    text as json.dumps for seqs it holds, seqs it has not met, and more seqs than it keeps
    (emptied and filled anew)."""
    from referee.verdicts import ACCEPTED, VerdictLog

    for seqs in ([1, 2, 3], [5, 1, 7, 10**12, 0], list(range(batch._ACCEPTED_LIMIT + 50)), [3, 2, 1], [9000, 9001]):
        log = VerdictLog(seqs)
        expected = json.dumps([ACCEPTED.to_dict(s) for s in seqs], ensure_ascii=False, separators=(",", ":"))
        assert batch.verdicts_text(log) == expected
        assert batch.verdicts_text(log) == expected  # the second time from the table
        assert batch.verdicts_line(log) == expected.encode()  # the bytes, once made and once kept
        assert batch.verdicts_line(log) == expected.encode()
    assert len(batch._ACCEPTED_TEXTS) <= batch._ACCEPTED_LIMIT + 50
    assert len(batch._ACCEPTED_LINES) <= batch._ACCEPTED_LIMIT + 50


@pytest.mark.parametrize("command", ["replay", "rule"])
def test_a_units_lines_written_as_bytes_equal_its_answers_texts_encoded(command):
    """``unit_lines`` (each answer's line written in UTF-8, issue #17) gives what its
    reference gives — the answers as text, their lines joined and encoded — on irregular and
    legal hands with an unreadable hand among them, under several error handlers, with names
    in Chinese, and with a name no strict UTF-8 writes (a lone surrogate: the answers come
    back as text, for the writer to meet the error)."""
    from testkit.irregular import irregular_hand

    def hand_text(events):
        return batch.HandText("-", 1, 0, tuple(json.dumps(e, ensure_ascii=False).encode() + b"\n" for e in events))

    hands = [hand_text(irregular_hand(seed, 7, 1 + seed % 4, physical=seed % 2 == 0, hand=seed + 1))
             for seed in range(24)]
    hands += [hand_text(json.loads(line) for line in to_jsonl(events).splitlines())
              for events in generate_hands(6, seed=8)]
    hands.insert(5, batch.HandText("-", 7, 0, (b'{"type": "hand_start", "seq": 1}\n', b"{not json\n")))
    fallbacks = 0
    for names in (None, ("王小明", None, "Lee", "林"), ("\ud800", "b", "c", "d")):
        settings = batch.Settings(command, names=names)
        for output in (("utf-8", "strict"), ("utf8", "surrogateescape"), ("UTF-8", "backslashreplace")):
            got = batch.unit_lines(hands, settings, output)
            assert got == batch.unit_lines_reference(hands, settings, output)
            fallbacks += type(got) is list
            assert type(got) is list or (got.count == len(hands) and len(got.unreadable) == 1)
    assert fallbacks == 2  # the lone surrogate, under strict and surrogateescape (which writes U+DC80–U+DCFF only)


#: lines a log may hold, for the reader's cut: events, hand starts (plain, spaced, escaped, with
#: CR LF), lines that mention hand_start or hold a backslash without being one, blank lines
_READER_LINES = [
    b'{"type": "hand_start", "seq": 1, "dealer": 0}\n', b'{"type": "hand_start"}\r\n',
    b' {"type": "hand_start", "seq": 1}\n', b'{"type": "hand\\u005fstart", "seq": 1}\n',
    b'{"type": "hand_start", "type": "draw"}\n', b'{"type": "draw", "seq": 2}\n', b'{"type": "discard"}\n',
    b'{"type": "report", "note": "hand_start"}\n', b'{"type": "report", "note": "a\\"b\\\\c"}\n',
    b'{"type": "report", "note": "\\u4e2d"}\n', b'not json hand_start\n', b'  {"type": "draw"}\n',
    b'{"type": "draw", "x": "a\rb"}\n', b"\n", b"  \n", b"\t\r\n", b"\r\n", b"\x0b\n",
]


def _reference_hands(path: Path) -> list:
    import io

    with open(path, "rb") as f:
        try:
            return [("hand", h) for h in batch._source_hands(str(path), f, io.BytesIO(), None)]
        except Exception as exc:  # noqa: BLE001 - an array that is not JSON: the same error
            return [("error", str(exc))]


def _read(path: Path, size: int) -> list:
    try:
        return [("hand", h) for h in batch.read_hands([str(path)], size=size)]
    except Exception as exc:  # noqa: BLE001
        return [("error", str(exc))]


def _read_as_sent(path: Path, size: int) -> list:
    """:func:`_read` as the workers of ``--jobs N`` read: each piece of a plain file sent by its
    place (``batch.sent``) and read back from the file (``batch.read_piece``)."""
    try:
        return [("hand", h) for unit in batch.read_pieces([str(path)], size=size)
                for h in batch.unit_hands(batch.sent(unit))]
    except Exception as exc:  # noqa: BLE001
        return [("error", str(exc))]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(range(len(_READER_LINES))), max_size=40), st.sampled_from([1, 7, 64, 200, 1 << 18]),
       st.booleans(), st.sampled_from([b"", b"\n\n", b" \n", b"[", b'[{"type": "hand_start"}]\n']))
def test_the_pieces_cut_into_the_hands_the_line_reader_reads(tmp_path, picks, size, cut_end, start):
    """``read_hands`` (pieces found by ``bytes.find``, cut into hands by each worker, issue #17)
    reads the same hands — lines, line numbers, event indices — as ``_source_hands``, the
    line-by-line reference: blank lines (also before the first event and at the end), hand
    starts spaced, escaped or with duplicate keys, lines naming hand_start, CR, no final newline,
    a JSON array, pieces of a byte to a whole log."""
    text = start + b"".join(_READER_LINES[i] for i in picks)
    if cut_end and text.endswith(b"\n"):
        text = text[:-1]
    path = tmp_path / "log.jsonl"
    path.write_bytes(text)
    expected = _reference_hands(path)
    assert _read(path, size) == expected
    assert _read_as_sent(path, size) == expected


def test_the_pieces_of_generated_and_irregular_logs_cut_as_the_line_reader(tmp_path, log):
    """The same on the module's log (generated hands and the samples with rulings), on
    irregular hands, and with blank lines put in: pieces of 1 byte (a line a read), 4 kB and
    the default."""
    from testkit.irregular import irregular_hand

    irregular = "".join(json.dumps(raw, ensure_ascii=seed % 3 == 0) + "\n" for seed in range(12)
                        for raw in irregular_hand(seed, 7, 1 + seed % 4, physical=seed % 2 == 0))
    spaced = log.replace("\n{\"type\": \"discard\", \"seq\": 40,", "\n\n  \n{\"type\": \"discard\", \"seq\": 40,")
    assert spaced != log
    for n, text in enumerate((log, irregular, spaced)):
        path = tmp_path / f"log{n}.jsonl"
        path.write_text(text, encoding="utf-8")
        expected = _reference_hands(path)
        assert len(expected) > 10
        for size in (1, 4096, batch.PIECE):
            assert _read(path, size) == expected
            assert _read_as_sent(path, size) == expected


def test_a_plain_files_pieces_go_to_workers_by_their_place_and_others_whole(tmp_path, log):
    """A worker is sent where a plain file's piece lies, not its bytes (issue #17: the parent of
    ``--jobs N`` no longer pipes the log to the workers); gzip and stdin pieces go whole. A file
    shortened while the batch reads it is an error that says so, not a hand cut short."""
    import gzip
    import pickle

    path = tmp_path / "log.jsonl"
    path.write_text(log, encoding="utf-8")
    pieces = list(batch.read_pieces([str(path)], size=4096))
    assert len(pieces) > 3
    for piece in pieces:
        at = batch.sent(piece)
        assert type(at) is batch.PieceAt and len(pickle.dumps(at)) < 300 < len(piece.text)
        assert batch.read_piece(at) == piece
    packed = tmp_path / "log.jsonl.gz"
    packed.write_bytes(gzip.compress(log.encode("utf-8")))
    assert all(batch.sent(p) is p for p in batch.read_pieces([str(packed)], size=4096))
    last = batch.sent(pieces[-1])
    path.write_bytes(log.encode("utf-8")[:last.offset + 10])
    batch._SOURCE[:] = [None, -1]  # the file opened again, as a new worker would
    with pytest.raises(OSError, match="shortened"):
        batch.read_piece(last)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | st.lists(st.sampled_from([b"\n", b"{", b"\r\n", b"a", b"\n\n"])).map(b"".join))
def test_newlines_counts_as_bytes_count(text):
    assert batch.newlines(text) == text.count(b"\n")
