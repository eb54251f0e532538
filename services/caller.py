"""Who is calling: API tokens, roles and read areas, shared by the API, the pages and the CLI
(issue #19 item 1: ``web/`` signs people in with the same tokens and checks the same areas).

API tokens and roles.

A token is ``mjref_`` followed by 43 random URL-safe characters (256 bits); only its
SHA-256 is stored (``tokens.hash``), with a short ``prefix`` to recognise it in lists.
Clients send ``Authorization: Bearer <token>``.

Roles:

``table``
    bound to one table: posts events to that table only, reads that table only;
``official``
    creates tables, posts to any table, overrules rulings, runs tournaments, reads all;
``admin``
    everything an official may, and manages tokens.

Reads are grouped in areas; ``PUBLIC_READS`` (env ``MJREF_PUBLIC_READS``, comma-separated
or a JSON list) names the areas anyone may read without a token:

``rulesets``  the ruleset profiles;
``tools``     stateless calculators: analysis, scoring, whole-stream adjudication;
``tables``    the table list, each table's settings and totals per seat;
``rulings``   rulings and the overrides audit trail;
``events``    event logs, hand histories, replays, live state — concealed tiles: keep it
              private while a tournament runs;
``tournaments`` tournaments (issue #7).

Default: every area but ``events``. A table token reads only its own table, whatever
the configuration.

The API's own parts — the guard on every blueprint, the tokens API, the ``flask tokens``
commands — are :mod:`api.auth`.
"""
from __future__ import annotations

import hashlib
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, current_app, g, request

from referee.errors import MjrefError
from services.problems import ApiProblem
from store import get_db
from store.dialect import is_postgres
from store import tables as table_store
from store import tokens as token_store


ROLES = ("table", "official", "admin")
READ_AREAS = ("rulesets", "tools", "tables", "rulings", "events", "tournaments")
DEFAULT_PUBLIC_READS = ("rulesets", "tools", "tables", "rulings", "tournaments")
TOKEN_PREFIX = "mjref_"


class TokenRequestError(MjrefError, ValueError):
    """A token cannot be made as asked (unknown role, a table token without its table)."""

    code = "invalid_token_request"


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: a token's id, role, table (role ``table``) and label."""

    id: int
    role: str
    table: str | None
    label: str

    @property
    def is_official(self) -> bool:
        return self.role in ("official", "admin")

    def to_dict(self) -> dict:
        return {"token": self.id, "role": self.role, "table": self.table, "label": self.label}


# --- secrets ------------------------------------------------------------------------------


def new_secret() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def create_token(db, *, role: str, table: str | None = None, label: str = "") -> tuple[str, dict]:
    """Make a token; the secret (shown once) and the stored row.

    :raises TokenRequestError: unknown role, a table token without an existing table, or
        a table given for another role.
    """
    try:  # the API's bodies are checked by api.intake; the CLI's arguments may hold undecodable bytes
        label.encode("utf-8")
    except UnicodeEncodeError:
        raise TokenRequestError(f"the label is not text (a lone surrogate or bytes not in UTF-8): {label!r}",
                                field="label",
                                reason_zh="備註不是有效的文字（單獨的代理碼，或非 UTF-8 的位元組）") from None
    if role not in ROLES:
        raise TokenRequestError(f"role must be one of {list(ROLES)}, not {role!r}", field="role",
                                reason_zh=f"角色須為 {'、'.join(ROLES)} 之一，收到「{role}」")
    if role == "table":
        if not table:
            raise TokenRequestError("a table token needs its table (--table ID)", field="table",
                                    reason_zh="桌的權杖須指定桌（--table ID）")
        if table_store.get_table(db, table) is None:
            raise TokenRequestError(f"no table {table!r}: create the table first", field="table",
                                    reason_zh=f"沒有桌「{table}」：請先建立此桌")
    elif table:
        raise TokenRequestError(f"only a table token is bound to a table (role {role!r})", field="table",
                                reason_zh=f"只有 table 角色的權杖綁定一張桌（此為 {role}）")
    secret = new_secret()
    row = token_store.add_token(db, digest=digest(secret), prefix=secret[: len(TOKEN_PREFIX) + 6], role=role,
                                table_id=table if role == "table" else None, label=label)
    return secret, row


# --- who is calling -----------------------------------------------------------------------


