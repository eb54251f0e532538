"""``flask tokens pin | pins | unpin``: table scorers' PINs from the command line (issue #14
item 1; the PINs themselves: :mod:`services.pins`)."""
from __future__ import annotations

import sys

import click
from flask.cli import with_appcontext

from api.clikit import cli_db, emit, reports_errors
from services.pins import create_pin
from store import pins as pin_store


@click.command("pin")
@with_appcontext
@click.option("--table", default=None, help="桌 the table (a new table token is made for the PIN)")
@click.option("--token", "token_id", default=None, type=int, help="權杖 an existing table token the PIN stands for")
@click.option("--label", default="", help="備註 who holds it (the scorer's name)")
def pin_command(table: str | None, token_id: int | None, label: str) -> None:
    """發給計分員 PIN（只顯示一次）。Issue a table scorer's PIN (shown once)."""

    @reports_errors
    def run() -> None:
        db = cli_db()
        try:
            with db.atomic():
                pin, row = create_pin(db, table=table, token=token_id, label=label)
        finally:
            db.close()
        emit({**row, "pin": pin})
        click.echo(f"# 計分員於 /signin 以桌號 {row['table']} 與此 PIN 登入 / the scorer signs in at /signin "
                   f"with table {row['table']} and this PIN (not shown again)", err=True)

    run()


@click.command("pins")
@with_appcontext
@click.option("--all", "include_revoked", is_flag=True, help="也列出已撤銷的 include revoked PINs")
def pins_command(include_revoked: bool) -> None:
    """列出 PIN（不含 PIN 本身）。List the PINs (never the PINs themselves)."""
    db = cli_db()
    try:
        emit({"pins": pin_store.list_pins(db, include_revoked=include_revoked)})
    finally:
        db.close()


@click.command("unpin")
@with_appcontext
@click.argument("pin_id", type=int)
def unpin_command(pin_id: int) -> None:
    """撤銷 PIN；以它登入的工作階段立即結束。Revoke a PIN: its sessions end at once."""
    db = cli_db()
    try:
        with db.atomic():
            row = pin_store.revoke_pin(db, pin_id)
    finally:
        db.close()
    if row is None:
        click.echo('{"code": "not_found", "field": "pin_id", "detail": "no such PIN", "detail_zh": "找不到此 PIN"}',
                   err=True)
        sys.exit(2)
    emit(pin_store.public(row))


def add_to(group: click.Group) -> None:
    """Put the PIN commands in *group* (``flask tokens``)."""
    for command in (pin_command, pins_command, unpin_command):
        group.add_command(command)

