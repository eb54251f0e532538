"""Group commit: one writer connection, many requests per durable commit.

Every write of the service goes through :meth:`GroupCommitter.submit`. Requests that
arrive while a commit is in progress queue up; the next thread to take the commit lock
becomes the leader and runs the whole queue in **one** transaction::

    BEGIN IMMEDIATE                               -- PostgreSQL: with the batch's locks and
                                                  -- the revocation count (Tx.revocations)
      SAVEPOINT job; work₁(tx); RELEASE job      -- or ROLLBACK TO job: work₁ raised
      SAVEPOINT job; work₂(tx); RELEASE job
      ...
    COMMIT                                        -- one fsync for the whole batch

Only then does each submitter get its result (the ack comes after the commit). A job that
raises is rolled back alone (its savepoint) and its submitter gets the exception; the
other jobs of the batch still commit. If the commit itself fails, every job of the batch
gets :class:`StoreUnavailableError` and nothing of the batch is stored.

Several server processes (``mjref/serve.py``) each have their own writer; with *lock_path*
the leaders of all processes take turns through an exclusive ``flock`` on that file around
each batch, so a process waits in the kernel (woken at once) instead of in SQLite's
busy handler, which sleeps and retries (1, 2, 5, 10 ... ms) and so adds its sleeps to the
latency of every post of the batch. Other writers (the CLI) still meet SQLite's lock and
busy timeout as before.

On PostgreSQL (issue #16 item 2) the servers may be on different hosts: they take turns in
the database itself, through transaction-scoped advisory locks taken at the start of each
batch, in one order (so two batches never wait for each other in a circle). A job may
name the keys it needs (``submit(work, keys=("table:T1",))``, what the live ingest does for
its table): a batch of such jobs takes :data:`store.dialect.LOCK_WRITE` shared and each key
exclusive, so batches of different tables commit side by side, and one table's writes stay
in order. A job that names no key (tokens, tournaments, rebuilds) takes ``LOCK_WRITE``
exclusive: its batch runs alone, as every batch does on SQLite.

**One round trip per batch** (PostgreSQL, issue #16 item 5): a job may also *declare* its
write up front (``submit(work, keys, declared=Declared(sql, params, outcome))``: one
statement that writes all or nothing, and reads in SQL what it must compare — the live
ingest's head check and the revocation count). A batch whose jobs are all declared goes in
one pipeline (libpq's pipeline mode, :meth:`store.dialect.PgDatabase.pipeline`)::

    BEGIN; SELECT <the batch's locks>; statement₁; statement₂; ...; COMMIT   -- one trip

and ``outcome(ran)`` reads each statement's answer once the COMMIT is in (it may raise only
for a statement that wrote nothing: the job's error, its submitter gets it). In a batch that
also has undeclared jobs the trip ends with the first of their savepoints instead of the
COMMIT (and reads the revocation count for them), and they run after it as above, each
``work`` in its savepoint: the declared jobs first — but not one queued after an undeclared
job on one of its keys (an official's override, then the table's next post): it runs after
that one, the reference way, so one key's jobs keep their order (``_in_the_trip``). ``work`` stays the
reference: a pipeline in which a job's statement is refused (a unique clash, the
append-only trigger) is rolled back and the batch runs again that way, so the refused job
alone gets its error and the others commit; a pipeline that finds the connection stale
runs again so on a new one (each declared statement checks its head: a batch that did
commit writes nothing the second time); a connection lost otherwise fails the whole batch
(:class:`StoreUnavailableError`). ``GroupCommitter(pipeline=False)`` (``WRITE_PIPELINE``)
runs every batch the reference way.

No background thread: the request threads take turns as leader, so a lone request pays
one commit and nothing else, and a burst shares one fsync among all the requests that
queued behind the previous commit. A follower sleeps on its own event and wakes once:
when its job is committed, or when the leader hands the lead over to it (its job is the
oldest still pending).
"""
from __future__ import annotations

