"""What a request body must be before anything reads it (issue #12 items 3 and 4): no larger
than ``MAX_CONTENT_LENGTH``, and JSON that the parser, the referee and the store can hold.

* **Size** — :class:`BodyLimit`, the outermost WSGI layer (in front of the live-ingest
  fast path and Flask): a ``Content-Length`` over the limit is a **413** problem+json,
  answered from the headers, the body not read, the connection closed. A chunked body
  (``Transfer-Encoding: chunked``) is read chunk by chunk up to the limit and refused the
  moment it passes it; below the limit it is handed on as a plain body with its
  ``Content-Length``, so everything behind sees one kind of body. (uWSGI's ``wsgi.input``
  gives nothing of a chunked body: it is read with ``uwsgi.chunked_read``; a server that
  decodes chunks itself says so with ``wsgi.input_terminated``; any other server's
  streaming body is a 411 — send ``Content-Length``.)
* **JSON** — :func:`loads`, the one decoder of every JSON body (Flask's ``request.get_json``
  through :class:`JSONProvider`, flask-smorest's argument parser, the live-ingest fast
  path) and :func:`check_json_text` for the whole-stream bodies (JSON Lines) read as text.
  Refused with a 400 naming the field, before the parser sees the text: a body that is not
  UTF-8; nesting deeper than :data:`MAX_JSON_DEPTH` (the parser recurses once per level, so
  100,000 levels exhausted the stack: a 500 or a dropped connection); a lone surrogate
  escape (``"\\ud800"``: a string no UTF-8 writer can encode — the store, the JSON answer);
  a NUL (``"\\u0000"``: PostgreSQL cannot hold it in text); ``NaN`` / ``Infinity`` (not
  JSON, RFC 8259 §6).
* **The URL** — a NUL in the path or a query parameter (``%00``) of an API route is a 400
  naming it (``path``, the parameter's name), in :class:`BodyLimit`, the live-ingest fast path
  included; the pages refuse it with their own error page (``web.errors.refuse_nul``).

The checks cost a few scans at C speed (``str.count``, regular expressions) on an ordinary
body; the field at fault is worked out only when one fails.
"""
from __future__ import annotations

import io
import json
import re
from typing import Any
from urllib.parse import parse_qsl

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from referee.ruleset import DEFAULT_PROFILE, Ruleset
from services.problems import ApiProblem, nul_character, nul_field

#: the body size limit when the configuration gives none (docs/api.md)
DEFAULT_MAX_CONTENT_LENGTH = 4 * 1024 * 1024
#: deepest nesting of arrays and objects in a body: the protocol's deepest is 4 (a batch,
#: its events, an event, its tiles); ruleset parameters and tournament bodies a few more
MAX_JSON_DEPTH = 32
#: seconds to wait for each chunk of a chunked body (uWSGI)
CHUNK_TIMEOUT = 30

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r'[^\[\]{}]+')
#: every byte but brackets and quotes (deleted by ``bytes.translate``), and braces read as brackets
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')
_AS_BRACKETS = bytes.maketrans(b"{}", b"[]")
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{},]', re.S)
_SURROGATE_HINT = re.compile(r'\\u[dD][89a-fA-F]')
_ESCAPE = re.compile(r'\\(?:u([0-9a-fA-F]{4})|.)', re.S)


def _invalid(code: str, field: str, detail: str, detail_zh: str) -> ApiProblem:
    return ApiProblem(400, code, detail, detail_zh, field=field)


# --- JSON ---------------------------------------------------------------------------------


def loads(data: str | bytes | bytearray, *, root: str = "body") -> Any:
    """Decode a JSON request body, after :func:`check_json_text`.

    :raises ApiProblem: 400 for a body that is not UTF-8, nested too deep, with a lone
        surrogate or a NUL, or with ``NaN`` / ``Infinity`` (naming the field).
    :raises json.JSONDecodeError: for text that is not JSON (the callers' own answer).
    """
    if isinstance(data, (bytes, bytearray)):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _invalid("invalid_encoding", root, f"{root} is not UTF-8 (byte {exc.start})",
                           f"{root} 不是 UTF-8 編碼（第 {exc.start} 個位元組）") from None
    else:
        text = data
    check_json_text(text, root=root)
    try:
        return _DECODER.decode(text)
    except RecursionError:  # unbalanced brackets, deeper than the parser can go
        raise _too_deep(root) from None
    except ApiProblem as problem:  # NaN, Infinity
        problem.field = root
        raise