class _TokenCache:
    """Recently seen tokens (digest → principal) so that a busy table's posts need no
    lookup. Revocation is honoured at once, in every server process: on SQLite revoking
    (API or CLI) touches a marker file next to the database (:func:`note_revocation`), and
    the cache empties itself when the marker's mtime changes (one ``stat`` per lookup); on
    PostgreSQL, where servers share no disk (issue #16 item 2), the revoke's own transaction
    counts itself in ``meta.tokens_revoked`` (:func:`store.tokens.revoke_token`) and every
    lookup reads that count (one indexed row) through *open_db* — or, for a write that
    checks it itself in its own transaction (the live ingest, :meth:`peek`), none at all.
    Entries also expire after ``TOKEN_CACHE_SECONDS``, for a token revoked some other way."""

    def __init__(self, ttl: float, marker: str | None = None, size: int = 10_000, *, in_database: bool = False):
        self.ttl = ttl
        self.size = size
        self.marker = marker
        self.in_database = in_database
        self._marker_seen: int | None = None if in_database else self._marker_mtime()
        self._entries: dict[str, tuple[Principal, float]] = {}
        self._lock = threading.Lock()

    def _marker_mtime(self) -> int | None:
        if self.marker is None:
            return None
        try:
            return os.stat(self.marker).st_mtime_ns
        except OSError:
            return None

    def get(self, key: str, open_db: Callable | None = None) -> tuple[Principal | None, int | None]:
        """The cached principal of *key* (``None``: not cached, expired, or cached before the
        latest revocation), and the revocation count (PostgreSQL) or marker mtime (SQLite)
        read now — what :meth:`put` is to be given for a principal looked up after this call.

        Each entry keeps the count read *before* its token was looked up, and is used only
        while the count is still that: a token looked up just before a revocation committed,
        and put after another thread had seen the new count, is not taken."""
        if self.in_database:
            seen = None if open_db is None else token_store.revocations(open_db())
        else:
            seen = self._marker_mtime()
        if seen != self._marker_seen:
            with self._lock:
                self._entries.clear()
                self._marker_seen = seen
            return None, seen
        entry = self._entries.get(key)
        if entry is None or entry[1] < time.monotonic() or entry[2] != seen:
            return None, seen
        return entry[0], seen

    def peek(self, key: str) -> tuple[Principal, int] | None:
        """PostgreSQL only: the cached principal of *key* and the revocation count read before
        it was looked up, **without** reading the count (``None``: not cached, expired, or
        SQLite). The caller must check that count itself before it acts on the principal:
        the live ingest's write compares it with the count its transaction reads
        (``store.writer.Tx.revocations``) and refuses when it moved."""
        if not self.in_database:
            return None
        entry = self._entries.get(key)
        if entry is None or entry[2] is None or entry[1] < time.monotonic():
            return None
        return entry[0], entry[2]

    def put(self, key: str, principal: Principal, seen: int | None) -> None:
        """Cache *principal*, looked up after the count *seen* was read (:meth:`get`)."""
        with self._lock:
            if len(self._entries) >= self.size:
                self._entries.clear()
            self._entries[key] = (principal, time.monotonic() + self.ttl, seen)

    def forget(self, token_id: int) -> None:
        with self._lock:
            for key in [k for k, (p, *_) in self._entries.items() if p.id == token_id]:
                del self._entries[key]


def revocation_marker(database: str | os.PathLike) -> str:
    """The file whose mtime tells every server process that a token was revoked."""
    return os.fspath(database) + "-revoked"


def note_revocation(database: str | os.PathLike) -> None:
    """Tell every process serving *database* to drop its cached tokens (after a revoke). On
    PostgreSQL the revoke itself did (``meta.tokens_revoked``): nothing to do here."""
    if is_postgres(database):
        return
    marker = revocation_marker(database)
    with open(marker, "a"):
        pass
    now_ns = time.time_ns()
    try:
        previous = os.stat(marker).st_mtime_ns
    except OSError:
        previous = 0
    os.utime(marker, ns=(now_ns, max(now_ns, previous + 1)))  # always a new mtime, even within a tick


def _unauthorized(detail: str, detail_zh: str, code: str = "unauthorized") -> ApiProblem:
    return ApiProblem(401, code, detail, detail_zh, field="Authorization",
                      headers={"WWW-Authenticate": 'Bearer realm="mjref"'})


