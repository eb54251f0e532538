"""All database code of mjref lives here (SQLite through sqlite-utils, or PostgreSQL through
psycopg 3: :mod:`store.dialect`); the domain packages never touch it.

* :mod:`store.db` — the database (created and migrated on start), per-request reads, the writer;
* :mod:`store.schema` — the layout and its migrations (:data:`SCHEMA_VERSION`);
* :mod:`store.writer` — group commit: many requests, one durable commit;
* :mod:`store.tables` — tables, the append-only event log, projections (hands, rulings, overrides);
* :mod:`store.tokens` — API tokens, stored hashed;
* :mod:`store.tournaments` — tournaments and their event log (issue #7);
* :mod:`store.dialect` — what differs between SQLite and PostgreSQL, said once (issue #16);
* :mod:`store.leader` — the clocks' single leader as a PostgreSQL advisory lock;
* :mod:`store.copy` — a whole database into an empty one (``flask db copy``).
"""
from store.db import SCHEMA_VERSION, close_app, close_db, connect, get_db, get_writer, init_app, init_db
from store.writer import StoreUnavailableError, Tx

__all__ = [
    "SCHEMA_VERSION", "StoreUnavailableError", "Tx", "close_app", "close_db", "connect", "get_db", "get_writer",
    "init_app", "init_db",
]
