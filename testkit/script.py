"""Write a hand's stream the way an official tells it: a small builder of protocol events.

Used by the sample streams (``data/samples/pen_*.jsonl``, :mod:`testkit.penalty_samples`), the
feature steps and the tests. A physical table by default: the deal and the draws are
counted, not shown; discards, melds and reports carry their tiles. Timestamps advance by
*step* ms per event unless given (the priority rules compare them).

    >>> s = Script(dealer=0).deal()
    >>> s.discard(0, "5m").draw(1).place(1).discard(1, "9p")  # doctest: +ELLIPSIS
    <testkit.script.Script object at ...>
"""
from __future__ import annotations

import json
from typing import Any

from referee.events import Event, parse_stream


class Script:
    """Events of one hand, in order (``seq`` 1, 2, 3 …)."""

    def __init__(self, *, dealer: int = 0, mode: str = "physical", ruleset: str = "competition", streak: int = 0,
                 streak_marker: int | None = None, base: int = 100, per_tai: int = 20, round_wind: str = "east",
                 table: str = "t1", hand: int = 1, step: int = 1000, rules: dict | None = None) -> None:
        self.items: list[dict[str, Any]] = []
        self.table, self.hand, self.step = table, hand, step
        self.ts = 0
        start: dict[str, Any] = {"type": "hand_start", "mode": mode, "ruleset": ruleset, "dealer": dealer,
                                 "round_wind": round_wind, "streak": streak, "base": base, "per_tai": per_tai}
        if streak_marker is not None:
            start["streak_marker"] = streak_marker
        if rules:
            start["rules"] = dict(rules)
        self.dealer = dealer
        self._pool = 0
        self.add(start)

    # ---- raw
    def add(self, item: dict[str, Any], ts: int | None = None) -> Script:
        self.ts = ts if ts is not None else self.ts + self.step
        self.items.append({**item, "seq": len(self.items) + 1, "ts": self.ts, "table": self.table, "hand": self.hand})
        return self

    @property
    def last_seq(self) -> int:
        return len(self.items)

    # ---- the deal (counted): 4 rounds of 4, dealer first, then his 門牌
    def deal(self) -> Script:
        for _ in range(4):
            for i in range(4):
                self.add({"type": "deal", "seat": (self.dealer + i) % 4, "count": 4})
        return self.add({"type": "deal", "seat": self.dealer, "count": 1})

    # ---- acts
    def draw(self, seat: int, tile: str | None = None, ts: int | None = None) -> Script:
        return self.add({"type": "draw", "seat": seat, **({"tiles": tile} if tile else {"count": 1})}, ts)

    def tail_draw(self, seat: int, tile: str | None = None, ts: int | None = None) -> Script:
        return self.add({"type": "tail_draw", "seat": seat, **({"tiles": tile} if tile else {"count": 1})}, ts)

    def discard(self, seat: int, tile: str, *, exposed: bool = False, ts: int | None = None) -> Script:
        return self.add({"type": "discard", "seat": seat, "tiles": tile, **({"exposed": True} if exposed else {})}, ts)

    def chow(self, seat: int, tiles: str, ts: int | None = None) -> Script:
        return self.add({"type": "chow", "seat": seat, "tiles": tiles}, ts)

    def pung(self, seat: int, tiles: str, ts: int | None = None) -> Script:
        return self.add({"type": "pung", "seat": seat, "tiles": tiles}, ts)

    def kong(self, seat: int, kind: str, tiles: str | None = None, ts: int | None = None) -> Script:
        return self.add({"type": "kong", "seat": seat, "kind": kind, **({"tiles": tiles} if tiles else {})}, ts)

    def flower(self, seat: int, tiles: str, ts: int | None = None) -> Script:
        return self.add({"type": "flower", "seat": seat, "tiles": tiles}, ts)

    def call(self, seat: int, kind: str, ts: int | None = None) -> Script:
        return self.add({"type": "call", "seat": seat, "kind": kind}, ts)

    def touch(self, seat: int, ts: int | None = None) -> Script:
        return self.add({"type": "touch_wall", "seat": seat}, ts)

    def place(self, seat: int, ts: int | None = None) -> Script:
        return self.add({"type": "place", "seat": seat}, ts)

    def reveal(self, seat: int, tiles: str, ts: int | None = None) -> Script:
        return self.add({"type": "reveal", "seat": seat, "tiles": tiles}, ts)

    def ready(self, seat: int, kind: str, ts: int | None = None) -> Script:
        return self.add({"type": "ready", "seat": seat, "kind": kind}, ts)

    def win(self, seat: int, tiles: str | None = None, ts: int | None = None) -> Script:
        return self.add({"type": "win", "seat": seat, **({"tiles": tiles} if tiles else {})}, ts)

    def skip_last(self, seat: int, ts: int | None = None) -> Script:
        return self.add({"type": "skip_last_tile", "seat": seat}, ts)

    def report(self, code: str, seat: int | None = None, note: str | None = None, tiles: str | None = None,
               clause: str | None = None, ts: int | None = None) -> Script:
        item: dict[str, Any] = {"type": "report", "code": code}
        for key, value in (("seat", seat), ("note", note), ("tiles", tiles), ("clause", clause)):
            if value is not None:
                item[key] = value
        return self.add(item, ts)

    def end(self) -> Script:
        return self.add({"type": "hand_end"})

    def go_around(self, first: int, turns: int, *, avoid: str = "", place: bool = True) -> Script:
        """*turns* plain turns from seat *first*: draw, place (unless *place* is false),
        discard. The discards cycle through every kind but those in *avoid*, so no tile shows
        more than four times."""
        from referee.tiles import KINDS, parse_tiles, tile_name

        skip = set(parse_tiles(avoid)) if avoid else set()
        for i in range(turns):
            seat = (first + i) % 4
            while True:
                t = self._pool % KINDS
                self._pool += 1
                if t not in skip:
                    break
            self.draw(seat)
            if place:
                self.place(seat)
            self.discard(seat, tile_name(t))
        return self

    # ---- out
    def jsonl(self) -> str:
        return "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in self.items)

    def events(self) -> list[Event]:
        return parse_stream(self.jsonl())


__all__ = ["Script"]
