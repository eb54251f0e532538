"""The officials' console's logic through Flask's test client (issue #14): sign-in with a token
or a PIN, the session (expiry by the app's clock, revocation, sign-out), the form token, each
form's success and its error at the field. The same pages in Chromium: tests/test_console_browser.py.
"""
from __future__ import annotations

import json
import re

import pytest

from api.auth import create_token
from store import connect
from store import pins as pin_store
from tests.servicekit import bearer, create_table, hand_events, make_token, sql_rows
from services.pins import create_pin, pin_digest
from web.times import ago

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def form_token(client, path: str = "/signin") -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return CSRF.search(response.get_data(as_text=True)).group(1)


def sign_in(client, secret: str, next_: str = "") -> object:
    return client.post("/signin", data={"csrf_token": form_token(client), "how": "token", "token": secret,
                                        "next": next_})


def issue_pin(app, table: str, label: str = "計分員") -> tuple[str, dict]:
    db = connect(app.config["DATABASE"])
    try:
        with db.atomic():
            return create_pin(db, table=table, label=label)
    finally:
        db.close()


def field_error(html: str, field: str) -> str:
    """The error shown right under the field (its aria-describedby), '' if none."""
    assert f'id="{field}"' in html or f'name="{field}"' in html, field
    m = re.search(rf'<p class="field-error" id="{field}-error"[^>]*>(.*?)</p>', html, re.DOTALL)
    return re.sub(r"<[^>]+>", "", m.group(1)).strip() if m else ""


@pytest.fixture()
def official_secret(app):
    return make_token(app.config["DATABASE"], "official", label="王裁判")


@pytest.fixture()
def table_with_hand(app, client, official_secret):
    """Table T1 with the first 60 events of a generated hand."""
    headers = bearer(official_secret)
    create_table(client, headers, "T1")
    response = client.post("/api/v1/tables/T1/events", json={"events": hand_events(3)[:60]}, headers=headers)
    assert response.status_code == 200
    return "T1"


# --- the home page ------------------------------------------------------------------------------


def test_the_home_page_is_a_page_linking_everything(client):
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    for href in ('href="/hall"', 'href="/t/"', 'href="/signin"', 'href="/docs"', 'href="/tools/ready"',
                 'href="/tools/score"', 'href="/tiles"'):
        assert href in html
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def test_the_home_page_lists_the_tables_for_whoever_may_read_them(client, official_secret, table_with_hand):
    assert 'href="/tables/T1/"' in client.get("/").get_data(as_text=True)  # tables: a public read area
    from app import create_app

    private = create_app({"TESTING": True, "DATABASE": client.application.config["DATABASE"],
                          "PUBLIC_READS": "rulesets"}).test_client()
    assert 'href="/tables/T1/"' not in private.get("/").get_data(as_text=True)
    sign_in(private, official_secret)
    assert 'href="/tables/T1/"' in private.get("/").get_data(as_text=True)


def test_other_unknown_paths_stay_problem_json(client):
    response = client.get("/no-such-thing")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"


# --- sign-in --------------------------------------------------------------------------------------


def test_an_official_signs_in_with_a_token_and_goes_where_they_were_going(client, official_secret):
    assert client.get("/hall").headers["Location"] == "/signin?next=/hall"
    response = sign_in(client, official_secret, "/hall")
    assert response.status_code == 302 and response.headers["Location"] == "/hall"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("mjref_session=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert official_secret not in cookie  # the session holds the token's id, never its secret
    page = client.get("/hall")
    assert page.status_code == 200 and "王裁判" in page.get_data(as_text=True)


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "hall"])
def test_sign_in_never_sends_anyone_to_another_site(client, official_secret, target):
    assert sign_in(client, official_secret, target).headers["Location"] == "/"


@pytest.mark.parametrize("secret, reason", [("", "請貼上您的權杖"), ("mjref_nope", "權杖無效或已撤銷")])
def test_a_bad_token_is_named_at_its_field(client, secret, reason):
    response = sign_in(client, secret)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert field_error(html, "token").startswith(reason)
    assert ('id="token" name="token" type="password" autocomplete="off" spellcheck="false" placeholder="mjref_…" '
            'aria-invalid="true"' in html)
    assert "mjref_nope" not in html  # a secret typed is never echoed back


