"""``flask`` CLI commands of mjref (``flask --app app <command>``).

A command reports a :class:`referee.errors.MjrefError` as problem JSON on stderr
(``api.problem(exc)``) and exits non-zero, like the HTTP handler does.
"""
from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Register every mjref command on ``app.cli``."""
    # ---- registration point: add commands here, one line each ----------------
    # app.cli.add_command(analyze_command)   # `flask analyze` (the lead adds it)
    # ---------------------------------------------------------------------------
