"""The one APScheduler of a deployment: it runs each tournament's clock at its times.

Jobs are not stored: they are derived from the log. When this process becomes the
scheduler (it takes the lock, :mod:`clocks.lock`) it runs every clocked tournament at once
— anything due while no server ran is recorded then, at the actual time, marked late —
and schedules each tournament's next due time (:func:`tournament.clock.next_due`) as a
one-off job, again after every run. A periodic tick (``CLOCK_TICK_SECONDS``) runs them all
again — it picks up writes made by another process (a worker that is not the scheduler)
— and records referee tables' closed hands (``services.tournament_results.sync_table_results``).
A process that did not get the lock retries every
``CLOCK_STANDBY_SECONDS``, so it takes over when the holder dies.
"""
from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta, timezone

from apscheduler.schedulers.background import BackgroundScheduler
from flask import Flask

from clocks.lock import scheduler_lock
from services.clock_log import dealer_of, late_tolerance, record_clock
from services.tournament_results import sync_table_results
from store import connect, get_writer
from store import clocks as clock_store
from store.tournaments import load_records
from tournament.clock import clock_state, next_due
from tournament.events import replay

log = logging.getLogger(__name__)


def flag(value: object, default: bool) -> bool:
    """A configuration switch: ``None`` → ``default``; ``0``/``false``/``off``/``no`` → off."""
    if value is None:
        return default
    if isinstance(value, str):
        return value.strip().lower() not in ("", "0", "false", "off", "no")
    return bool(value)


def _wall() -> datetime:
    """APScheduler's own time (it wakes by the system's clock)."""
    return datetime.now(timezone.utc)


class ClockScheduler:
    """A ``BackgroundScheduler`` that runs jobs only while it holds the deployment's lock."""

    def __init__(self, app: Flask):
        self.app = app
        config = app.config
        self.tick_seconds = float(config.get("CLOCK_TICK_SECONDS", 15))
        self.standby_seconds = float(config.get("CLOCK_STANDBY_SECONDS", 5))
        self.tolerance = late_tolerance(config)
        self.sync_results = flag(config.get("CLOCK_SYNC_RESULTS"), True)
        self.clock = config["CLOCK"]  # the app's time (tournament.clocksource): what is due, and when
        self.lock = scheduler_lock(config["DATABASE"])
        self.scheduler = BackgroundScheduler(
            timezone=timezone.utc,
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None},
        )
        self._lead_lock = threading.Lock()

    @property
    def leading(self) -> bool:
        return self.lock.held

    def start(self) -> None:
        self.scheduler.start()
        if not self.try_lead():
            self.scheduler.add_job(self.try_lead, "interval", seconds=self.standby_seconds, id="standby")

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        self.lock.release()

    def try_lead(self) -> bool:
        """Take the lock if it is free; on taking it, run every clock now and from then on."""
        with self._lead_lock:
            if self.lock.held:
                return True
            if not self.lock.acquire():
                return False
        log.info("clocks: this process (%s) runs the scheduler", self.lock.path)
        if self.scheduler.get_job("standby"):
            self.scheduler.remove_job("standby")
        self.scheduler.add_job(self.tick, "interval", seconds=self.tick_seconds, id="tick",
                               next_run_time=_wall(), replace_existing=True)
        return True

    def notify(self, tournament_id: str) -> None:
        """A clock-related write happened here: look at that tournament's clock now."""
        if self.leading and self.scheduler.running:
            self.scheduler.add_job(self.run, args=[tournament_id], id=f"now:{tournament_id}", replace_existing=True)

    # -- jobs -----------------------------------------------------------------------------

    def tick(self) -> None:
        if not self.lock.still_held():  # the database lost our session (PostgreSQL): another may lead now
            log.warning("clocks: this process lost the lead (%s); standing by", self.lock.path)
            with self._lead_lock:
                if self.scheduler.get_job("tick"):
                    self.scheduler.remove_job("tick")
                self.scheduler.add_job(self.try_lead, "interval", seconds=self.standby_seconds, id="standby",
                                       replace_existing=True)
            return
        db = connect(self.app.config["DATABASE"])
        try:
            clocked = clock_store.clocked_tournaments(db)
            every = clock_store.linked_tournaments(db) if self.sync_results else []
        finally:
            db.close()
        for tournament_id in every:
            self.sync(tournament_id)
        for tournament_id in clocked:
            self.run(tournament_id)

    def sync(self, tournament_id: str) -> None:
        """Record referee tables' closed hands in the tournament's log (the API's sync)."""
        try:
            get_writer(self.app).submit(lambda tx: sync_table_results(tx.db, tournament_id))
        except Exception:  # noqa: BLE001 - a job never dies: logged, tried again next tick
            log.exception("clocks: results sync of tournament %s failed", tournament_id)

    def run(self, tournament_id: str) -> None:
        """Record what is due now (re-checked inside the write transaction), then schedule
        the next due time."""
        if not self.leading:
            return
        try:
            def work(tx):
                now = self.clock.now()
                added = record_clock(tx.db, tournament_id, now=now, tolerance=self.tolerance)
                records = load_records(tx.db, tournament_id)
                return added, next_due(clock_state(records), replay(records), now, dealer_of(records))

            added, upcoming = get_writer(self.app).submit(work)
        except Exception:  # noqa: BLE001 - a job never dies: logged, tried again next tick
            log.exception("clocks: the clock of tournament %s failed", tournament_id)
            return
        for record in added:
            log.info("clocks: %s %s", tournament_id, record.event)
        job_id = f"due:{tournament_id}"
        if upcoming is None:
            if self.scheduler.get_job(job_id):
                self.scheduler.remove_job(job_id)
            return
        # ``upcoming`` is the app's time; APScheduler wakes by the system's: wait as long as the app's clock would
        run_date = _wall() + max(upcoming - self.clock.now(), timedelta(0))
        self.scheduler.add_job(self.run, "date", run_date=run_date, args=[tournament_id], id=job_id,
                               replace_existing=True)
