"""A file to download: the standings' CSV from the API and from the pages."""
from __future__ import annotations

from urllib.parse import quote

from flask import Response


def csv_download(body: str | bytes, fallback: str, name: str) -> Response:
    """*body* (``tournament.standings.to_csv_file``: UTF-8 with a BOM, for Excel) as an
    attachment named *name*, with the ASCII *fallback* for clients that read only that
    (RFC 6266: ids and so names may be Chinese)."""
    response = Response(body, content_type="text/csv; charset=utf-8")
    response.headers["Content-Disposition"] = (f'attachment; filename="{fallback}"; '
                                               f"filename*=UTF-8''{quote(name, safe='')}")
    return response
