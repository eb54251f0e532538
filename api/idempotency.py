"""``Idempotency-Key`` on the API's tournament writes (issue #12 item 7): the view decorator.

What a key does, and the duplicates of requests that name their effect, are
:mod:`services.idempotency` (shared with the pages); this module reads and checks the
request's header before the view (:func:`idempotent`) and documents it (:func:`documented`);
:func:`write` stacks a write's route and documentation around them.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import g, request

from api import auth
from api.openapi import BEARER
from services.idempotency import (
    HEADER, KEPT_HEADERS, MAX_KEY, PARAMETER, REPLAYED, Claim, Duplicate, _body, _key, _replay, fingerprint, respond,
    submit,
)
from store import get_db
from store import idempotency as istore


def idempotent(view: Callable) -> Callable:
    """View decorator (innermost, under flask-smorest's): read and check the request's
    ``Idempotency-Key``; a key already stored is answered from the store at once (before
    the view looks at the state, which the first request changed), else the view runs
    with the claim in ``g`` for :func:`submit`.

    :raises ApiProblem: 401/403 (the key is the token's: who asks comes first), 400 for a
        malformed key, 422 for a key stored with another request.
    """

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any):
        g.idempotency = None
        if HEADER in request.headers:
            principal = auth.require("official", "admin")  # who asks first: a key is the token's
            key = _key()
            path = request.full_path.rstrip("?") if request.query_string else request.path
            claim = Claim(principal.id, key, fingerprint(request.method, path, _body()),
                          request.method, path)
            stored = istore.find(get_db(), claim.principal, claim.key)
            if stored is not None:
                return respond(*_replay(claim, stored))
            g.idempotency = claim
        return view(*args, **kwargs)

    return wrapper


def documented(blp, *, duplicates: bool = False) -> Callable[[Callable], Callable]:
    """:func:`idempotent` for a view of *blp*, with the header and the 422 in its OpenAPI
    (and, with *duplicates*, the 200 of a resend answered as a :class:`Duplicate`)."""

    def decorator(view: Callable) -> Callable:
        view = idempotent(view)
        view = blp.alt_response(422, description="冪等鍵已用於另一請求 the Idempotency-Key names another request")(view)
        if duplicates:
            view = blp.alt_response(200, description='已如此記錄（重送）：原紀錄，"duplicate": true — recorded so '
                                                     'already (a resend): the records that did it')(view)
        return blp.doc(parameters=[PARAMETER])(view)

    return decorator


def write(blp, method: str, rule: str, body: type | None, answer: type, *, status: int = 200,
          required: bool = True, duplicates: bool = False) -> Callable[[Callable], Callable]:
    """An official's write on *blp*, the decorators every one stacks in their order: the
    route (*method* *rule*), its *body* schema (``None``: no body; ``required=False``: the
    body may be left out), the *status* answered with *answer*, the bearer token in its
    OpenAPI, and :func:`documented` (*duplicates* as there). The view still checks who
    asks itself (first, before the body is used)."""

    def decorator(view: Callable) -> Callable:
        view = documented(blp, duplicates=duplicates)(view)
        view = blp.doc(security=BEARER)(view)
        view = blp.response(status, answer)(view)
        if body is not None:
            view = blp.arguments(body, required=required)(view)
        return getattr(blp, method)(rule)(view)

    return decorator


__all__ = ["HEADER", "KEPT_HEADERS", "MAX_KEY", "PARAMETER", "REPLAYED", "Claim", "Duplicate", "documented",
           "fingerprint", "idempotent", "respond", "submit", "write"]
