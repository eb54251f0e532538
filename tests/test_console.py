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
from tests.servicekit import bearer, create_table, hand_events, make_token
from web.signin import create_pin, pin_digest
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
    m = re.search(rf'<p class="field-error" id="{field}-error"[^>]*>(.*?)</p>', html, re.S)
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
    for href in ('href="/hall"', 'href="/t/"', 'href="/signin"', 'href="/docs"'):
        assert href in html
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


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
    assert 'id="token" name="token" type="password" autocomplete="off" spellcheck="false" placeholder="mjref_…" aria-invalid="true"' in html
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
    page = client.get("/signin").get_data(as_text=True)
    assert "王裁判" not in page


def test_revoking_the_token_ends_the_session_at_once(app, client, official_secret, table_with_hand):
    sign_in(client, official_secret)
    assert client.get("/hall").status_code == 200
    token_id = json.loads(app.test_cli_runner().invoke(args=["tokens", "list"]).stdout)["tokens"][0]["id"]
    assert app.test_cli_runner().invoke(args=["tokens", "revoke", str(token_id)]).exit_code == 0
    assert client.get("/hall").status_code == 302


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


def test_the_secret_key_is_kept_next_to_the_database(app, tmp_path):
    from app import create_app

    again = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"]})
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"] and len(app.config["SECRET_KEY"]) >= 48
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
