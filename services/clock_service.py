"""This process's round-clock scheduler, as the API sees it: found, woken, never imported.

:mod:`clocks` starts a scheduler and registers it in ``app.extensions[EXTENSION]``; the API
asks for it here, so that ``api/`` and ``clocks/`` (peers above this layer) never import
each other (issue #19 item 1).
"""
from __future__ import annotations

from typing import Any

from flask import Flask, current_app

EXTENSION = "mjref.clocks"


def scheduler(app: Flask | None = None) -> Any | None:
    """The scheduler this process runs (a :class:`clocks.scheduler.ClockScheduler`), or ``None``."""
    return (app or current_app).extensions.get(EXTENSION)


def notify(tournament_id: str, app: Flask | None = None) -> None:
    """After a clock-related write: the scheduler (if this process runs it) looks again now."""
    service = scheduler(app)
    if service is not None:
        service.notify(tournament_id)


__all__ = ["EXTENSION", "notify", "scheduler"]
