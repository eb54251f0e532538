"""What the console shows of a table's hand (issue #14 items 2–4): plain data for the
templates, read from the referee's state (:class:`referee.state.TableState`) after a replay
of the log (:func:`services.live.replay_hand`) — never a second reading of the events.

Seats are named as the table names them this hand (東家 … from the wall-break seat,
:mod:`penalties.words`), with the player's name when the console has one (``seat_names``).
Concealed tiles are given only when the viewer may see them (``concealed=True``: the
``events`` read area, :func:`api.auth.check_read`); otherwise only their number.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from penalties.titles import report_title
from penalties.words import WINDS_EN, WINDS_ZH, seat_wind
from referee.errors import MjrefError
from referee.events import EventType
from referee.melds import MeldKind
from referee.state import Phase
from referee.tiles import KINDS, parse_tiles, tile_name

MELD_ZH = {MeldKind.CHOW: ("吃", "chow"), MeldKind.PUNG: ("碰", "pung"), MeldKind.MELDED_KONG: ("明槓", "melded kong"),
           MeldKind.ADDED_KONG: ("加槓", "added kong"), MeldKind.CONCEALED_KONG: ("暗槓", "concealed kong")}
PHASE_ZH = {Phase.SETUP: ("開局", "setting up"), Phase.DEAL: ("配牌", "dealing"),
            Phase.FLOWERS: ("補花", "flowers"), Phase.PLAY: ("行牌", "in play"), Phase.ENDED: ("結束", "ended")}
VERDICT_ZH = {"accepted": ("合規", "accepted"), "rejected": ("拒絕", "rejected"), "irregular": ("違規", "irregular")}
STATUS_ZH = {"standing": ("維持", "standing"), "overruled": ("已撤銷", "overruled"), "amended": ("已改判", "amended")}
KIND_ZH = {"penalty": ("罰則", "penalty"), "irregularity": ("違規", "irregularity"), "outcome": ("結果", "outcome")}


@dataclass(frozen=True, slots=True)
class Meld:
    kind_zh: str
    kind_en: str
    tiles: tuple[int, ...] | None  # None: a concealed kong not shown
    claimed: int | None


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    wind_zh: str
    wind_en: str
    name: str
    dealer: bool
    turn: bool
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]
    discards: tuple[int, ...]
    concealed: tuple[int, ...] | None  # None: not shown to this viewer
    concealed_count: int
    unknown: int
    dead_hand: bool
    ready: bool


@dataclass(frozen=True, slots=True)
class HandView:
    hand: int
    round_zh: str
    round_en: str
    dealer: int | None
    dealer_zh: str
    streak: int
    turn: int | None
    turn_zh: str
    phase_zh: str
    phase_en: str
    wall_live: int
    wall_remaining: int
    ended: bool
    seats: tuple[Seat, ...] = field(default_factory=tuple)


def seat_label(seat: int | None, east: int, names: Sequence[str] = ("", "", "", "")) -> str:
    """「南家（2 號座，王小明）」: the seat by its wind this hand, its number and its player."""
    if seat is None:
        return "—"
    wind = f"{WINDS_ZH[seat_wind(seat, east)]}家"
    name = names[seat] if seat < len(names) else ""
    return f"{wind}（{seat} 號座{'，' + name if name else ''}）"


def seat_label_en(seat: int | None, east: int, names: Sequence[str] = ("", "", "", "")) -> str:
    if seat is None:
        return "—"
    name = names[seat] if seat < len(names) else ""
    return f"{WINDS_EN[seat_wind(seat, east)]} (seat {seat}{', ' + name if name else ''})"


def _expand(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(t for t in range(KINDS) for _ in range(counts[t]))


def hand_view(state: Any, hand: int, *, ended: bool, concealed: bool,
              names: Sequence[str] = ("", "", "", "")) -> HandView:
    """The hand as the console shows it. *state* is the referee's :class:`TableState` (``None``
    before ``hand_start`` was read)."""
    if state is None:
        return HandView(hand, "—", "—", None, "—", 0, None, "—", "未開局", "not started", 0, 0, ended)
    east = state.east
    seats = []
    for s in state.seats:
        wind = seat_wind(s.seat, east)
        melds = tuple(Meld(*MELD_ZH[MeldKind(m.kind)], tuple(m.tiles) if m.tiles is not None else None, m.claimed)
                      for m in s.melds)
        tiles = _expand(s.hand)
        seats.append(Seat(
            seat=s.seat, wind_zh=WINDS_ZH[wind], wind_en=WINDS_EN[wind], name=names[s.seat] if names else "",
            dealer=s.seat == state.dealer, turn=s.seat == state.turn and not state.ended, melds=melds,
            flowers=tuple(s.flowers), discards=tuple(s.pond), concealed=tiles if concealed else None,
            concealed_count=len(tiles) + s.unknown, unknown=s.unknown, dead_hand=bool(s.dead_hand),
            ready=s.ready is not None))
    seats.sort(key=lambda seat: seat_wind(seat.seat, east))  # 東 南 西 北, as the table calls them
    phase = Phase(state.phase)
    round_wind = int(state.round_wind)
    return HandView(
        hand=hand, round_zh=f"{WINDS_ZH[round_wind]}風圈", round_en=f"{WINDS_EN[round_wind]} round",
        dealer=state.dealer, dealer_zh=seat_label(state.dealer, east, names), streak=state.setup.streak,
        turn=None if state.ended else state.turn,
        turn_zh="—" if state.ended else seat_label(state.turn, east, names),
        phase_zh=PHASE_ZH[phase][0], phase_en=PHASE_ZH[phase][1], wall_live=state.wall.live,
        wall_remaining=state.wall.remaining, ended=ended or bool(state.ended), seats=tuple(seats))


def tiles_text(tiles: Sequence[int] | None) -> str:
    """「五萬 六萬」: tiles by their zh-TW names (for titles and screen readers)."""
    return " ".join(tile_name(t, "zh") for t in tiles or ())


_TYPE_ZH = {t.wire: t.zh for t in EventType}


def _tiles_of(raw: Any) -> list[int] | None:
    """An event's tiles as tile numbers (a list, a number, or the notation), ``None`` when
    they cannot be read (shown as given)."""
    if raw is None:
        return []
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < 42:
        return [raw]
    if isinstance(raw, list) and all(isinstance(t, int) and not isinstance(t, bool) and 0 <= t < 42 for t in raw):
        return list(raw)
    if isinstance(raw, str):
        try:
            return parse_tiles(raw)
        except MjrefError:
            return None
    return None


def event_row(row: Mapping[str, Any], east: int, names: Sequence[str], concealed: bool) -> dict:
    """One logged event as the event list shows it: its seq, what (zh-TW), whose, the tiles
    (a draw's tile only to a viewer who may see concealed tiles), its verdict and its rulings."""
    body, answer = row["body"], row.get("answer") or {}
    etype = row["type"]
    if row["stream"] == "official":
        what = f"覆判：{body.get('decision', '')} {body.get('ruling', '')}"
        return {"seq": row["seq"], "official": True, "what": what, "what_en": f"override: {body.get('decision', '')}",
                "who": (body.get("by") or {}).get("label", ""), "tiles": "", "verdict": None,
                "rulings": [], "at": row["received_at"]}
    seat = body.get("seat")
    shown = etype not in ("draw", "tail_draw", "deal") or concealed
    raw = body.get("tiles", body.get("tile")) if shown else None
    tiles, note = _tiles_of(raw), ""
    if etype == "wall":
        # 144 tiles, or 136 without flowers (tiles.flowers): the wall event's own count
        tiles, note = [], f"{len(tiles) if tiles else len(raw) if isinstance(raw, list) else 144} 張"
    elif etype == "report":  # the code by its name (「相公：偷牌」), then the official's note
        named = report_title(str(body.get("code", "")))[0] if body.get("code") else ""
        note = f"{named}{'；註記：' + str(body['note']) if body.get('note') else ''}"
    elif tiles is None:
        tiles, note = [], "" if raw is None else str(raw)
    verdict = answer.get("verdict")
    return {"seq": row["seq"], "official": False, "what": _TYPE_ZH.get(etype, etype), "what_en": etype,
            "who": _who(seat, east, names),
            "seat": seat if isinstance(seat, int) else None,
            "tile_list": tiles, "tiles": note or tiles_text(tiles),
            "verdict": verdict, "verdict_zh": VERDICT_ZH.get(verdict, (verdict or "", ""))[0],
            "rulings": [r.get("id") for r in answer.get("rulings", ()) if r.get("id")], "at": row["received_at"]}


def _who(seat: Any, east: int, names: Sequence[str]) -> str:
    """「西家」, 「西家 陳美玲」 when the seat's player is known (docs/rulings.md R-words-1)."""
    if not (isinstance(seat, int) and 0 <= seat < 4):
        return ""
    name = names[seat] if names and seat < len(names) and names[seat] else ""
    return f"{WINDS_ZH[seat_wind(seat, east)]}家{' ' + name if name else ''}"


def open_rulings(rulings: Sequence[Mapping[str, Any]], hand: int) -> list[Mapping[str, Any]]:
    """The rulings an official still has to see to on the hand in play: its penalties and
    irregularities that stand or were amended (an overruled one is dealt with; the outcome is
    the hand's result, not a dispute; an official's report is recorded as the irregularity
    ``reported``, whose rulings are what is open)."""
    return [r for r in rulings if r["hand"] == hand and r["kind"] in ("penalty", "irregularity")
            and r["code"] != "reported" and r["status"] != "overruled"]
