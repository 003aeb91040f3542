"""The pages' headers and sessions over real HTTP (issue 42): the app served on a loopback
port, read with http.client (api/pages/headers.py, service/sessions.py, docs/pages.md).

- Every response under /ui carries the pages' Content-Security-Policy (no framing,
  scripts and styles from the origin only), X-Frame-Options, nosniff and the referrer
  policy; the signed-in pages are no-store as well; /docs gets the framing policy
  alone; the JSON API none of it.
- The session cookie is HttpOnly, SameSite=Strict, Secure over HTTPS (a trusted proxy's
  X-Forwarded-Proto), and its readable content holds no token: only the server-side
  session's key and the CSRF token. The table holds the key's hash and the token sealed.
  Signing out ends the session for every copy of the cookie.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
import zlib
from collections.abc import Iterator
from typing import Any

import pytest

from api.app import create_app
from api.pages.headers import DOCS_POLICY, PAGES_POLICY
from service.matches import Matches
from tests.pages.conftest import pages_app, serving
from tests.pages.games import Played, new_match, played_match
from tests.support.pages import Answer, Client


@pytest.fixture(scope="module")
def base(service: Matches) -> Iterator[str]:
    with serving(pages_app(service, long_polls=4)) as url:
        yield url


@pytest.fixture(scope="module")
def played(service: Matches) -> Played:
    return played_match(service, "district_war", 1, seed="headers")


def cookie_content(cookie: str) -> dict[str, Any]:
    """Returns what a reader of the signed cookie finds in it (no key needed): its payload,
    base64 of JSON, compressed when it starts with a dot (itsdangerous)."""
    payload = cookie.split(".")[1] if cookie.startswith(".") else cookie.split(".")[0]
    data = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    if cookie.startswith("."):
        data = zlib.decompress(data)
    content: dict[str, Any] = json.loads(data)
    return content


def assert_page_headers(answer: Answer, path: str) -> None:
    assert answer.header("Content-Security-Policy") == PAGES_POLICY, path
    assert answer.header("X-Frame-Options") == "DENY", path
    assert answer.header("X-Content-Type-Options") == "nosniff", path
    assert answer.header("Referrer-Policy") == "same-origin", path


def test_the_policy_allows_nothing_inline_nor_from_elsewhere_nor_any_framing():
    directives = dict(d.split(" ", 1) for d in PAGES_POLICY.split("; "))
    assert directives["frame-ancestors"] == "'none'"
    assert directives["default-src"] == "'none'"
    for kind in ("script-src", "style-src", "connect-src", "form-action"):
        assert directives[kind] == "'self'", kind
    assert "unsafe" not in PAGES_POLICY and "nonce" not in PAGES_POLICY


def test_every_response_under_ui_sends_the_pages_headers(base, played):
    client = Client(base)
    paths = [
        "/ui/",
        "/ui/standings",
        f"/ui/matches/{played.match_id}",
        f"/ui/matches/{played.match_id}/replay",
        "/ui/games/district_war",
        "/ui/sign-in",
        "/ui/static/pages.css",
        "/ui/static/live.js",
        "/ui/matches/00000000-0000-4000-8000-000000000000",  # the error page: 404
        "/ui/?status=nonsense",  # the error page: 422
    ]
    for path in paths:
        answer = client.get(path)
        assert answer.status in (200, 404, 422), (path, answer.status)
        assert_page_headers(answer, path)
    assert client.get("/ui/matches/00000000-0000-4000-8000-000000000000").status == 404
    assert client.get("/").status == 302  # the way in leads to /ui/: no page of its own


def test_the_signed_in_pages_are_never_stored_and_the_public_ones_may_be(base, service, played):
    client = Client(base)
    for path in ("/ui/", f"/ui/matches/{played.match_id}", "/ui/static/pages.css"):
        assert client.get(path).header("Cache-Control") != "no-store", path
    assert client.get("/ui/sign-in").header("Cache-Control") == "no-store"
    assert client.sign_in(played, played.tokens[1]).status == 303
    seat_page = client.get(f"/ui/matches/{played.match_id}/seat")
    assert seat_page.status == 200
    assert seat_page.header("Cache-Control") == "no-store"
    assert_page_headers(seat_page, "seat page")
    referee = Client(base)
    assert referee.sign_in(played, played.referee).status == 303
    desk = f"/ui/matches/{played.match_id}/referee"
    for path in (desk, f"{desk}/checks", f"{desk}/archive"):
        answer = referee.get(path)
        assert answer.status == 200, path
        assert answer.header("Cache-Control") == "no-store", path
        assert_page_headers(answer, path)
    form = {"csrf": referee.csrf(desk), "seat": "2", "reason": "lost"}
    token_file = referee.post(f"{desk}/tokens", form)
    assert token_file.status == 200 and token_file.header("Cache-Control") == "no-store"
    assert_page_headers(token_file, "the reissued token")
    played.tokens[2] = token_file.body.strip()


def test_the_api_docs_may_not_be_framed_and_the_json_api_is_left_alone(base, played):
    client = Client(base)
    docs = client.get("/docs")
    assert docs.status == 200 and "<script>" in docs.body  # its inline boot script runs
    assert docs.header("Content-Security-Policy") == DOCS_POLICY == "frame-ancestors 'none'"
    assert docs.header("X-Frame-Options") == "DENY"
    assert docs.header("X-Content-Type-Options") == "nosniff"
    assert client.get("/docs/assets/swagger-ui-bundle.js").header("X-Frame-Options") == "DENY"
    api = client.get(f"/matches/{played.match_id}")
    assert api.status == 200
    assert api.header("Content-Security-Policy") is None and api.header("X-Frame-Options") is None


def test_the_cookie_is_httponly_samesite_strict_and_secure_over_https_only(service, played):
    config = {"TESTING": True, "DRTS_TRUSTED_PROXIES": 1}
    with serving(create_app(config, matches=service)) as url:
        plain = Client(url).get("/ui/sign-in").header("Set-Cookie") or ""
        assert plain.startswith("drts_session=") and "HttpOnly" in plain
        assert "SameSite=Strict" in plain and "Secure" not in plain
        https = Client(url, extra={"X-Forwarded-Proto": "https"})
        assert "Secure" in (https.get("/ui/sign-in").header("Set-Cookie") or "")
        signed = https.sign_in(played, played.tokens[1])
        assert signed.status == 303
        cookie = signed.header("Set-Cookie") or ""
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_the_cookie_holds_no_token_and_the_table_neither_the_token_nor_the_key(
    base, service, played
):
    client = Client(base)
    assert client.sign_in(played, played.tokens[1]).status == 303
    content = cookie_content(client.cookie or "")
    assert set(content) == {"key", "csrf", "_permanent"}, content
    readable = json.dumps(content)
    token = played.tokens[1]
    assert token not in readable and hashlib.sha256(token.encode()).hexdigest() not in readable
    store = service.env["SQLITE_DBNAME"]
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT * FROM page_sessions").fetchall()
    key = content["key"]
    assert rows and all(token not in str(row) and key not in str(row) for row in rows)
    hashes = {row[0] for row in rows}
    assert hashlib.sha256(key.encode()).hexdigest() in hashes


def test_signing_out_ends_the_session_for_every_copy_of_the_cookie(base, played):
    client = Client(base)
    assert client.sign_in(played, played.referee).status == 303
    copy = Client(base, cookie=client.cookie)
    desk = f"/ui/matches/{played.match_id}/referee"
    assert copy.get(desk).status == 200
    assert client.post("/ui/sign-out", {"csrf": client.csrf(desk)}).status == 303
    later = copy.get(desk)
    assert later.status == 303 and "/ui/sign-in" in (later.header("Location") or "")


def test_a_session_opened_by_one_api_process_is_found_by_another_on_the_same_store(
    database_url, toy_rulesets
):
    """Several API processes share one database: the session is a row there, so a cookie
    signed in on one process is good on the next (given DRTS_SESSION_SECRET), and ended
    for both by signing out on either. SQLite and PostgreSQL."""
    from service.settings import Settings

    config = {"TESTING": True, "SECRET_KEY": "one key for every process"}
    stores = [Matches(env=Settings(database_url).event_store_env()) for _ in range(2)]
    try:
        played = new_match(stores[0], "district_war", "two processes")
        with (
            serving(create_app(config, matches=stores[0])) as one,
            serving(create_app(config, matches=stores[1])) as two,
        ):
            first = Client(one)
            assert first.sign_in(played, played.tokens[1]).status == 303
            second = Client(two, cookie=first.cookie)
            seat = f"/ui/matches/{played.match_id}/seat"
            assert second.get(seat).status == 200
            assert second.post("/ui/sign-out", {"csrf": second.csrf(seat)}).status == 303
            assert first.get(seat).status == 303
    finally:
        for store in stores:
            store.close()
