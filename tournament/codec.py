"""Tournament events to and from plain JSON-able dicts (what the store keeps, what the API sends).

An event is ``{"type": "HandRecorded", ...its fields}``; nested dataclasses are dicts of their
fields, tuples are lists, winds (:class:`referee.tiles.Wind`) are their names (``"EAST"``).
Decoding reads each field's type hint, so the dataclasses stay the one definition of an event.
Bad input (an unknown type, a missing or extra field, a value of the wrong kind) raises
:class:`tournament.errors.EventLogError` naming the field by its path (``result.wins[0].tai``).

Other modules add their own events with :func:`register` (the clocks' events live in
:mod:`tournament.clock`).

>>> from tournament.events import Reverted
>>> encode(Reverted(3, "誤記"))
{'type': 'Reverted', 'seq': 3, 'reason': '誤記'}
>>> decode({'type': 'Reverted', 'seq': 3, 'reason': '誤記'})
Reverted(seq=3, reason='誤記')
"""
from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from typing import Any

from .errors import EventLogError

#: event type name → class
EVENT_TYPES: dict[str, type] = {}
_HINTS: dict[type, dict[str, Any]] = {}


def register(cls: type) -> type:
    """Make ``cls`` (a frozen dataclass) an event :func:`decode` knows by its class name."""
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls!r} is not a dataclass")
    EVENT_TYPES[cls.__name__] = cls
    return cls


def _fail(path: str, message: str, zh: str) -> EventLogError:
    return EventLogError(f"{path or 'event'}: {message}", field=path or "event", reason_zh=f"{path or '事件'}：{zh}")


def _value(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.name
    if isinstance(value, (tuple, list)):
        return [_value(v) for v in value]
    return value


def encode(event: Any) -> dict[str, Any]:
    """The event as a JSON-able dict with its ``type``."""
    name = type(event).__name__
    if EVENT_TYPES.get(name) is not type(event):
        raise TypeError(f"not a registered event: {event!r}")
    return {"type": name, **_value(event)}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _as(hint: Any, value: Any, path: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _as(option, value, path)
            except EventLogError as exc:
                errors.append(exc)
        raise errors[0] if errors else _fail(path, "must not be null", "不可為空值")
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list):
            raise _fail(path, f"must be a list, got {value!r}", f"須為陣列，收到 {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_as(args[0], v, f"{path}[{i}]") for i, v in enumerate(value))
        if len(value) != len(args):
            raise _fail(path, f"must have {len(args)} items, got {len(value)}",
                        f"須有 {len(args)} 項，收到 {len(value)} 項")
        return tuple(_as(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
    if isinstance(hint, type) and issubclass(hint, Enum):
        if isinstance(value, str) and value in hint.__members__:
            return hint[value]
        names = ", ".join(hint.__members__)
        raise _fail(path, f"must be one of {names}, got {value!r}", f"須為 {names} 之一，收到 {value!r}")
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _build(hint, value, path)
    if hint is Any:
        return value
    if hint in (int, str, bool):
        if type(value) is not hint:  # bool is not an int here, an int not a bool
            zh = {int: "整數", str: "字串", bool: "布林值"}[hint]
            raise _fail(path, f"must be {hint.__name__}, got {value!r}", f"須為{zh}，收到 {value!r}")
        return value
    raise TypeError(f"{path}: no decoder for {hint!r}")


def _build(cls: type, data: Any, path: str) -> Any:
    if not isinstance(data, dict):
        raise _fail(path, f"must be an object, got {data!r}", f"須為物件，收到 {data!r}")
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    extra = sorted(set(data) - set(fields) - ({"type"} if not path else set()))
    if extra:
        where = f"{path}.{extra[0]}" if path else extra[0]
        raise _fail(where, "is not a field of " + cls.__name__, f"不是 {cls.__name__} 的欄位")
    kwargs = {}
    for name, field in fields.items():
        where = f"{path}.{name}" if path else name
        if name not in data:
            if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
                raise _fail(where, "is required", "為必填欄位")
            continue
        kwargs[name] = _as(hints[name], data[name], where)
    try:
        return cls(**kwargs)
    except EventLogError:
        raise
    except ValueError as exc:  # the dataclass's own checks (MjrefError subclasses ValueError)
        field = getattr(exc, "field", None)
        where = f"{path}.{field}" if path and field else (field or path or "event")
        raise EventLogError(str(getattr(exc, "message", exc)), field=where,
                            reason_zh=getattr(exc, "reason_zh", None) or str(exc)) from exc


def decode(data: Any) -> Any:
    """The event a dict from :func:`encode` (or an API body) describes.

    :raises EventLogError: unknown ``type``, a missing or extra field, a value of the wrong kind.
    """
    if not isinstance(data, dict):
        raise _fail("", f"must be an object, got {data!r}", f"須為物件，收到 {data!r}")
    name = data.get("type")
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        known = ", ".join(sorted(EVENT_TYPES))
        raise EventLogError(f"type: unknown event type {name!r} (known: {known})", field="type",
                            reason_zh=f"type：未知的事件類型 {name!r}（可用：{known}）")
    return _build(cls, data, "")


def _register_core() -> None:
    from . import events

    for cls in typing.get_args(events.Event):
        register(cls)


_register_core()
