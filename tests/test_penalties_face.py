"""The face (牌面) from the referee's facts against the replay it replaced (issue #13 item 2):
:func:`penalties.face.face_value` reads what each seat showed as it changed and the winner's
table as each win was declared; the reference below replays the events up to the seq (the
code before, kept here) — they must agree on every sample and generated stream."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from penalties.adjudicator import _events, adjudicate_hands
from penalties.face import face_value
from hypothesis import given, settings
from hypothesis import strategies as hs

from penalties.face import SHOWN_PATTERNS, shown_tai
from referee.ruleset import Ruleset
from referee.state import TableMeld
from testkit.irregular import irregular_hand
from penalties.record import HandRecord, state_before
from referee.errors import MjrefError
from referee.events import Event, EventType
from referee.hand import Hand
from referee.melds import MeldKind
from referee.scoring import WinContext, score
from referee.scoring.context import WinSource
from referee.tiles import DRAGON_TILES, FLOWER_BASE, KINDS, Wind, flower_group, flower_seat, parse_tiles

_SELF = {0: WinSource.WALL, 1: WinSource.WALL, 2: WinSource.LAST_TILE, 3: WinSource.KONG_REPLACEMENT,
         4: WinSource.KONG_REPLACEMENT, 5: WinSource.FLOWER_REPLACEMENT}


def replayed_face_value(record: HandRecord, seat: int, seq: int, *, win: Event | None = None) -> tuple[int, str]:
    """``(台, how)`` of *seat*'s face just before event *seq*; ``how`` is ``"scored"`` (a
    complete hand declared as a win, scored) or ``"shown"`` (flowers and exposed honour
    sets)."""
    st = state_before(record, seq)
    if st is None:
        return 0, "shown"
    if win is not None:
        scored = _old_scored(record, st, seat, win)
        if scored is not None:
            return scored, "scored"
    return _old_shown_face(st, seat, record.ruleset), "shown"


def _old_shown_face(st: Any, seat: int, ruleset: Any) -> int:
    """The 台 a seat's table shows: flowers and exposed wind/dragon pungs and kongs."""
    v = ruleset.values
    s = st.seats[seat]
    wind = Wind((seat - st.east) % 4)
    tai = 0
    flowers = [f for f in s.flowers if f >= FLOWER_BASE]
    numbering = v["flowers.numbering"]
    if len(flowers) == 8 and v["tai.all_flowers"]:
        tai += v["tai.all_flowers"]
    else:
        for group in (0, 1):
            mine = [f for f in flowers if flower_group(f) == group]
            if len(mine) == 4 and v["tai.flower_set"]:
                tai += v["tai.flower_set"]
            else:
                tai += v["tai.own_flower"] * sum(1 for f in mine if flower_seat(f, numbering) is wind)
    for m in s.melds:
        tiles = m.tiles
        if not tiles or m.kind is MeldKind.CHOW or len(set(tiles)) != 1:
            continue
        t = tiles[0]
        if t == wind.tile:
            tai += v["tai.seat_wind_pung"]
        if t == st.round_wind.tile:
            tai += v["tai.round_wind_pung"]
        if t in DRAGON_TILES:
            tai += v["tai.dragon_pung"]
    return tai