import fcntl
import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from store.dialect import DATABASE_ERRORS, LOCK_KEY, LOCK_WRITE, PgDatabase, begin_write, lock_key
from store.tokens import REVOCATIONS_SQL, revocation_count


class StoreUnavailableError(RuntimeError):
    """The database could not commit (locked by another process for too long, disk full,
    I/O error). Nothing of the request was stored."""

    def __init__(self, cause: BaseException):
        super().__init__(f"the database could not commit: {cause}")
        self.cause = cause


class Tx:
    """What a job's work sees: the connection (``tx.db``, sqlite-utils) inside the batch's
    transaction, and :meth:`on_abort` to undo in-memory effects if the job's writes are
    rolled back.

    ``tx.revocations`` (PostgreSQL; ``None`` on SQLite): the token revocation count
    (``meta.tokens_revoked``, :func:`store.tokens.revocations`) as the batch's transaction
    reads it, after its locks, in the BEGIN's own round trip — later than the request that
    submitted the job read anything. A job that was let in by a cached token compares it
    with the count its cache was checked at and refuses to write when it moved (issue #16
    items 2 and 5: the live ingest then needs no read of its own per post,
    :meth:`services.live.LiveService.ingest`)."""

    __slots__ = ("db", "revocations", "_aborts")

    def __init__(self, db: Any, revocations: int | None = None):
        self.db = db
        self.revocations = revocations
        self._aborts: list[Callable[[], None]] = []

    def on_abort(self, undo: Callable[[], None]) -> None:
        """Call *undo* if this job's writes end up not committed."""
        self._aborts.append(undo)

    def _abort(self) -> None:
        for undo in reversed(self._aborts):
            undo()
        self._aborts.clear()


class Declared:
    """A job's write declared up front (PostgreSQL's one-trip batch, see the module's text):
    *sql* (the store's ``?`` placeholders) with *params* (``str``, ``int`` or ``None``, as
    :meth:`store.dialect.PgDatabase.run` takes them) — one statement that writes all or
    nothing — and ``outcome(ran)``, the job's result from the statement's answer (a
    :class:`store.dialect.Ran`) once the batch is committed. ``outcome`` may raise only when
    the statement wrote nothing (its submitter gets the exception, as from ``work``)."""

    __slots__ = ("sql", "params", "outcome")

    def __init__(self, sql: str, params: Sequence[Any], outcome: Callable[[Any], Any]):
        self.sql, self.params, self.outcome = sql, params, outcome


class _Job:
    __slots__ = ("work", "keys", "declared", "result", "error", "done", "tx", "wake")

    def __init__(self, work: Callable[[Tx], Any], keys: tuple[str, ...] | None, declared: Declared | None = None):
        self.work = work
        self.keys = keys
        self.declared = declared
        self.result: Any = None
        self.error: BaseException | None = None
        self.done = False
        self.tx: Tx | None = None
        #: set when the job is done, or when its thread is to lead the next batch
        self.wake = threading.Event()


