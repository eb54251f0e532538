"""Names in the order a Taiwanese organiser lists them: by stroke count (筆畫), as name lists,
ballots and seating charts in Taiwan are (docs/rulings.md R-tour-33).

The order is ICU's collation for ``zh_Hant_TW`` (CLDR's default collation for Traditional
Chinese is ``stroke``: the total strokes of the first character, from Unihan's
kTotalStrokes, then its radical and the following characters; names in Latin letters after
the Chinese ones). ICU is the system's library (Debian's ``libicu``, which Chromium and
libxml2 already need), called through :mod:`ctypes`: PyICU has no wheel on PyPI and would
have to be compiled against the same library.

>>> sorted(["陳美玲", "王小明", "李大華", "丁一"], key=name_key)
['丁一', '王小明', '李大華', '陳美玲']
"""
from __future__ import annotations

import ctypes
import ctypes.util
import logging
import re
import threading
from functools import lru_cache

logger = logging.getLogger(__name__)

#: ICU's locale for Taiwan: its default collation orders Han characters by strokes
LOCALE = b"zh_Hant_TW"


class CollationUnavailable(RuntimeError):
    """The system's ICU library (libicui18n) cannot be found or opened."""


class _Collator:
    """One ICU collator (``ucol_open``) and its sort keys (``ucol_getSortKey``); ICU's
    functions carry the library's major version in their names (``ucol_open_72``)."""

    def __init__(self, locale: bytes) -> None:
        name = ctypes.util.find_library("icui18n")
        found = re.search(r"\.so\.(\d+)", name or "")
        if not found:
            raise CollationUnavailable(f"ICU (libicui18n) not found (got {name!r}): "
                                       "apt-get install libicu-dev or libicu72")
        lib = ctypes.CDLL(name)
        version = found.group(1)
        self._open = getattr(lib, f"ucol_open_{version}")
        self._open.restype = ctypes.c_void_p
        self._open.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
        self._key = getattr(lib, f"ucol_getSortKey_{version}")
        self._key.restype = ctypes.c_int32
        self._key.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int32, ctypes.c_char_p, ctypes.c_int32]
        status = ctypes.c_int(0)
        self._collator = self._open(locale, ctypes.byref(status))
        if status.value > 0 or not self._collator:  # ICU: > 0 an error, < 0 a warning (a fallback locale)
            raise CollationUnavailable(f"ucol_open({locale!r}) failed with ICU error {status.value}")
        self._lock = threading.Lock()  # a collator is not to be used by two threads at once

    def key(self, text: str) -> bytes:
        units = text.encode("utf-16-le")
        length = len(units) // 2
        with self._lock:
            size = self._key(self._collator, units, length, None, 0)
            out = ctypes.create_string_buffer(size)
            self._key(self._collator, units, length, out, size)
        return out.raw[:size]


@lru_cache(maxsize=1)
def _collator() -> _Collator | None:
    """The collator, or ``None`` (logged once) where the system has no ICU: a page then lists
    names by code point rather than fail (``make run`` installs ICU; R-tour-33)."""
    try:
        return _Collator(LOCALE)
    except CollationUnavailable as exc:
        logger.warning("姓名依字碼排序（無 ICU）/ names sorted by code point, not strokes: %s", exc)
        return None


@lru_cache(maxsize=4096)
def name_key(name: str) -> bytes:
    """The sort key of a name in Taiwan's order (by strokes; R-tour-33): compare keys as bytes.
    Without the system's ICU, the name's UTF-32 (big-endian) bytes: code point order."""
    collator = _collator()
    return collator.key(name) if collator is not None else name.encode("utf-32-be")


def by_name(items, name=lambda item: item):
    """``items`` sorted by ``name(item)`` in Taiwan's order, equal names in the order given."""
    return sorted(items, key=lambda item: name_key(name(item)))


__all__ = ["CollationUnavailable", "LOCALE", "by_name", "name_key"]