def _old_scored(record: HandRecord, st: Any, seat: int, win: Event) -> int | None:
    """The face of the win as declared, when the hand is a complete winning hand."""
    s = st.seats[seat]
    w = st.window
    on_tile = w is not None and not w.closed and w.seat != seat and w.kind.value in (0, 1) and not (
        w.taken is not None and w.taken.seat == seat)
    counts = list(s.hand)
    if on_tile:
        tile = w.tile
        source = ((WinSource.LAST_DISCARD if w.last else WinSource.DISCARD) if w.kind.value == 0
                  else WinSource.ROBBING_KONG)
        discarder = w.seat
        if tile >= KINDS:
            return None
        counts[tile] += 1
    else:
        if st.turn != seat:
            return None
        tile = st.drawn
        if tile is None and s.unknown and win.tiles:
            # a physical table that did not record the drawn tile: the hand shown with the
            # win ends with the winning tile (docs/protocol.md), so the face is known (R-pen-1)
            tile = win.tiles[-1]
        if tile is None or tile >= KINDS:
            return None
        source = _SELF.get(int(st.source), WinSource.WALL)
        discarder = None
    if s.unknown:
        if win.tiles is None or len(win.tiles) != sum(counts) + s.unknown:
            return None
        counts = [0] * KINDS
        for t in win.tiles:
            if t >= KINDS:
                return None
            counts[t] += 1
        if not counts[tile]:
            return None
    melds = s.melds_for_scoring()
    if melds is None:
        return None
    setup = record.setup
    try:
        hand = Hand(tuple(counts), melds, tuple(sorted(f for f in s.flowers)))
        ctx = WinContext(winner=seat, dealer=setup.dealer, round_wind=setup.round_wind, source=source,
                         winning_tile=tile, discarder=discarder, wall_break=st.east, streak=setup.streak,
                         streak_marker=setup.streak_marker)
        return score(hand, ctx, record.ruleset).tai
    except (MjrefError, ValueError, TypeError, IndexError):
        return None




def _streams():
    for path in sorted(Path("data/samples").glob("pen_*.jsonl")):
        yield path.name, path.read_text(encoding="utf-8")
    for seed in range(60):
        yield f"gen{seed}", _events(irregular_hand(seed, seed * 11 + 3, 1 + seed % 4, physical=seed % 3 != 0))


def test_the_face_from_the_referees_facts_equals_the_replayed_face():
    """pen.pay-all, R-pen-1: at every event, for every seat, the face shown (and at every win,
    the face scored) read from the referee's facts is the replayed one."""
    checked = scored = 0
    for name, stream in _streams():
        try:
            hands = adjudicate_hands(stream)
        except MjrefError:
            continue
        for hand in hands:
            record = hand.record
            seqs = [e.seq for e in record.events] + [record.events[-1].seq + 1]
            for i, seq in enumerate(seqs):
                if i % 7 and seq != seqs[-1] and (i >= len(record.events) or record.events[i].type not in (
                        EventType.WIN, EventType.REPORT, EventType.KONG, EventType.FLOWER, EventType.PUNG)):
                    continue  # every seventh event, and every one that may change the face
                for seat in range(4):
                    assert face_value(record, seat, seq) == replayed_face_value(record, seat, seq), (name, seq, seat)
                    checked += 1
            for ev in record.events:
                if ev.type is EventType.WIN:
                    got = face_value(record, ev.seat, ev.seq, win=ev)
                    assert got == replayed_face_value(record, ev.seat, ev.seq, win=ev), (name, ev.seq)
                    scored += got[1] == "scored"
    assert checked > 1000 and scored > 10


# --- the shown face under the ruleset (issue #18 item 1, R-pen-21) ----------------------------


_TM = TableMeld


