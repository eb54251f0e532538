"""Every command and request example in the docs runs as written (issue #19 item 6), as
sqlite-utils tests its docs.

- Each line of a ```` ```sh ```` block in ``README.md`` and ``docs/*.md`` (continuations joined,
  comments dropped) runs in bash from the repository's root against a database of its own,
  and must exit 0 — but for the commands listed in :data:`NOT_RUN`, each with its reason.
- Each ```` ```http ```` block is sent to the real app (a test client on a real SQLite file)
  with a real official's token in place of ``mjref_…``, after the records it names exist,
  and must be answered 2xx.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: commands a test cannot run as written, and why (a command's start → the reason)
NOT_RUN = {
    "make run": "starts the service and keeps it running (tests/test_serve.py, test_pages_browser.py start it)",
    "make test": "the test suite itself",
    ".venv/bin/schemathesis run http://127.0.0.1:8000/": "needs a running server; tests/test_fuzz_api.py runs it",
    ".venv/bin/flask --app app db copy instance/mjref.sqlite3 postgresql://mjref:PASSWORD@db.example/mjref":
        "the reader's own database host; tests/test_db_copy.py copies a deployment",
    "sudo -u postgres": "makes a role or database on the reader's PostgreSQL server; the tests start a "
                        "throwaway cluster (tests/pgcluster.py)",
    "export MJREF_DATABASE=postgresql://mjref:PASSWORD@db.example": "the reader's own database host",
    "MJREF_DATABASE=postgresql://… .venv/bin/python -m mjref.serve": "starts a server and keeps it running "
                                                                     "(tests/test_scale_pg.py starts them)",
    ".venv/bin/python -m mjref.serve --front-of": "starts the front nginx and keeps it running "
                                                  "(tests/test_front_pg.py starts it)",
}


def blocks(kind: str) -> list[tuple[str, int, str]]:
    """(file, line, text) of every fenced block of *kind* in the docs."""
    found = []
    for path in DOCS:
        lines = path.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            if lines[i].strip() == f"```{kind}":
                start, body = i + 1, []
                i += 1
                while i < len(lines) and lines[i].strip() != "```":
                    body.append(lines[i])
                    i += 1
                found.append((path.relative_to(ROOT).as_posix(), start + 1, "\n".join(body)))
            i += 1
    return found


def commands(text: str) -> list[str]:
    """The commands of a shell block: continuations joined, comments and blank lines dropped."""
    out, current = [], ""
    for line in text.splitlines():
        if line.lstrip().startswith("#") and not current:
            continue
        current += line
        if current.endswith("\\"):
            current = current[:-1] + " "
            continue
        if current.count("'") % 2:  # inside a quoted string that goes on
            current += "\n"
            continue
        if current.strip():
            out.append(current.strip())
        current = ""
    return out


def shell_examples() -> list[tuple[str, str]]:
    return [(f"{file}:{line}", command) for file, line, text in blocks("sh") for command in commands(text)]


def not_run(command: str) -> str | None:
    return next((why for start, why in NOT_RUN.items() if command.startswith(start)), None)


def test_the_docs_have_examples_and_every_exemption_is_still_in_them():
    examples = [command for _where, command in shell_examples()]
    assert len(examples) >= 10
    for start in NOT_RUN:
        assert any(command.startswith(start) for command in examples), f"no longer in the docs: {start}"


@pytest.mark.parametrize("where, command", shell_examples(), ids=lambda v: v if ":" in v else None)
def test_each_shell_example_runs_as_written(where, command, tmp_path):
    why = not_run(command)
    if why:
        pytest.skip(why)
    env = dict(os.environ, MJREF_DATABASE=str(tmp_path / "docs.sqlite3"), TMPDIR=str(tmp_path),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    venv = ROOT / ".venv" / "bin"
    if not venv.is_dir():  # the docs say .venv/bin/…: the interpreter's own folder stands in for it
        command = command.replace(".venv/bin/", f"{Path(sys.executable).parent}/")
    result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=ROOT, env=env, capture_output=True,
                            text=True, encoding="utf-8", timeout=300)
    assert result.returncode == 0, f"{where}: {command}\n{result.stderr[-2000:]}"
    assert result.stdout.strip() or ">" in command, f"{where}: {command} printed nothing"


def http_examples() -> list[tuple[str, str]]:
    return [(f"{file}:{line}", text) for file, line, text in blocks("http")]


@pytest.mark.parametrize("where, text", http_examples(), ids=lambda v: v if ":" in v and "\n" not in v else None)
def test_each_request_example_is_answered(where, text, app, client):
    from services.caller import create_token
    from store import get_db

    head, _, body = text.partition("\n\n")
    request_line, *header_lines = head.splitlines()
    method, path = request_line.split()[:2]
    with app.app_context():
        db = get_db()
        secret, _row = create_token(db, role="official", label="docs")
        db.conn.commit()
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip()] = value.strip().replace("mjref_…", secret)
    _prepare(client, path, secret)
    response = client.open(path, method=method, headers=headers, data=body.encode("utf-8"))
    assert 200 <= response.status_code < 300, f"{where}: {response.status_code} {response.get_data(as_text=True)}"


def _prepare(client, path: str, secret: str) -> None:
    """Make what the example's path names: a tournament T1, seated for round 1."""
    match = re.match(r"/api/v1/tournaments/([^/]+)/", path)
    if not match:
        return
    from tests.test_api_tournaments import PLAYERS

    auth = {"Authorization": f"Bearer {secret}"}
    tid = match.group(1)
    base = "/api/v1/tournaments"
    for url, body in ((base, {"id": tid, "name": "文件範例 docs", "rounds": 1, "matches_per_round": 1,
                              "base": 100, "per_tai": 20}),
                      (f"{base}/{tid}/players", {"players": PLAYERS}), (f"{base}/{tid}/schedule", {"seed": 5})):
        response = client.post(url, headers=auth, json=body)
        assert response.status_code == 201, response.get_json()
