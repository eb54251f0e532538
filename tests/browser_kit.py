"""A Chromium for the page tests (issue #14): Debian's /usr/bin/chromium through Playwright,
as tests/test_pages_browser.py launches it, with every request, console error and
Content-Security-Policy violation recorded, and every request off 127.0.0.1 refused.

:func:`chromium` yields ``{"context", "requests", "problems"}``; :func:`sign_in` signs an
official in on a page; :func:`external` lists the URLs that were not for 127.0.0.1;
:func:`artifacts_dir` is where screenshots are kept (``MJREF_ARTIFACTS`` or the system's
temporary directory), to be looked at.
"""
from __future__ import annotations

import contextlib
import os
import re
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from playwright import sync_api

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextlib.contextmanager
def chromium(viewport: dict | None = None, *, accept_downloads: bool = False):
    """A Chromium context on a fresh profile (zh-TW), recording requests and problems: a CSP
    violation is reported to the page (``securitypolicyviolation``) and so to the console;
    nothing may leave the machine (recorded, then refused)."""
    assert CHROMIUM.exists(), "Chromium is missing: `make test` installs it (apt-get install chromium)"
    with sync_api.sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, locale="zh-TW",
            viewport=viewport or {"width": 1366, "height": 900}, accept_downloads=accept_downloads)
        requests: list[str] = []
        context.on("request", lambda request: requests.append(request.url))
        problems: list[str] = []
        context.add_init_script("""document.addEventListener("securitypolicyviolation", e =>
            console.error("CSP violation: " + e.violatedDirective + " blocked " + e.blockedURI));""")
        context.on("console", lambda m: problems.append(f"{m.page.url if m.page else ''}: {m.text}")
                   if m.type == "error" else None)
        context.on("weberror", lambda e: problems.append(f"page error: {e.error}"))
        context.route(re.compile(r"^(?!http://127\.0\.0\.1[:/])[a-z]+://.*"), lambda route: route.abort())
        context.set_default_timeout(10_000)
        try:
            yield {"context": context, "requests": requests, "problems": problems}
        finally:
            context.close()


#: the sign-in form's button (web/templates/console_signin.html)
SIGN_IN = "以權杖登入 Sign in with the token"


def sign_in(page, base: str, path: str, secret: str, *, lands: str | None = None) -> None:
    """Open *path* of the server at *base* (the sign-in page, or a page that asks for it), sign
    in with the token *secret*, and wait for where that leads: *lands*, by default *path*."""
    page.goto(base + path)
    page.fill("#token", secret)
    page.get_by_role("button", name=SIGN_IN).click()
    page.wait_for_url(base + (path if lands is None else lands))


def external(urls: list[str]) -> list[str]:
    return [u for u in urls if urlsplit(u).scheme in ("http", "https", "ws", "wss")
            and urlsplit(u).hostname != "127.0.0.1"]


def artifacts_dir(name: str) -> Path:
    """A directory for a test module's screenshots, kept after the run."""
    root = Path(os.environ.get("MJREF_ARTIFACTS") or Path(tempfile.gettempdir()) / "mjref-artifacts")
    path = root / name
    path.mkdir(parents=True, exist_ok=True)
    return path