def test_a_scorer_signs_in_with_a_pin_and_sees_only_their_table(app, client, official_secret, table_with_hand):
    create_table(client, bearer(official_secret), "T2")
    pin, row = issue_pin(app, "T1", "陳計分")
    assert len(pin) == 6 and pin.isdigit() and row["table"] == "T1" and "hash" not in row
    stored = pin_store.get_pin(connect(app.config["DATABASE"]), row["id"])
    assert pin not in json.dumps(stored) and stored["hash"] == pin_digest(pin, stored["salt"])
    response = client.post("/signin", data={"csrf_token": form_token(client), "how": "pin", "table": "T1",
                                            "pin": pin})
    assert response.status_code == 302
    hall = client.get("/hall").get_data(as_text=True)
    assert 'id="table-T1"' in hall and 'id="table-T2"' not in hall and "陳計分" in hall
    assert client.get("/tables/T1/").status_code == 200
    assert client.get("/tables/T2/").status_code == 403  # a table's token reads its own table only
    assert client.get("/tables/T1/report").status_code == 403  # reports are an official's


@pytest.mark.parametrize("table, pin, field, reason", [
    ("", "123456", "table", "請填寫桌號"),
    ("T9", "123456", "table", "沒有桌「T9」"),
    ("T1", "12ab", "pin", "PIN 為 6 位數字"),
    ("T1", "000000", "pin", "PIN 不正確或已撤銷"),
])
def test_a_bad_pin_sign_in_is_named_at_its_field(app, client, table_with_hand, table, pin, field, reason):
    real, _ = issue_pin(app, "T1")
    if pin == "000000" and real == pin:
        pin = "999999"
    response = client.post("/signin", data={"csrf_token": form_token(client), "how": "pin", "table": table,
                                            "pin": pin})
    assert response.status_code == 400
    assert field_error(response.get_data(as_text=True), field).startswith(reason)


def test_a_pin_is_refused_for_another_table(app, client, official_secret, table_with_hand):
    create_table(client, bearer(official_secret), "T2")
    pin, _ = issue_pin(app, "T1")
    response = client.post("/signin", data={"csrf_token": form_token(client), "how": "pin", "table": "T2",
                                            "pin": pin})
    assert response.status_code == 400 and "PIN 不正確" in response.get_data(as_text=True)


def test_a_pin_for_an_existing_table_token_and_the_refusals(app, table_with_hand):
    db = connect(app.config["DATABASE"])
    try:
        with db.atomic():
            _secret, token = create_token(db, role="table", table="T1", label="桌機")
            _pin, row = create_pin(db, token=token["id"])
            assert row["token"] == token["id"] and row["table"] == "T1"
            _o, official = create_token(db, role="official")
        from api.auth import TokenRequestError

        for kwargs, field in (({"token": official["id"]}, "token"), ({"token": 999}, "token"), ({}, "table"),
                              ({"token": token["id"], "table": "T2"}, "table")):
            with pytest.raises(TokenRequestError) as info:
                create_pin(db, **kwargs)
            assert info.value.field == field
    finally:
        db.close()


def test_the_cli_issues_lists_and_revokes_pins(app, table_with_hand):
    runner = app.test_cli_runner()
    issued = runner.invoke(args=["tokens", "pin", "--table", "T1", "--label", "陳計分"])
    assert issued.exit_code == 0, issued.output
    row = json.loads(issued.stdout)
    assert len(row["pin"]) == 6 and row["label"] == "陳計分"
    listed = json.loads(runner.invoke(args=["tokens", "pins"]).stdout)["pins"]
    assert [p["id"] for p in listed] == [row["id"]] and "hash" not in listed[0] and "pin" not in listed[0]
    revoked = runner.invoke(args=["tokens", "unpin", str(row["id"])])
    assert revoked.exit_code == 0 and json.loads(revoked.stdout)["revoked_at"]
    assert json.loads(runner.invoke(args=["tokens", "pins"]).stdout)["pins"] == []
    assert runner.invoke(args=["tokens", "unpin", "999"]).exit_code == 2
    missing = runner.invoke(args=["tokens", "pin"])
    assert missing.exit_code == 2 and '"field": "table"' in missing.stderr


# --- the session ------------------------------------------------------------------------------------


def test_the_session_expires_by_the_apps_clock(app, client, app_clock, official_secret, table_with_hand):
    app.config["CONSOLE_SESSION_MINUTES"] = 30
    sign_in(client, official_secret)
    app_clock.advance(29 * 60)
    assert client.get("/hall").status_code == 200
    app_clock.advance(2 * 60)
    response = client.get("/hall")
    assert response.status_code == 302 and response.headers["Location"].startswith("/signin")
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "王裁判" not in page and "登入已逾時" in page


