"""The tuned referee is held to its plain reference (issue #19 item 3).

:class:`referee.machine.Referee` takes a legal draw and discard on fast paths (``_draw``,
``_discard``) and batch streams through :meth:`~referee.machine.Referee.apply_all`;
:class:`referee.machine.ReferenceReferee` checks every draw and discard rule by rule and
applies events one :meth:`apply` at a time. On generated hands with irregularities injected
(digital and physical tables) both must give the same verdict for every event, the same
irregularities, the same table state after every event — each seat's hand, waits, 過水
mark, pond, melds, the turn's facts — and the same adjudication.
"""
from __future__ import annotations

import enum

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.events import parse_stream
from referee.machine import ReferenceReferee, Referee
from referee.state import SeatState, TableState
from testkit.irregular import irregular_hand

#: TableState fields that are the same facts in other objects (the rules, the setup);
#: everything else is compared
SKIP = {"rules", "setup", "events"}
#: SeatState's ``wall_draw``: a record object the fast draw recycles instead of allocating a
#: new one per draw (no fact of its own: a window's ``taken`` holds its content, compared)
SEAT_SKIP = {"wall_draw"}


def plain(value, depth: int = 0):
    """A comparable picture of *value*: objects with slots become dicts of their fields
    (windows and records a few levels deep), enums their names, sequences lists."""
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, (int, float, str, bool, type(None))):
        return value
    if isinstance(value, dict):
        return {plain(k, depth): plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [plain(v, depth + 1) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    slots = [n for cls in type(value).__mro__ for n in getattr(cls, "__slots__", ())]
    if not slots:
        return repr(value)
    if depth > 3:
        return type(value).__name__
    return {n: plain(getattr(value, n, None), depth + 1) for n in slots if not n.startswith("__")}


def picture(state: TableState) -> dict:
    shown = {n: plain(getattr(state, n), 1) for n in TableState.__slots__ if n not in SKIP and n != "seats"}
    shown["seats"] = [{n: plain(getattr(seat, n), 1) for n in SeatState.__slots__ if n not in SEAT_SKIP}
                      for seat in state.seats]
    return shown


def both(events):
    """Each event applied to the tuned and to the reference referee: the two pictures after each."""
    fast, slow = Referee(), ReferenceReferee()
    for ev in events:
        a, b = fast.apply(ev), slow.apply(ev)
        assert a == b, f"seq {ev.seq} {ev.type.wire}: {a} != {b}"
        assert picture(fast.state) == picture(slow.state), f"the state differs after seq {ev.seq} {ev.type.wire}"
    return fast, slow


def stream(seed: int, salt: int, count: int, physical: bool):
    return parse_stream(irregular_hand(seed, salt, count, physical=physical))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 399), salt=st.integers(0, 10_000), count=st.integers(0, 4), physical=st.booleans())
def test_the_fast_paths_equal_the_reference_event_by_event(seed, salt, count, physical):
    events = stream(seed, salt, count, physical)
    fast, slow = both(events)
    assert fast.irregularities == slow.irregularities
    assert fast.finish().to_dict() == slow.finish().to_dict()


@pytest.mark.parametrize("physical", [False, True], ids=["digital", "physical"])
def test_batch_apply_all_equals_the_reference(physical):
    """``apply_all`` (the batch loop) and the reference's plain ``apply`` calls, over 60 hands."""
    for seed in range(60):
        events = stream(seed, seed * 7 + 1, seed % 4, physical)
        fast, slow = Referee(), ReferenceReferee()
        fast.apply_all(events)
        slow.apply_all(events)
        assert list(fast.verdicts) == list(slow.verdicts), seed
        assert picture(fast.state) == picture(slow.state), seed
        assert fast.finish().to_dict() == slow.finish().to_dict(), seed


@pytest.mark.parametrize("physical", [False, True], ids=["digital", "physical"])
def test_the_fast_paths_equal_the_reference_without_flowers(physical):
    """tiles.flowers: on 136-tile hands (walls of 17 stacks, the tail at the ring's other end)
    the fast paths and the batch loop give the reference's verdicts, state and adjudication."""
    for seed in range(10):
        events = parse_stream(irregular_hand(seed, seed * 5 + 2, seed % 4, physical=physical, flowers=False))
        fast, slow = both(events)
        assert fast.state.wall.size == 136
        batch = Referee()
        batch.apply_all(events)
        assert list(batch.verdicts) == list(slow.verdicts) and picture(batch.state) == picture(slow.state), seed
        assert fast.finish().to_dict() == slow.finish().to_dict() == batch.finish().to_dict(), seed


