"""``GET /health``: can the service do its work — read and commit to its database.

* ``200 {"status": "ok"}`` — the store can commit (:func:`store.health.check`: room on its
  disk and a real commit through the app's writer);
* ``503 {"status": "degraded", "code", "reason", "reason_zh"}`` with ``Retry-After`` —
  it cannot (a full disk, a read-only folder, a lock held too long): posts would be
  refused with 503 ``store_unavailable``; a load balancer takes the service out.

Public (a load balancer has no token), so it names no file: with an ``official`` or
``admin`` token the answer adds ``database`` (the file's path) and, when degraded,
``error`` (the error itself). An invalid token is a 401 like everywhere.
"""
from __future__ import annotations

import sqlite3

from flask import Blueprint, current_app, jsonify

from api.auth import current_principal
from store import get_db, get_writer
from store.health import check, trouble_of

bp = Blueprint("health", __name__)

#: roles that may see the database's path and the raw error
INSIDERS = ("official", "admin")


@bp.get("/health")
def health():
    principal = current_principal()
    insider = principal is not None and principal.role in INSIDERS
    try:
        get_db().execute("SELECT 1")
    except sqlite3.Error as exc:
        trouble = trouble_of(exc)
    else:
        at = current_app.config["CLOCK"].now().isoformat()
        trouble = check(current_app.config["DATABASE"], get_writer(), at)
    body: dict = {"status": "ok"} if trouble is None else {
        "status": "degraded", "code": trouble.code, "reason": trouble.reason, "reason_zh": trouble.reason_zh}
    if insider:
        body["database"] = current_app.config["DATABASE"]
        if trouble is not None:
            body["error"] = trouble.error
    response = jsonify(body)
    if trouble is not None:
        response.status_code = 503
        response.headers["Retry-After"] = "5"
    response.headers["Cache-Control"] = "no-store"
    return response
