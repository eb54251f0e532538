"""One leader per deployment, held in PostgreSQL (issue #16 item 2): the clocks' scheduler.

:class:`AdvisoryLeader` takes a session-level advisory lock (``pg_try_advisory_lock``) on a
connection of its own and keeps that connection open while it leads. PostgreSQL drops the
lock when the session ends, however the holder ends: a clean exit, SIGKILL (the kernel
closes its socket, the server sees the end of the connection at once), a host that
vanishes (then TCP keepalives, both ends' set below, end the session within about 10 s). A standby
that retries (``CLOCK_STANDBY_SECONDS``) takes over within seconds. :meth:`still_held`
asks the database, so a leader whose connection broke stops leading instead of running
beside a new one.
"""
from __future__ import annotations

import os
import threading

from store.dialect import DATABASE_ERRORS, LOCK_LEADER, PgDatabase

#: which leader: one lock per purpose (the second half of the advisory key)
CLOCKS = 1


class AdvisoryLeader:
    """A non-blocking leader lock in the database, held until :meth:`release` or the session ends."""

    def __init__(self, dsn: str, purpose: int = CLOCKS):
        self.dsn = dsn
        self.purpose = purpose
        self.path = f"pg_advisory_lock({LOCK_LEADER}, {purpose})"  # what the logs name
        self._db: PgDatabase | None = None
        self._lock = threading.Lock()

    @property
    def held(self) -> bool:
        return self._db is not None

    def acquire(self) -> bool:
        """Take the lock if nobody holds it; ``True`` when this process holds it now."""
        with self._lock:
            if self._db is not None:
                return True
            try:
                db = PgDatabase(self.dsn + ("&" if "?" in self.dsn else "?")
                                + "keepalives=1&keepalives_idle=5&keepalives_interval=2&keepalives_count=2",
                                application_name=f"mjref-leader-{os.getpid()}")
            except DATABASE_ERRORS:
                return False
            try:
                # the server's side of the session: a holder whose host vanished is noticed
                # (and its lock dropped) after about 5 + 2 × 2 s of silence
                for name, value in (("tcp_keepalives_idle", 5), ("tcp_keepalives_interval", 2),
                                    ("tcp_keepalives_count", 2)):
                    db.execute(f"SET {name} = {value}")
                got = db.execute("SELECT pg_try_advisory_lock(CAST(? AS INTEGER), CAST(? AS INTEGER))",
                                 (LOCK_LEADER, self.purpose)).fetchone()[0]
            except DATABASE_ERRORS:
                got = False
            if not got:
                db.close()
                return False
            self._db = db
            return True

    def still_held(self) -> bool:
        """Whether this process still holds the lock (its session alive, the lock its own);
        drops it when not."""
        with self._lock:
            if self._db is None:
                return False
            try:
                row = self._db.execute(
                    "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() "
                    "AND classid = CAST(? AS INTEGER) AND objid = CAST(? AS INTEGER) AND granted",
                    (LOCK_LEADER & 0xFFFFFFFF, self.purpose)).fetchone()
                alive = row[0] == 1
            except DATABASE_ERRORS:
                alive = False
            if not alive:
                self._close()
            return alive

    def release(self) -> None:
        with self._lock:
            if self._db is not None:
                try:
                    self._db.execute("SELECT pg_advisory_unlock(CAST(? AS INTEGER), CAST(? AS INTEGER))",
                                     (LOCK_LEADER, self.purpose))
                except DATABASE_ERRORS:
                    pass
                self._close()

    def _close(self) -> None:
        try:
            self._db.close()
        except DATABASE_ERRORS:
            pass
        self._db = None
