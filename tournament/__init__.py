"""Tournaments: seating, rounds (搬風, 定莊), tables and standings.

Pure domain code: no Flask, marshmallow or SQLite here; the ``api`` and ``store``
packages call into it.
"""