def _no_constant(name: str) -> Any:
    raise _invalid("invalid_json", "body", f"{name} is not a JSON number", f"{name} 不是 JSON 的數值")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def check_json_text(text: str, *, lines: bool = False, root: str = "body") -> None:
    """Refuse JSON text (one value, or JSON Lines when *lines*) nested deeper than
    :data:`MAX_JSON_DEPTH`, or holding a lone surrogate escape or a NUL (``\\u0000``).

    :raises ApiProblem: 400 ``json_too_deep`` / ``lone_surrogate`` / ``nul_character`` naming the field
        (``events[0].tiles``; ``line 3.table`` in JSON Lines; *root* at the top, and before
        the rest when it is not ``body``: ``params.x[0]`` for a query parameter ``params.x``).
    """
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and _deeper_than(text, MAX_JSON_DEPTH):
        raise _too_deep(_field_at(text, lines=lines, root=root, deeper_than=MAX_JSON_DEPTH))
    if _SURROGATE_HINT.search(text):
        at = _lone_surrogate(text)
        if at is not None:
            field = _field_at(text, lines=lines, root=root, offset=at)
            raise _invalid("lone_surrogate", field,
                           f"{field}: a lone surrogate {text[at:at + 6]} is not a character (its pair is missing)",
                           f"{field}：單獨的代理碼 {text[at:at + 6]} 不是字元（缺少成對的另一半）")
    if "\\u0000" in text:
        at = _nul_escape(text)
        if at is not None:
            raise nul_character(_field_at(text, lines=lines, root=root, offset=at))


def _too_deep(field: str) -> ApiProblem:
    return _invalid("json_too_deep", field, f"{field}: arrays and objects nested more than {MAX_JSON_DEPTH} deep",
                    f"{field}：陣列與物件巢狀超過 {MAX_JSON_DEPTH} 層")


