"""Security headers on every response of the app (issue #12 item 8).

* every response: ``X-Content-Type-Options: nosniff`` (a browser takes the declared type:
  a JSON answer or a CSV is never run as a script or a page);
* every HTML page (the tournament pages, their error pages, ``/docs``): a
  Content-Security-Policy, :data:`PAGE_POLICY`. Scripts, styles, images and fonts come only
  from the service itself and **no inline script runs** (the pages' scripts are files:
  ``web/static/pages.js``, ``api/static/swagger-init.js``); requests from a page go only
  to the service; no page may be framed by another site (``frame-ancestors 'none'``,
  with ``X-Frame-Options: DENY`` for older browsers); forms post only to the service;
  no ``<base>`` may move relative links. ``Referrer-Policy: same-origin``: a link out
  does not carry a page's address (a tournament's) to another site.

Images may be ``data:`` URIs: Swagger UI's stylesheet draws its icons that way.
"""
from __future__ import annotations

from flask import Flask, Response

PAGE_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
])


def security_headers(response: Response) -> Response:
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if response.mimetype == "text/html":
        response.headers.setdefault("Content-Security-Policy", PAGE_POLICY)
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def init_app(app: Flask) -> None:
    app.after_request(security_headers)
