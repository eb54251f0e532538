"""Penalties: the rulebook's infractions (詐胡, 相公, 錯槓, 錯碰...) and what each costs.

Pure domain code: no Flask, marshmallow or SQLite here; the ``api`` and ``store``
packages call into it.
"""
