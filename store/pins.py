"""Table scorers' PINs (issue #14 item 1) and the names at a table's seats.

A PIN is short (people type it on a phone), so it is stored only as a salted PBKDF2 hash
(:mod:`web.signin` makes and checks them); a PIN row names the table token it stands for
and its table (the sign-in form asks for the table, so a PIN is checked only against that
table's few live PINs).
"""
from __future__ import annotations

from collections.abc import Sequence

from store.tables import Database, now

_COLUMNS = "id, token_id, table_id, salt, hash, label, created_at, revoked_at"


def _pin(row: Sequence) -> dict:
    return {"id": row[0], "token": row[1], "table": row[2], "salt": row[3], "hash": row[4], "label": row[5],
            "created_at": row[6], "revoked_at": row[7]}


def public(pin: dict) -> dict:
    """A PIN row without its salt and hash (for lists and answers)."""
    return {k: v for k, v in pin.items() if k not in ("salt", "hash")}


def add_pin(db: Database, *, token_id: int, table_id: str, salt: str, digest: str,
            label: str = "") -> dict:
    pin_id = db.execute(
        "INSERT INTO pins (token_id, table_id, salt, hash, label, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        (token_id, table_id, salt, digest, label, now())).fetchone()[0]
    return get_pin(db, pin_id)


def get_pin(db: Database, pin_id: int) -> dict | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM pins WHERE id = ?", (pin_id,)).fetchone()
    return _pin(row) if row else None


def live_pins(db: Database, table_id: str) -> list[dict]:
    """The table's PINs not revoked, whose token is not revoked either."""
    rows = db.execute(
        f"SELECT {', '.join('p.' + c.strip() for c in _COLUMNS.split(','))} FROM pins p "
        "JOIN tokens t ON t.id = p.token_id WHERE p.table_id = ? AND p.revoked_at IS NULL "
        "AND t.revoked_at IS NULL ORDER BY p.id", (table_id,))
    return [_pin(r) for r in rows]


def list_pins(db: Database, *, include_revoked: bool = False) -> list[dict]:
    sql = f"SELECT {_COLUMNS} FROM pins" + ("" if include_revoked else " WHERE revoked_at IS NULL") + " ORDER BY id"
    return [public(_pin(r)) for r in db.execute(sql)]


def revoke_pin(db: Database, pin_id: int) -> dict | None:
    db.execute("UPDATE pins SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", (now(), pin_id))
    return get_pin(db, pin_id)


# --- the names at a table's seats ------------------------------------------------------------


def seat_names(db: Database, table_id: str) -> list[str]:
    """The four seats' names (``""`` where none is set)."""
    names = ["", "", "", ""]
    for seat, name in db.execute("SELECT seat, name FROM seat_names WHERE table_id = ?", (table_id,)):
        names[seat] = name
    return names


def set_seat_names(db: Database, table_id: str, names: Sequence[str]) -> list[str]:
    at = now()
    for seat, name in enumerate(names):
        db.execute("INSERT INTO seat_names (table_id, seat, name, updated_at) VALUES (?, ?, ?, ?) "
                   "ON CONFLICT (table_id, seat) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at",
                   (table_id, seat, name, at))
    return seat_names(db, table_id)
