"""mjref：臺灣十六張麻將裁判與賽事服務 — Taiwanese 16-tile mahjong referee and tournament service.

Application factory (Flask tutorial style).  ``make run`` serves it with uWSGI
(``python -m mjref.serve``, each worker calls :func:`create_app`); ``flask --app app run``
for development.
"""
from __future__ import annotations

import os

from flask import Flask

import api
import clocks
import store
import web
from services.routing import LazyRule
from tournament.clocksource import clock_from_config


def create_app(test_config: dict | None = None) -> Flask:
    """Build the Flask app.

    Configuration, later sources winning: defaults (``DATABASE`` in the instance
    folder), environment variables ``MJREF_*`` (``MJREF_DATABASE=/path/x.sqlite3``),
    then ``test_config``.
    """
    app = Flask(__name__, instance_relative_config=True)
    app.url_rule_class = LazyRule  # URL builders compiled when first used (services.routing)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "mjref.sqlite3"),
    )
    app.config.from_prefixed_env("MJREF")
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.config["CLOCK"] = clock_from_config(app.config)  # the one "now" of the app (tournament.clocksource)
    app.json.ensure_ascii = False  # zh-TW text stays readable in JSON

    store.init_app(app)
    api.init_app(app)
    clocks.init_app(app)  # the round clocks' scheduler, one per deployment (config SCHEDULER)
    web.init_app(app)  # HTML pages: /t/<id>/… (issue #7)
    return app
