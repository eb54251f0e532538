"""``GET /health``: can the service do its work — read and commit to its database.

* ``200 {"status": "ok"}`` — the store can commit (:func:`store.health.check`: room on its
  disk and a real commit through the app's writer);
* ``503 {"status": "degraded", "code", "reason", "reason_zh"}`` with ``Retry-After`` —
  it cannot (a full disk, a read-only folder, a lock held too long): posts would be
  refused with 503 ``store_unavailable``; a load balancer takes the service out.

Public (a load balancer has no token), so it names no file: with an ``official`` or
``admin`` token the answer adds ``database`` (the file's path) and, when degraded,
``error`` (the error itself). An invalid token is a 401 like everywhere.

The check commits, so a process runs it at most once per ``HEALTH_CHECK_SECONDS`` (config,
default 1): calls meanwhile, however many, get that check's answer (a load balancer's
polls, a restart's queued probes, do not add a commit each to the tables' writes).
"""
from __future__ import annotations

import threading
import time

from flask import Blueprint, Flask, current_app, jsonify

from api.auth import current_principal
from store import get_db, get_writer
from store.dialect import public_name
from store.health import check, read_trouble

bp = Blueprint("health", __name__)

#: roles that may see the database's path and the raw error
INSIDERS = ("official", "admin")


#: default of HEALTH_CHECK_SECONDS: how long one check's answer stands
CHECK_SECONDS = 1.0


class _LastCheck:
    """One process's latest check: its answer and when (``time.monotonic``); one check at a time."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.at: float | None = None
        self.trouble = None


def _checked(app: Flask):
    """The store's trouble (or ``None``), checked now or at most ``HEALTH_CHECK_SECONDS`` ago."""
    last: _LastCheck = app.extensions.setdefault("mjref.health", _LastCheck())
    window = float(app.config.get("HEALTH_CHECK_SECONDS", CHECK_SECONDS))
    with last.lock:
        if last.at is not None and time.monotonic() - last.at < window:
            return last.trouble
        trouble = read_trouble(get_db) or check(app.config["DATABASE"], get_writer(app),
                                                app.config["CLOCK"].now().isoformat())
        last.at, last.trouble = time.monotonic(), trouble
        return trouble


@bp.get("/health")
def health():
    principal = current_principal()
    insider = principal is not None and principal.role in INSIDERS
    trouble = _checked(current_app._get_current_object())
    body: dict = {"status": "ok"} if trouble is None else {
        "status": "degraded", "code": trouble.code, "reason": trouble.reason, "reason_zh": trouble.reason_zh}
    if insider:
        body["database"] = public_name(current_app.config["DATABASE"])  # a URL without its password
        if trouble is not None:
            body["error"] = trouble.error
    response = jsonify(body)
    if trouble is not None:
        response.status_code = 503
        response.headers["Retry-After"] = "5"
    response.headers["Cache-Control"] = "no-store"
    return response
