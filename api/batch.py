"""Batch re-validation of logs (issue #17): ``flask replay`` and ``flask rule`` over JSON Lines.

A log is read hand by hand — a file, a directory of ``*.jsonl`` / ``*.ndjson`` (gzipped or
not), gzip, or ``-`` for standard input — and each hand is answered as soon as it is read:

- **reader** (:func:`read_pieces`): reads the log in pieces of whole hands, cut at a
  ``hand_start`` line found by searching the bytes (no line decoded but those), so the parent
  process never parses a hand; a worker cuts its piece into hands (:func:`piece_hands`), each
  its raw lines (:class:`HandText`; :func:`read_hands` does both);
- **the hand's work** (:func:`judge`): one parse and one pass — the referee replays the hand
  and penalties rule on the same record (:func:`penalties.record.build`,
  :func:`penalties.rule.rule_record`). This is the one call the hand adjudicator (issue #13)
  replaces; :func:`answer_hand` around it decodes the lines and writes the answer's JSON;
- **pool** (:func:`results`): ``--jobs N`` worker processes over the pieces, a bounded
  number in flight, answers in input order, each piece's lines written by its worker
  (:class:`Lines`); ``--jobs 1`` works in this process;
  or (:func:`dask_answers`, ``--scheduler ADDRESS``) the same chunks, the same job, on a
  ``dask.distributed`` cluster, for logs larger than one machine;
- **writer** (:class:`Writer`): one compact JSON line per hand (``--format lines``), or the
  old document ``{"protocol": 1, "hands": [...]}`` (``--format document``, streamed hand by
  hand); ``auto`` (the default) writes the document for a log of one hand and lines otherwise;
- **progress and summary** (:class:`Progress`): a bar on stderr (hands, hands/s, ETA from the
  bytes read) when stderr is a terminal and not ``--quiet``; a closing summary on stderr
  (hands, irregularities by code, hands with rulings, unreadable hands with their line numbers).

Memory is bounded by the chunks in flight, whatever the log's size. An unreadable hand does
not stop the batch: its line holds ``{"source", "line", "problem"}`` (the problem body the
HTTP API answers with) and the command exits with status 2 at the end. A log of one hand
answers exactly as before: the document on stdout, or the problem on stderr and status 2.

Differences from reading the whole log at once: ``seq`` is checked within each hand (a
hand's key repeated later in the log is another hand), and a JSON array (``[...]``) is read
whole (it is not JSON Lines).
"""
from __future__ import annotations

import codecs
import collections
import functools
import gzip
import io
import itertools
import json
import os
import re
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import click

from api.clikit import reports_errors, stream_ruleset_options
from referee.errors import MjrefError
from referee.events import EventType, check_order, parse_event, read_hand_events
from referee.outcome import final_table_text
from referee.replay import split_hands
from referee.verdicts import VerdictLog

#: file names a directory is read for (sorted, recursively)
SUFFIXES = (".jsonl", ".ndjson", ".jsonl.gz", ".ndjson.gz")
#: hands per chunk of decoded hands (a JSON array; :func:`answers`) sent to a worker, and
#: units of work (chunks, pieces) in flight per worker
CHUNK = 32
IN_FLIGHT = 3
#: bytes of log per piece (:class:`Piece`): about 72 generated hands, ≈ 40 ms of a worker's time.
#: Each piece costs the parent of ``--jobs N`` a round trip through the pool (the submit's
#: wake-up, the result's pipe, a thread switch): 1 MB pieces took its CPU from ≈ 0.57 to
#: ≈ 0.44 s for 10,000 hands and ``--jobs 2`` from ≈ 2,940 to ≈ 3,040 hands/s against 256 kB
#: (issue #17, docs/performance.md); the last piece keeps one worker alone ≈ 20 ms on average
PIECE = 1 << 20
_GZIP_MAGIC = b"\x1f\x8b"


# --- reading ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandText:
    """One hand as read, not yet decoded.

    :param source: the file it came from (``-`` for stdin).
    :param line: the line number (1-based, in its source) of its first line.
    :param index: the index of its first event in the source's stream (``events[i]`` in errors).
    :param lines: its lines as bytes, blank ones included (line ``line + k`` is ``lines[k]``);
        or, from a JSON array, the decoded event objects.
    :param decoded: *lines* are already decoded objects (a JSON array).
    """

    source: str
    line: int
    index: int
    lines: tuple[Any, ...]
    decoded: bool = False


def input_files(paths: Iterable[str]) -> list[str]:
    """The files named, each directory replaced by its ``*.jsonl`` / ``*.ndjson`` files
    (gzipped or not), sorted, recursively; ``-`` is stdin.

    :raises click.BadParameter: a directory with no such file.
    """
    out: list[str] = []
    for path in paths:
        if path != "-" and os.path.isdir(path):
            found = sorted(os.path.join(root, name) for root, _dirs, names in os.walk(path)
                           for name in names if name.endswith(SUFFIXES))
            if not found:
                raise click.BadParameter(f"目錄內沒有 JSON Lines 檔 no {'/'.join(SUFFIXES)} file in {path}",
                                         param_hint="FILES")
            out.extend(found)
        else:
            out.append(path)
    return out


def open_binary(path: str) -> tuple[BinaryIO, BinaryIO]:
    """``(stream, raw)``: *path* (``-``: stdin) opened for reading, un-gzipped when it starts
    with gzip's magic bytes; *raw* is the file underneath (its position is the bytes read)."""
    if path == "-":
        raw = getattr(sys.stdin, "buffer", sys.stdin)
        if not hasattr(raw, "peek"):
            raw = io.BufferedReader(raw)  # type: ignore[arg-type]
    else:
        raw = open(path, "rb")  # noqa: SIM115 — closed by read_hands
    if raw.peek(2)[:2] == _GZIP_MAGIC:
        return gzip.GzipFile(fileobj=raw, mode="rb"), raw  # type: ignore[return-value]
    return raw, raw


def _is_hand_start(line: bytes) -> bool:
    """True when *line* is a ``hand_start`` event. Only a line holding ``hand_start``, or a
    ``\\u`` escape that could spell it, is decoded; a line that is not JSON is no boundary
    (it is an error in the hand it falls in)."""
    if b"hand_start" not in line and b"\\u" not in line:
        return False
    try:
        raw = json.loads(line)
    except ValueError:
        return False
    return type(raw) is dict and raw.get("type") == "hand_start"