def passed_win_streams(physical: bool, want: int = 12, hands: int = 400) -> list[list[dict]]:
    """Generated hands won on a discard by the seat after the discarder, rewritten so that the
    winner draws instead (得胡牌者已伸手摸牌即視同過水, play.passed-win) and then declares the
    win on that discard anyway: the fast draw must mark the 過水 as the reference does.
    The first *want* such hands among the first *hands* seeds."""
    found = []
    for seed in range(hands):
        events = irregular_hand(seed, 0, 0, physical=physical)
        at = next((i for i, e in enumerate(events) if e["type"] == "win"), None)
        if at is None or events[at - 1]["type"] != "discard" or (events[at - 1]["seat"] + 1) % 4 != events[at]["seat"]:
            continue
        winner, head = events[at]["seat"], {k: events[at][k] for k in ("table", "hand")}
        tail = [{**head, "type": "draw", "seat": winner}, {**head, "type": "win", "seat": winner},
                {**head, "type": "hand_end"}]
        stream = events[:at] + tail
        for i, e in enumerate(stream):
            e["seq"], e["ts"] = i + 1, 1000 * (i + 1)
        found.append(stream)
        if len(found) == want:
            break
    return found


@pytest.mark.parametrize("physical", [False, True], ids=["digital", "physical"])
def test_a_win_passed_by_drawing_is_marked_on_the_fast_path_as_on_the_reference(physical):
    streams = passed_win_streams(physical)
    assert len(streams) == 12
    for events in streams:
        fast, slow = both(parse_stream(events))
        drawer = fast.state.seats[events[-2]["seat"]]
        if not physical:  # a physical table's hands are not known, nor their waits
            assert drawer.passed == events[-3]["seq"], "the draw is the 過水"
        assert fast.finish().to_dict() == slow.finish().to_dict()


def test_the_reference_takes_no_fast_path():
    """The reference turns the fast paths off, and the batch loop is its plain ``apply``."""
    assert Referee.fast_paths and not ReferenceReferee.fast_paths
    assert ReferenceReferee.apply_all is not Referee.apply_all


class _Counted:
    """Counts the draws and discards that went the checked way (a mixin for the two referees)."""

    __slots__ = ()
    checked: dict = {}

    def _checked_draw(self, st, ev):
        self.checked["draw"] += 1
        return super()._checked_draw(st, ev)

    def _checked_discard(self, st, ev, seat, x):
        self.checked["discard"] += 1
        return super()._checked_discard(st, ev, seat, x)

    def _claim_discard(self, st, ev, intake, dry=False):
        if not dry:
            self.checked["claim"] += 1
        return super()._claim_discard(st, ev, intake, dry)


class _CountedReferee(_Counted, Referee):
    __slots__ = ()
    checked = {"draw": 0, "discard": 0, "claim": 0}


class _CountedReference(_Counted, ReferenceReferee):
    __slots__ = ()
    checked = {"draw": 0, "discard": 0, "claim": 0}


def test_the_switch_sends_every_draw_and_discard_of_the_reference_the_checked_way():
    """The switch each referee reads (``Referee.fast``, a slot copied from ``fast_paths``) is
    the class's: the reference checks every draw and discard rule by rule, the tuned referee
    takes nearly all of a legal hand's on its fast paths. (Were the reference to take them
    too, the tests above would compare the fast paths with themselves.)"""
    assert Referee().fast is True and ReferenceReferee().fast is False
    events = stream(3, 0, 0, physical=False)
    draws = sum(1 for e in events if e.type.wire == "draw")
    discards = sum(1 for e in events if e.type.wire == "discard")
    claims = sum(1 for e in events
                 if e.type.wire in ("chow", "pung") or e.type.wire == "kong" and e.kind.name == "MELDED_KONG")
    assert draws > 20 and discards > 20 and claims > 2
    for cls in (_CountedReferee, _CountedReference):
        cls.checked.update(draw=0, discard=0, claim=0)
        ref = cls()
        ref.apply_all(events)
        ref.finish()
    assert _CountedReference.checked == {"draw": draws, "discard": discards, "claim": claims}
    fast = _CountedReferee.checked
    assert fast["draw"] < draws // 4 and fast["discard"] < discards // 4 and fast["claim"] < claims, fast


