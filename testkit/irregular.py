"""Generated hands with irregularities injected (issue #13: live = batch over thousands of
hands; issue #5's property tests): a legal generated hand (:mod:`referee.generator`), as a
digital or a physical table records it, with irregular acts and officials' reports put in
at random places after the deal.

Same seed and salt, same stream. For tests and benchmarks; the product never calls it.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from referee.events import event_to_dict
from referee.generator import generate_hand, physical_view

TILES = ("1m", "5m", "9m", "3p", "7p", "2s", "8s", "1z", "5z", "7z")
REPORTS = ("dead_hand", "stolen_tile", "peeked", "walking_eye", "walking_eye_violation", "wall_disturbed", "caught",
           "tile_unidentifiable", "pair_exposed", "wrong_kong", "passed_win", "draw_holding_tile", "long_hand")


def injection(rng: random.Random, seat: int) -> list[dict]:
    """One irregular act or report, as the table would record it."""
    kind = rng.randrange(14)
    t = rng.choice(TILES)
    if kind == 0:
        return [{"type": "draw", "seat": seat, "count": 1}]
    if kind == 1:
        return [{"type": "discard", "seat": seat, "tiles": t}]
    if kind == 2:
        return [{"type": "call", "seat": seat, "kind": rng.choice(["pung", "kong", "chow", "win"])}]
    if kind == 3:
        return [{"type": "pung", "seat": seat, "tiles": t * 2 + rng.choice(TILES)}]
    if kind == 4:
        return [{"type": "kong", "seat": seat, "kind": "concealed", "tiles": t * 3 + rng.choice(TILES)}]
    if kind == 5:
        return [{"type": "win", "seat": seat}]
    if kind == 6:
        return [{"type": "touch_wall", "seat": seat}]
    if kind == 7:
        return [{"type": "place", "seat": seat}]
    if kind == 8:
        return [{"type": "reveal", "seat": seat, "tiles": t + t}]
    if kind == 9:
        return [{"type": "tail_draw", "seat": seat, "count": 1}]
    if kind == 10:
        return [{"type": "chow", "seat": seat, "tiles": "3m4m5m"}]
    if kind == 11:
        return [{"type": "discard", "seat": seat, "tiles": t, "exposed": True}]
    if kind == 12:
        return [{"type": "skip_last_tile", "seat": seat}]
    code = rng.choice(REPORTS)
    note = {"dead_hand": "stolen_tile", "walking_eye_violation": "told"}.get(code)
    return [{"type": "report", "seat": seat, "code": code, **({"note": note} if note else {})}]


def inject(events: list[dict], rng: random.Random, count: int) -> list[dict]:
    """*count* injections into *events* (JSON objects, changed in place), then seq and ts
    renumbered so that both increase."""
    for _ in range(count):
        at = rng.randrange(20, len(events))  # after the deal
        for item in reversed(injection(rng, rng.randrange(4))):
            events.insert(at, {**item, "table": events[0].get("table", ""), "hand": events[0].get("hand", 0)})
    ts = 0
    for i, e in enumerate(events):
        e["seq"] = i + 1
        ts = max(ts + 1, e.get("ts", 0))
        e["ts"] = ts
    return events


@lru_cache(maxsize=1024)
def _legal(seed: int, physical: bool, hand: int, flowers: bool = True) -> tuple[tuple[tuple[str, Any], ...], ...]:
    """Generated hand *seed* as JSON objects (kept: generating is most of the cost)."""
    events = generate_hand(seed, hand=hand, rules=None if flowers else {"tiles.flowers": False})
    if physical:
        events = physical_view(events)
    return tuple(tuple(event_to_dict(e).items()) for e in events)


def irregular_hand(seed: int, salt: int, count: int, *, physical: bool = True, hand: int = 1,
                   flowers: bool = True) -> list[dict]:
    """Hand *seed* (generated), seen by a physical (or digital) table, with *count*
    irregularities from ``random.Random(salt)``; *flowers* false: play without flowers
    (``tiles.flowers``, 136 tiles)."""
    return inject([dict(e) for e in _legal(seed, physical, hand, flowers)], random.Random(salt), count)


__all__ = ["REPORTS", "TILES", "inject", "injection", "irregular_hand"]