def forbidden(detail: str, detail_zh: str, code: str = "forbidden", field: str | None = "Authorization") -> ApiProblem:
    return ApiProblem(403, code, detail, detail_zh, field=field)


def current_principal() -> Principal | None:
    """The caller's principal, from ``Authorization: Bearer``; ``None`` without a header.

    :raises ApiProblem: 401 for a malformed, unknown or revoked token.
    """
    if "principal" in g:
        return g.principal
    header = request.headers.get("Authorization")
    principal = None if header is None else principal_of(header, current_app, get_db)
    g.principal = principal
    return principal


def principal_of(header: str, app: Flask, open_db: Callable) -> Principal:
    """The principal of an ``Authorization`` header's token (cached by its hash);
    *open_db* gives a read connection on a cache miss.

    :raises ApiProblem: 401 for a malformed, unknown or revoked token.
    """
    scheme, _, secret = header.strip().partition(" ")
    secret = secret.strip()
    if scheme.lower() != "bearer" or not secret:
        raise _unauthorized("Authorization must be 'Bearer <token>'", "Authorization 須為「Bearer <權杖>」",
                            "malformed_authorization")
    key = digest(secret)
    cache: _TokenCache = app.extensions["mjref.token_cache"]
    principal, seen = cache.get(key, open_db)
    if principal is None:
        row = token_store.token_by_hash(open_db(), key)
        if row is None:
            raise _unauthorized("unknown or revoked token", "權杖無效或已撤銷", "invalid_token")
        principal = Principal(row["id"], row["role"], row["table"], row["label"])
        cache.put(key, principal, seen)  # looked up after `seen` was read: good while the count is still that
    return principal


def cached_principal(header: str, app: Flask) -> tuple[Principal, int] | None:
    """The principal of an ``Authorization`` header's token if the token cache holds it, with
    the revocation count the cache was checked at (:meth:`_TokenCache.peek`: PostgreSQL
    only, no read of the database); ``None`` otherwise (then :func:`principal_of`)."""
    scheme, _, secret = header.strip().partition(" ")
    secret = secret.strip()
    if scheme.lower() != "bearer" or not secret:
        return None
    return app.extensions["mjref.token_cache"].peek(digest(secret))


def _need_token() -> ApiProblem:
    return _unauthorized("this request needs a token: Authorization: Bearer <token>",
                         "此請求需要權杖：Authorization: Bearer <權杖>", "token_required")


def require(*roles: str) -> Principal:
    """The caller, who must hold one of *roles*; 401 without a token, 403 with another role."""
    principal = current_principal()
    if principal is None:
        raise _need_token()
    if principal.role not in roles:
        raise forbidden(f"this needs the role {' or '.join(roles)}; the token's role is {principal.role}",
                        f"此操作需要角色 {' 或 '.join(roles)}；此權杖的角色為 {principal.role}", "role_forbidden")
    return principal


def public_reads(app: Flask | None = None) -> frozenset[str]:
    raw = (app or current_app).config.get("PUBLIC_READS", DEFAULT_PUBLIC_READS)
    if isinstance(raw, str):
        raw = [part.strip() for part in raw.split(",") if part.strip()]
    return frozenset(raw)


def check_read(area: str, table: str | None = None) -> Principal | None:
    """May the caller read *area* (of *table*)? A table token only ever reads its own table;
    otherwise public areas need no token, the rest any valid token."""
    principal = current_principal()
    if principal is not None and principal.role == "table" and table is not None and principal.table != table:
        raise _other_table(principal, table)
    if area in public_reads():
        return principal
    if principal is None:
        raise _need_token()
    return principal


def check_post_events(table: str) -> Principal:
    """May the caller post events to *table*? Its own table token, an official or an admin."""
    principal = require("table", "official", "admin")
    if principal.role == "table" and principal.table != table:
        raise _other_table(principal, table)
    return principal


def _other_table(principal: Principal, table: str) -> ApiProblem:
    return forbidden(f"this token belongs to table {principal.table!r}, not {table!r}",
                     f"此權杖屬於桌「{principal.table}」，不能用於桌「{table}」", "forbidden_table", field="table")


#: methods that write (auth first applies to them: :func:`guard`)