def _reference_shown(flowers, melds, wind: Wind, round_wind: Wind, rules: Ruleset) -> int:
    """The shown face worked out the slow way, by the parameters' own definitions and
    :meth:`Ruleset.apply_exclusions` (not the scorer's tables)."""
    v = rules.values
    numbering = v["flowers.numbering"]
    present: dict[str, int] = {}
    flowers = [f for f in flowers if f >= FLOWER_BASE]
    groups = [[f for f in flowers if flower_group(f) == g] for g in (0, 1)]
    own = 0
    for g in (0, 1):
        if len(groups[g]) == 4 and v["tai.flower_set"]:
            present["flower_set"] = present.get("flower_set", 0) + 1  # replaces its own group's flower
        else:
            own += sum(1 for f in groups[g] if flower_seat(f, numbering) is wind)
    if own:
        present["own_flower"] = own
    if len(flowers) == 8:
        present["all_flowers"] = 1
    if flowers:
        present["see_flower_see_tai"] = len(flowers)
    else:
        present["no_flowers"] = 1
    winds = dragons = kongs_open = kongs_concealed = 0
    for m in melds:
        if m.kind is MeldKind.CHOW:
            continue
        if m.tiles is None:
            kongs_concealed += m.kind is MeldKind.CONCEALED_KONG
            continue
        if len(set(m.tiles)) != 1:
            continue
        kongs_concealed += m.kind is MeldKind.CONCEALED_KONG
        kongs_open += m.kind in (MeldKind.MELDED_KONG, MeldKind.ADDED_KONG)
        t = m.tiles[0]
        if t == wind.tile:
            present["seat_wind_pung"] = 1
        if t == round_wind.tile:
            present["round_wind_pung"] = 1
        if 27 <= t <= 30:
            winds += 1
        if t in DRAGON_TILES:
            dragons += 1
    for code, n in (("see_wind_see_tai", winds), ("dragon_pung", dragons), ("melded_kong", kongs_open),
                    ("concealed_kong", kongs_concealed)):
        if n:
            present[code] = n
    if kongs_open + kongs_concealed == 4:
        present["four_kongs"] = 1
    if kongs_open + kongs_concealed == 5:
        present["five_kongs"] = 1
    present = {c: n for c, n in present.items() if v[f"tai.{c}"]}
    applied = rules.apply_exclusions(present)
    total = sum(v[f"tai.{c}"] * n for c, n in present.items() if c in applied.kept) + applied.adjust
    total = max(total, 0)
    cap = v["scoring.cap"]
    return min(total, cap) if cap else total


_OPTIONS = ("tai.see_flower_see_tai", "tai.see_wind_see_tai", "tai.no_flowers", "tai.no_honours_no_flowers",
            "tai.melded_kong", "tai.concealed_kong", "tai.four_kongs", "tai.five_kongs")


@hs.composite
def _tables(draw):
    flowers = draw(hs.lists(hs.integers(FLOWER_BASE, FLOWER_BASE + 7), unique=True, max_size=8))
    melds = []
    kinds = draw(hs.lists(hs.sampled_from([0, 13, 26, 27, 28, 29, 30, 31, 32, 33]), unique=True, max_size=5))
    for tile in kinds:  # one set of a kind at most: four tiles of each
        kind = draw(hs.sampled_from(list(MeldKind)))
        if kind is MeldKind.CHOW:
            melds.append(_TM(kind, (3, 4, 5)))
        elif kind is MeldKind.CONCEALED_KONG and draw(hs.booleans()):
            melds.append(_TM(kind, None))  # face down, tiles not shown
        elif kind.is_kong and draw(hs.integers(0, 9)) == 0:
            melds.append(_TM(kind, (tile, tile, tile, 5)))  # a wrong kong
        else:
            melds.append(_TM(kind, (tile,) * (4 if kind.is_kong else 3)))
    overrides = {name: draw(hs.integers(0, 3)) for name in _OPTIONS if draw(hs.booleans())}
    if draw(hs.booleans()):
        overrides["scoring.cap"] = draw(hs.integers(1, 8))
    profile = draw(hs.sampled_from(["competition", "app", "star31", "taida-cup"]))
    return flowers, melds, Wind(draw(hs.integers(0, 3))), Wind(draw(hs.integers(0, 3))), profile, overrides


@settings(max_examples=300, deadline=None)
@given(_tables())
def test_the_shown_face_follows_the_ruleset_as_the_scorer_does(case):
    """R-pen-21, score.face, app.replaces.19: the shown face (flowers, honour sets and kongs laid
    down) under any profile and any of the optional patterns is what the parameters define, with
    the ruleset's exclusions and cap."""
    flowers, melds, wind, round_wind, profile, overrides = case
    rules = Ruleset.load(profile, overrides)
    assert shown_tai(flowers, melds, wind, round_wind, rules) \
        == _reference_shown(flowers, melds, wind, round_wind, rules)