class GroupCommitter:
    """The single writer of one database file (one per app).

    :param opener: returns a new connection usable from any thread (sqlite-utils, or
        :class:`store.dialect.PgDatabase`).
    :param max_batch: most jobs in one transaction.
    :param lock_path: a file whose exclusive ``flock`` is held around each batch (shared by
        every process writing the same database).
    """

    def __init__(self, opener: Callable[[], Any], *, max_batch: int = 256,
                 lock_path: str | None = None, pipeline: bool = True):
        self._opener = opener
        self._lock_path = lock_path
        self._lock_fd: int | None = None
        self._db: Any = None
        self._pending: deque[_Job] = deque()
        self._pending_lock = threading.Lock()
        self._commit_lock = threading.Lock()  # held by the leader while it runs a batch
        self._leading = False  # a leader is at work (or has been named): guarded by _pending_lock
        self.max_batch = max(1, max_batch)
        #: PostgreSQL: a batch of declared jobs in one round trip (False: every batch the reference
        #: way; a job need not declare its write then — the live ingest reads this)
        self.pipeline = pipeline
        #: counters for benchmarks and tests: transactions committed, jobs in them, batches pipelined
        self.commits = 0
        self.jobs = 0
        self.pipelined = 0

    def submit(self, work: Callable[[Tx], Any], keys: Iterable[str] | None = None,
               declared: Declared | None = None) -> Any:
        """Run ``work(tx)`` in a committed transaction; its result, or its exception.

        *keys* name all the work writes and reads to decide (``table:T1``): on PostgreSQL
        the job then shares the database with other servers' jobs on other keys; without
        keys it has the database to itself for its batch (see the module's text).

        *declared*: the same write as one statement (:class:`Declared`), for PostgreSQL's
        one-trip batch; *work* must do exactly what it does (the reference, run when the
        batch cannot go in one trip).

        :raises StoreUnavailableError: the batch could not be committed.
        """
        job = _Job(work, None if keys is None else tuple(keys), declared)
        with self._pending_lock:
            self._pending.append(job)
            lead = not self._leading
            if lead:
                self._leading = True
        if not lead:
            job.wake.wait()  # done, or named the next leader
            lead = not job.done
        if lead:
            try:
                while not job.done:  # run batches until this job's is committed
                    with self._pending_lock:
                        batch = [self._pending.popleft() for _ in range(min(self.max_batch, len(self._pending)))]
                    with self._commit_lock:
                        self._run(batch)
            finally:
                with self._pending_lock:  # hand the lead to the oldest waiting job, or lay it down
                    if self._pending:
                        self._pending[0].wake.set()
                    else:
                        self._leading = False
        if job.error is not None:
            raise job.error
        return job.result

    def close(self) -> None:
        with self._commit_lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    # -- the leader's part, under the commit lock --------------------------------------

    def _connection(self) -> Any:
        if self._db is None:
            self._db = self._opener()
        return self._db

    def _run(self, batch: list[_Job]) -> None:
        if self._lock_path is not None:
            if self._lock_fd is None:
                self._lock_fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
            try:
                self._run_locked(batch)
            finally:
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
        else:
            self._run_locked(batch)

    def _begin(self, batch: list[_Job]) -> tuple[Any, int | None]:
        """Open the batch's transaction; its connection and the revocation count it read
        (``None`` on SQLite, see :class:`Tx`).

        A connection that went stale while idle (PostgreSQL restarted, or its session was
        ended) is found out only by this first statement. Nothing of the batch has run yet,
        so it is dropped and the batch begins once more on a new connection: the first
        batch after PostgreSQL comes back commits instead of answering 503.

        :raises DATABASE_ERRORS: the database cannot be reached (or refused the BEGIN).
        """
        reused = self._db is not None
        db = self._connection()
        try:
            revocations = self._begin_on(db, batch)
        except DATABASE_ERRORS:
            if not (reused and getattr(db, "closed", False)):
                raise
            self.close_broken()  # stale: one new connection, one more try
            db = self._connection()
            revocations = self._begin_on(db, batch)
        return db, revocations

    @staticmethod
    def _begin_on(db: Any, batch: list[_Job]) -> int | None:
        if isinstance(db, PgDatabase):
            # one round trip: BEGIN, the batch's locks, the savepoint, the revocation count (Tx)
            return revocation_count(db.run_simple(f"{_begin_with_locks(batch)}; {REVOCATIONS_SQL}"))
        begin_write(db)
        return None

    def _run_pipelined(self, batch: list[_Job]) -> bool | tuple:
        """The batch's declared jobs in one round trip (PostgreSQL): ``True`` when that was the
        whole batch (committed, or failed); ``False`` when it is to run the reference way
        instead (nothing of it committed); else the batch's other jobs are still to run, in
        the same transaction, the reference way (:meth:`_run_locked`): ``(db, revocations,
        those jobs, the declared jobs with their answers)`` — the trip opened the first of
        their savepoints and read the revocation count for them (``Tx.revocations``)."""
        reused = self._db is not None
        try:
            db = self._connection()
        except DATABASE_ERRORS:
            return False  # the reference way connects again, and fails the batch if it cannot
        if not isinstance(db, PgDatabase):
            return False
        declared, rest = _in_the_trip(batch)
        if not declared:
            return False
        head = [_BEGIN, (_locks(batch), None)]
        if rest:
            head.append(_REVOCATIONS)
        statements = head + [(job.declared.sql, job.declared.params) for job in declared]
        statements.append(_SAVEPOINT if rest else _COMMIT)
        try:
            answers = db.pipeline(statements)
        except DATABASE_ERRORS as exc:
            index = getattr(exc, "pipeline_index", None)
            if not db.closed and index is not None and len(head) <= index < len(head) + len(declared):
                try:  # a job's statement refused: undo the trip, the reference way tells whose
                    db.run_simple("ROLLBACK")
                except DATABASE_ERRORS:
                    self.close_broken()
                return False
            if reused and db.closed:
                self.close_broken()  # stale (PostgreSQL restarted): again, on a new connection
                return False
            try:
                if not db.closed and db.in_transaction:
                    db.run_simple("ROLLBACK")
            except DATABASE_ERRORS:
                pass
            if db.closed:
                self.close_broken()
            self._fail(batch, StoreUnavailableError(exc))
            return True
        except Exception:  # noqa: BLE001 - a job's declared statement the trip could not send or read
            self.close_broken()  # its session in no known state (if the trip went whole and committed,
            return False  # each declared statement's head check writes nothing again): the job's work fails alone
        self.pipelined += 1
        outcomes = list(zip(declared, answers[len(head):]))
        if rest:
            rows = answers[2].rows
            return db, revocation_count(rows[0][0] if rows else None), rest, outcomes
        self._committed(batch, outcomes)
        return True

    def _committed(self, batch: list[_Job], outcomes: list[tuple[_Job, Any]]) -> None:
        """The batch is committed: each declared job's result from its statement's answer, and
        every submitter woken."""
        for job, ran in outcomes:
            try:
                job.result = job.declared.outcome(ran)
            except BaseException as exc:  # noqa: BLE001 - handed to the submitter (it wrote nothing)
                job.error = exc
        self.commits += 1
        self.jobs += len(batch)
        for job in batch:
            job.done = True
            job.wake.set()

    def _run_locked(self, batch: list[_Job]) -> None:
        prefix: Any = False
        if self.pipeline and any(job.declared is not None for job in batch):
            prefix = self._run_pipelined(batch)
            if prefix is True:
                return
        outcomes: list[tuple[_Job, Any]] = []
        jobs = batch
        conn = None
        if prefix is not False:  # the declared jobs ran in the trip that began the transaction
            db, revocations, jobs, outcomes = prefix
            conn = db.conn
        else:
            try:
                db, revocations = self._begin(batch)
                conn = db.conn
            except DATABASE_ERRORS as exc:
                conn = None if self._db is None else self._db.conn
                try:
                    if conn is not None and conn.in_transaction:
                        conn.execute("ROLLBACK")
                except DATABASE_ERRORS:
                    self.close_broken()
                if conn is not None and getattr(conn, "closed", False):
                    self.close_broken()  # PostgreSQL went away: the next batch connects again
                self._fail(batch, StoreUnavailableError(exc))
                return
        # On PostgreSQL each statement is a round trip: the BEGIN opened the first job's
        # savepoint too (_begin_with_locks), one statement releases a job's savepoint and
        # opens the next one's, and the COMMIT takes the last job's with it. ROLLBACK TO keeps
        # its savepoint (both databases), so the job after a refused one reuses it.
        pg = isinstance(db, PgDatabase)
        run = db.run_simple if pg else conn.execute
        try:
            last = len(jobs) - 1
            for i, job in enumerate(jobs):
                job.tx = Tx(db, revocations)
                if not pg:
                    conn.execute("SAVEPOINT job")
                try:
                    job.result = job.work(job.tx)
                except BaseException as exc:  # noqa: BLE001 - handed to the submitter
                    job.error = exc
                    if conn.in_transaction:
                        run("ROLLBACK TO job")
                        if not pg:
                            conn.execute("RELEASE job")
                    else:  # a RAISE(ROLLBACK) or an I/O error ended the transaction
                        raise
                    job.tx._abort()
                else:
                    if not pg:
                        conn.execute("RELEASE job")
                    elif i < last:
                        run("RELEASE job; SAVEPOINT job")
            run("COMMIT")
        except BaseException as exc:  # noqa: BLE001
            try:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            except DATABASE_ERRORS:
                self.close_broken()
            self._fail(batch, exc if isinstance(exc, StoreUnavailableError) else StoreUnavailableError(exc))
            return
        self._committed(batch, outcomes)

    def close_broken(self) -> None:
        """Drop a connection left in an unknown state (the next job opens a new one)."""
        if self._db is not None:
            try:
                self._db.close()
            finally:
                self._db = None

    @staticmethod
    def _fail(batch: list[_Job], error: StoreUnavailableError) -> None:
        for job in batch:
            if job.tx is not None:
                job.tx._abort()
            if job.error is None:
                job.error = error
            job.done = True
            job.wake.set()


