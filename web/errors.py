"""Errors of the pages, as HTML pages (zh-TW first, English second).

The API answers problem+json (:mod:`api`); a person at a browser gets a page instead that
says what went wrong and what to do. :class:`PageError` carries the status and both texts;
the blueprint's handler renders ``error.html`` with it. Unknown tournaments, rounds, tables
and 將 are 404s, reads that need a token are 401s (403 for a token that may not read),
bad query values 400s naming the parameter, a log that does not fold a 409 — never a 500.
"""
from __future__ import annotations

from flask import render_template, request

from services.problems import ApiProblem, nul_character, nul_field

TITLES = {
    400: ("請求錯誤", "Bad request"),
    401: ("需要授權", "Unauthorized"),
    403: ("權限不足", "Forbidden"),
    404: ("找不到頁面", "Not found"),
    409: ("賽事紀錄無法讀取", "The tournament's log cannot be read"),
}


class PageError(Exception):
    """A page that cannot be shown: the status and the reason, zh-TW and English."""

    def __init__(self, status: int, detail_zh: str, detail: str, *, field: str | None = None):
        super().__init__(detail)
        self.status = status
        self.detail_zh = detail_zh
        self.detail = detail
        self.field = field


def not_found(what_zh: str, what: str) -> PageError:
    return PageError(404, f"找不到{what_zh}。", f"No {what}.")


def from_problem(problem: ApiProblem) -> PageError:
    """A page error from the API's auth answer (:func:`api.auth.check_read`)."""
    if problem.code == 401 and problem.problem_code == "token_required":
        return PageError(401, "此賽事的資料目前不公開，需要權杖才能閱讀；瀏覽器頁面不支援權杖。"
                              "請向賽事主辦單位詢問，或由主辦單位將 tournaments 加入 MJREF_PUBLIC_READS。",
                         "This tournament's data is not public: reading it needs a token, which these pages "
                         "cannot send. Ask the organisers, or have them add 'tournaments' to MJREF_PUBLIC_READS.",
                         field=problem.field)
    return PageError(problem.code, problem.detail_zh, problem.detail, field=problem.field)


def render_error(error: PageError):
    zh, en = TITLES.get(error.status, ("錯誤", "Error"))
    headers = {"WWW-Authenticate": 'Bearer realm="mjref"'} if error.status == 401 else {}
    body = render_template("error.html", status=error.status, title_zh=zh, title_en=en, error=error)
    return body, error.status, headers


def refuse_nul(*, form: bool = False) -> None:
    """A page's URL (and with *form*, its form) holding a NUL (``%00``) is refused before
    anything reads it, as the API's is (:class:`api.intake.BodyLimit`,
    :func:`api.intake.check_json_text`), with the error page naming where.

    :raises PageError: 400 naming ``path``, the query parameter or the form field.
    """
    field = nul_field(request.path, request.args.items(multi=True), request.form.items(multi=True) if form else ())
    if field is not None:
        raise from_problem(nul_character(field))