# ---------------------------------------------------------------- the fast claim (issue #17)

def _claim_candidates(state, seat: int) -> list[tuple[str, tuple[int, ...]]]:
    """The pung and the three chows of the open discard *seat* could name (held or not)."""
    w = state.window
    t = w.tile
    out = [("pung", (t, t, t))]
    if t < 27:
        for low in (t - 2, t - 1, t):
            if low >= 0 and low // 9 == (low + 2) // 9 == t // 9:
                out.append(("chow", (low, low + 1, low + 2)))
    return out


def _held(state, seat: int, tiles: tuple[int, ...], tile: int) -> bool:
    rest = list(tiles)
    rest.remove(tile)
    hand = state.seats[seat].hand
    return all(hand[x] >= rest.count(x) for x in rest)


def claim_streams(seed: int, physical: bool, every: int = 1):
    """Each legal hand cut after a discard (and, every other time, after the draw that
    follows it: the tile taken), then a chow or pung of that discard by a seat: every held
    claim there, and one not held, the claim's tiles in a rotating order; then the hand's
    next three events. Yields ``(prefix, claim and after)`` as dict streams."""
    from referee.tiles import tile_name

    events = irregular_hand(seed, 0, 0, physical=physical)
    parsed = parse_stream(events)
    ref = ReferenceReferee()
    for i, ev in enumerate(parsed):
        ref.apply(ev)
        st = ref.state
        w = st.window
        if (i % every or ev.type.wire not in ("discard", "draw") or w is None or w.kind.name != "DISCARD"
                or w.closed or (ev.type.wire == "draw" and i % 2)):
            continue
        rot = i % 3
        unheld = True
        for s in range(4):
            for kind, tiles in _claim_candidates(st, s):
                held = _held(st, s, tiles, w.tile)
                if not held and not (unheld and s == i % 4):
                    continue
                unheld = unheld and held
                order = tiles[rot:] + tiles[:rot]
                claim = {"type": kind, "seat": s, "table": events[0]["table"], "hand": events[0]["hand"],
                         "tiles": "".join(tile_name(x) for x in order)}
                yield events[:i + 1], [claim] + [dict(e) for e in events[i + 1:i + 4]]


def _renumbered(events: list[dict]) -> list[dict]:
    out = [dict(e) for e in events]
    for k, e in enumerate(out):
        e["seq"], e["ts"] = k + 1, 1000 * (k + 1)
    return out


@pytest.mark.parametrize("physical", [False, True], ids=["digital", "physical"])
def test_every_claim_of_a_discard_equals_the_reference(physical):
    """Chows and pungs made at every discard of legal hands (held, not held, after the next
    draw took the tile, by each seat): the fast claim gives the reference's verdict and
    table state after the claim and the three events after it. The sweep reaches the
    rules the fast claim leaves to the checked one (it fails if one of them never shows)."""
    codes = set()
    fast_taken = 0
    for seed in range(3 if physical else 10):
        for prefix, tail in claim_streams(seed, physical):
            events = parse_stream(_renumbered(prefix + tail))
            cut = len(prefix)
            fast, slow = _CountedReferee(), ReferenceReferee()
            fast.apply_all(events[:cut])
            slow.apply_all(events[:cut])
            checked = _CountedReferee.checked["claim"]
            for ev in events[cut:]:
                a, b = fast.apply(ev), slow.apply(ev)
                assert a == b, f"seed {seed} seq {ev.seq} {ev.type.wire}: {a} != {b}"
                assert picture(fast.state) == picture(slow.state), f"seed {seed}: the state after seq {ev.seq}"
            fast_taken += _CountedReferee.checked["claim"] == checked
            assert fast.irregularities == slow.irregularities
            codes.update(p.code for p in slow.irregularities)
    if physical:  # a physical table's hands are not known: every claim is checked
        assert fast_taken == 0
        return
    assert fast_taken > 100, fast_taken
    for code in ("passed_pung", "chow_own_recent_discard", "claim_in_last_tiles", "chow_wrong_seat",
                 "claim_tiles_not_held", "lost_priority"):
        assert code in codes, (code, sorted(codes))