def read_hands(paths: Iterable[str], progress: Progress | None = None, size: int | None = None) -> Iterator[HandText]:
    """Every hand of the files in turn, as :class:`HandText` (see :func:`input_files`): the
    pieces :func:`read_pieces` reads, each cut into its hands (:func:`piece_hands`).

    A source's lines before its first ``hand_start`` are a hand of their own (which the
    referee refuses: a stream starts with ``hand_start``); blank lines alone are nothing.
    ``tests/test_batch.py`` holds it to :func:`_source_hands`, the same cut line by line.
    """
    for unit in read_pieces(paths, progress, size or PIECE):
        yield from unit_hands(unit)


@dataclass(frozen=True, slots=True)
class Piece:
    """Whole hands of one source as read, not yet cut into hands: what a worker is sent.

    :param text: the bytes of one or more hands: from a hand's first line to a hand's last
        (the next ``hand_start`` line, or the end of the source).
    :param line: the line number (1-based, in its source) of *text*'s first line.
    :param index: the events (non-blank lines) of the source before it.
    :param plain: every line of *text* starts with ``{`` (so none is blank: a hand's index is
        its line's offset); otherwise the blank lines are counted.
    """

    source: str
    line: int
    index: int
    text: bytes
    plain: bool
    #: where *text* starts in its source, a plain file read as it is; -1 for stdin and gzip
    offset: int = -1


@dataclass(frozen=True, slots=True)
class PieceAt:
    """A :class:`Piece` of a plain file as sent to a worker: where its bytes lie, not the bytes
    (``--jobs N``: the worker reads them itself, :func:`read_piece`, instead of the parent
    sending them down a pipe — a copy into the pipe and one out of it, and the parent's
    thread that pickles them)."""

    source: str
    line: int
    index: int
    offset: int
    length: int
    plain: bool


def sent(unit: Piece | list[HandText]) -> Piece | PieceAt | list[HandText]:
    """*unit* as a worker is sent it: a piece of a plain file by its place (:class:`PieceAt`)."""
    if type(unit) is Piece and unit.offset >= 0:
        return PieceAt(unit.source, unit.line, unit.index, unit.offset, len(unit.text), unit.plain)
    return unit


#: a worker's open source (path, file descriptor): pieces come in order, a file at a time
_SOURCE: list = [None, -1]


def read_piece(at: PieceAt) -> Piece:
    """The :class:`Piece` *at* describes, its bytes read from its file.

    :raises OSError: the file no longer holds them (shortened while the batch read it)."""
    if _SOURCE[0] != at.source:
        if _SOURCE[1] >= 0:
            os.close(_SOURCE[1])
        _SOURCE[:] = [at.source, os.open(at.source, os.O_RDONLY)]
    text = os.pread(_SOURCE[1], at.length, at.offset)
    if len(text) != at.length:
        raise OSError(f"檔案在讀取中變短 {at.source} was shortened while being read: {len(text)} bytes at "
                      f"{at.offset}, not {at.length}")
    return Piece(at.source, at.line, at.index, text, at.plain, at.offset)


#: a line start that is not ``{``: a blank line, or one with spaces before its JSON
_NOT_PLAIN = re.compile(rb"\n[^{]")


def read_pieces(paths: Iterable[str], progress: Progress | None = None,
                size: int = 0) -> Iterator[Piece | list[HandText]]:
    """The files' hands in units of work, in order: a :class:`Piece` of about *size* bytes
    (:data:`PIECE`) cut at a hand's start — found by searching the bytes for ``hand_start``,
    not line by line: the parent of ``--jobs N`` does little more than read, and the workers
    cut the pieces into hands (:func:`piece_hands`) — or, from a JSON array, a list of
    :data:`CHUNK` decoded hands."""
    for path in paths:
        stream, raw = open_binary(path)
        try:
            placed = stream is raw and path != "-" and os.path.isfile(path)
            yield from _source_pieces(path, stream, raw, progress, size or PIECE, placed)
        finally:
            if path != "-":
                stream.close()
                raw.close()


def _source_pieces(path: str, stream: BinaryIO, raw: BinaryIO, progress: Progress | None,
                   size: int, placed: bool = False) -> Iterator[Piece | list[HandText]]:
    """*placed*: the stream is a plain file's bytes, so each piece's offset is given."""
    number = at = 0  # at: the bytes read before the line in hand
    for line in stream:  # the blank lines before the first event are nobody's; a "[" starts an array
        number += 1
        if line.isspace():
            at += len(line)
            continue
        if line.lstrip().startswith(b"["):
            yield from _chunks(_array_hands(path, number, line + stream.read()), CHUNK)
            return
        break
    else:
        return
    carry, index = [line], 0  # carry: the lines of the hand read so far, from its first
    while True:
        block = stream.read(size)  # starts at a line's start: carry ends with its line's end
        if block and block[-1] != 10:  # up to the end of a line
            block += stream.readline()
        cut = _last_hand_start(block) if block else len(block)
        if cut < 0:  # one hand so far: read on
            carry.append(block)
            continue
        carry.append(memoryview(block)[:cut])
        piece = b"".join(carry)
        plain = piece[0] == 123 and _NOT_PLAIN.search(piece) is None
        if progress is not None:
            progress.read_to(raw)
        yield Piece(path, number, index, piece, plain, at if placed else -1)
        if not block:
            return
        at += len(piece)
        lines = newlines(piece)
        number += lines
        index += lines if plain else sum(not line.isspace() for line in io.BytesIO(piece))
        carry = [block[cut:]]


def newlines(text: bytes) -> int:
    """``text.count(b"\\n")``, faster: deleting one byte (``replace``) runs on ``memchr``, where
    ``count`` compares byte by byte — 35 against 90 µs for a 256 kB piece, about 37 k
    instructions a hand of the parent's (issue #17); ``tests/test_batch.py`` holds the two equal."""
    return len(text) - len(text.replace(b"\n", b""))


def _last_hand_start(text: bytes) -> int:
    """Where the last ``hand_start`` line of *text* starts (-1: none); *text* starts at a line's start."""
    end = len(text)
    while (at := max(text.rfind(b"hand_start", 0, end), text.rfind(b"\\", 0, end))) >= 0:
        start = text.rfind(b"\n", 0, at) + 1
        if _is_hand_start(text[start:text.find(b"\n", at) + 1 or len(text)]):
            return start
        end = start
    return -1


