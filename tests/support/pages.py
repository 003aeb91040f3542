"""Signing in to the pages with a match token: through a Flask test client, a real
browser, or `Client`, a browser's bare minimum over real HTTP (http.client)."""

from __future__ import annotations

import http.client
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

from tests.pages.games import Played

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def sign_in(client: Any, played: Played, token: str, **kwargs: Any) -> Any:
    form = {"csrf": csrf_of(client), "match": str(played.match_id), "token": token}
    return client.post("/ui/sign-in", data=form, **kwargs)


def csrf_of(client: Any, path: str = "/ui/sign-in") -> str:
    found = CSRF.search(client.get(path).get_data(as_text=True))
    assert found, f"no CSRF token in {path}"
    return found.group(1)


def sign_in_browser(page: Any, base_url: str, played: Played, token: str) -> None:
    """Signs a Playwright page in as a seat through the sign-in form (`played.match_id`)."""
    page.goto(f"{base_url}/ui/sign-in")
    page.fill("input[name=match]", str(played.match_id))
    page.fill("input[name=token]", token)
    page.click("form.signin button[type=submit]")


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: str

    def header(self, name: str) -> str | None:
        return self.headers.get(name)


@dataclass
class Client:
    """A browser's bare minimum over real HTTP: one cookie jar (the session cookie)."""

    base: str
    cookie: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    def send(self, method: str, path: str, form: dict[str, str] | None = None) -> Answer:
        where = urlsplit(self.base)
        conn = http.client.HTTPConnection(where.hostname, where.port, timeout=10)
        headers = dict(self.extra)
        if self.cookie:
            headers["Cookie"] = f"drts_session={self.cookie}"
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            raw = conn.getresponse()
            answer = Answer(raw.status, raw.headers, raw.read().decode("utf-8", "replace"))
        finally:
            conn.close()
        for set_cookie in answer.headers.get_all("Set-Cookie") or []:
            name, _, rest = set_cookie.partition("=")
            if name == "drts_session":
                self.cookie = rest.split(";", 1)[0] or None
        return answer

    def get(self, path: str) -> Answer:
        return self.send("GET", path)

    def post(self, path: str, form: dict[str, str]) -> Answer:
        return self.send("POST", path, form)

    def csrf(self, path: str = "/ui/sign-in") -> str:
        found = CSRF.search(self.get(path).body)
        assert found, f"no CSRF token in {path}"
        return found.group(1)

    def sign_in(self, played: Played, token: str) -> Answer:
        form = {"csrf": self.csrf(), "match": str(played.match_id), "token": token}
        return self.post("/ui/sign-in", form)
