"""Can the store commit? The check behind ``GET /health`` (issue #12 item 8).

Reading the file says little: a full disk or a read-only folder still reads. So the check
*writes*, the two ways a commit needs to:

1. **room on the disk** — a file beside the database is given :data:`ROOM_BYTES` of disk
   (``posix_fallocate``: blocks reserved, nothing written) and removed. A commit grows the
   WAL by a page per changed page and the checkpoint grows the file; with less room than
   this, commits are about to fail, if they do not already. (A one-page commit alone would
   pass on a full disk: the WAL reuses its own space after a checkpoint.)
2. **a commit** — one row of ``meta`` (``health_checked_at``) written through the app's
   writer (:mod:`store.writer`), as every write of the service is: the lock, the
   transaction, the fsync.

:func:`check` returns ``None`` when both work, else a :class:`Trouble`: a stable code, a
reason in English and zh-TW that names no path (the health answer is public), and the
error itself for those allowed to see it.
"""
from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from store.dialect import DATABASE_ERRORS, is_postgres
from store.writer import GroupCommitter, StoreUnavailableError

#: disk room the check asks for beside the database: 64 pages of 4 KiB
ROOM_BYTES = 256 * 1024


@dataclass(frozen=True)
class Trouble:
    """Why the store cannot commit: ``code`` (``disk_full``, ``read_only``, ``locked``,
    ``cannot_commit``), the reason without paths, and the error's own text."""

    code: str
    reason: str
    reason_zh: str
    error: str


_REASONS = {
    "disk_full": ("no room left on the database's disk", "資料庫所在磁碟已無空間"),
    "read_only": ("the database's folder or file cannot be written", "資料庫的資料夾或檔案無法寫入"),
    "locked": ("the database is locked by another writer", "資料庫被其他寫入者鎖住"),
    "cannot_commit": ("the database could not commit", "資料庫無法寫入"),
}


def trouble_of(exc: BaseException) -> Trouble:
    """The :class:`Trouble` an error of the store means."""
    cause = exc.cause if isinstance(exc, StoreUnavailableError) else exc
    text = str(cause).lower()
    number = getattr(cause, "errno", None)
    if number in (errno.ENOSPC, errno.EDQUOT) or "full" in text or "no space" in text:
        code = "disk_full"
    elif number in (errno.EROFS, errno.EACCES, errno.EPERM) or "readonly" in text or "read-only" in text:
        code = "read_only"
    elif "locked" in text or "busy" in text:
        code = "locked"
    else:
        code = "cannot_commit"
    reason, reason_zh = _REASONS[code]
    return Trouble(code, reason, reason_zh, f"{type(cause).__name__}: {cause}")


def _room(database: str) -> None:
    """Reserve :data:`ROOM_BYTES` in a file beside *database*, then remove it.

    :raises OSError: no room (ENOSPC), the folder not writable (EACCES, EROFS).
    """
    fd, path = tempfile.mkstemp(prefix=os.path.basename(database) + "-health-", dir=os.path.dirname(database))
    try:
        os.posix_fallocate(fd, 0, ROOM_BYTES)
    finally:
        os.close(fd)
        os.unlink(path)


#: the health check's write names its own key: on PostgreSQL it never waits for the ingest
HEALTH_KEYS = ("meta:health_checked_at",)


def _touch(tx, at: str) -> None:
    tx.db.execute("INSERT INTO meta (key, value) VALUES ('health_checked_at', ?) "
                  "ON CONFLICT (key) DO UPDATE SET value = excluded.value", [at])


def read_trouble(connection: Callable[[], Any]) -> Trouble | None:
    """``None`` when the database answers a read on the request's connection (*connection*:
    how to get it, e.g. :func:`store.get_db`; getting it may fail too); else why not."""
    try:
        connection().execute("SELECT 1")
    except DATABASE_ERRORS as exc:
        return trouble_of(exc)
    return None


def check(database: str | os.PathLike, writer: GroupCommitter, at: str) -> Trouble | None:
    """``None`` when the store can commit (room on its disk, a real commit through *writer*,
    ``meta.health_checked_at`` = *at*); else why not. On PostgreSQL the disk is the
    database server's: the commit alone says whether it can write."""
    try:
        if not is_postgres(database):
            _room(os.path.abspath(os.fspath(database)))
        writer.submit(lambda tx: _touch(tx, at), keys=HEALTH_KEYS)
    except (OSError, *DATABASE_ERRORS, StoreUnavailableError) as exc:
        return trouble_of(exc)
    return None
