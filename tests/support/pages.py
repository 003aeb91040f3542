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
