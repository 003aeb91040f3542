"""The fuzz's checked client: every request goes through `CheckedClient.call`, which
asserts what every answer must be whatever was asked, and what no viewer may see.

- No 5xx; a success is a 2xx, anything else the one error shape (DESIGN.md, API):
  exactly `code`, `status` (the HTTP status, a 4xx), `message` and `details`.
- Sealed orders stay sealed (DESIGN.md, Replay and audit): while its movement is open,
  the salt of an order (accepted or refused) appears in no answer to anyone but its
  seat and the referee (or operator). The salt is random and in the sealed part only,
  so its absence shows that the sealed part was not shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient

ERROR_KEYS = {"code", "status", "message", "details"}
NO_BODY = object()


@dataclass(frozen=True)
class Sealed:
    """An order (accepted or refused) of an open movement: its seat, movement, version
    and salt, which only its seat and the referee may see before the movement closes."""

    seat: int
    movement: int
    version: int
    salt: str


@dataclass(frozen=True)
class Answer:
    """One answer: its status, its JSON body (None for text) and its text."""

    status: int
    body: Any
    text: str

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


class FuzzFailure(AssertionError):
    """An answer broke an invariant of every answer."""


class CheckedClient:
    """Calls the app through Flask's test client and checks each answer.

    `viewer(token)` says who a token is: "referee" (the referee or the operator), a seat
    number, or None (the public, a wrong or revoked token); `sealed()` lists what is
    sealed now."""

    def __init__(
        self,
        client: FlaskClient,
        viewer: Callable[[str | None], int | str | None],
        sealed: Callable[[], Iterable[Sealed]],
    ) -> None:
        self.client, self.viewer, self.sealed = client, viewer, sealed
        self.requests = 0

    def call(
        self,
        method: str,
        path: str,
        token: str | None = None,
        body: Any = NO_BODY,
        query: dict[str, Any] | None = None,
    ) -> Answer:
        """Sends one request; returns its answer once it passed the checks."""
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        extra = {} if body is NO_BODY else {"json": body}
        response = self.client.open(
            path, method=method, headers=headers, query_string=query, **extra
        )
        self.requests += 1
        text = response.get_data(as_text=True)
        where = f"{method} {path} {query or ''} {'' if body is NO_BODY else repr(body)[:300]}"
        if response.status_code >= 500:
            raise FuzzFailure(f"{where}: {response.status_code} {text[:2000]}")
        parsed = response.get_json(silent=True) if response.is_json else None
        if response.status_code >= 300:
            check_error_shape(where, response.status_code, parsed, text)
        self.check_sealed(where, token, text)
        return Answer(response.status_code, parsed, text)

    def check_sealed(self, where: str, token: str | None, text: str) -> None:
        """Fails when the answer shows a sealed order to a viewer who may not see it."""
        viewer = self.viewer(token)
        if viewer == "referee":
            return
        for sealed in self.sealed():
            if sealed.seat != viewer and sealed.salt in text:
                raise FuzzFailure(
                    f"{where}: the answer to {viewer or 'the public'} shows seat "
                    f"{sealed.seat}'s sealed order of open movement {sealed.movement} "
                    f"(version {sealed.version})"
                )


def check_error_shape(where: str, status: int, body: Any, text: str) -> None:
    """Fails unless an error answer is a 4xx in the one error shape."""
    if not 400 <= status < 500:
        raise FuzzFailure(f"{where}: status {status} is neither a success nor a 4xx")
    if not isinstance(body, dict) or set(body) != ERROR_KEYS:
        raise FuzzFailure(f"{where}: {status} not in the error shape: {text[:500]}")
    if body["status"] != status or not isinstance(body["code"], str) or not body["message"]:
        raise FuzzFailure(f"{where}: {status} with a wrong error body: {text[:500]}")
    if not isinstance(body["details"], dict):
        raise FuzzFailure(f"{where}: {status} whose details are not an object: {text[:500]}")
