"""Signing people in to the officials' console (issue #14 item 1).

An official or an admin signs in once with their API token (``/signin``: pasted into a form,
checked like ``Authorization: Bearer``, :func:`api.auth.principal_of`); a table scorer with a
short PIN an admin issued for the table (``flask tokens pin --table T1``). A PIN stands for a
table token: signed in with it, the scorer acts as that token (role ``table``, that table only).

The session is Flask's signed cookie (``mjref_session``: HttpOnly, SameSite=Lax, Secure when
``SESSION_COOKIE_SECURE``); it holds the token's id (never its secret), the PIN's id, when
the person signed in and the form token (CSRF). Every request checks it again:

* the token (and the PIN) must still be live: revoking either ends the session at once;
* it expires ``CONSOLE_SESSION_MINUTES`` (default 720: a tournament day) after the sign-in,
  by the app's clock (``CLOCK``);
* every form posted to the console carries the session's form token (:func:`check_csrf`):
  a form from another site, or from a session that has ended, is refused with a page saying so.

``SECRET_KEY`` (env ``MJREF_SECRET_KEY``) signs the cookie. Without one, a random key is made
once and kept in the database (``meta.session_secret``, :func:`store.meta.shared_value`), so
that every server process of a deployment — on any host — signs alike and a restart keeps
people signed in.

PINs: :data:`PIN_DIGITS` digits from :mod:`secrets`; stored as PBKDF2-SHA256 with a per-PIN salt
(:mod:`store.pins`). A PIN alone is guessable, so the form also asks for the table, a PIN
only ever opens its own table, and after :data:`PIN_TRIES` wrong PINs for a table within
:data:`PIN_PAUSE` seconds its PIN sign-in pauses for that long (per server process, by the
app's clock; the table's scorer asks an official, who signs in with a token).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import sys
import threading
from dataclasses import dataclass
from datetime import timedelta

import click
from flask import Flask, current_app, g, session

from api.auth import (
    Principal,
    TokenRequestError,
    create_token,
    principal_of,
    tokens_cli,
)
from api.clikit import emit, reports_errors
from services.problems import ApiProblem
from store import get_db
from store.meta import shared_value
from store import pins as pin_store
from store import tables as table_store
from store import tokens as token_store

#: minutes a sign-in lasts (``CONSOLE_SESSION_MINUTES``)
DEFAULT_SESSION_MINUTES = 720
PIN_DIGITS = 6
PBKDF2_ROUNDS = 60_000
#: wrong PINs for one table before its PIN sign-in pauses, and for how long (seconds)
PIN_TRIES = 5
PIN_PAUSE = 300
#: the name of the form field holding the form token
CSRF_FIELD = "csrf_token"


class SignInError(Exception):
    """A sign-in refused: the field at fault and why, zh-TW and English."""

    def __init__(self, field: str, reason_zh: str, reason: str):
        super().__init__(reason)
        self.field = field
        self.reason_zh = reason_zh
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Person:
    """Who is signed in: the token's principal, and the PIN when it was one."""

    principal: Principal
    pin: int | None
    since: float

    @property
    def role(self) -> str:
        return self.principal.role

    @property
    def is_official(self) -> bool:
        return self.principal.is_official

    @property
    def table(self) -> str | None:
        return self.principal.table

    @property
    def label(self) -> str:
        return self.principal.label


# --- the secret key -------------------------------------------------------------------------


def secret_key(app: Flask) -> str:
    """``SECRET_KEY`` from the configuration, else the deployment's own, made once and kept in
    the database (``meta.session_secret``): every server signs sessions with the same key."""
    configured = app.config.get("SECRET_KEY")
    if configured:
        return configured
    return shared_value(app.config["DATABASE"], "session_secret", lambda: secrets.token_urlsafe(48))


# --- PINs -----------------------------------------------------------------------------------


def pin_digest(pin: str, salt: str) -> str:
    return hashlib.pbkdf2_hmac("sha256", pin.encode("utf-8"), bytes.fromhex(salt), PBKDF2_ROUNDS).hex()