def _hand_starts(text: bytes) -> list[int]:
    """Where each ``hand_start`` line of *text* after its first line starts, in order: the
    lines holding ``hand_start`` or a backslash (a ``\\u`` escape could spell it) are found by
    ``bytes.find`` and only they are decoded (:func:`_is_hand_start`)."""
    first = text.find(b"\n") + 1
    if not first:
        return []
    checked: set[int] = set()
    starts = []
    for needle in (b"hand_start", b"\\"):
        at = text.find(needle, first)
        while at >= 0:
            start = text.rfind(b"\n", 0, at) + 1
            end = text.find(b"\n", at) + 1 or len(text)
            if start not in checked:
                checked.add(start)
                if _is_hand_start(text[start:end]):
                    starts.append(start)
            at = text.find(needle, end)
    return sorted(starts)


def piece_hands(piece: Piece) -> list[HandText]:
    """The hands of *piece*, as :func:`_source_hands` would read them from its lines."""
    text, source = piece.text, piece.source
    line, index, plain = piece.line, piece.index, piece.plain
    hands = []
    starts = _hand_starts(text)
    for start, end in zip([0, *starts], [*starts, len(text)]):
        lines = tuple(io.BytesIO(text[start:end]))  # lines as a file's: cut at b"\n" only
        hands.append(HandText(source, line, index, lines))
        line += len(lines)
        index += len(lines) if plain else len(lines) - sum(map(bytes.isspace, lines))
    return hands


def unit_hands(unit: Piece | PieceAt | list[HandText]) -> list[HandText]:
    """The hands of a unit of work (:func:`read_pieces`, :func:`sent`)."""
    if type(unit) is list:
        return unit
    return piece_hands(read_piece(unit) if type(unit) is PieceAt else unit)  # type: ignore[arg-type]


def _source_hands(path: str, stream: BinaryIO, raw: BinaryIO, progress: Progress | None) -> Iterator[HandText]:
    """The hands of one source read line by line: the plain reference :func:`read_hands`
    (pieces found and cut by searching the bytes) is held to by ``tests/test_batch.py``."""
    lines: list[bytes] = []
    first = index = count = 0  # first line of the hand, its first event's index, events so far
    number = 0
    for number, line in enumerate(stream, 1):
        blank = line.isspace()
        if not lines and not count:
            if blank:
                continue
            if line.lstrip().startswith(b"["):  # a JSON array: read whole
                yield from _array_hands(path, number, line + stream.read())
                return
        if not blank and _is_hand_start(line) and lines and count:
            if progress is not None:
                progress.read_to(raw)
            yield HandText(path, first, index - count, tuple(lines))
            lines = []
        if not lines:
            first = number
            count = 0
        lines.append(line)
        if not blank:
            index += 1
            count += 1
    if count:
        if progress is not None:
            progress.read_to(raw)
        yield HandText(path, first, index - count, tuple(lines))


def _array_hands(path: str, number: int, text: bytes) -> Iterator[HandText]:
    from referee.events import EventError

    try:
        items = json.loads(text)
    except ValueError as exc:
        msg = exc.msg if isinstance(exc, json.JSONDecodeError) else "not UTF-8"
        raise EventError(f"not valid JSON ({msg})", field="events", reason_zh="不是有效的 JSON") from None
    if not isinstance(items, list):
        raise EventError("a stream is JSON Lines or a JSON array of events", field="events",
                         reason_zh="事件流須為 JSON Lines 或事件的 JSON 陣列")
    hand: list[Any] = []
    start = 0
    for i, item in enumerate(items):
        if hand and isinstance(item, dict) and item.get("type") == "hand_start":
            yield HandText(path, number, start, tuple(hand), decoded=True)
            hand, start = [], i
        hand.append(item)
    if hand:
        yield HandText(path, number, start, tuple(hand), decoded=True)


# --- one hand ---------------------------------------------------------------------------------


def judge(events: list, ruleset: Any = None, mode: Any = None, names: Any = None) -> Any:
    """One hand through the one hand adjudicator (:class:`penalties.adjudicator.HandAdjudicator`,
    issue #13), event by event as live ingest feeds it: its :class:`~penalties.adjudicator.HandResult`
    — the referee's adjudication, penalties' rulings as given, the one outcome. The same answers
    :func:`api.adjudications.adjudication_document` and :func:`api.rulings.rulings_document` give
    per hand, which ``tests/test_batch.py`` compares with. *names*: the players by seat
    (``--names``), named in the words.

    :raises referee.errors.MjrefError: a hand the referee or penalties cannot read.
    """
    return _adjudicator()(ruleset, mode, names=names).feed_all(events)


@functools.cache
def _adjudicator() -> Any:
    """:class:`penalties.adjudicator.HandAdjudicator`, imported at the first hand (not with this
    module, which the CLI loads for every command) and not again at each hand (an ``import``
    statement run per hand looks the module up each time)."""
    from penalties.adjudicator import HandAdjudicator

    return HandAdjudicator


def replay_answer(hand: Any) -> dict[str, Any]:
    """``flask replay``'s answer for a hand: the adjudication with its rulings (``penalties``)."""
    return hand.to_dict()


def rule_answer(hand: Any) -> dict[str, Any]:
    """``flask rule``'s answer for a hand (:func:`api.rulings.hand_rulings`)."""
    from api.rulings import hand_rulings

    return hand_rulings(hand)


ANSWERS = {"replay": replay_answer, "rule": rule_answer}

_COMPACT = {"ensure_ascii": False, "separators": (",", ":")}


#: ``json.dumps(value, **_COMPACT)`` without making a new JSONEncoder each call (json.dumps
#: makes one whenever an option is not its default: two a hand)
_dumps = json.JSONEncoder(**_COMPACT).encode


def replay_text(hand: Any) -> str:
    """``flask replay``'s answer as its compact JSON text: byte for byte
    ``json.dumps(replay_answer(hand), ensure_ascii=False, separators=(",", ":"))``, with the
    verdicts — one per event, most of them ``{"seq":n,"verdict":"accepted"}`` — written as
    text (:func:`verdicts_text`) instead of a dict each (issue #17: about 7.5 kB a hand, most
    of it verdicts), and the final table written from its values
    (:func:`referee.outcome.final_table_text`, the text of ``adj.final``). The members are
    :meth:`penalties.adjudicator.HandResult.to_dict`'s, in its order; ``tests/test_batch.py``
    holds the two texts equal on generated and irregular hands."""
    head, verdicts, rest = _replay_parts(hand)
    return f'{head},"verdicts":{verdicts_text(verdicts)},{rest}'


