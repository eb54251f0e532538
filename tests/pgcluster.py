"""A throwaway PostgreSQL cluster for the tests (issue #16 item 4).

:class:`Cluster` runs ``initdb`` into a temporary folder and ``pg_ctl start`` on its own
loopback port, as an unprivileged user when the tests run as root (PostgreSQL refuses to
run as root: ``nobody``, through ``runuser``), and stops it (``pg_ctl stop``) and removes the
folder at the end. Nothing of the machine's own PostgreSQL (if any) is touched.

A migrated template database (``mjref_template``) is made once; each test gets a fresh copy
(``CREATE DATABASE … TEMPLATE mjref_template``, a few milliseconds), so tests stay isolated
without a migration each.

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

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with self.admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
