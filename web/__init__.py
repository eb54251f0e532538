"""HTML pages of mjref (issue #7): tournament index, seating, table cards, score sheets,
standings — served by the app, printable from a browser, no external assets; and the
officials' console (:mod:`web.console`, issue #14): sign-in, the hall, tables, replays,
rulings, reports.

:func:`init_app` registers the blueprint (:mod:`web.pages`) and the security headers of
every response (:mod:`web.headers`: a Content-Security-Policy on every HTML page, the API's
``/docs`` included); ``create_app`` calls it.
"""
from __future__ import annotations

from flask import Flask, current_app, g

from web import advancement, clock_page, console, headers, pages, results, seating_admin, setup, tiles, tools
from web.name_order import by_name
from web.times import local_time, minutes_left, time_zone


def init_app(app: Flask) -> None:
    """The pages' blueprint, the tile pictures' helpers (web/tiles.py), the calculators (web/tools.py), and the
    time filters (``TIME_ZONE``, web/times.py; a bad zone fails here)."""
    zone = time_zone(app.config.get("TIME_ZONE"))
    app.register_blueprint(pages.bp)
    console.init_app(app)  # the officials' console: /, /signin, /hall, /tables/… (issue #14)
    results.init_app(app)  # the organisers' results entry: /t/<tid>/results/… (issue #15)
    setup.init_app(app)  # the organisers' setup: /t/new, /t/<tid>/players/import (issue #15)
    advancement.init_app(app)  # 四取一 / 四取二 and tie decisions: /t/<tid>/advancement (issue #15)
    clock_page.init_app(app)  # the organisers' clock: /t/<tid>/clock (issue #15)
    seating_admin.init_app(app)  # seating by hand / CSV, 搬風, publish: /t/<tid>/seating/<r>/… (issue #15)
    # an event's page shows its times in the event's own zone (EventSettings.time_zone, set by web.times.show_in)
    app.add_template_filter(lambda when: local_time(when, g.get("time_zone") or zone,
                                                    current_app.config["CLOCK"].now()),
                            "local_time")
    app.add_template_filter(minutes_left, "minutes_left")
    # players listed by name in Taiwan's order, by strokes (web/name_order.py, R-tour-33)
    app.add_template_filter(lambda players: by_name(players, lambda p: p.name), "by_name")
    tiles.init_app(app)
    tools.init_app(app)
    headers.init_app(app)
