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

import hmac
import secrets
import threading
from dataclasses import dataclass
from datetime import timedelta

from flask import Flask, current_app, g, session

from services.caller import (
    Principal,
    principal_of,
)
from services.problems import ApiProblem
from store import get_db
from services.pins import PIN_DIGITS, pin_digest
from store.meta import shared_value
from store import pins as pin_store
from store import tables as table_store
from store import tokens as token_store

#: minutes a sign-in lasts (``CONSOLE_SESSION_MINUTES``)
DEFAULT_SESSION_MINUTES = 720
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
