"""Signing in to the pages with a match token."""

from __future__ import annotations

import re
from typing import Any

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
