"""Service errors as HTTP exceptions that the one handler in :mod:`api` turns into
problem+json: every one names its stable ``code``, the ``field`` at fault and the reason
in zh-TW and English; extra members (``expected_seq``) go into the body as they are.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from werkzeug.exceptions import HTTPException

_TITLES = {
    400: "輸入無效 Invalid input",
    401: "需要認證 Unauthorized",
    403: "權限不足 Forbidden",
    404: "找不到資源 Not Found",
    409: "衝突 Conflict",
    413: "請求內容過大 Payload Too Large",
    503: "服務暫時無法使用 Service Unavailable",
}


class ApiProblem(HTTPException):
    """An error of the service with its problem+json members.

    :param status: HTTP status.
    :param code: stable ASCII code (``seq_gap``, ``forbidden_table`` ...).
    :param detail: / :param detail_zh: the reason, English and zh-TW.
    :param field: the input at fault (``events[3].seq``, ``Authorization``).
    :param extra: more members of the body (``expected_seq``).
    :param headers: response headers (``WWW-Authenticate``).
    """

    def __init__(self, status: int, code: str, detail: str, detail_zh: str, *, field: str | None = None,
                 extra: dict[str, Any] | None = None, headers: dict[str, str] | None = None):
        super().__init__(description=detail)
        self.code = status
        self.problem_code = code
        self.field = field
        self.detail = detail
        self.detail_zh = detail_zh
        self.extra = extra or {}
        self.extra_headers = headers or {}

    @property
    def name(self) -> str:  # werkzeug's name for the status
        from http import HTTPStatus

        return HTTPStatus(self.code).phrase

    def body(self) -> dict[str, Any]:
        return {
            "type": f"urn:mjref:problem:{self.problem_code}",
            "title": _TITLES.get(self.code, self.name),
            "status": self.code,
            "code": self.problem_code,
            "field": self.field,
            "detail": self.detail,
            "detail_zh": self.detail_zh,
            **self.extra,
        }

    def get_headers(self, environ=None, scope=None) -> list[tuple[str, str]]:
        return [("Content-Type", "application/problem+json"), *self.extra_headers.items()]


def not_found(what: str, what_zh: str, value: Any, field: str) -> ApiProblem:
    return ApiProblem(404, "not_found", f"no {what} {value!r}", f"找不到{what_zh}「{value}」", field=field)


def bad_request(code: str, field: str, detail: str, detail_zh: str, **extra: Any) -> ApiProblem:
    return ApiProblem(400, code, detail, detail_zh, field=field, extra=extra)


def nul_character(field: str) -> ApiProblem:
    """400 ``nul_character`` naming *field*: text holding U+0000 (a body's ``\\u0000``, a form's
    ``%00``), which PostgreSQL cannot store in a text column (SQLite can): refused on both
    backends alike, so a value means the same on either and a deployment moves between them
    (``flask db copy``)."""
    return bad_request("nul_character", field, f"{field}: the NUL character (\\u0000) is not allowed in text",
                       f"{field}：文字不得含 NUL 字元（\\u0000）")


def nul_field(path: str, *fields: Iterable[tuple[str, str]]) -> str | None:
    """Where a request holds a NUL (U+0000, a URL's or a form's ``%00``): ``path``, or the name
    of the first field of *fields* (query parameters, form fields: name and value pairs)
    holding one in its name or value; ``None`` when it holds none. PostgreSQL cannot compare
    or store text holding one: every route, reads too, answered a 500 there."""
    if "\x00" in path:
        return "path"
    for name, value in itertools.chain(*fields):
        if "\x00" in name or "\x00" in value:
            return name.replace("\x00", "\\u0000") or "query"
    return None
