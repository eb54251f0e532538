"""Referee: tiles, melds, hands and rulesets — what a player holds and may do.

Pure domain code: no Flask, marshmallow or SQLite here; the ``api`` and ``store``
packages call into it.
"""
