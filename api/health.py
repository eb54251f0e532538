"""``GET /health``: liveness and which database file the service uses."""
from __future__ import annotations

from flask import Blueprint, current_app

from store import get_db

bp = Blueprint("health", __name__)


@bp.get("/health")
def health():
    get_db().execute("SELECT 1")
    return {"status": "ok", "database": current_app.config["DATABASE"]}
