"""All SQLite code of mjref lives here (sqlite-utils); the domain packages never touch it."""
from store.db import SCHEMA_VERSION, close_db, get_db, init_app, init_db

__all__ = ["SCHEMA_VERSION", "close_db", "get_db", "init_app", "init_db"]