def _replay_parts(hand: Any) -> tuple[str, Any, str]:
    """:func:`replay_text`'s text but the verdicts: the text before them (the members up to
    ``irregularities``, the object not closed), the verdicts, the text after them (``final``
    and ``penalties``, the object closed)."""
    adj = hand.adjudication
    penalties = hand.rulings.to_dict()
    penalties["rulings"] = [g.to_dict() for g in hand.given]
    head = _dumps({"table": adj.table, "hand": adj.hand, "mode": adj.mode, "ruleset": adj.ruleset,
                   "outcome": hand.result.to_dict(), "closed_at": hand.closed_at,
                   "irregularities": [i.to_dict() for i in adj.irregularities]})
    final = final_table_text(adj.state) if adj.state is not None else "{}"  # adj.final's text
    return head[:-1], adj.verdicts, f'"final":{final},"penalties":{_dumps(penalties)}}}'


def rule_text(hand: Any) -> str:
    """``flask rule``'s answer as its compact JSON text: byte for byte ``json.dumps`` of
    :func:`rule_answer` (:func:`api.rulings.hand_rulings`), without writing the verdicts it
    leaves out (``tests/test_batch.py`` holds the two equal)."""
    adj = hand.adjudication
    penalties = hand.rulings.to_dict()
    penalties["rulings"] = [g.to_dict() for g in hand.given]
    return _dumps({"table": adj.table, "hand": adj.hand, "mode": adj.mode, "ruleset": adj.ruleset,
                   "outcome": hand.result.to_dict(), "closed_at": hand.closed_at, **penalties})


#: the accepted verdict of one event, ``%`` its seq (ints are written alike by json and %d)
_ACCEPTED_TEXT = '{"seq":%d,"verdict":"accepted"}'
#: seq → its accepted verdict's text (``_ACCEPTED_TEXT % seq``), for the seqs met so far: a
#: hand's seqs are about the same few hundred in every hand; emptied when full
_ACCEPTED_TEXTS: dict[int, str] = {}
_ACCEPTED_LIMIT = 4096


def verdicts_text(verdicts: Any) -> str:
    """The answer's ``verdicts`` as compact JSON text: ``json.dumps`` of each verdict's
    ``to_dict(seq)`` in a list; a :class:`referee.verdicts.VerdictLog`'s accepted events
    written from :data:`_ACCEPTED_TEXT`, the others by their own ``to_dict``."""
    if type(verdicts) is not VerdictLog:
        return _dumps([v.to_dict(seq) for seq, v in verdicts])
    accepted = _ACCEPTED_TEXT
    if not verdicts.odd:
        seqs = verdicts.seqs
        try:  # each seq's text from the table (map in C: no bytecode per verdict)
            return f"[{','.join(map(_ACCEPTED_TEXTS.__getitem__, seqs))}]"
        except KeyError:
            if len(_ACCEPTED_TEXTS) >= _ACCEPTED_LIMIT:
                _ACCEPTED_TEXTS.clear()
            _ACCEPTED_TEXTS.update({seq: accepted % seq for seq in seqs})
            return f"[{','.join(map(_ACCEPTED_TEXTS.__getitem__, seqs))}]"
    get = verdicts.odd.get
    texts = [accepted % seq if (v := get(seq)) is None else _dumps(v.to_dict(seq)) for seq in verdicts.seqs]
    return f"[{','.join(texts)}]"


TEXTS = {"replay": replay_text, "rule": rule_text}


def replay_line(hand: Any, errors: str = "strict") -> bytes:
    """:func:`replay_text`'s line (with its newline) in UTF-8 under *errors*, byte for byte
    ``(replay_text(hand) + "\n").encode("utf-8", errors)``, written as bytes from its values
    (:func:`api.answer_lines.replay_line`, issue #17): the verdicts from bytes kept per seq
    (:func:`verdicts_line`), the outcome, the penalties and the head from bytes kept by the
    values that recur, the final table written as bytes (``final_table_line``).
    :func:`replay_line_reference` is the plain writer; ``tests/test_batch.py`` holds
    ``replay_line`` to ``replay_text`` encoded, and ``tests/test_answer_lines.py`` each part and
    the reference to the answer's dict dumped.

    :raises UnicodeEncodeError: a part *errors* cannot write, as the whole text would raise.
    """
    return _answer_lines().replay_line(hand, verdicts_line, errors)


@functools.cache
def _answer_lines() -> Any:
    """:mod:`api.answer_lines`, imported at the first answer (it imports :mod:`penalties`, which
    this module, loaded for every CLI command, does not)."""
    from api import answer_lines

    return answer_lines


def replay_line_reference(hand: Any, errors: str = "strict") -> bytes:
    """:func:`replay_line` with the answer's head and tail dumped from their dicts (the plain
    writer): the verdicts — most of the answer, ASCII — from bytes kept per seq
    (:func:`verdicts_line`), and only the other parts, which may hold Chinese, encoded. The
    text joined whole would be UCS-2 for its few Chinese words: every ASCII part widened on
    the join, then the whole encoded back. UTF-8 encodes a text character by character, so
    the parts' encodings joined are the whole's.

    :raises UnicodeEncodeError: a part *errors* cannot write, as the whole text would raise.
    """
    head, verdicts, rest = _replay_parts(hand)
    return b"".join((head.encode("utf-8", errors), b',"verdicts":', verdicts_line(verdicts, errors), b",",
                     rest.encode("utf-8", errors), b"\n"))


def rule_line(hand: Any, errors: str = "strict") -> bytes:
    """:func:`rule_text`'s line (with its newline) in UTF-8 under *errors*."""
    return (rule_text(hand) + "\n").encode("utf-8", errors)


#: seq → its accepted verdict's text in bytes (:data:`_ACCEPTED_TEXT`), as :data:`_ACCEPTED_TEXTS`
_ACCEPTED_LINES: dict[int, bytes] = {}