_BEGIN, _COMMIT, _SAVEPOINT = ("BEGIN", None), ("COMMIT", None), ("SAVEPOINT job", None)
_REVOCATIONS = (REVOCATIONS_SQL, ())  # the count for the undeclared jobs of a pipelined batch (Tx)


def _in_the_trip(batch: list[_Job]) -> tuple[list[_Job], list[_Job]]:
    """The batch's jobs that go in the trip, and the others (in their order in the batch): a
    declared job goes unless a job before it that does not (undeclared, or held back itself)
    names one of its keys, or names none — the trip runs first, and one key's jobs run in
    the order they were submitted (an official's override before the next post)."""
    trip: list[_Job] = []
    rest: list[_Job] = []
    held: set[str] = set()
    everything = False  # a job held back names no keys: it may touch anything
    for job in batch:
        clear = not everything and (not held if job.keys is None else held.isdisjoint(job.keys))
        if job.declared is not None and clear:
            trip.append(job)
            continue
        rest.append(job)
        if job.keys is None:
            everything = True
        else:
            held.update(job.keys)
    return trip, rest


def _locks(batch: list[_Job]) -> str:
    """The batch's advisory locks as one ``SELECT``, as :func:`_begin_with_locks` takes them
    (every job of a pipelined batch names its keys: the live ingest's table)."""
    keys = {lock_key(k) for job in batch for k in job.keys} if all(job.keys is not None for job in batch) else None
    if keys is None:
        return f"SELECT pg_advisory_xact_lock({LOCK_WRITE}, 0)"
    return "SELECT " + ", ".join([f"pg_advisory_xact_lock_shared({LOCK_WRITE}, 0)"]
                                 + [f"pg_advisory_xact_lock({LOCK_KEY}, {key})" for key in sorted(keys)])


def _begin_with_locks(batch: list[_Job]) -> str:
    """``BEGIN``, the batch's advisory locks (PostgreSQL) and the first job's savepoint, in one
    statement text; the locks always in the same order: the writers' lock (exclusive when a job
    named no keys, else shared), then each key in ascending order. All are released by the
    transaction's end. The keys are integers made here (:func:`store.dialect.lock_key`), never
    text from a request."""
    keyed = [job.keys for job in batch]
    if any(keys is None for keys in keyed):
        return f"BEGIN; SELECT pg_advisory_xact_lock({LOCK_WRITE}, 0); SAVEPOINT job"
    locks = [f"pg_advisory_xact_lock_shared({LOCK_WRITE}, 0)"]
    ordered = sorted({lock_key(k) for keys in keyed for k in keys})
    locks += [f"pg_advisory_xact_lock({LOCK_KEY}, {key})" for key in ordered]
    return "BEGIN; SELECT " + ", ".join(locks) + "; SAVEPOINT job"