def _deeper_than(text: str, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than *limit*.

    At C speed: the text's brackets and quotes kept, braces read as brackets
    (``bytes.translate``); each string's two quotes are then side by side and dropped
    (``replace``) — when a string holds a bracket an odd run of quotes is left (the first
    such string's opening quote has no partner), and when the text has an escaped quote
    the quotes would pair wrongly: then the strings are cut out by a regular expression.
    What is left is brackets; each ``replace("[]", "")`` takes off one level.
    """
    raw = text.encode("utf-8", "surrogatepass")
    brackets = None
    if b'\\"' not in raw:
        brackets = raw.translate(_AS_BRACKETS, _NOT_STRUCTURE).replace(b'""', b"")
        if b'"' in brackets:
            brackets = None
    if brackets is None:
        brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).encode().translate(_AS_BRACKETS)
    for _level in range(limit):
        if not brackets:
            return False
        shorter = brackets.replace(b"[]", b"")
        if len(shorter) == len(brackets):
            return False  # unbalanced: not JSON, which the parser says
        brackets = shorter
    return bool(brackets)


def _nul_escape(text: str) -> int | None:
    """Where the first ``\\u0000`` escape starts, if any (read as :func:`_lone_surrogate` reads them:
    ``\\\\u0000``, an escaped backslash then text, is none)."""
    for match in _ESCAPE.finditer(text):
        if match.group(1) == "0000":
            return match.start()
    return None


def _lone_surrogate(text: str) -> int | None:
    """Where the first ``\\uD800``–``\\uDFFF`` escape without its pair starts, if any.

    Escapes are read left to right, so ``\\\\ud800`` (an escaped backslash, then text)
    is no surrogate."""
    high: re.Match | None = None
    for match in _ESCAPE.finditer(text):
        code = match.group(1)
        value = int(code, 16) if code else -1
        if high is not None:
            if match.start() == high.end() and 0xDC00 <= value <= 0xDFFF:
                high = None
                continue
            return high.start()
        if 0xD800 <= value <= 0xDBFF:
            high = match
        elif 0xDC00 <= value <= 0xDFFF:
            return match.start()
    return None if high is None else high.start()


def _field_at(text: str, *, lines: bool, root: str = "body", offset: int | None = None,
              deeper_than: int | None = None) -> str:
    """The field (``events[0].tiles``) holding *offset*, or where nesting first goes deeper
    than *deeper_than* (named by the last object member on the way: ``tiles``, not
    ``tiles[0][0]…``). Only called once a check has failed."""
    frames: list[list] = []  # [kind, key or index]
    top_start = 0

    def field(up_to_member: bool) -> str:
        parts = frames[:-1] if offset is None else frames  # the container that went too deep has no member yet
        if up_to_member:
            last = max((i for i, (kind, key) in enumerate(parts) if kind == "{" and key is not None), default=-1)
            parts = parts[:last + 1]
        name = "".join(f"[{key}]" if kind == "[" else f".{key}" for kind, key in parts if key is not None)
        if lines:
            return f"line {text.count(chr(10), 0, top_start) + 1}{name}"
        return name.lstrip(".") or root if root == "body" else root + name

    for match in _TOKEN.finditer(text):
        token = match.group()
        if offset is not None and match.end() > offset:
            return field(False)
        if token in "[{":
            if not frames:
                top_start = match.start()
            frames.append([token, 0 if token == "[" else None])
            if deeper_than is not None and len(frames) > deeper_than:
                return field(True)
        elif token in "]}":
            if frames:
                frames.pop()
        elif token == ",":
            if frames:
                frames[-1][1] = frames[-1][1] + 1 if frames[-1][0] == "[" else None
        elif frames and frames[-1][0] == "{" and frames[-1][1] is None:
            frames[-1][1] = token[1:-1]  # a member's name, as written
    return field(False)


def read_stream_body(text: str) -> tuple[Any, Ruleset | None, Any, Any]:
    """Read a whole-stream request body: JSON Lines, a JSON array of events, or an object
    ``{"events": [...], "ruleset": "...", "params": {...}, "mode": "...", "names": [...]}``.

    Returns ``(source, ruleset, mode, names)``: the stream for
    :func:`penalties.adjudicator.adjudicate_hands`, the ruleset the object names (``None``:
    the one each ``hand_start`` names), the raw ``mode`` (``None`` when not given), and the
    players by seat (:func:`penalties.words.read_names`: four strings or nulls, seat 0
    first; ``None`` when not given) whom the rulings' words name (「東家 王小明」).

    :raises referee.errors.RulesetError: an unknown profile or parameter, naming it.
    :raises penalties.errors.AdjudicationError: ``names`` that are not four names, naming
        the field (``names``, ``names[2]``).
    """
    stripped = text.strip()
    one_object = stripped.startswith("{") and "\n{" not in stripped
    check_json_text(text, lines=not (one_object or stripped.startswith("[")))  # too deep, a lone surrogate: 400
    if one_object:
        try:
            data = loads(stripped)
        except json.JSONDecodeError:
            data = None  # not one object: let the stream parser name the bad line
        if isinstance(data, dict) and "events" in data:
            from penalties.words import read_names

            names = read_names(data.get("names"))
            ruleset = None
            if data.get("ruleset") or data.get("params"):
                ruleset = Ruleset.load(data.get("ruleset") or DEFAULT_PROFILE, data.get("params") or None)
            return data["events"], ruleset, data.get("mode"), names
    return text, None, None, None


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, its ``loads`` (``request.get_json``) through :func:`loads`."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)


# --- size ---------------------------------------------------------------------------------


class BodyLimit:
    """WSGI middleware: the body size limit, before anything reads the body (module docstring)."""

    def __init__(self, app: Flask, wsgi_app):
        self.app = app
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict, start_response):
        path, query = environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", "")
        if path.startswith("/api/") and ("\x00" in path or "%00" in query or "\x00" in query):
            field = nul_field(path, parse_qsl(query, keep_blank_values=True)) or "query"
            return self._answer(nul_character(field), environ, start_response)
        limit = self.app.config["MAX_CONTENT_LENGTH"]
        coding = environ.get("HTTP_TRANSFER_ENCODING")
        if coding is not None:
            return self._streaming(coding, limit, environ, start_response)
        raw = environ.get("CONTENT_LENGTH")
        if raw:
            try:
                length = int(raw)
            except ValueError:
                length = -1
            if length < 0 or not raw.isdigit():
                return self._refuse(400, "invalid_content_length", "Content-Length",
                                    f"Content-Length must be a number of bytes, got {raw!r}",
                                    f"Content-Length 須為位元組數，收到 {raw!r}", environ, start_response)
            if length > limit:
                return self._too_large(limit, environ, start_response)
            if length > 0:
                return self._counted(length, environ, start_response)
        return self.wsgi_app(environ, start_response)

    def _counted(self, length: int, environ: dict, start_response):
        """Pass the request on; if its answer starts with the body not all read (refused first:
        401, 403), the answer says ``Connection: close`` — the server closes such a connection,
        and a keep-alive client then knows to open another rather than write into a closed one."""
        body = environ["wsgi.input"] = _CountedInput(environ["wsgi.input"], length)

        def start(status: str, headers: list, exc_info=None):
            if body.left > 0 and not any(name.lower() == "connection" for name, _ in headers):
                headers = [*headers, ("Connection", "close")]
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, start)

    def _streaming(self, coding: str, limit: int, environ: dict, start_response):
        if [part.strip().lower() for part in coding.split(",")] != ["chunked"]:
            return self._refuse(501, "unsupported_transfer_encoding", "Transfer-Encoding",
                                f"only Transfer-Encoding: chunked is accepted, got {coding!r}",
                                f"只接受 Transfer-Encoding: chunked，收到 {coding!r}", environ, start_response)
        chunks: list[bytes] = []
        size = 0
        try:
            for chunk in self._chunks(environ):
                if chunk is None:
                    return self._refuse(411, "length_required", "Content-Length",
                                        "this server cannot read a streaming body: send Content-Length",
                                        "此伺服器無法讀取串流內容：請附上 Content-Length", environ, start_response)
                size += len(chunk)
                if size > limit:  # refused now: the rest is not read
                    return self._too_large(limit, environ, start_response)
                chunks.append(chunk)
        except ApiProblem as problem:
            return self._answer(problem, environ, start_response)
        data = b"".join(chunks)
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        environ["CONTENT_LENGTH"] = str(len(data))
        environ.pop("wsgi.input_terminated", None)
        environ["wsgi.input"] = io.BytesIO(data)
        return self.wsgi_app(environ, start_response)

    @staticmethod
    def _chunks(environ: dict):
        """The chunked body's pieces as they arrive (``None``: the server gives no way to read them)."""
        if "uwsgi.version" in environ:
            import uwsgi

            while True:
                try:
                    chunk = uwsgi.chunked_read(CHUNK_TIMEOUT)
                except OSError:
                    raise _invalid("invalid_chunked_body", "body", "the chunked body is malformed or stopped arriving",
                                   "分塊傳送的內容格式錯誤或中斷") from None
                if not chunk:
                    return
                yield chunk
        elif environ.get("wsgi.input_terminated"):  # the server decodes chunks (werkzeug's, the test client)
            stream = environ["wsgi.input"]
            while True:
                chunk = stream.read(65536)
                if not chunk:
                    return
                yield chunk
        else:
            yield None

    def _too_large(self, limit: int, environ: dict, start_response):
        return self._refuse(413, "body_too_large", "body",
                            f"the body is larger than {limit} bytes (MAX_CONTENT_LENGTH)",
                            f"請求內容超過 {limit} 位元組（MAX_CONTENT_LENGTH）", environ, start_response)

    def _refuse(self, status: int, code: str, field: str, detail: str, detail_zh: str, environ: dict,
                start_response):
        return self._answer(ApiProblem(status, code, detail, detail_zh, field=field), environ, start_response)

    def _answer(self, problem: ApiProblem, environ: dict, start_response):
        """A problem+json answer from the one handler; the connection closes (the body is left unread)."""
        from api import handle_error

        with self.app.app_context():
            response = handle_error(problem)
        response.headers["Connection"] = "close"
        return response(environ, start_response)


class _CountedInput:
    """``wsgi.input``, counting what is left of the body's ``Content-Length``."""

    __slots__ = ("stream", "left")

    def __init__(self, stream, length: int):
        self.stream = stream
        self.left = length

    def read(self, size: int | None = -1) -> bytes:
        data = self.stream.read() if size is None or size < 0 else self.stream.read(size)
        self.left -= len(data)
        return data

    def readinto(self, buffer) -> int:  # uWSGI's input has no readinto
        data = self.stream.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self.left -= n
        return n

    def readline(self, size: int | None = -1) -> bytes:
        data = self.stream.readline() if size is None or size < 0 else self.stream.readline(size)
        self.left -= len(data)
        return data

    def __iter__(self):
        return iter(self.readline, b"")

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


def init_app(app: Flask) -> None:
    """The body limit (``MAX_CONTENT_LENGTH``, default 4 MiB) and the JSON decoder of requests."""
    limit = app.config.get("MAX_CONTENT_LENGTH")
    if limit is None:
        limit = DEFAULT_MAX_CONTENT_LENGTH
    if type(limit) is not int or limit < 1:
        raise ValueError(f"MAX_CONTENT_LENGTH must be a positive number of bytes, got {limit!r}")
    app.config["MAX_CONTENT_LENGTH"] = limit  # Flask enforces it too, on whatever it reads
    provider = JSONProvider(app)
    for name in ("ensure_ascii", "sort_keys", "compact", "mimetype"):  # as the app set them
        setattr(provider, name, getattr(app.json, name))
    app.json = provider
