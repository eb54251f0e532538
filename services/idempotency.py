"""Resending a tournament write is safe (issue #12 item 7): ``Idempotency-Key`` and duplicates.

The service's half, shared by the API and the pages (:func:`submit`, :class:`Duplicate`,
:func:`respond`); the API's view decorator that reads the header is :func:`api.idempotency.idempotent`
(a page's write carries no key: ``g.idempotency`` unset, judged by its duplicates alone).

Every ``POST`` / ``PUT`` under ``/api/v1/tournaments`` takes an optional request header
``Idempotency-Key`` (1–255 visible ASCII characters: a UUID is a good one):

* the first request with a key is written as usual; its answer (status, body, the
  headers that matter) is stored with its events **in the same transaction**
  (:mod:`store.idempotency`), so a key is stored exactly when the write is committed;
* a resend with the same key and the same request (method, path and body compared as
  canonical JSON) gets that answer again, whatever happened since, with the header
  ``Idempotent-Replayed: true``; nothing is written;
* the same key with another request is a **422** ``idempotency_key_reused`` naming the
  header, nothing written;
* a request that failed (400, 409, 503 …) stored nothing, its key neither: resent, it is
  judged again.

Keys are scoped per token (the principal): two officials' keys never meet, and one
official's key names one write across every tournament. They are kept (append-only).

Without a key, a request that names its own effect — a hand by its key (round, table,
將, hand), a tournament by its id, players by their ids, a round's seats, a seeded schedule or
draw, a substitute's seat, a correction, a revert, a link by its table — and finds that
effect already recorded exactly so is answered **200** with ``"duplicate": true``
and the records that made it (:class:`Duplicate`), not a 409; a different body at the same
place is still the 409 it was. The live table events behave the same way by
``(hand, seq)`` (``docs/api.md``, "Idempotent by (hand, seq)").
"""
from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Response, current_app, g, jsonify, request

from services.problems import ApiProblem, bad_request
from store import get_writer
from store import idempotency as istore
from store import tables as table_store
from store import tournaments as tstore

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
MAX_KEY = 255
#: response headers kept with the answer (what a replay must show again)
KEPT_HEADERS = ("Location",)

#: the header as OpenAPI documents it on every tournament write
PARAMETER = {
    "in": "header", "name": HEADER, "required": False,
    "description": "冪等鍵：重送同一請求得到原本的回答（標頭 Idempotent-Replayed: true）；同一鍵配不同內容為 422。"
                   "An idempotency key: a resend of the same request gets the original answer "
                   "(header Idempotent-Replayed: true); the same key with another body is a 422.",
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY, "pattern": "^[\\x20-\\x7e]+$"},
}


@dataclass(frozen=True, slots=True)
class Claim:
    """A keyed request: whose key, the key, and what the request was."""

    principal: int
    key: str
    fingerprint: str
    method: str
    path: str


class Duplicate(Exception):
    """The request's effect is already recorded exactly so (raised inside the write's
    transaction: nothing is written); :attr:`body` is the answer, sent as a 200."""

    def __init__(self, body: dict):
        super().__init__("already recorded")
        self.body = {**body, "duplicate": True}


def fingerprint(method: str, path: str, body: bytes) -> str:
    """What identifies a request: method, path (with its query) and body."""
    digest = hashlib.sha256()
    for part in (method.encode(), path.encode(), body):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def _body() -> bytes:
    """The request's body as compared: JSON as canonical JSON (key order and spacing do not
    matter), anything else as its bytes."""
    data = request.get_json(silent=True, cache=True) if request.is_json else None
    if data is None:
        return request.get_data(cache=True)
    return table_store.canonical(data).encode("utf-8", "surrogatepass")


def _key() -> str | None:
    raw = request.headers.get(HEADER)
    if raw is None:
        return None
    if not 1 <= len(raw) <= MAX_KEY or not all(" " <= c <= "~" for c in raw):
        raise bad_request("invalid_idempotency_key", HEADER,
                          f"{HEADER} must be 1–{MAX_KEY} visible ASCII characters (a UUID, say)",
                          f"{HEADER} 須為 1–{MAX_KEY} 個可見的 ASCII 字元（例如 UUID）")
    return raw


def _reused(stored: istore.StoredAnswer) -> ApiProblem:
    return ApiProblem(422, "idempotency_key_reused",
                      f"this {HEADER} was used for another request (first: {stored.method} {stored.path}); "
                      "use a new key for a new request",
                      f"此 {HEADER} 已用於另一個請求（先前為 {stored.method} {stored.path}）；新的請求請用新的鍵",
                      field=HEADER)


def _replay(claim: Claim, stored: istore.StoredAnswer) -> tuple[int, dict, dict, bool]:
    if stored.fingerprint != claim.fingerprint:
        raise _reused(stored)
    return stored.status, stored.body, stored.headers, True


def respond(status: int, body: dict, headers: dict | None = None, replayed: bool = False) -> Response:
    response = jsonify(body)
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    if replayed:
        response.headers[REPLAYED] = "true"
    return response


def submit(tournament_id: str, work: Callable[[Any], tuple[int, dict, dict]]) -> tuple[int, dict, dict, bool]:
    """Run a tournament write in the writer's transaction: ``work(tx)`` appends its events
    and returns the answer ``(status, body, headers)``, computed there; with a key, the key
    is looked up again first (a concurrent request with it may have just committed) and
    stored with the answer. Returns ``(status, body, headers, replayed)``.

    :raises Duplicate: the write's effect is already recorded (from *work*; nothing written).
    """
    claim: Claim | None = g.get("idempotency")

    def job(tx):
        if claim is not None:
            stored = istore.find(tx.db, claim.principal, claim.key)
            if stored is not None:
                return _replay(claim, stored)
        before = tstore.last_seq(tx.db, tournament_id)
        status, body, headers = work(tx)
        if claim is not None:
            after = tstore.last_seq(tx.db, tournament_id)
            istore.save(tx.db, principal=claim.principal, key=claim.key, fingerprint=claim.fingerprint,
                        method=claim.method, path=claim.path, tournament_id=tournament_id,
                        first_seq=before + 1 if after > before else None, last_seq=after if after > before else None,
                        status=status, body=body, headers={k: v for k, v in headers.items() if k in KEPT_HEADERS})
        return status, body, headers, False

    result = get_writer().submit(job)
    _delay_for_tests()
    return result


def _delay_for_tests() -> None:
    """``TESTING_DELAY_AFTER_COMMIT_SECONDS`` (default 0: off): hold the answer that long
    after the commit — for tests only, to kill a real server between a write's commit and
    its answer (tests/test_idempotency_crash.py). Never set it in production."""
    seconds = float(current_app.config.get("TESTING_DELAY_AFTER_COMMIT_SECONDS", 0) or 0)
    if seconds > 0:
        threading.Event().wait(seconds)  # a timed wait: works under faketime too (tests.servicekit.pause)


__all__ = ["HEADER", "KEPT_HEADERS", "MAX_KEY", "PARAMETER", "REPLAYED", "Claim", "Duplicate", "fingerprint", "respond",
           "submit"]
