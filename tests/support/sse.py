"""A small client of server-sent events (http.client only), for the tests of the public
streams (GET /matches/{id}/stream) and the pages' own (api/pages/streams.py): it reads
messages and comments off a real socket."""

from __future__ import annotations

import http.client
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Message:
    """One SSE message: its id, its data (decoded from JSON where it is JSON, else the
    text, its lines joined with newlines) and its type."""

    id: int
    data: Any
    event: str = "message"


@dataclass
class Stream:
    """An open stream: its status, headers, and what it has read so far."""

    response: http.client.HTTPResponse
    connection: http.client.HTTPConnection
    messages: list[Message] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    retry: int | None = None

    @property
    def status(self) -> int:
        return self.response.status

    def read_until(self, done: Any, seconds: float = 20) -> list[Message]:
        """Reads until `done(messages)` holds (or the stream ends); returns the messages.
        Raises TimeoutError after `seconds`."""
        give_up = time.monotonic() + seconds
        fields: dict[str, str] = {}
        while not done(self.messages):
            if time.monotonic() > give_up:
                raise TimeoutError(f"after {seconds} s: {len(self.messages)} messages")
            line = self.response.readline()
            if not line:
                return self.messages  # the server ended the stream
            text = line.decode().rstrip("\n")
            if text.startswith(":"):
                self.comments.append(text[1:].strip())
            elif text:
                name, _, value = text.partition(":")
                value = value.removeprefix(" ")
                joined = name == "data" and "data" in fields
                fields[name] = f"{fields[name]}\n{value}" if joined else value
            elif fields:
                self._take(fields)
                fields = {}
        return self.messages

    def read_to_end(self, seconds: float = 20) -> list[Message]:
        """Reads until the server ends the stream."""
        return self.read_until(lambda _: False, seconds)

    def close(self) -> None:
        self.response.close()  # the response holds the socket open as long as it is open
        self.connection.close()

    def _take(self, fields: dict[str, str]) -> None:
        if "retry" in fields:
            self.retry = int(fields["retry"])
        if "data" in fields:
            try:
                data = json.loads(fields["data"])
            except json.JSONDecodeError:
                data = fields["data"]
            event = fields.get("event", "message")
            self.messages.append(Message(int(fields["id"]), data, event))


def open_stream(
    base: str,
    match_id: str,
    after: int | None = None,
    last_event_id: int | None = None,
    timeout: float = 20,
    source: str | None = None,
    path: str = "/matches/{}/stream",
    cookie: str | None = None,
) -> Stream:
    """Opens the match's public stream (from `after`, or resuming after Last-Event-ID),
    from the loopback address `source` if given (127.0.0.2: another client); `path`: another
    stream of the match (its id in the braces), `cookie`: a page session's."""
    url = urlsplit(base)
    connection = http.client.HTTPConnection(
        url.hostname, url.port, timeout=timeout, source_address=(source, 0) if source else None
    )
    path = path.format(match_id) + ("" if after is None else f"?after={after}")
    headers = {} if last_event_id is None else {"Last-Event-ID": str(last_event_id)}
    if cookie is not None:
        headers["Cookie"] = f"drts_session={cookie}"
    connection.request("GET", path, headers={"Accept": "text/event-stream", **headers})
    return Stream(connection.getresponse(), connection)


def up_to(version: int) -> Any:
    """Returns a `done` for read_until: the messages reach `version`."""
    return lambda messages: bool(messages) and messages[-1].id >= version


EVERY_EVENT_CHANGES = re.compile(r' data-(?:version|now)="[^"]*"')


def page_parts(messages: list[Message]) -> list[tuple[int, str]]:
    """What a match page following its stream shows after each message, as live.js makes
    it: a `live` message's part, or the last part with a `patch` message's edits made
    (from the last edit), each without what every event changes (its version, the
    server's time); (version, part)."""
    shown: list[tuple[int, str]] = []
    for message in messages:
        if message.event == "live":
            shown.append((message.id, EVERY_EVENT_CHANGES.sub("", message.data)))
        elif message.event == "patch":
            pieces = [p for p in re.split(r"(?=<)|(?<=\n)", shown[-1][1]) if p]  # JS's split
            for first, removed, text in reversed(message.data["edits"]):
                pieces[first : first + removed] = [text]
            part = "".join(pieces)
            assert len(part.encode("utf-16-le")) // 2 == message.data["size"]
            shown.append((message.id, part))
    return shown
