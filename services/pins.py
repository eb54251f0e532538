"""Table scorers' PINs (issue #14 item 1): made and hashed here, for the console's sign-in
(:mod:`web.signin`) and the ``flask tokens pin`` commands (:mod:`api.pins_cli`) alike.

A PIN is :data:`PIN_DIGITS` digits from :mod:`secrets`, stored only as PBKDF2-SHA256 with a
per-PIN salt (:mod:`store.pins`); it stands for a table token, so signing in with it acts as
that token and revoking either ends its sessions.
"""
from __future__ import annotations

import hashlib
import secrets

from services.caller import TokenRequestError, create_token
from store import pins as pin_store
from store import tokens as token_store

PIN_DIGITS = 6
PBKDF2_ROUNDS = 60_000


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
                                    field="token",
                                    reason_zh=f"PIN 只能代表桌的權杖；權杖 {token} 的角色為 {row['role']}")
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


__all__ = ["PBKDF2_ROUNDS", "PIN_DIGITS", "create_pin", "pin_digest"]
