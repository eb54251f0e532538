"""Narrow exceptions for misuse of the domain code.

Every error the domain raises derives from :class:`MjrefError` and from the
builtin it refines (``ValueError`` mostly), so callers may catch either.  Each
carries a ``field`` (what input was wrong, as the API names it) and a ``reason``
in zh-TW and English; the single HTTP/CLI error handler turns them into JSON
(``application/problem+json``) without knowing the subclasses.
"""
from __future__ import annotations


class MjrefError(Exception):
    """Base of every mjref domain error.

    :param message: English message showing the bad input.
    :param field: the input field at fault (``"tiles"``, ``"melds[2]"``, ``"params.tai.18"``).
    :param reason_zh: the same reason in Traditional Chinese, for officials.
    """

    #: stable ASCII code for API clients
    code = "mjref_error"

    def __init__(self, message: str, *, field: str | None = None, reason_zh: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.reason_zh = reason_zh or message

    def to_dict(self) -> dict:
        return {"code": self.code, "field": self.field, "detail": self.message, "detail_zh": self.reason_zh}


class InvalidTileError(MjrefError, ValueError):
    """A tile or tile string cannot be parsed (unknown tile, bad position)."""

    code = "invalid_tile"


class TileCountError(MjrefError, ValueError):
    """More copies of a tile than the set holds (a fifth copy, a second flower)."""

    code = "tile_count"


class InvalidMeldError(MjrefError, ValueError):
    """A meld that cannot exist: 9-1-2 as a chow, a chow of honours, a flower in a meld,
    a kong of different tiles."""

    code = "invalid_meld"


class InvalidHandError(MjrefError, ValueError):
    """A hand that cannot exist or be analysed: wrong number of tiles for its melds,
    a flower among the concealed tiles."""

    code = "invalid_hand"


class RulesetError(MjrefError, ValueError):
    """An unknown ruleset profile or parameter, or a bad parameter value."""

    code = "invalid_ruleset"