def test_revoking_the_token_ends_the_session_at_once(app, client, official_secret, table_with_hand):
    sign_in(client, official_secret)
    assert client.get("/hall").status_code == 200
    token_id = json.loads(app.test_cli_runner().invoke(args=["tokens", "list"]).stdout)["tokens"][0]["id"]
    assert app.test_cli_runner().invoke(args=["tokens", "revoke", str(token_id)]).exit_code == 0
    response = client.get("/hall")
    assert response.status_code == 302 and "ended=revoked" in response.headers["Location"]
    assert "已被撤銷" in client.get(response.headers["Location"]).get_data(as_text=True)


def test_revoking_a_pin_ends_its_session(app, client, table_with_hand):
    pin, row = issue_pin(app, "T1")
    client.post("/signin", data={"csrf_token": form_token(client), "how": "pin", "table": "T1", "pin": pin})
    assert client.get("/tables/T1/").status_code == 200
    app.test_cli_runner().invoke(args=["tokens", "unpin", str(row["id"])])
    assert client.get("/tables/T1/").status_code == 302


def test_signing_out(client, official_secret, table_with_hand):
    sign_in(client, official_secret)
    token = form_token(client, "/hall")
    response = client.post("/signout", data={"csrf_token": token})
    assert response.status_code == 302 and "ended=signed_out" in response.headers["Location"]
    assert "已登出" in client.get(response.headers["Location"]).get_data(as_text=True)
    assert client.get("/hall").status_code == 302


def test_a_form_without_the_sessions_form_token_is_refused_with_a_page(client, official_secret, table_with_hand):
    for data in ({"how": "token", "token": official_secret}, {"csrf_token": "forged", "how": "token",
                                                               "token": official_secret}):
        response = client.post("/signin", data=data)
        assert response.status_code == 400 and response.mimetype == "text/html"
        html = response.get_data(as_text=True)
        assert "表單驗證失敗" in html and "CSRF" in html and "csrf_token" in html
    sign_in(client, official_secret)
    response = client.post("/tables/T1/report", data={"code": "dead_hand", "seat": "1"})
    assert response.status_code == 400 and "表單驗證失敗" in response.get_data(as_text=True)
    assert client.get("/api/v1/tables/T1/rulings").get_json()["rulings"] == []  # nothing was stored


def test_the_secret_key_is_kept_in_the_database(app, tmp_path):
    """Every server of a deployment signs sessions alike (on PostgreSQL too: no file beside it)."""
    from app import create_app
    from store import connect


    again = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"] and len(app.config["SECRET_KEY"]) >= 48
    db = connect(app.config["DATABASE"])
    try:
        stored = db.execute("SELECT value FROM meta WHERE key = 'session_secret'").fetchone()[0]
    finally:
        db.close()
    assert stored == app.config["SECRET_KEY"]
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite3")})
    assert other.config["SECRET_KEY"] != app.config["SECRET_KEY"]
    assert create_app({"TESTING": True, "DATABASE": str(tmp_path / "k.sqlite3"),
                       "SECRET_KEY": "configured"}).config["SECRET_KEY"] == "configured"


# --- the pages' words -------------------------------------------------------------------------------


@pytest.mark.parametrize("seconds, words", [(0, "剛剛"), (9.9, "剛剛"), (42, "42 秒前"), (60, "1 分鐘前"),
                                            (3 * 60 + 59, "3 分鐘前"), (7200, "2 小時前"), (3 * 86400, "3 天前"),
                                            (-5, "剛剛")])
def test_time_since_in_words(seconds, words):
    assert ago(seconds)[0] == words


# --- the hall, a table, a replay ----------------------------------------------------------------------


def test_the_hall_and_its_live_part(client, official_secret, table_with_hand):
    sign_in(client, official_secret)
    html = client.get("/hall").get_data(as_text=True)
    assert 'data-live="/hall/live"' in html and "第 1 盤" in html and "南風圈" in html
    live = client.get("/hall/live")
    assert live.headers["Cache-Control"] == "no-store"
    doc = live.get_json()
    assert set(doc) == {"version", "html"} and 'id="table-T1"' in doc["html"]
    assert client.get("/hall/live").get_json()["version"] == doc["version"]  # nothing changed, same version
    client.post("/api/v1/tables/T1/events", json={"events": hand_events(3)[60:62]}, headers=bearer(official_secret))
    assert client.get("/hall/live").get_json()["version"] != doc["version"]


