"""The win context is built once (issue #13 item 2): :func:`referee.win_context.win_context` for
the referee's outcome, the face 牌面 of a declared win (:func:`penalties.face.declared_win`,
R-pen-1) and the wins penalties score (:mod:`penalties.extra_wins`); self-draw sources are one
map, :data:`referee.win_context.SELF_DRAW_SOURCES`.

Two holds: no domain module but :mod:`referee.win_context` makes a :class:`WinContext` or maps
self-draw sources itself (read from the source: a caller that builds its own again fails it);
and on generated hands the context penalties read for a win equals the referee's for the same
win, less the facts the declared reading leaves out (``declared=True``: readiness, first-turn
and flower wins, 包牌) — and where the win has none of those, the face is the referee's 台 and
a discard win penalties settle pays as the referee's outcome does."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from penalties.adjudicator import adjudicate_hands
from penalties.extra_wins import discard_win, transfers
from penalties.face import _scored, declared_win
from referee.events import to_jsonl
from referee.generator import generate_hand, physical_view
from referee.kinds import FirstTurn, FlowerWin, Readiness, Source, WinSource
from referee.win_context import SELF_DRAW_SOURCES

ROOT = Path(__file__).resolve().parent.parent
#: the one module that builds a win context from the referee's facts, and the scorer that defines it
_BUILDER = ROOT / "referee" / "win_context.py"
_SCORING = ROOT / "referee" / "scoring"
_WIN_SOURCES = {m.name for m in WinSource} | {f"{m.name}_WIN_SOURCE" for m in WinSource}


def _domain_modules():
    for package in ("referee", "penalties"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path != _BUILDER and _SCORING not in path.parents:
                yield path


def _own_builders(path: Path, root: Path = ROOT) -> list[str]:
    """Where *path* makes a WinContext itself (``WinContext(…)``, ``WinContext._of(…)``) or
    writes a map onto win sources (a dict whose values are all ``WinSource`` members)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id == "WinContext" or (
                    isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "WinContext"):
                found.append(f"{path.relative_to(root)}:{node.lineno}: builds a WinContext")
        elif isinstance(node, ast.Dict) and len(node.values) > 1:
            names = [v.attr if isinstance(v, ast.Attribute) else v.id if isinstance(v, ast.Name) else None
                     for v in node.values]
            if all(n in _WIN_SOURCES for n in names):
                found.append(f"{path.relative_to(root)}:{node.lineno}: maps sources onto win sources")
    return found


def test_no_domain_module_builds_its_own_win_context_or_source_map():
    assert [hit for path in _domain_modules() for hit in _own_builders(path)] == []


def test_the_check_finds_a_caller_that_builds_its_own(tmp_path):
    """The reading above finds the two ways a caller would go back to its own builder."""
    again = tmp_path / "again.py"
    again.write_text("ctx = WinContext(winner=0, dealer=0, round_wind=w, source=s)\n"
                     "ctx = WinContext._of(*args)\n"
                     "_SELF = {0: WinSource.WALL, 2: WinSource.LAST_TILE}\n"
                     "_S = {Source.DEALT: WALL_WIN_SOURCE, Source.KONG: KONG_REPLACEMENT_WIN_SOURCE}\n",
                     encoding="utf-8")
    assert len(_own_builders(again, tmp_path)) == 4


def test_every_source_of_a_self_draw_has_its_win_source():
    assert set(SELF_DRAW_SOURCES) == set(Source)
    assert all(s.is_self_draw for s in SELF_DRAW_SOURCES.values())


#: what the declared reading leaves out (win_context(…, declared=True))
_AS_DECLARED = {"flower_win": FlowerWin.NONE, "dealt_flower_win": False, "readiness": Readiness.NONE,
                "first_turn": FirstTurn.NONE, "robbed_flower": None, "liable": None}


def _hands():
    for seed in range(160):
        events = generate_hand(seed, hand=1 + seed % 3)
        yield seed, physical_view(events) if seed % 2 else events


@pytest.mark.parametrize("part", range(4))
def test_the_penalties_read_the_referees_context_for_the_same_win(part):
    """Generated hands (digital and physical): each win the referee scored, read again as
    penalties read a declared win (from the table the referee kept at the declaration)."""
    checked = plain = settled = 0
    for seed, events in _hands():
        if seed % 4 != part:
            continue
        (hand,) = adjudicate_hands(to_jsonl(events))
        record = hand.record
        st = record.adjudication.state
        for w in record.wins:
            claim = w.claim
            if w.context is None or claim.source is WinSource.FLOWER_WIN:
                continue
            win = record.event(claim.seq)
            declared = declared_win(record, st.win_faces[claim.seq], claim.seat, win)
            assert declared is not None, (seed, claim)
            pen_hand, pen_ctx = declared
            assert pen_ctx == dataclasses.replace(w.context, **_AS_DECLARED), (seed, claim)
            if w.hand is not None and claim.flower_win is FlowerWin.NONE:
                assert pen_hand.concealed == w.hand.concealed and pen_hand.melds == w.hand.melds, (seed, claim)
            checked += 1
            if w.score is None or any(getattr(w.context, k) != v for k, v in _AS_DECLARED.items()):
                continue
            assert _scored(record, st.win_faces[claim.seq], claim.seat, win) == w.score.tai, (seed, claim)
            plain += 1
            if claim.discarder is not None and claim.source is WinSource.DISCARD:
                assert discard_win(record, win, claim.discarder, claim.tile) == transfers(w.settlement), (seed, claim)
                settled += 1
    assert checked >= 20 and plain >= 10 and settled >= 5, (checked, plain, settled)