def verdicts_line(verdicts: Any, errors: str = "strict") -> bytes:
    """:func:`verdicts_text` in UTF-8 under *errors*: a :class:`referee.verdicts.VerdictLog`'s
    accepted events joined from bytes kept per seq (ASCII), the others (an irregular hand's:
    a platform's archive of disputes is mostly such hands) each dumped and encoded; any
    other list of pairs encoded whole."""
    if type(verdicts) is not VerdictLog:
        return verdicts_text(verdicts).encode("utf-8", errors)
    seqs = verdicts.seqs
    if verdicts.odd:
        get = verdicts.odd.get
        kept = _ACCEPTED_LINES.get
        accepted = _ACCEPTED_TEXT
        lines = []
        for seq in seqs:
            v = get(seq)
            if v is None:
                line = kept(seq)
                if line is None:
                    if len(_ACCEPTED_LINES) >= _ACCEPTED_LIMIT:
                        _ACCEPTED_LINES.clear()
                    line = _ACCEPTED_LINES[seq] = (accepted % seq).encode("ascii")
                lines.append(line)
            else:
                lines.append(_dumps(v.to_dict(seq)).encode("utf-8", errors))
        return b"[%b]" % b",".join(lines)
    try:
        return b"[%b]" % b",".join(map(_ACCEPTED_LINES.__getitem__, seqs))
    except KeyError:
        if len(_ACCEPTED_LINES) >= _ACCEPTED_LIMIT:
            _ACCEPTED_LINES.clear()
        accepted = _ACCEPTED_TEXT
        _ACCEPTED_LINES.update({seq: (accepted % seq).encode("ascii") for seq in seqs})
        return b"[%b]" % b",".join(map(_ACCEPTED_LINES.__getitem__, seqs))


#: each command's line in UTF-8 (:data:`TEXTS`' texts, encoded)
LINES = {"replay": replay_line, "rule": rule_line}


@dataclass(frozen=True, slots=True)
class Settings:
    """What every hand of a batch is judged under: the command, the ruleset (None: each
    ``hand_start``'s), the table mode (None: the stream's), the players by seat (``--names``;
    None: the seats by wind only)."""

    command: str
    ruleset: Any = None
    mode: Any = None
    names: tuple[str | None, ...] | None = None


@dataclass(slots=True)
class Answer:
    """A hand's answer: its JSON line (compact), or the problem; what the summary counts.
    ``data``: instead of ``text``, the line with its newline in UTF-8, when answered for
    :class:`Lines` (:func:`answer_hand`'s *errors*)."""

    source: str
    line: int
    text: str | None = None
    problem: dict[str, Any] | None = None
    codes: tuple[str, ...] = ()
    ruled: bool = False
    data: bytes | None = None


def decode(hand: HandText) -> list:
    """The hand's events: each line decoded and read (:func:`referee.events.read_hand_events`,
    :func:`referee.events.parse_event`), ``seq`` checked (:func:`referee.events.check_order`);
    errors name the line or the field. Events the decoder found in order (each seq above the one
    before) are not walked again: ``check_order`` would pass them (issue #17); any others are
    checked by it, after every line is decoded, so a line's error comes before an order's."""
    index = hand.index
    if hand.decoded:
        events = [parse_event(raw, index=i) for i, raw in enumerate(hand.lines, index)]
    else:
        events, in_order = read_hand_events(hand.lines, hand.line, index)
        if in_order:
            return events
    check_order(events, index)
    return events


def answer_hand(hand: HandText, settings: Settings, errors: str | None = None) -> Answer:
    """Decode, judge and answer one hand; an error becomes the answer's problem. With
    *errors*, the answer is its line in UTF-8 under that error handler (``Answer.data``,
    :data:`LINES`) instead of its text.

    :raises UnicodeEncodeError: with *errors*, a line that cannot be written so (the caller
        answers again as text, and meets the error where the text is written).
    """
    try:
        events = decode(hand)
        if not events or events[0].type is not EventType.HAND_START:
            split_hands(events)  # the stream's own error for events before hand_start
        hand_result = judge(events, settings.ruleset, settings.mode, settings.names)
        if errors is None:
            text = TEXTS[settings.command](hand_result)  # json.dumps(ANSWERS[…](hand_result)), compact
            data = None
        else:
            data = LINES[settings.command](hand_result, errors)  # (text + "\n").encode("utf-8", errors)
            text = None
    except MjrefError as error:
        from api import problem

        return Answer(hand.source, hand.line, problem=problem(error)[0])
    except UnicodeEncodeError as error:
        if errors is not None:
            raise
        return Answer(hand.source, hand.line, problem=_internal(error))
    except Exception as error:  # noqa: BLE001 — a bug must not stop a 100,000-hand batch
        return Answer(hand.source, hand.line, problem=_internal(error))
    codes = tuple(i.code for i in hand_result.adjudication.irregularities)
    return Answer(hand.source, hand.line, text=text, codes=codes, ruled=bool(hand_result.given), data=data)


def _internal(error: Exception) -> dict[str, Any]:
    return {"type": "urn:mjref:problem:internal_error", "title": "內部錯誤 Internal error", "status": 500,
            "code": "internal_error", "field": None, "detail": f"{type(error).__name__}: {error}",
            "detail_zh": "此盤處理時發生內部錯誤（請回報）"}


def answer_line(answer: Answer) -> str:
    """*answer*'s line in ``--format lines``: its compact JSON, or ``{"source", "line",
    "problem"}``; with its newline."""
    if answer.problem is None:
        return answer.text + "\n"  # type: ignore[operator]
    return json.dumps({"source": answer.source, "line": answer.line, "problem": answer.problem}, ensure_ascii=False,
                      separators=(",", ":")) + "\n"


@dataclass(slots=True)
class Lines:
    """A unit's answers as a worker (or, with ``--jobs 1``, this process) wrote them
    (``--format lines``, :func:`unit_lines`): the bytes of their lines, and what the summary
    counts — so the parent writes a unit with one call, and neither unpickles nor encodes
    each answer's text."""

    data: bytes
    count: int
    codes: list[str]
    ruled: int
    unreadable: list[Answer]


#: what a worker process works under (set before the pool forks): the settings, and the
#: ``(encoding, errors)`` the answers' lines are written in (None: the answers come back whole)
_WORK: tuple[Settings, tuple[str, str] | None] | None = None


def _answer_unit(unit: Piece | PieceAt | list[HandText]) -> list[Answer] | Lines:
    """A unit's answers, in a worker: as :class:`Lines` when ``_WORK`` says how to encode them."""
    settings, output = _WORK  # type: ignore[misc]
    hands = unit_hands(unit)
    if output is None:
        return [answer_hand(hand, settings) for hand in hands]
    return unit_lines(hands, settings, output)


