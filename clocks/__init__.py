"""Clocks (issue #7): the APScheduler service that runs the tournaments' round clocks.

The rules are :mod:`tournament.clock` (pure); this package runs them in time:
:mod:`clocks.scheduler` (one ``BackgroundScheduler`` per deployment, by a lock file beside
the database, :mod:`clocks.lock`), :mod:`services.clock_log` (check and append inside the
writer's transaction). HTTP is :mod:`api.clocks`.

Under ``flask run --reload`` both the reloader's process and its serving child make an app:
whichever takes the lock first runs the jobs (usually the reloader's, which outlives code
reloads: restart it after changing the clocks' code). Under ``make run`` (several uWSGI
processes, ``mjref/serve.py``) one worker leads and the others stand by.

Configuration (``app.config``, env ``MJREF_*``):

``SCHEDULER``
    start the scheduler (default: on, except in an app made with ``TESTING`` and in
    ``flask`` commands other than ``run``); ``0`` / ``false`` / ``off`` turn it off.
``CLOCK_TICK_SECONDS``
    how often every clock is looked at again and referee results synced (default 15).
``CLOCK_STANDBY_SECONDS``
    how often a process without the lock tries to take it (default 5).
``CLOCK_LATE_SECONDS``
    an action recorded more than this after its time is marked late (default 5).
``CLOCK_SYNC_RESULTS``
    the tick also records referee tables' hands (default on).
"""
from __future__ import annotations

import atexit

import click

from flask import Flask

from clocks.scheduler import ClockScheduler, flag
from services.clock_service import EXTENSION, notify, scheduler  # noqa: F401 - the package's API



def _cli_command() -> bool:
    """Inside a ``flask`` command other than ``run`` (``flask tokens list``): a short-lived
    process that must not record the clocks' catch-ups."""
    ctx = click.get_current_context(silent=True)
    return ctx is not None and getattr(ctx.command, "name", None) != "run"


def enabled(app: Flask) -> bool:
    return flag(app.config.get("SCHEDULER"), not app.testing and not _cli_command())


def init_app(app: Flask) -> None:
    """Start the scheduler when ``SCHEDULER`` is on (it runs jobs only if it gets the lock)."""
    if not enabled(app):
        return
    service = ClockScheduler(app)
    app.extensions[EXTENSION] = service
    service.start()
    atexit.register(service.shutdown)


__all__ = ["enabled", "init_app", "notify", "scheduler"]
