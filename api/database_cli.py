"""``flask db``: the database of a deployment (issue #16 item 6).

* ``flask db migrate`` — create or bring the configured database (``MJREF_DATABASE``) to the
  current layout; what runs once per deployment and per upgrade (every server also does at
  start, one after another).
* ``flask db copy SOURCE TARGET`` — copy a whole database into an empty one: a SQLite file
  into PostgreSQL (``flask db copy instance/mjref.sqlite3 postgresql://mjref@db/mjref``),
  ids and all, in one transaction (:mod:`store.copy`). Stop the servers writing to SOURCE first.
"""
from __future__ import annotations

import json
import sys

import click
from flask import current_app
from flask.cli import AppGroup

from api.clikit import emit

db_cli = AppGroup("db", help="資料庫 The database: migrate, copy (SQLite → PostgreSQL).")


def _refuse(code: str, field: str, detail: str, detail_zh: str) -> None:
    click.echo(json.dumps({"code": code, "field": field, "detail": detail, "detail_zh": detail_zh},
                          ensure_ascii=False), err=True)
    sys.exit(2)


@db_cli.command("migrate")
def migrate_command() -> None:
    """建立或更新資料庫結構。Create or migrate the configured database to the current layout."""
    from store.db import SCHEMA_VERSION, init_db
    from store.dialect import public_name

    database = current_app.config["DATABASE"]
    emit({"database": public_name(database), "applied": init_db(database), "schema_version": SCHEMA_VERSION})


@db_cli.command("copy")
@click.argument("source")
@click.argument("target")
def copy_command(source: str, target: str) -> None:
    """把整個資料庫複製到空的資料庫（如 SQLite → PostgreSQL）。Copy a whole database into an empty one
    (a SQLite file into PostgreSQL: ``flask db copy instance/mjref.sqlite3 postgresql://…``)."""
    from store.copy import CopyRefusedError, copy_database
    from store.dialect import DATABASE_ERRORS, public_name

    try:
        copied = copy_database(source, target)
    except CopyRefusedError as error:
        _refuse("copy_refused", error.field, error.message, error.message_zh)
    except DATABASE_ERRORS as error:
        _refuse("database_unavailable", "target", f"a database could not be opened or written: {error}",
                f"無法開啟或寫入資料庫：{error}")
    emit({"source": public_name(source), "target": public_name(target), "copied": copied})
