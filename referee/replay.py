"""Batch replay: a whole stream in, adjudications out (``flask replay``, ``POST
/api/v1/adjudications``).

Replaying is applying each event in turn to a :class:`referee.machine.Referee` and
finishing it: exactly what a live table does one event at a time, so live and batch
agree by construction. A stream may hold several hands, each opened by ``hand_start``.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .events import PROTOCOL_VERSION, Event, EventType, Mode, parse_stream
from .machine import Referee, StreamError
from .outcome import Adjudication
from .ruleset import Ruleset


def replay(events: Iterable[Event], *, ruleset: Ruleset | None = None, mode: Mode | None = None) -> Adjudication:
    """Referee one hand: apply every event, then finish.

    :raises StreamError: the stream does not start with ``hand_start`` or holds a second one.
    """
    ref = Referee(ruleset, mode)
    ref.apply_all(events)
    return ref.finish()


def split_hands(events: Sequence[Event]) -> list[list[Event]]:
    """The stream cut at each ``hand_start``.

    :raises StreamError: events before the first ``hand_start``.
    """
    hands: list[list[Event]] = []
    for event in events:
        if event.type is EventType.HAND_START:
            hands.append([event])
        elif not hands:
            raise StreamError(f"a stream starts with hand_start, got {event.type.wire} (seq {event.seq})",
                              field="events[0].type", reason_zh="事件流須以 hand_start 開始")
        else:
            hands[-1].append(event)
    if not hands:
        raise StreamError("the stream holds no events", field="events", reason_zh="事件流沒有事件")
    return hands


def adjudicate_stream(events: Sequence[Event], *, ruleset: Ruleset | None = None,
                      mode: Mode | None = None) -> list[Adjudication]:
    """Every hand of a stream, refereed."""
    return [replay(hand, ruleset=ruleset, mode=mode) for hand in split_hands(events)]


def adjudicate_text(source: str | bytes | list[Any], *, ruleset: Ruleset | None = None,
                    mode: Mode | None = None) -> dict[str, Any]:
    """JSON Lines (or a JSON array) in, the adjudication document out (``docs/protocol.md``).

    :raises referee.events.EventError: an unreadable event, naming its field.
    :raises StreamError: a stream that does not start with ``hand_start``.
    """
    events = parse_stream(source)
    hands = adjudicate_stream(events, ruleset=ruleset, mode=mode)
    return {"protocol": PROTOCOL_VERSION, "hands": [h.to_dict() for h in hands]}
