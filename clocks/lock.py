"""Exactly one scheduler per deployment: an exclusive ``flock`` on a file beside the database.

Every process that serves the database (the Flask reloader's child and parent, several
uWSGI workers of ``make run``) starts a scheduler, but only the one holding
``<database>.scheduler.lock`` runs jobs. ``flock`` locks belong to the open file: the
kernel drops the lock when the holder dies, however it dies (SIGKILL included), so a
standby that retries takes over. Two opens in one process conflict too, so two apps on
one file in one process also get one scheduler.

On PostgreSQL the servers share no disk (issue #16 item 2): the leader is an advisory lock
in the database (:class:`store.leader.AdvisoryLeader`), chosen by :func:`scheduler_lock`.
"""
from __future__ import annotations

import fcntl
import os


def lock_path(database: str | os.PathLike) -> str:
    return os.fspath(database) + ".scheduler.lock"


def scheduler_lock(database: str | os.PathLike):
    """The deployment's leader lock: a ``flock`` beside a SQLite file, an advisory lock in PostgreSQL."""
    from store.dialect import is_postgres

    if is_postgres(database):
        from store.leader import AdvisoryLeader

        return AdvisoryLeader(database)
    return SchedulerLock(lock_path(database))


class SchedulerLock:
    """A non-blocking exclusive lock on ``path``, held until :meth:`release` or the process ends."""

    def __init__(self, path: str):
        self.path = path
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> bool:
        """Take the lock if nobody holds it; ``True`` when this process holds it now."""
        if self._fd is not None:
            return True
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())  # who holds it, for a person looking
        self._fd = fd
        return True

    def still_held(self) -> bool:
        """A ``flock`` stays the holder's while its file is open."""
        return self._fd is not None

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
