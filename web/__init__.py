"""HTML pages of mjref (issue #7): tournament index, seating, table cards, score sheets,
standings — served by the app, printable from a browser, no external assets.

:func:`init_app` registers the blueprint (:mod:`web.pages`) and the security headers of
every response (:mod:`web.headers`: a Content-Security-Policy on every HTML page, the API's
``/docs`` included); ``create_app`` calls it.
"""
from __future__ import annotations

from flask import Flask

from web import headers, pages


def init_app(app: Flask) -> None:
    app.register_blueprint(pages.bp)
    headers.init_app(app)