def unit_lines(hands: list[HandText], settings: Settings, output: tuple[str, str]) -> list[Answer] | Lines:
    """*hands*' answers as :class:`Lines` in *output* ``(encoding, errors)`` — a UTF-8 codec
    (:meth:`Writer.lines_encoding`): each answered as its line in UTF-8 (:func:`answer_hand`
    with *errors*), a problem's line encoded. Byte for byte the answers' lines
    (:func:`answer_line`) joined and encoded, which :func:`unit_lines_reference` writes and
    ``tests/test_batch.py`` compares with. A line that cannot be encoded: the answers as text,
    which the parent writes one by one, meeting the error where it would."""
    errors = output[1]
    try:
        done = [answer_hand(hand, settings, errors) for hand in hands]
        data = b"".join([answer_line(a).encode(*output) if a.data is None else a.data for a in done])
    except UnicodeEncodeError:
        return [answer_hand(hand, settings) for hand in hands]
    return Lines(data, len(done), [code for answer in done for code in answer.codes], sum(a.ruled for a in done),
                 [answer for answer in done if answer.problem is not None])


def unit_lines_reference(hands: list[HandText], settings: Settings, output: tuple[str, str]) -> list[Answer] | Lines:
    """:func:`unit_lines`' plain reference: the answers as text, their lines joined and encoded."""
    done = [answer_hand(hand, settings) for hand in hands]
    try:
        data = "".join(map(answer_line, done)).encode(*output)
    except UnicodeEncodeError:
        return done
    return Lines(data, len(done), [code for answer in done for code in answer.codes], sum(a.ruled for a in done),
                 [answer for answer in done if answer.problem is not None])


# --- the pool ---------------------------------------------------------------------------------


def default_jobs() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def answers(hands: Iterable[HandText], settings: Settings, jobs: int = 1) -> Iterator[Answer]:
    """Each hand's :class:`Answer`, in input order: chunks of :data:`CHUNK` hands through
    :func:`results`."""
    for done in results(_chunks(hands, CHUNK), settings, jobs):
        yield from done  # type: ignore[misc]


def results(units: Iterator[Piece | list[HandText]], settings: Settings, jobs: int = 1,
            output: tuple[str, str] | None = None) -> Iterator[list[Answer] | Lines]:
    """The answers of each unit of work (:func:`read_pieces`, or chunks of hands), in input
    order: a list of :class:`Answer`, or with *output* ``(encoding, errors)`` (a UTF-8 codec),
    :class:`Lines` (:func:`unit_lines`; the first hand always an :class:`Answer`).

    The first hand is answered here, before any worker starts: the imports and tables it
    loads are then the workers' too (forked), instead of loaded again by each. With *jobs* > 1
    and more than one unit, the others go to *jobs* worker processes, at most ``IN_FLIGHT ×
    jobs`` units at a time: memory stays bounded whatever the log's size. A log of one unit
    is answered here, without starting workers.
    """
    global _WORK
    first = next(units, None)
    if first is None:
        return
    hands = unit_hands(first)
    yield [answer_hand(hands[0], settings)]
    rest = hands[1:]
    second = next(units, None) if jobs > 1 else None
    if second is None:
        for hands in itertools.chain([rest], map(unit_hands, units)):
            if output is None:
                yield [answer_hand(hand, settings) for hand in hands]
            elif hands:  # Lines of no hand would end ``auto``'s wait for a second hand
                yield unit_lines(hands, settings, output)
        return
    import gc
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _WORK = (settings, output)
    pending: collections.deque = collections.deque()
    gc.freeze()  # what this process holds is left out of the workers' collections (its pages stay shared)
    try:
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            for unit in itertools.chain([rest] if rest else [], (second,), units):
                pending.append(pool.submit(_answer_unit, sent(unit)))
                while len(pending) >= IN_FLIGHT * jobs:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
    finally:
        gc.unfreeze()


# --- a Dask cluster ---------------------------------------------------------------------------


def portable(settings: Settings) -> tuple[str, str | None, str | None, str | None, tuple | None]:
    """*settings* as plain text, for another machine: ``(command, profile, overrides as
    JSON, mode, names)`` (a :class:`referee.ruleset.Ruleset` is rebuilt from its profile and
    overrides there — it is not picklable, and is large to send with every chunk)."""
    ruleset, mode = settings.ruleset, settings.mode
    return (settings.command, None if ruleset is None else ruleset.profile,
            None if ruleset is None else json.dumps(dict(ruleset.overrides), sort_keys=True),
            None if mode is None else mode.value, settings.names)


@functools.lru_cache(maxsize=8)
def from_portable(command: str, profile: str | None, overrides: str | None, mode: str | None,
                  names: tuple | None = None) -> Settings:
    """The :class:`Settings` :func:`portable` describes (built once per worker)."""
    from referee.events import Mode
    from referee.ruleset import Ruleset

    ruleset = None if profile is None else Ruleset.load(profile, json.loads(overrides or "{}") or None)
    return Settings(command, ruleset, None if mode is None else Mode(mode), names)


def _dask_chunk(chunk: list[HandText], settings: tuple) -> list[Answer]:
    """One chunk's answers on a Dask worker (the worker imports mjref: the same code as here)."""
    chosen = from_portable(*settings)
    return [answer_hand(hand, chosen) for hand in chunk]


def dask_answers(hands: Iterable[HandText], settings: Settings, scheduler: Any) -> Iterator[Answer]:
    """Each hand's :class:`Answer`, in input order, the chunks judged on a Dask cluster
    (:func:`dask_results`)."""
    for done in dask_results(hands, settings, scheduler):
        yield from done


