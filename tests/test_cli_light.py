"""``mjref analyze|score`` (``python -m mjref``): the hand calculators without the server (issue #17, the
one-hand CLI answer; issue #19 item 5): the same answers as ``flask --app app …``, with neither Flask nor the
OpenAPI machinery imported."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCORE = {"ruleset": "app", "tiles": "123m456m789p234s55s SSS", "winner": 1, "dealer": 0, "round_wind": "E",
         "source": "wall", "winning_tile": "S", "streak": 1, "stakes": {"base": 100, "per_tai": 20}}
HEAVY = ("flask", "flask_smorest", "werkzeug", "apispec", "webargs", "store", "sqlite_utils", "apscheduler", "jinja2")


def light(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mjref", *args], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, encoding="utf-8", timeout=120)


def test_the_calculators_import_neither_flask_nor_openapi():
    code = ("import sys, mjref.cli, api.hand_commands, services.score_body; "
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_analyze_answers_as_the_flask_command(app):
    args = ["1112345678999m", "--melds", "EEE", "--set", "hands.ligu=true"]
    flask = app.test_cli_runner().invoke(args=["analyze", *args])
    result = light("analyze", *args)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(flask.stdout)


def test_score_answers_as_the_flask_command(app, tmp_path):
    path = tmp_path / "win.json"
    path.write_text(json.dumps(SCORE), encoding="utf-8")
    flask = app.test_cli_runner().invoke(args=["score", str(path)])
    result = light("score", "-", stdin=json.dumps(SCORE))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(flask.stdout)
    assert json.loads(result.stdout)["tai"] == 4


def test_errors_are_the_same_problem_json():
    bad = light("analyze", "1112345678999x")
    assert bad.returncode == 2 and json.loads(bad.stderr)["field"] == "tiles"
    body = light("score", "-", stdin=json.dumps({**SCORE, "winner": 7}))
    assert body.returncode == 2 and json.loads(body.stderr)["field"] == "winner"


def mjref(*args: str, stdin: str | None = None, database: Path | None = None) -> subprocess.CompletedProcess:
    """The installed console script (``pyproject.toml``; ``make test`` installs the project)."""
    script = Path(sys.executable).with_name("mjref")
    assert script.is_file(), "the mjref command is not installed: pip install -e . (make test does)"
    env = dict(os.environ, **({"MJREF_DATABASE": str(database)} if database else {}))
    return subprocess.run([str(script), *args], cwd=ROOT, input=stdin, capture_output=True, text=True,
                          encoding="utf-8", timeout=120, env=env)


def test_the_mjref_command_runs_the_apps_commands_as_flask_does(app, tmp_path):
    """``mjref replay`` is the app's own ``flask replay``: the same document for a sample."""
    sample = ROOT / "data" / "samples" / "draw_exhausted.jsonl"
    flask = app.test_cli_runner().invoke(args=["replay", str(sample)])
    result = mjref("replay", str(sample), database=tmp_path / "cli.sqlite3")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(flask.stdout)


def test_the_mjref_command_scores_from_stdin_and_lists_every_command():
    result = mjref("score", "-", stdin=json.dumps(SCORE))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tai"] == 4
    listing = mjref("--help")
    for command in ("analyze", "score", "serve", "replay", "rule", "tokens", "tables"):
        assert f"  {command} " in listing.stdout, listing.stdout


def test_replay_and_rule_run_without_the_app_and_answer_as_the_flask_commands(app, tmp_path):
    """``mjref replay|rule`` (issue #17: a log's answers from process start without the app's
    0.6 s of imports) are the app's own command objects, loaded without it: the same output as
    ``flask replay|rule``, a log of several hands and one of a single hand, with Flask, the store
    and the pages never imported, nor marshmallow (the calculators' bodies: 40 ms of the start)."""
    from referee.events import to_jsonl
    from referee.generator import generate_hands

    samples = ROOT / "data" / "samples"
    log = tmp_path / "log.jsonl"
    log.write_text("".join(to_jsonl(events) for events in generate_hands(3, seed=8))
                   + (samples / "pen_false_win.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    for args in (["replay", str(log)], ["rule", str(log), "--names", "王小明,,Lee,林"],
                 ["replay", str(samples / "draw_exhausted.jsonl")]):
        flask = app.test_cli_runner().invoke(args=[*args, "--jobs", "1"])
        result = light(*args, "--jobs", "2")
        assert result.returncode == 0, result.stderr
        assert result.stdout == flask.stdout and len(result.stdout) > 1000
    unwanted = (*HEAVY, "web", "app", "marshmallow")
    code = ("import sys; from mjref.cli import main\n"
            f"main(['replay', {str(log)!r}, '--quiet'], standalone_mode=False)\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {unwanted!r}), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stderr.strip() == "[]" and out.stdout.count("\n") == 4