def test_the_hall_says_how_long_ago_the_last_event_was(client, app_clock, official_secret, table_with_hand):
    from datetime import datetime, timedelta

    hands = client.get("/api/v1/tables/T1/hands", headers=bearer(official_secret)).get_json()["hands"]
    last = datetime.fromisoformat(hands[-1]["last_at"])
    app_clock.set(last + timedelta(minutes=3, seconds=20))
    sign_in(client, official_secret)
    assert ('<dd class="ago">3 分鐘前 <span lang="en">3 min ago</span></dd>'
            in client.get("/hall").get_data(as_text=True))
    app_clock.set(last + timedelta(hours=2))
    assert "2 小時前" in client.get("/hall/live").get_json()["html"]


def test_open_rulings_are_flagged_in_the_hall(client, official_secret, table_with_hand):
    sign_in(client, official_secret)
    assert "open-flag" not in client.get("/hall/live").get_json()["html"]
    report(client, "stolen_tile", 1)
    html = client.get("/hall/live").get_json()["html"]
    assert "⚑ 待處理裁定 1 件" in html and "/tables/T1/hands/1/rulings/pen.61.dead_hand" in html


def test_anyone_may_watch_when_the_deployment_makes_events_public(tmp_path, app_clock):
    from app import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.sqlite3"), "CLOCK": app_clock,
                      "PUBLIC_READS": "tables,events,rulings"})
    client = app.test_client()
    headers = bearer(make_token(app.config["DATABASE"], "official"))
    create_table(client, headers, "T1")
    client.post("/api/v1/tables/T1/events", json={"events": hand_events(3)[:30]}, headers=headers)
    assert client.get("/hall").status_code == 200 and client.get("/tables/T1/").status_code == 200
    assert client.get("/tables/T1/report").status_code == 302  # acting still needs an official


def test_a_table_page_lists_the_latest_events_and_all_on_request(client, official_secret, table_with_hand):
    sign_in(client, official_secret)
    html = client.get("/tables/T1/").get_data(as_text=True)
    assert html.count('<tr class="verdict-') == 40 and "共 60" in html
    assert client.get("/tables/T1/?events=all").get_data(as_text=True).count('<tr class="verdict-') == 60
    assert client.get("/tables/T1/?hand=7").status_code == 404
    assert client.get("/tables/T9/").status_code == 404
    assert client.get("/tables/T1/live").get_json()["html"].count('<tr class="verdict-') == 40


def test_the_names_form(client, official_secret, table_with_hand):
    sign_in(client, official_secret)
    token = form_token(client, "/tables/T1/")
    response = client.post("/tables/T1/names", data={"csrf_token": token, "name0": "甲", "name1": "x" * 41})
    assert response.status_code == 400
    assert field_error(response.get_data(as_text=True), "name1").startswith("名字最多 40 字")
    response = client.post("/tables/T1/names", data={"csrf_token": token, "name0": "王小明", "name1": "李大華"})
    assert response.status_code == 302
    html = client.get("/tables/T1/").get_data(as_text=True)
    assert '<span class="name">王小明</span>' in html and '<span class="name">李大華</span>' in html