def test_the_shown_face_reads_each_switch_apart():
    """app.replaces.19: 見花見台 and 見風見台 are separate switches; 無花, 明槓/暗槓台, 四槓子 and
    五槓子 count when the ruleset scores them (R-pen-21); 無字無花 needs the concealed tiles."""
    east_pung = _TM(MeldKind.PUNG, (27, 27, 27))
    spring_summer = (FLOWER_BASE, FLOWER_BASE + 1)
    south, east = Wind.SOUTH, Wind.EAST
    base = Ruleset.load("competition")
    assert shown_tai(spring_summer, [east_pung], south, east, base) == 2  # 夏 own flower, 東 the round
    flowers = base.with_overrides({"tai.see_flower_see_tai": 1})
    assert shown_tai(spring_summer, [east_pung], south, east, flowers) == 3  # two flowers, 東 the round
    winds = base.with_overrides({"tai.see_wind_see_tai": 2})
    assert shown_tai(spring_summer, [east_pung], south, east, winds) == 3  # 夏, one wind pung ×2
    both = base.with_overrides({"tai.see_flower_see_tai": 1, "tai.see_wind_see_tai": 1})
    assert shown_tai(spring_summer, [east_pung], south, east, both) == 3
    none = base.with_overrides({"tai.no_flowers": 1, "tai.no_honours_no_flowers": 2})
    assert shown_tai((), [], south, east, none) == 1
    kongs = [_TM(MeldKind.CONCEALED_KONG, None), _TM(MeldKind.CONCEALED_KONG, (5,) * 4),
             _TM(MeldKind.MELDED_KONG, (6,) * 4), _TM(MeldKind.ADDED_KONG, (7,) * 4)]
    four = base.with_overrides({"tai.melded_kong": 1, "tai.concealed_kong": 2, "tai.four_kongs": 5})
    assert shown_tai((), kongs, south, east, four) == 2 + 2 * 2 + 5
    assert shown_tai((), kongs[:3], south, east, four) == 1 + 2 * 2
    five = four.with_overrides({"tai.five_kongs": 10})
    assert shown_tai((), kongs + [_TM(MeldKind.MELDED_KONG, (8,) * 4)], south, east, five) == 3 + 2 * 2 + 10
    assert set(SHOWN_PATTERNS) >= {"see_flower_see_tai", "see_wind_see_tai", "no_flowers", "melded_kong",
                                   "concealed_kong", "four_kongs", "five_kongs"}
    assert "no_honours_no_flowers" not in SHOWN_PATTERNS


def test_the_shown_face_adds_the_rulesets_adjustments_as_the_scorer_does():
    """tai.exclusions (an ``adjust`` entry), R-pen-21: a table that adds 2 台 to 箭字刻 beside the
    round wind pung has the shown face of an East pung and a 中 pung at 1 + 1 + 2, as the scorer
    adds them to the same hand's score (where 單吊 adds its own 1)."""
    base = Ruleset.load("competition")
    extra = {"pattern": "dragon_pung", "with_any": ["round_wind_pung"], "adjust": 2, "clause": "tai.02",
             "note": "a table's own adjustment"}
    import json

    profile = json.loads(Path("data/rulesets/competition.json").read_text(encoding="utf-8"))
    entries = profile["values"]["tai.exclusions"]
    rules = Ruleset.load("competition", {"tai.exclusions": entries + [extra]})
    melds = [_TM(MeldKind.PUNG, (27,) * 3), _TM(MeldKind.PUNG, (31,) * 3)]
    assert shown_tai((), melds, Wind.SOUTH, Wind.EAST, rules) == 4
    assert shown_tai((), melds, Wind.SOUTH, Wind.EAST, base) == 2
    assert shown_tai((), melds, Wind.SOUTH, Wind.EAST, rules) \
        == _reference_shown((), melds, Wind.SOUTH, Wind.EAST, rules)
    hand = Hand.parse("456m789p5s5s", "碰:東東東 碰:中中中 吃:一萬二萬三萬")
    win = WinContext(winner=1, dealer=0, round_wind=Wind.EAST, source=WinSource.DISCARD, discarder=2,
                     winning_tile=parse_tiles("5s")[0])
    assert score(hand, win, rules).tai == 4 + 1  # the same 4, and 單吊 (tai.08)
