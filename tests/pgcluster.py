"""A throwaway PostgreSQL cluster for the tests (issue #16 item 4).

:class:`Cluster` runs ``initdb`` into a temporary folder and ``pg_ctl start`` on its own
loopback port, as an unprivileged user when the tests run as root (PostgreSQL refuses to
run as root: ``nobody``, through ``runuser``), and stops it (``pg_ctl stop``) and removes the
folder at the end. Nothing of the machine's own PostgreSQL (if any) is touched.

A migrated template database (``mjref_template``) is made once. Each test gets a database in
the template's state: :meth:`Cluster.clean_database` hands out one database per test process and
:meth:`Cluster.reset_database` puts it back into the template's state after each test (its rows
deleted, its sequences restarted, every other session on it ended), which costs a few
milliseconds where ``CREATE DATABASE … TEMPLATE`` copies 8 MB of catalogs through the WAL (0.1 s
on a quiet machine, 0.5 s on a busy one). A test that changed the schema or the template's rows
gets its database dropped, and the next test a new copy. Tests that need a database of their
own still call :meth:`Cluster.new_database`.

The binaries are found on ``PATH`` (``initdb``), else in Debian's ``/usr/lib/postgresql/<n>/bin``
(the ``postgresql`` package; ``.ci/run`` installs it when missing).
"""
from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SUPERUSER = "mjref"