def test_a_form_field_holding_a_nul_is_refused_naming_it_and_nothing_is_stored(client, official_secret,
                                                                                table_with_hand, app):
    """A form's ``%00`` (U+0000) is refused as a JSON body's ``\\u0000`` is (PostgreSQL cannot store
    it: a 500 there before): a 400 page naming the field, the seats' names unchanged."""
    sign_in(client, official_secret)
    token = form_token(client, "/tables/T1/")
    response = client.post("/tables/T1/names", data={"csrf_token": token, "name0": "王\x00小明", "name1": "李大華"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "name0" in page and "NUL" in page
    assert sql_rows(app.config["DATABASE"], "SELECT COUNT(*) FROM seat_names") == [(0,)]


def test_a_replay_step_is_the_referees_state_and_verdict_there(client, official_secret, table_with_hand):
    sign_in(client, official_secret)
    html = client.get("/tables/T1/hands/1/replay?upto=40").get_data(as_text=True)
    events = hand_events(3)
    assert "seq 40：" in html and 'upto=39' in html and 'upto=41' in html
    assert 'id="step-verdict">合規' in html
    # the state at seq 40 is the API's replay up to 40
    api = client.get("/api/v1/tables/T1/hands/1/replay?upto=40", headers=bearer(official_secret)).get_json()
    pond = [seat[5][1] for seat in api["state"]["seats"]]  # ("pond", [...]) per seat
    shown = re.findall(r'<span class="discards">(.*?)</span></span>', html, re.DOTALL)
    drawn = re.compile(r'class="tile(?:-text)? tile-')  # one tile, as text or as its picture
    assert sum(len(p) for p in pond) == sum(len(drawn.findall(s)) for s in shown) > 0
    assert events[39]["type"] in html
    for bad in ("abc", "999", "-1"):
        response = client.get(f"/tables/T1/hands/1/replay?upto={bad}")
        assert response.status_code == 400 and "upto" in response.get_data(as_text=True)
    assert client.get("/tables/T1/hands/5/replay").status_code == 404


# --- report, overrule -----------------------------------------------------------------------------------


def report(client, code: str, seat: int | None, note: str = ""):
    token = form_token(client, "/tables/T1/report")
    return client.post("/tables/T1/report", data={"csrf_token": token, "code": code,
                                                  "seat": "" if seat is None else str(seat), "note": note})


@pytest.mark.parametrize("code, seat, note, field, reason", [
    ("", 1, "", "code", "請選擇報告代碼"),
    ("no_such_code", 1, "", "code", "請選擇報告代碼"),
    ("stolen_tile", 7, "", "seat", "座位須為 0–3"),
    ("stolen_tile", 1, "x" * 2001, "note", "證據說明最多 2000 字"),
])
def test_a_bad_report_is_named_at_its_field_and_stores_nothing(client, official_secret, table_with_hand, code, seat,
                                                              note, field, reason):
    sign_in(client, official_secret)
    response = report(client, code, seat, note)
    assert response.status_code == 400
    assert field_error(response.get_data(as_text=True), field).startswith(reason)
    detail = client.get("/api/v1/tables/T1", headers=bearer(official_secret)).get_json()
    assert detail["next"] == {"hand": 1, "seq": 61}


def test_a_report_is_ruled_at_once(client, official_secret, table_with_hand):
    sign_in(client, official_secret)
    response = report(client, "stolen_tile", 1, "兩家目擊")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'data-ruling="pen.61.dead_hand"' in html and "西家偷牌，判相公" in html
    stored = client.get("/api/v1/tables/T1/events?hand=1", headers=bearer(official_secret)).get_json()["events"][-1]
    assert stored["body"] == {"type": "report", "hand": 1, "seq": 61, "code": "stolen_tile",
                              "clause": "pen.dead-hand", "seat": 1, "note": "兩家目擊"}
    assert stored["actor"] is not None


def override(client, ruling: str, **fields):
    path = f"/tables/T1/hands/1/rulings/{ruling}"
    return client.post(path, data={"csrf_token": form_token(client, path), **fields})


@pytest.mark.parametrize("fields, field, reason", [
    ({"decision": "overrule"}, "reason_zh", "覆判須寫明理由"),
    ({"decision": "overrule", "reason_zh": "   "}, "reason_zh", "覆判須寫明理由"),
    ({"reason_zh": "理由"}, "decision", ""),
    ({"decision": "amend", "reason_zh": "改", "p0": "100", "p1": "0", "p2": "0", "p3": "0"}, "p0",
     "四家收付總和須為 0"),
    ({"decision": "amend", "reason_zh": "改", "p0": "1.5", "p1": "0", "p2": "0", "p3": "0"}, "p0", "須為整數"),
])
def test_a_bad_override_is_named_at_its_field_and_stores_nothing(client, official_secret, table_with_hand, fields,
                                                                field, reason):
    sign_in(client, official_secret)
    report(client, "stolen_tile", 1)
    response = override(client, "pen.61.dead_hand", **fields)
    assert response.status_code == 400
    shown = field_error(response.get_data(as_text=True), field)
    assert shown and shown.startswith(reason)
    assert client.get("/api/v1/tables/T1/overrides").get_json()["overrides"] == []


def test_overrule_amend_reinstate_from_the_form(client, official_secret, table_with_hand):
    sign_in(client, official_secret)
    report(client, "stolen_tile", 1)
    response = override(client, "pen.61.dead_hand", decision="overrule", reason_zh="未偷牌", reason="no theft")
    assert response.status_code == 302 and response.headers["Location"].endswith("?done=1")
    rulings = {r["id"]: r for r in client.get("/api/v1/tables/T1/rulings").get_json()["rulings"]}
    assert rulings["pen.61.dead_hand"]["status"] == "overruled"
    override(client, "pen.61.dead_hand", decision="amend", reason_zh="改判罰款", p0="-300", p1="100", p2="100",
             p3="100")
    rulings = {r["id"]: r for r in client.get("/api/v1/tables/T1/rulings").get_json()["rulings"]}
    assert rulings["pen.61.dead_hand"]["status"] == "amended"
    assert rulings["pen.61.dead_hand"]["effective"]["payments"] == [-300, 100, 100, 100]
    override(client, "pen.61.dead_hand", decision="reinstate", reason_zh="恢復")
    audit = client.get("/api/v1/tables/T1/overrides").get_json()["overrides"]
    assert [o["decision"] for o in audit] == ["overrule", "amend", "reinstate"]
    assert {o["by"]["label"] for o in audit} == {"王裁判"}
    page = client.get("/tables/T1/hands/1/rulings/pen.61.dead_hand").get_data(as_text=True)
    assert page.count("<li><time") == 3 and "未偷牌" in page and "改判罰款" in page


def test_a_ruling_page_prints_the_clause_and_the_words(client, official_secret, table_with_hand):
    sign_in(client, official_secret)
    report(client, "stolen_tile", 1)
    page = client.get("/tables/T1/hands/1/rulings/pen.61.dead_hand").get_data(as_text=True)
    from penalties.clauses import clauses

    heading, text = clauses()["pen.dead-hand"]
    assert f"<code>pen.dead-hand</code> {heading}" in page and text in page
    assert 'id="read-out">西家偷牌，判相公' in page and "seq 61：裁判報告" in page
    assert client.get("/tables/T1/hands/1/rulings/nope").status_code == 404


def test_only_officials_act(app, client, table_with_hand):
    pin, _ = issue_pin(app, "T1")
    client.post("/signin", data={"csrf_token": form_token(client), "how": "pin", "table": "T1", "pin": pin})
    token = form_token(client, "/tables/T1/")
    for path, data in (("/tables/T1/report", {"code": "stolen_tile"}), ("/tables/T1/names", {"name0": "x"}),
                       ("/tables/T1/hands/1/rulings/x", {"decision": "overrule", "reason_zh": "x"})):
        response = client.post(path, data={"csrf_token": token, **data})
        assert response.status_code == 403 and "限裁判" in response.get_data(as_text=True), path


def test_a_version_3_file_gets_the_pins_and_seat_names_keeping_its_tokens(tmp_path):
    """Schema 4 (issue #14 item 1): ``pins`` and ``seat_names`` added to a file of issue #12's layout."""
    from store.db import init_db
    from store.schema import migrate

    path = tmp_path / "v3.sqlite3"
    db = connect(path)
    db.enable_wal()
    migrate(db, target=3)
    with db.atomic():
        db.execute("INSERT INTO tables (id, ruleset, created_at) VALUES ('T1', 'competition', 'x')")
        _secret, token = create_token(db, role="table", table="T1")
    db.close()
    assert init_db(path) == [4]
    db = connect(path)
    try:
        with db.atomic():
            _pin, row = create_pin(db, token=token["id"])
            assert pin_store.set_seat_names(db, "T1", ["甲", "", "丙", ""]) == ["甲", "", "丙", ""]
        assert pin_store.live_pins(db, "T1")[0]["id"] == row["id"]
    finally:
        db.close()


# --- a physical table's scorer page --------------------------------------------------------------------


def physical_events(seed: int = 3) -> list[dict]:
    from referee.events import event_to_dict
    from referee.generator import generate_hand, physical_view

    events = [event_to_dict(e) for e in physical_view(generate_hand(seed, table="x"))]
    for seq, e in enumerate(events, 1):  # the wall event is gone: seqs one after another again
        e.pop("table", None)
        e["seq"] = seq
    return events


def scorer_form(event: dict) -> dict:
    """What a scorer taps for one event of the protocol."""
    form = {"type": event["type"]}
    if event["type"] == "hand_start":
        form.update(seat=str(event["dealer"]), round_wind=event["round_wind"], streak=str(event.get("streak", 0)))
    elif "seat" in event:
        form["seat"] = str(event["seat"])
    for key in ("tiles", "tile"):
        if key in event:
            value = event[key]
            form["tiles"] = value if isinstance(value, str) else " ".join(value)
    if "count" in event:
        form["count"] = str(event["count"])
    if "kind" in event:
        form["kind"] = event["kind"]
    if "dice" in event:
        form["dice"] = " ".join(str(d) for d in event["dice"])
    return form


def test_a_scorer_records_a_physical_hand_by_tapping(app, client, official_secret):
    headers = bearer(official_secret)
    create_table(client, headers, "P1", mode="physical")
    events = physical_events()
    pin, _ = issue_pin(app, "P1")
    client.post("/signin", data={"csrf_token": form_token(client), "how": "pin", "table": "P1", "pin": pin})
    token = form_token(client, "/tables/P1/score")
    for event in events:  # the whole hand, tapped: from hand_start to the win and hand_end
        response = client.post("/tables/P1/score", data={"csrf_token": token, **scorer_form(event)})
        assert response.status_code == 302, (event, response.get_data(as_text=True)[-2000:])
    stored = client.get("/api/v1/tables/P1/events?hand=1", headers=headers).get_json()["events"]
    assert [e["type"] for e in stored] == [e["type"] for e in events]
    # the same verdicts, outcome and money as the API gives the stream posted as JSON
    create_table(client, headers, "P2", mode="physical")
    api = client.post("/api/v1/tables/P2/events", json={"events": events}, headers=headers).get_json()
    assert [r["verdict"] for r in api["results"]] == [e["answer"]["verdict"] for e in stored]
    hands = {t: client.get(f"/api/v1/tables/{t}/hands", headers=headers).get_json()["hands"][0] for t in ("P1", "P2")}
    assert hands["P1"]["ended"] and hands["P1"]["payments"] == hands["P2"]["payments"] != [0, 0, 0, 0]
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert 'id="posted"' in page and f"seq {len(events)}" in page


@pytest.mark.parametrize("form, field, reason", [
    ({}, "type", "請選擇事件"),
    ({"type": "discard"}, "seat", "請選擇座位"),
    ({"type": "break_dice", "dice": "x"}, "dice", "請填骰子點數"),
    ({"type": "draw", "seat": "0", "count": "two"}, "count", "張數須為整數"),
    ({"type": "discard", "seat": "9"}, "seat", "座位須為 0–3"),
])
def test_a_scorers_form_error_is_named_at_its_field(app, client, official_secret, form, field, reason):
    create_table(client, bearer(official_secret), "P1", mode="physical")
    sign_in(client, official_secret)
    response = client.post("/tables/P1/score", data={"csrf_token": form_token(client, "/tables/P1/score"),
                                                     "type": "hand_start", "seat": "0"})
    assert response.status_code == 302
    response = client.post("/tables/P1/score", data={"csrf_token": form_token(client, "/tables/P1/score"), **form})
    assert response.status_code == 400
    assert field_error(response.get_data(as_text=True), field).startswith(reason)


def test_the_referee_names_a_bad_tile_at_the_tiles_field(client, official_secret):
    create_table(client, bearer(official_secret), "P1", mode="physical")
    sign_in(client, official_secret)
    token = form_token(client, "/tables/P1/score")
    client.post("/tables/P1/score", data={"csrf_token": token, "type": "hand_start", "seat": "0"})
    response = client.post("/tables/P1/score", data={"csrf_token": token, "type": "flower", "seat": "0",
                                                     "tiles": "9x"})
    assert response.status_code == 400 and field_error(response.get_data(as_text=True), "tiles")
    assert client.get("/api/v1/tables/P1", headers=bearer(official_secret)).get_json()["next"]["seq"] == 2


def test_a_scorer_scores_only_their_table(app, client, official_secret):
    headers = bearer(official_secret)
    create_table(client, headers, "P1", mode="physical")
    create_table(client, headers, "P2", mode="physical")
    pin, _ = issue_pin(app, "P1")
    client.post("/signin", data={"csrf_token": form_token(client), "how": "pin", "table": "P1", "pin": pin})
    assert client.get("/tables/P1/score").status_code == 200
    assert client.get("/tables/P2/score").status_code == 403


def test_pin_sign_in_pauses_after_too_many_wrong_pins(app, client, app_clock, table_with_hand):
    from web.signin import PIN_PAUSE, PIN_TRIES

    pin, _ = issue_pin(app, "T1")
    wrong = "000000" if pin != "000000" else "111111"

    def attempt(value: str):
        return client.post("/signin", data={"csrf_token": form_token(client), "how": "pin", "table": "T1",
                                            "pin": value})

    for _ in range(PIN_TRIES):
        assert field_error(attempt(wrong).get_data(as_text=True), "pin").startswith("PIN 不正確")
    refused = attempt(pin)  # even the right PIN, for now
    assert refused.status_code == 400
    assert field_error(refused.get_data(as_text=True), "pin").startswith("此桌 PIN 錯誤次數過多，請 5 分鐘後再試")
    app_clock.advance(PIN_PAUSE)
    assert attempt(pin).status_code == 302


def test_an_admin_issues_and_revokes_a_pin_in_the_browser_pages(app, client, official_secret, table_with_hand):
    admin = make_token(app.config["DATABASE"], "admin", label="管理者")
    sign_in(client, official_secret)
    assert client.get("/tables/T1/pins").status_code == 403  # officials do not issue PINs
    sign_in(client, admin)
    token = form_token(client, "/tables/T1/pins")
    response = client.post("/tables/T1/pins", data={"csrf_token": token, "label": ""})
    assert response.status_code == 400
    assert field_error(response.get_data(as_text=True), "label").startswith("請填寫持有人")
    response = client.post("/tables/T1/pins", data={"csrf_token": token, "label": "陳計分"})
    html = response.get_data(as_text=True)
    pin = re.search(r'<strong class="pin">(\d{6})</strong>', html).group(1)
    pin_id = int(re.search(r'data-pin="(\d+)"', html).group(1))
    scorer = app.test_client()
    signed = scorer.post("/signin", data={"csrf_token": form_token(scorer), "how": "pin", "table": "T1", "pin": pin})
    assert signed.status_code == 302 and scorer.get("/tables/T1/").status_code == 200
    assert client.post(f"/tables/T1/pins/{pin_id}/revoke", data={"csrf_token": token}).status_code == 302
    assert scorer.get("/tables/T1/").status_code == 302  # the revoked PIN's session ended
    assert client.post("/tables/T1/pins/999/revoke", data={"csrf_token": token}).status_code == 404


def test_a_finished_hands_outcome_is_a_ruling_page_with_the_money_by_wind(client, official_secret):
    headers = bearer(official_secret)
    create_table(client, headers, "T1")
    events = hand_events(3)
    client.post("/api/v1/tables/T1/events", json={"events": events}, headers=headers)
    sign_in(client, official_secret)
    outcome = next(r for r in client.get("/api/v1/tables/T1/rulings").get_json()["rulings"] if r["id"] == "outcome")
    page = client.get("/tables/T1/hands/1/rulings/outcome").get_data(as_text=True)
    rows = re.findall(r'<tr><th scope="row">(.)家.*?<td class="num">(-?\d+)</td><td class="num">(-?\d+)</td></tr>',
                      page, re.S)
    assert [w for w, _o, _e in rows] == ["東", "南", "西", "北"]
    east = client.get("/api/v1/tables/T1/state", headers=headers).get_json()["state"]["east"]  # the 東家's seat
    by_wind = {w: int(e) for w, _o, e in rows}
    payments = outcome["effective"]["payments"]
    assert sorted(by_wind.values()) == sorted(payments) and sum(payments) == 0 and any(payments)
    assert by_wind["東"] == payments[east]
    html = client.get("/tables/T1/").get_data(as_text=True)
    assert "結束" in html and "outcome" in html


@pytest.mark.parametrize("flowers, size", [(True, 144), (False, 136)])
@pytest.mark.parametrize("as_text", [False, True])
def test_a_wall_rows_count_is_its_own_tiles(flowers, size, as_text):
    """deal.walls, tiles.flowers: the event list's wall row says how many tiles the wall event
    gave — 136 without flowers — whether its tiles came as numbers or in the notation."""
    from referee.tiles import format_tiles, full_set
    from web.tablestate import event_row

    tiles = full_set(flowers)
    body = {"type": "wall", "tiles": format_tiles(tiles) if as_text else tiles}
    row = event_row({"seq": 2, "type": "wall", "stream": "play", "body": body, "answer": {"verdict": "accepted"},
                     "received_at": "2026-12-01T00:00:00Z"}, 0, ["A", "B", "C", "D"], False)
    assert row["tiles"] == f"{size} 張" and row["tile_list"] == []