def dask_results(hands: Iterable[HandText], settings: Settings, scheduler: Any) -> Iterator[list[Answer]]:
    """Each chunk's answers, in input order, the chunks judged on a Dask cluster
    (``dask.distributed``): the same per-hand job (:func:`answer_hand`) as the local pool,
    so the same answers. At most :data:`IN_FLIGHT` chunks per worker thread are in the
    cluster at a time: memory stays bounded here and there whatever the log's size.

    :param scheduler: the scheduler's address (``tcp://host:8786``) or a cluster object.
    :raises click.BadParameter: the scheduler cannot be reached, or dask.distributed is not
        installed (naming ``--scheduler``).
    """
    try:
        from distributed import Client
    except ImportError:
        raise click.BadParameter("未安裝 dask[distributed] — dask.distributed is not installed here "
                                 "(pip install 'dask[distributed]')", param_hint="'--scheduler'") from None
    try:
        client = Client(scheduler, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise click.BadParameter(f"無法連上 Dask 排程器 {scheduler} — cannot reach the Dask scheduler at "
                                 f"{scheduler}: {exc}", param_hint="'--scheduler'") from None
    with client:
        threads = max(1, sum(client.nthreads().values()))
        wire = portable(settings)
        pending: collections.deque = collections.deque()
        for chunk in _chunks(hands, CHUNK):
            # pure=False: two equal chunks (a log repeating itself) are still two jobs, in order
            pending.append(client.submit(_dask_chunk, chunk, wire, pure=False))
            while len(pending) >= IN_FLIGHT * threads:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _chunks(items: Iterable[HandText], size: int) -> Iterator[list[HandText]]:
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


# --- writing, progress, summary ---------------------------------------------------------------


class Writer:
    """Answers out on stdout, in order: JSON Lines, or one document (see the module docstring).

    :param form: ``lines``, ``document`` or ``auto`` (the document for one hand).
    """

    def __init__(self, form: str, out: Any = None) -> None:
        self.form = form
        self.out = out or sys.stdout
        self.held: Answer | None = None  # auto: the first answer, until a second one comes
        self.count = 0

    @property
    def lines(self) -> bool:
        return self.form == "lines"

    def write(self, answer: Answer) -> None:
        self.count += 1
        if self.form == "auto":
            if self.held is None and self.count == 1:
                self.held = answer
                return
            self._lines_now()
        if self.form == "lines":
            self.out.write(answer_line(answer))
        else:
            self._document_part(answer)

    def _lines_now(self) -> None:
        """``auto`` with a second answer: lines, the first one's written."""
        self.form = "lines"
        if self.held is not None:
            self.out.write(answer_line(self.held))
            self.held = None

    def lines_encoding(self) -> tuple[str, str] | None:
        """``(encoding, errors)`` workers may write the answers' lines in, as bytes
        (:class:`Lines`): when the form is lines or auto and the output is a text stream over
        a binary one writing UTF-8 with no newline translation — what it would write for the
        text, byte for byte; None otherwise (the answers come back whole)."""
        encoding = getattr(self.out, "encoding", None)
        if self.form == "document" or getattr(self.out, "buffer", None) is None or not encoding \
                or os.linesep != "\n":
            return None
        try:
            utf8 = codecs.lookup(encoding).name == "utf-8"
        except LookupError:
            return None
        return (encoding, getattr(self.out, "errors", None) or "strict") if utf8 else None

    def write_lines(self, lines: Lines) -> None:
        """A unit's lines written as bytes (:meth:`lines_encoding`, :func:`unit_lines`, in a
        worker or in this process): after the answers before it (the units come after the
        first answer, written as text)."""
        self.count += lines.count
        if self.form == "auto":
            self._lines_now()
        self.out.flush()
        self.out.buffer.write(lines.data)

    def _document_part(self, answer: Answer) -> None:
        from referee.events import PROTOCOL_VERSION

        if answer.problem is not None:
            raise HandProblem(answer)
        self.out.write(f'{{"protocol": {PROTOCOL_VERSION}, "hands": [\n' if self.count == 1 else ",\n")
        self.out.write(answer.text)

    def close(self) -> None:
        """End the output. A single hand held (``auto``) is written as the document, indented
        as before; its problem, if any, raises :class:`HandProblem`."""
        if self.held is not None:
            answer, self.held = self.held, None
            if answer.problem is not None:
                raise HandProblem(answer)
            from referee.events import PROTOCOL_VERSION

            document = {"protocol": PROTOCOL_VERSION, "hands": [json.loads(answer.text)]}
            self.out.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
        elif self.form == "document" and self.count:
            self.out.write("\n]}\n")
        self.out.flush()


class HandProblem(Exception):
    """The one hand of a document could not be read: the command reports its problem as
    every command does (stderr, status 2)."""

    def __init__(self, answer: Answer) -> None:
        super().__init__(answer.problem)
        self.answer = answer


@dataclass
class Progress:
    """The bar (stderr, only on a terminal and without ``--quiet``) and the summary's counts."""

    show: bool
    total_bytes: int = 0
    hands: int = 0
    codes: collections.Counter = field(default_factory=collections.Counter)
    ruled: int = 0
    unreadable: list[Answer] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    _bytes: int = 0
    _done_bytes: int = 0
    _bar: Any = None

    def __post_init__(self) -> None:
        if self.show:
            from tqdm import tqdm

            self._bar = tqdm(total=None, unit=" hands", file=sys.stderr, dynamic_ncols=True, smoothing=0.1,
                             desc="盤 hands")

    def read_to(self, raw: Any) -> None:
        """The reader has read up to *raw*'s position (bytes of the source)."""
        if self._bar is not None:
            try:
                self._bytes = self._done_bytes + raw.tell()
            except (OSError, ValueError):
                pass

    def source_done(self, size: int) -> None:
        self._done_bytes += size

    def count(self, answer: Answer) -> None:
        self.hands += 1
        if answer.problem is not None:
            self.unreadable.append(answer)
        else:
            self.codes.update(answer.codes)
            self.ruled += answer.ruled
        if self._bar is not None:
            self._advance(1)

    def count_lines(self, lines: Lines) -> None:
        """A unit's answers (:class:`Lines`) counted."""
        self.hands += lines.count
        self.unreadable.extend(lines.unreadable)
        self.codes.update(lines.codes)
        self.ruled += lines.ruled
        if self._bar is not None:
            self._advance(lines.count)

    def _advance(self, hands: int) -> None:
        bar = self._bar
        bar.update(hands)
        if self.total_bytes and self._bytes and (hands > 1 or self.hands % 16 == 0):
            # ETA: the hands answered per byte read (the reader is ahead by the units in flight)
            bar.total = max(self.hands, round(self.hands * self.total_bytes / self._bytes))

    def close(self) -> None:
        if self._bar is not None:
            self._bar.total = self.hands
            self._bar.refresh()
            self._bar.close()

    def summary(self) -> str:
        """The closing summary, zh-TW first, English second."""
        seconds = max(time.monotonic() - self.started, 1e-9)
        read = self.hands - len(self.unreadable)
        out = [f"共 {self.hands} 盤，{self.hands / seconds:,.0f} 盤/秒 — {self.hands} hands in {seconds:.1f} s "
               f"({self.hands / seconds:,.0f} hands/s); 可讀 read {read}, 無法讀取 unreadable {len(self.unreadable)}",
               f"有裁定的盤 hands with rulings: {self.ruled}"]
        codes = ", ".join(f"{code} {n}" for code, n in sorted(self.codes.items(), key=lambda kv: (-kv[1], kv[0])))
        out.append(f"違規（依代碼）irregularities by code: {codes or '—'}")
        for answer in self.unreadable[:50]:
            p = answer.problem or {}
            out.append(f"  無法讀取 unreadable: {answer.source} line {answer.line}: "
                       f"{p.get('field')}: {p.get('detail')}")
        if len(self.unreadable) > 50:
            out.append(f"  … {len(self.unreadable) - 50} more")
        return "\n".join(out)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path) if path != "-" else 0
    except OSError:
        return 0