def create_pin(db, *, table: str | None = None, token: int | None = None, label: str = "") -> tuple[str, dict]:
    """Issue a PIN for a table scorer: the PIN (shown once) and its row.

    With *token*: the PIN stands for that (live, table) token. With *table* only: a new table
    token is made for it (labelled with the PIN's label).

    :raises TokenRequestError: no such live table token, no such table, neither given.
    """
    if token is not None:
        row = token_store.get_token(db, token)
        if row is None or row["revoked_at"] is not None:
            raise TokenRequestError(f"no live token {token}", field="token", reason_zh=f"沒有有效的權杖 {token}")
        if row["role"] != "table":
            raise TokenRequestError(f"a PIN stands for a table token; token {token} has the role {row['role']}",
                                    field="token", reason_zh=f"PIN 只能代表桌的權杖；權杖 {token} 的角色為 {row['role']}")
        if table is not None and table != row["table"]:
            raise TokenRequestError(f"token {token} belongs to table {row['table']!r}, not {table!r}", field="table",
                                    reason_zh=f"權杖 {token} 屬於桌「{row['table']}」，不是「{table}」")
        table, token_id = row["table"], row["id"]
    elif table:
        _secret, row = create_token(db, role="table", table=table, label=f"PIN {label}".strip())
        token_id = row["id"]
    else:
        raise TokenRequestError("a PIN needs its table (--table ID) or a table token (--token ID)", field="table",
                                reason_zh="PIN 須指定桌（--table ID）或桌的權杖（--token ID）")
    pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
    salt = secrets.token_hex(16)
    row = pin_store.add_pin(db, token_id=token_id, table_id=table, salt=salt, digest=pin_digest(pin, salt),
                            label=label)
    return pin, pin_store.public(row)


# --- signing in -----------------------------------------------------------------------------


def sign_in_token(secret: str) -> Principal:
    """The principal of a pasted token.

    :raises SignInError: empty, malformed, unknown or revoked.
    """
    secret = secret.strip()
    if not secret:
        raise SignInError("token", "請貼上您的權杖", "paste your token")
    try:
        return principal_of(f"Bearer {secret}", current_app, get_db)
    except ApiProblem:
        raise SignInError("token", "權杖無效或已撤銷", "unknown or revoked token") from None


class _Tries:
    """Wrong PINs per table, recently (one per process)."""

    def __init__(self):
        self.failures: dict[str, list[float]] = {}
        self.lock = threading.Lock()

    def recent(self, table: str, now: float) -> list[float]:
        with self.lock:
            kept = [t for t in self.failures.get(table, ()) if now - t < PIN_PAUSE]
            self.failures[table] = kept
            return kept

    def fail(self, table: str, now: float) -> None:
        with self.lock:
            self.failures.setdefault(table, []).append(now)
            if len(self.failures) > 10_000:
                self.failures.clear()