def pg_bin() -> Path | None:
    """The folder of PostgreSQL's server binaries, or ``None`` when none is installed."""
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """One PostgreSQL server of the tests' own: :meth:`start`, :meth:`new_database`, :meth:`stop`."""

    def __init__(self, *, fsync: bool = False, settings: dict[str, str] | None = None):
        self.bin = pg_bin()
        if self.bin is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql) / 未安裝 PostgreSQL")
        self.fsync = fsync
        #: more server settings (``-c name=value``), e.g. a benchmark's ``commit_delay``
        self.settings = dict(settings or {})
        self.folder = Path(tempfile.mkdtemp(prefix="mjref-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.port = _free_port()
        self.user = None
        if os.geteuid() == 0:  # initdb and postgres refuse root
            self.user = pwd.getpwnam("nobody")
            os.chown(self.folder, self.user.pw_uid, self.user.pw_gid)
        self._names = itertools.count(1)
        self._clean: str | None = None  # the database clean_database hands out
        self._keeper = None  # a session on it, kept to reset it without connecting each time
        self._template_state: tuple | None = None

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user.pw_name, "--", *command]
        return subprocess.run(command, check=check, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              cwd=self.folder)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def start(self) -> Cluster:
        if not (self.data / "PG_VERSION").exists():
            self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", SUPERUSER, "-E", "UTF8",
                      "--locale=C.UTF-8", "--no-sync")
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.folder} "
                   f"-c max_connections=300 -c shared_buffers=32MB -c fsync={'on' if self.fsync else 'off'} "
                   "-c full_page_writes=off -c log_min_messages=warning"
                   + "".join(f" -c {name}={value}" for name, value in self.settings.items()))
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.log), "-w", "-t", "60", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m mode``: ``fast`` (a clean stop), ``immediate`` (a crash: no checkpoint,
        recovery from the WAL on the next start)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def admin(self):
        import psycopg

        return psycopg.connect(self.url(), autocommit=True)

    def create_template(self, name: str = "mjref_template") -> str:
        """A database migrated to the current schema, to copy for each test."""
        from store.db import init_db

        with self.admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        init_db(self.url(name))
        self.template = name
        return name

    def new_database(self, prefix: str = "t", template: str | None = None) -> str:
        """A fresh database's URL: an empty one, or a copy of *template* (default: the migrated one)."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        source = template if template is not None else getattr(self, "template", None)
        with self.admin() as conn:
            conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{source}"' if source else ""))
        return self.url(name)

    def clean_database(self) -> str:
        """The URL of a database in the template's state: this process's reused one, or a new
        copy of the template when there is none yet (or the last test spoilt it)."""
        if self._clean is None:
            self._clean = self.new_database("clean")
        return self._clean

    def reset_database(self, url: str) -> None:
        """Put :meth:`clean_database`'s database back into the template's state after a test:
        end every other session on it (so no advisory lock, ``LISTEN`` or open transaction
        outlives the test, as ``DROP DATABASE … WITH (FORCE)`` ended them), then delete every row
        and restart every sequence, with the append-only triggers off for this one transaction
        (``session_replication_role = replica``, the superuser's switch), and put the template's
        own rows back (``meta``). When the test changed the schema, the database is dropped
        instead."""
        import psycopg

        if url != self._clean:
            raise ValueError(f"not this cluster's clean database: {url!r}")
        try:
            if self._keeper is None or self._keeper.closed:
                self._keeper = psycopg.connect(url, autocommit=True)
            if self._template_state is None:
                with psycopg.connect(self.url(self.template), autocommit=True) as template:
                    self._template_state = _template_state(template)
            schema, reset = self._template_state
            # two round trips: the sessions ended (waiting for each to go) and the schema read,
            # then the whole reset as one transaction
            if self._keeper.execute(_END_SESSIONS_AND_READ_SCHEMA).fetchone()[1] != schema:
                raise _Spoilt(url)
            self._keeper.execute(reset)
        except (_Spoilt, psycopg.Error):
            if self._keeper is not None:
                self._keeper.close()
            self._keeper = self._clean = None
            self.drop_database(url)

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with self.admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class _Spoilt(Exception):
    """A test changed the clean database's schema: drop it."""


#: what must match the template for a database to be reset rather than replaced: the public
#: schema's relations, columns, triggers, functions, constraints, defaults, indexes and types
_SCHEMA = """
md5(concat_ws('|',
  (SELECT string_agg(c.relname || ':' || c.relkind::text, ',' ORDER BY c.relname) FROM pg_class c
     WHERE c.relnamespace = 'public'::regnamespace),
  (SELECT string_agg(a.attrelid::regclass::text || '.' || a.attname || ':' || a.atttypid::text || ':'
                     || a.attnotnull::text, ',' ORDER BY a.attrelid::regclass::text, a.attnum)
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped),
  (SELECT string_agg(t.tgname || ':' || t.tgenabled::text, ',' ORDER BY t.tgname) FROM pg_trigger t
     JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = 'public'::regnamespace),
  (SELECT string_agg(p.proname || ':' || md5(p.prosrc), ',' ORDER BY p.proname) FROM pg_proc p
     WHERE p.pronamespace = 'public'::regnamespace),
  (SELECT string_agg(n.conrelid::regclass::text || '.' || n.conname || ':' || pg_get_constraintdef(n.oid), ','
                     ORDER BY n.conrelid::regclass::text, n.conname) FROM pg_constraint n
     WHERE n.connamespace = 'public'::regnamespace),
  (SELECT string_agg(d.adrelid::regclass::text || '.' || d.adnum || ':' || pg_get_expr(d.adbin, d.adrelid), ','
                     ORDER BY d.adrelid::regclass::text, d.adnum) FROM pg_attrdef d
     JOIN pg_class c ON c.oid = d.adrelid WHERE c.relnamespace = 'public'::regnamespace),
  (SELECT string_agg(i.indexrelid::regclass::text || ':' || pg_get_indexdef(i.indexrelid), ','
                     ORDER BY i.indexrelid::regclass::text) FROM pg_index i
     JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = 'public'::regnamespace),
  (SELECT string_agg(t.typname || ':' || t.typtype::text, ',' ORDER BY t.typname) FROM pg_type t
     WHERE t.typnamespace = 'public'::regnamespace)))
"""

#: every other session on the database ended (each waited for, up to 10 s), and the schema read
_END_SESSIONS_AND_READ_SCHEMA = ("SELECT (SELECT COUNT(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity "
                                 "WHERE datname = current_database() AND pid <> pg_backend_pid()), " + _SCHEMA)


def _template_state(conn) -> tuple[str, str]:
    """The template's schema (:data:`_SCHEMA`'s fingerprint) and the script that puts a copy of
    it back into its state: every table emptied, the rows the template holds (``meta``: the
    schema version) inserted again, every sequence restarted."""
    from psycopg import sql

    tables = [t for (t,) in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                                         "ORDER BY tablename").fetchall()]
    script = [sql.SQL("BEGIN; SET LOCAL session_replication_role = replica")]
    script += [sql.SQL("DELETE FROM {}").format(sql.Identifier(t)) for t in tables]
    for table in tables:
        cursor = conn.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(table)))
        for row in cursor.fetchall():
            script.append(sql.SQL("INSERT INTO {} ({}) VALUES ({})").format(
                sql.Identifier(table), sql.SQL(", ").join(sql.Identifier(d.name) for d in cursor.description),
                sql.SQL(", ").join(sql.Literal(v) for v in row)))
    for (sequence,) in conn.execute("SELECT relname FROM pg_class WHERE relkind = 'S' "
                                    "AND relnamespace = 'public'::regnamespace ORDER BY relname").fetchall():
        script.append(sql.SQL("SELECT setval({}::regclass, 1, false)").format(sql.Literal(sequence)))
    script.append(sql.SQL("COMMIT"))
    return _schema(conn), sql.SQL("; ").join(script).as_string(conn)


def _schema(conn) -> str:
    """A fingerprint of the public schema: its relations, columns, triggers, functions,
    constraints, column defaults, index definitions and types."""
    return conn.execute("SELECT " + _SCHEMA).fetchone()[0]