def run(paths: Iterable[str], settings: Settings, *, jobs: int = 0, form: str = "auto", quiet: bool = False,
        scheduler: Any = None) -> int:
    """Answer every hand of the files on stdout; progress and summary on stderr.

    :returns: the exit status: 0, or 2 when a hand could not be read.
    :raises HandProblem: the one hand of a document could not be read.
    """
    files = input_files(paths)
    progress = Progress(show=not quiet and sys.stderr.isatty())
    progress.total_bytes = sum(_size(p) for p in files)
    writer = Writer(form)
    try:
        units = _read_all(files, progress)
        if scheduler is not None:
            done = dask_results(itertools.chain.from_iterable(map(unit_hands, units)), settings, scheduler)
        else:
            done = results(units, settings, jobs or default_jobs(), writer.lines_encoding())
        for unit in done:
            if type(unit) is Lines:
                writer.write_lines(unit)
                progress.count_lines(unit)
                continue
            for answer in unit:
                writer.write(answer)
                progress.count(answer)
    except (OSError, EOFError) as exc:  # a file that cannot be read, a broken gzip
        from referee.events import EventError

        raise EventError(f"cannot read the log: {exc}", field="files", reason_zh=f"無法讀取紀錄檔：{exc}") from None
    finally:
        progress.close()
    if writer.count == 0:
        from referee.machine import StreamError

        raise StreamError("the stream holds no events", field="events", reason_zh="事件流沒有事件")
    writer.close()
    if not quiet and (writer.count > 1 or writer.lines):
        click.echo(progress.summary(), err=True)
    return 2 if progress.unreadable else 0


def _read_all(files: list[str], progress: Progress) -> Iterator[Piece | list[HandText]]:
    for path in files:
        yield from read_pieces([path], progress)
        progress.source_done(_size(path))


# --- the commands -----------------------------------------------------------------------------


def batch_options(command):
    """``FILES...`` and the batch options shared by ``flask replay`` and ``flask rule``."""
    @click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=True))
    @click.option("--jobs", "-j", type=click.IntRange(0), default=0, show_default="every core",
                  help="平行處理的行程數 worker processes (0: every core)")
    @click.option("--format", "form", type=click.Choice(["auto", "lines", "document"]), default="auto",
                  show_default=True,
                  help="lines: 每盤一行 JSON one compact line per hand; document: 一份文件 one document; "
                       "auto: 一盤時為文件")
    @click.option("--scheduler", default=None, metavar="ADDRESS",
                  help="在 Dask 叢集上處理 judge the hands on a dask.distributed cluster (tcp://host:8786); "
                       "--jobs is then unused")
    @click.option("--quiet", "-q", is_flag=True, help="不顯示進度與摘要 no progress bar, no summary")
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        return command(*args, **kwargs)

    return wrapper


def _run_command(files, settings: Settings, jobs: int, form: str, quiet: bool, scheduler: str | None) -> None:
    try:
        status = run(files, settings, jobs=jobs, form=form, quiet=quiet, scheduler=scheduler)
    except HandProblem as exc:
        click.echo(json.dumps(exc.answer.problem, ensure_ascii=False, indent=2), err=True)
        sys.exit(2)
    if status:
        sys.exit(status)


_MODES = ("digital", "physical")


def names_option(command):
    """``--names``: the players by seat, named in the rulings' words (「東家 王小明」)."""
    return click.option("--names", "names_text", default=None, metavar="N0,N1,N2,N3",
                        help="各座位選手名字，0 號座起，以逗號分隔（或 JSON 陣列）；空白表示不詳 the 4 seats' players, "
                             "seat 0 first, comma-separated (or a JSON array); empty for one not known")(command)


def read_names_option(text: str | None) -> tuple[str | None, ...] | None:
    """``--names`` read (:func:`penalties.words.read_names`): ``"王小明,李大華,,林志強"`` or
    ``'["王小明", "李大華", null, "林志強"]'``.

    :raises penalties.errors.AdjudicationError: not four names, naming ``--names`` (``--names[2]``).
    """
    from penalties.words import read_names

    if text is None:
        return None
    value: Any = text.split(",")
    if text.lstrip().startswith("["):
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text  # not a list: read_names says so
    return read_names(value, field="--names")


@click.command("replay")
@batch_options
@click.option("--mode", type=click.Choice(_MODES), default=None,
              help="牌桌模式 digital|physical (default: hand_start's)")
@names_option
@reports_errors
@stream_ruleset_options
def replay_command(files, ruleset, mode: str | None, jobs: int, form: str, quiet: bool, scheduler: str | None,
                   names_text: str | None = None) -> None:
    """裁判：讀事件流（檔案、目錄、gzip 或 - 為標準輸入），逐盤判定並輸出每盤結果。Replay logs:
    JSON Lines in, hand by hand; each hand's verdicts, irregularities (with clause ids), outcome
    and rulings out, one line per hand (one document for one hand)."""
    from referee.events import Mode

    settings = Settings("replay", ruleset, Mode(mode) if mode else None, read_names_option(names_text))
    _run_command(files, settings, jobs, form, quiet, scheduler)


@click.command("rule")
@batch_options
@names_option
@reports_errors
@stream_ruleset_options
def rule_command(files, ruleset, jobs: int, form: str, quiet: bool, scheduler: str | None,
                 names_text: str | None = None) -> None:
    """罰則裁定：讀事件流（檔案、目錄、gzip 或 - 為標準輸入），逐盤輸出裁定、條文、處置與收付。Rule on
    logs: JSON Lines in, hand by hand; each hand's rulings (pen.*, prio.*), effects and payments out."""
    _run_command(files, Settings("rule", ruleset, names=read_names_option(names_text)), jobs, form, quiet, scheduler)