def sign_in_pin(table: str, pin: str) -> tuple[Principal, int]:
    """The table token a PIN stands for, and the PIN's id.

    :raises SignInError: no table given, no such table, a PIN not of that table, too many
        wrong PINs for the table lately.
    """
    table, pin = table.strip(), pin.strip()
    if not table:
        raise SignInError("table", "請填寫桌號", "enter the table")
    if not (pin.isascii() and pin.isdigit() and len(pin) == PIN_DIGITS):
        raise SignInError("pin", f"PIN 為 {PIN_DIGITS} 位數字", f"the PIN is {PIN_DIGITS} digits")
    db = get_db()
    if table_store.get_table(db, table) is None:
        raise SignInError("table", f"沒有桌「{table}」", f"no table {table!r}")
    tries: _Tries = current_app.extensions["mjref.pin_tries"]
    now = _now()
    recent = tries.recent(table, now)
    if len(recent) >= PIN_TRIES:
        wait = max(1, int(-(-(PIN_PAUSE - (now - recent[0])) // 60)))
        raise SignInError("pin", f"此桌 PIN 錯誤次數過多，請 {wait} 分鐘後再試，或請裁判協助",
                          f"too many wrong PINs for this table: try again in {wait} min, or ask an official")
    for row in pin_store.live_pins(db, table):
        if hmac.compare_digest(pin_digest(pin, row["salt"]), row["hash"]):
            token = token_store.get_token(db, row["token"])
            return Principal(token["id"], token["role"], token["table"], row["label"] or token["label"]), row["id"]
    tries.fail(table, now)
    raise SignInError("pin", "PIN 不正確或已撤銷", "wrong or revoked PIN")


def _now() -> float:
    return current_app.config["CLOCK"].now().timestamp()


def lifetime() -> timedelta:
    return timedelta(minutes=float(current_app.config.get("CONSOLE_SESSION_MINUTES", DEFAULT_SESSION_MINUTES)))


def start_session(principal: Principal, pin: int | None = None) -> None:
    """A new session for *principal* (whatever the old one held is gone: no fixation)."""
    session.clear()
    session.permanent = True
    session.update({"token": principal.id, "pin": pin, "since": _now(), "csrf": secrets.token_urlsafe(32)})


def end_session() -> None:
    csrf = session.get("csrf")
    session.clear()
    if csrf:
        session["csrf"] = csrf  # the sign-in form shown next still posts


def current_person() -> Person | None:
    """The signed-in person, checked now (live token and PIN, not expired); ``None`` if nobody.

    Sets ``g.principal`` so that :func:`api.auth.check_read` and friends judge the pages as
    they judge the API; ``g.session_ended`` says why a session just ended (``expired``,
    ``revoked``).
    """
    if "person" in g:
        return g.person
    person = None
    token_id = session.get("token")
    if token_id is not None:
        since = float(session.get("since", 0))
        db = get_db()
        row = token_store.get_token(db, int(token_id))
        pin_id = session.get("pin")
        pin = pin_store.get_pin(db, int(pin_id)) if pin_id is not None else None
        if _now() - since > lifetime().total_seconds():
            g.session_ended = "expired"
        elif row is None or row["revoked_at"] is not None or (pin_id is not None and (
                pin is None or pin["revoked_at"] is not None)):
            g.session_ended = "revoked"
        else:
            label = (pin["label"] or row["label"]) if pin is not None else row["label"]
            person = Person(Principal(row["id"], row["role"], row["table"], label), pin_id, since)
        if person is None:
            end_session()
    g.person = person
    g.principal = person.principal if person is not None else None
    return person


# --- CSRF -----------------------------------------------------------------------------------


def csrf_token() -> str:
    """The session's form token (made on first use)."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(32)
    return token


def csrf_ok(sent: str | None) -> bool:
    expected = session.get("csrf")
    return bool(expected) and isinstance(sent, str) and hmac.compare_digest(sent.encode(), expected.encode())


# --- CLI: flask tokens pin / pins / unpin ------------------------------------------------------


@tokens_cli.command("pin")
@click.option("--table", default=None, help="桌 the table (a new table token is made for the PIN)")
@click.option("--token", "token_id", default=None, type=int, help="權杖 an existing table token the PIN stands for")
@click.option("--label", default="", help="備註 who holds it (the scorer's name)")
def pin_command(table: str | None, token_id: int | None, label: str) -> None:
    """發給計分員 PIN（只顯示一次）。Issue a table scorer's PIN (shown once)."""

    @reports_errors
    def run() -> None:
        db = _cli_db()
        try:
            with db.atomic():
                pin, row = create_pin(db, table=table, token=token_id, label=label)
        finally:
            db.close()
        emit({**row, "pin": pin})
        click.echo(f"# 計分員於 /signin 以桌號 {row['table']} 與此 PIN 登入 / the scorer signs in at /signin "
                   f"with table {row['table']} and this PIN (not shown again)", err=True)

    run()


@tokens_cli.command("pins")
@click.option("--all", "include_revoked", is_flag=True, help="也列出已撤銷的 include revoked PINs")
def pins_command(include_revoked: bool) -> None:
    """列出 PIN（不含 PIN 本身）。List the PINs (never the PINs themselves)."""
    db = _cli_db()
    try:
        emit({"pins": pin_store.list_pins(db, include_revoked=include_revoked)})
    finally:
        db.close()


@tokens_cli.command("unpin")
@click.argument("pin_id", type=int)
def unpin_command(pin_id: int) -> None:
    """撤銷 PIN；以它登入的工作階段立即結束。Revoke a PIN: its sessions end at once."""
    db = _cli_db()
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


def _cli_db():
    from store import connect

    return connect(current_app.config["DATABASE"])


def init_app(app: Flask) -> None:
    """The session cookie's settings (see the module docstring)."""
    app.config["SECRET_KEY"] = secret_key(app)
    if app.config.get("SESSION_COOKIE_NAME") in (None, "session"):
        app.config["SESSION_COOKIE_NAME"] = "mjref_session"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    if not app.config.get("SESSION_COOKIE_SAMESITE"):
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    minutes = float(app.config.get("CONSOLE_SESSION_MINUTES", DEFAULT_SESSION_MINUTES))
    app.config["PERMANENT_SESSION_LIFETIME"] = timedelta(minutes=minutes)
    app.extensions["mjref.pin_tries"] = _Tries()
