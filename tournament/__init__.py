"""Tournaments: seating, rounds (搬風, 定莊), schedules, results and standings (issue #7).

Pure domain code: no Flask, marshmallow or SQLite here; the ``api`` and ``store``
packages call into it. One concern per module:

* :mod:`tournament.seating` — 搬風 and 定莊 draws (``seat.banfeng``, ``seat.dealer``);
* :mod:`tournament.match` — one 將: 連莊 / 下莊, the 圈風 marker (``app.rounds``);
* :mod:`tournament.table` — a table's 將 after 將, as a fold of its events;
* :mod:`tournament.schedule` — who sits at which table, in which wind, each round;
  built on :mod:`tournament.designs` (constructions), :mod:`tournament.orbits` (their
  search), :mod:`tournament.galois` (finite fields), :mod:`tournament.pairing` (local
  search) and :mod:`tournament.winds` (wind balance);
* :mod:`tournament.results` — hand results, zero-sum checks;
* :mod:`tournament.events` — the event log and its fold;
* :mod:`tournament.standings` — totals, tie-breaks, 四取一 / 四取二, CSV;
* :mod:`tournament.printouts` — table cards and score sheets.

See ``docs/tournaments.md``.
"""
