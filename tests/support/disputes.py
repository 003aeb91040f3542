"""Disputes filed and ruled over HTTP."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import HttpMatch, bearer

TEXT = "bob's order was received after the deadline"


def file(client, table: HttpMatch, token: str | None, cites: Any, text: str = TEXT):
    return client.post(
        f"/matches/{table.id}/disputes", json={"cites": cites, "text": text}, headers=bearer(token)
    )


def rule(client, table: HttpMatch, token: str | None, number: int, ruling: str, reason: str):
    return client.post(
        f"/matches/{table.id}/disputes/{number}/ruling",
        json={"ruling": ruling, "reason": reason},
        headers=bearer(token),
    )
