"""What every request passes through, made cheaper without changing what it does (issue
46): the pages' session interface opens a request with no session cookie without building
the cookie's signer, and the app asks `inspect` once a function whether it is a coroutine
function (api/app.py `DrtsFlask`)."""

from __future__ import annotations

import flask.app
import pytest
from flask import session

from api.app import DrtsFlask
from api.pages.session import PageSessionInterface


def page_app(secret: str | None = "s3cret") -> DrtsFlask:
    app = DrtsFlask("overhead")
    app.secret_key, app.testing = secret, True
    app.session_interface = PageSessionInterface()

    @app.post("/remember/<word>")
    def remember(word: str) -> dict[str, str]:
        session["word"] = word
        return {"remembered": word}

    @app.get("/recall")
    def recall() -> dict[str, str | None]:
        return {"word": session.get("word")}

    return app


def test_a_request_without_a_cookie_gets_an_empty_session_without_a_signer(monkeypatch):
    app = page_app()
    built = []
    original = PageSessionInterface.get_signing_serializer
    monkeypatch.setattr(
        PageSessionInterface,
        "get_signing_serializer",
        lambda self, a: built.append(1) or original(self, a),
    )
    client = app.test_client()
    assert client.get("/recall").get_json() == {"word": None}
    assert built == []  # nothing to verify, nothing written: no signer
    assert client.post("/remember/rook").status_code == 200  # writing the cookie signs it
    assert client.get("/recall").get_json() == {"word": "rook"}  # reading it verifies it
    assert len(built) == 2


def test_a_cookie_that_does_not_verify_still_opens_an_empty_session():
    client = page_app().test_client()
    client.set_cookie("session", "forged.value.here")
    assert client.get("/recall").get_json() == {"word": None}


def test_without_a_secret_key_the_session_is_flasks_null_session_as_before():
    client = page_app(secret=None).test_client()
    assert client.get("/recall").get_json() == {"word": None}
    with pytest.raises(RuntimeError, match="secret key"):
        client.post("/remember/rook")


def test_a_function_is_asked_about_once_and_a_coroutine_function_still_goes_to_async(
    monkeypatch,
):
    app, asked, converted = page_app(), [], []
    real = flask.app.iscoroutinefunction
    monkeypatch.setattr(flask.app, "iscoroutinefunction", lambda f: asked.append(f) or real(f))
    monkeypatch.setattr(app, "async_to_sync", lambda f: converted.append(f) or "sync form")

    def plain() -> None: ...

    async def coroutine() -> None: ...

    assert [app.ensure_sync(plain) for _ in range(3)] == [plain] * 3
    assert asked == [plain]
    assert app.ensure_sync(coroutine) == app.ensure_sync(coroutine) == "sync form"
    assert converted == [coroutine, coroutine]
    client = app.test_client()
    for _ in range(3):
        client.get("/recall")
    assert asked.count(app.view_functions["recall"]) == 1
