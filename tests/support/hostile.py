"""A battery of hostile requests, as an attacker would send them: every body field, query
argument, path part and header of the API given values it does not expect, and bodies that
are barely JSON. `battery(...)` lists them for a set of live matches; `send` sends one raw
(bytes as given) and returns the status, the body and whether it is in the one error shape.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

Body = bytes | None

# JSON values no field expects (written as JSON text, so that escapes reach the server as is)
VALUES = [
    "null",
    "true",
    "false",
    "0",
    "-1",
    "1.5",
    "2.0",
    '"1"',
    '""',
    '" "',
    '"a\\u0000b"',
    '"\\ud800"',
    '"\\udfff\\ud800"',
    '"\\u202eevil"',
    '"\\u0661"',  # ARABIC-INDIC DIGIT ONE
    '"\\u00b2"',  # SUPERSCRIPT TWO
    "2147483647",
    "2147483648",
    "9223372036854775808",
    "1" + "0" * 30,
    "-1" + "0" * 30,
    "1" + "0" * 5000,
    "1e308",
    "1e400",
    "-0.0",
    "[]",
    "{}",
    '{"$ne": 1}',
    "[" * 40 + "]" * 40,
    '{"a":' * 40 + "1" + "}" * 40,
    "[" * 1000 + "]" * 1000,
    '"' + "x" * 5000 + '"',
    '"../../../etc/passwd"',
    '"\' OR 1=1 --"',
    '"<script>alert(1)</script>"',
    '"%00"',
    '"\\n\\r\\t"',
]

# bodies that are barely JSON, or not
RAW_BODIES: list[bytes] = [
    b"",
    b"null",
    b"[]",
    b"{",
    b"}",
    b'{"a": NaN}',
    b'{"a": Infinity}',
    b'{"a": 1e400}',
    b"\xef\xbb\xbf{}",  # a UTF-8 byte order mark
    b'{"a": "\xff"}',  # not UTF-8
    b'{"a": "\xed\xa0\x80"}',  # a surrogate written as UTF-8 bytes
    b'{"a": 1, "a": 2}',
    b"[" * 100_000,
    b'{"a": "' + b"x" * 70_000 + b'"}',  # over the 64 KiB body limit
    ("[" * 1000 + "]" * 1000).encode(),
    b'{"a": ' + b"1" * 5000 + b"}",
]

# query values no argument expects (already percent-encoded where needed)
QUERY_VALUES = [
    "",
    "-1",
    "0",
    "1.5",
    "1e9",
    "nan",
    "inf",
    "%00",
    "%D9%A1",
    "%C2%B2",
    "99999999999999999999",
    "0x10",
    "%2B1",
    "%201",
    "1_0",
    "a" * 3000,
    "%ED%A0%80",  # a surrogate's UTF-8 bytes
    "%FF",
]

PATH_IDS = ["not-a-uuid", "00000000-0000-0000-0000-000000000000", "%00", "x" * 3000, "..%2F.."]
AUTHORIZATIONS = ["Bearer", "Bearer ", "Basic abc", "bearer " + "x" * 5000, "Bearer \u00ff"]


@dataclass(frozen=True)
class Request:
    """One request of the battery."""

    method: str
    path: str
    body: Body = None
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Target:
    """A live match the battery aims at: its id, referee token, a seat token."""

    match_id: str
    referee: str
    seat: str


BODIES: dict[str, tuple[str, dict[str, str], str]] = {
    # path (of a match), a valid body, whose token
    "create": ("/matches", {"ruleset": '"district_war"', "config": "{}", "seats": "2"}, ""),
    "start": ("/matches/{id}/start", {"state": "null", "movement": "1"}, "referee"),
    "deadline": ("/matches/{id}/deadline", {"seconds": "60", "movement": "1"}, "referee"),
    "join": ("/matches/{id}/seats", {"name": '"zed"'}, ""),
    "order": ("/matches/{id}/orders", {"order": '"hold"', "movement": "1"}, "seat"),
    "forum user": ("/matches/{id}/forum-users", {"user": '"alice"', "seat": "1"}, "referee"),
    # without the operator token: refused, but after its body is read
    "forum post": (
        "/matches/{id}/posts",
        {
            "author": '"alice"',
            "post_id": '"p-1"',
            "time": '"2030-01-01T00:00:00Z"',
            "body": '"hold"',
        },
        "",
    ),
}
QUERIES = {
    "/matches": ("ruleset", "status", "limit", "cursor"),
    "/matches/{id}/posts/outgoing": ("after",),
    "/standings": ("ruleset", "limit", "cursor"),
    "/matches/{id}/state": ("movement", "step", "seat"),
    "/matches/{id}/scores": ("movement",),
    "/matches/{id}/events": ("after", "limit", "wait"),
}
READS = ["", "/state", "/scores", "/events", "/replay", "/verify", "/orders", "/seed"]


def battery(targets: list[Target]) -> Iterator[Request]:
    """Yields the hostile requests against the given matches."""
    for target in targets:
        yield from _bodies(target)
        yield from _queries(target)
        yield from _paths_and_headers(target)


def config_probes(fields: dict[str, list[str]]) -> Iterator[tuple[str, bytes]]:
    """Yields (ruleset, create body) with each config field of each game given each value."""
    for ruleset, names in fields.items():
        for name in names:
            for value in VALUES:
                body = f'{{"ruleset": "{ruleset}", "config": {{"{name}": {value}}}}}'
                yield ruleset, body.encode("utf-8", "surrogatepass")


def start_bodies() -> Iterator[bytes]:
    """Yields start bodies with each value as the starting state, then as the movement."""
    for value in VALUES:
        yield f'{{"state": {value}}}'.encode("utf-8", "surrogatepass")
    for value in VALUES:
        yield f'{{"movement": {value}}}'.encode("utf-8", "surrogatepass")


def _bodies(target: Target) -> Iterator[Request]:
    for path, fields, holder in BODIES.values():
        url = path.format(id=target.match_id)
        auth = _bearer(getattr(target, holder) if holder else None)
        for field in fields:
            for value in VALUES:
                body = (
                    "{"
                    + ", ".join(
                        f'"{name}": {value if name == field else text}'
                        for name, text in fields.items()
                    )
                    + "}"
                )
                yield Request("POST", url, body.encode("utf-8", "surrogatepass"), auth)
        yield Request("POST", url, b'{"unknown": 1}', auth)
        for raw in RAW_BODIES:
            yield Request("POST", url, raw, auth)
        yield Request("POST", url, b"{}", (*auth, ("Content-Type", "text/plain")))


def _queries(target: Target) -> Iterator[Request]:
    for path, names in QUERIES.items():
        url = path.format(id=target.match_id)
        for name in names:
            for value in QUERY_VALUES:
                yield Request("GET", f"{url}?{name}={value}", None, _bearer(target.referee))
        yield Request("GET", f"{url}?{names[0]}=1&{names[0]}=x")


def _paths_and_headers(target: Target) -> Iterator[Request]:
    for bad in PATH_IDS:
        for read in READS:
            yield Request("GET", f"/matches/{bad}{read}")
    for seat in ("0", "-1", "99999999999999999999999", "x", "%00"):
        yield Request(
            "POST", f"/matches/{target.match_id}/seats/{seat}/token", None, _bearer(target.referee)
        )
    for read in READS:
        for authorization in AUTHORIZATIONS:
            yield Request(
                "GET",
                f"/matches/{target.match_id}{read}",
                None,
                (("Authorization", authorization),),
            )
    for key in ("x" * 300, "\u00ff" * 10, " "):
        yield Request(
            "POST", "/matches", b'{"ruleset": "district_war"}', (("Idempotency-Key", key),)
        )
    for method in ("PUT", "DELETE", "PATCH", "TRACE"):
        yield Request(method, f"/matches/{target.match_id}")
    yield Request("GET", "/rulesets/" + quote("\u0000\u202e", safe="%"))
    yield Request("GET", "/rulesets/" + "x" * 5000)


def _bearer(token: str | None) -> tuple[tuple[str, str], ...]:
    return (("Authorization", f"Bearer {token}"),) if token else ()


def send(base: str, request: Request) -> tuple[int, Any]:
    """Sends one request as given (body bytes untouched); returns the status and the body
    (decoded JSON, or the text when it is not JSON)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    try:
        headers = {"Content-Type": "application/json", **dict(request.headers)}
        if request.body is None:
            headers.pop("Content-Type")
        connection.putrequest(request.method, request.path, skip_accept_encoding=True)
        for name, value in headers.items():
            connection.putheader(name, value.encode("latin-1"))
        connection.putheader("Content-Length", str(len(request.body or b"")))
        connection.endheaders(request.body)
        response = connection.getresponse()
        raw = response.read()
    finally:
        connection.close()
    try:
        return response.status, json.loads(raw)
    except ValueError:
        return response.status, raw.decode("utf-8", "replace")[:200]
