#!/usr/bin/env python3
"""A Shades bot that plays over drts's HTTP API with its seat token (standard library only).

    python3 examples/bots/remote_bot.py BASE_URL MATCH_ID SEAT_TOKEN

It plays the greedy bot's moves (greedy_bot.py beside it). It waits for the
match to start, reads its init message (`GET /matches/{id}/protocol?message=init`),
then, each turn its seat owes an order, reads the turn's state message
(`GET /matches/{id}/protocol`) and sends its reply as an order
(`POST /matches/{id}/orders`, body `{"order": {"data": [...]}, "source": "bot"}`).
Between turns it long-polls the event feed (`GET /matches/{id}/events?after=V&wait=30`),
which answers as soon as something happens (a turn closing, say). It prints the
outcome when the match is over and exits.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.request
from typing import Any

from greedy_bot import decide
from shades_io import Board

WAIT = 30  # seconds a long poll may wait (the server caps it)
RETRIES = 10


class Client:
    """The drts HTTP API, as one seat of one match."""

    def __init__(self, base: str, match_id: str, token: str) -> None:
        self.base, self.match, self.token = base.rstrip("/"), match_id, token

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """Sends a request with the seat's token; returns the status and the JSON answer.
        Too many requests (429: the server's rate limit) are sent again a moment later."""
        for _ in range(RETRIES):
            status, answer = self._send(method, path, body)
            if status != 429:
                break
            time.sleep(1)
        return status, answer

    def _send(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        request = urllib.request.Request(
            f"{self.base}/matches/{self.match}{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=WAIT + 10) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def get(self, path: str) -> Any:
        """Returns the JSON answer to a GET; exits with the error's message on a failure."""
        status, answer = self.call("GET", path)
        if status != 200:
            sys.exit(f"GET {path}: {status} {answer.get('message', answer)}")
        return answer

    def wait_for_news(self, version: int) -> None:
        """Returns when the match has an event after `version` (or the long poll ran out)."""
        self.get(f"/events?after={version}&wait={WAIT}&limit=1")


def play(client: Client) -> Any:
    """Plays the seat's turns until the match is over; returns the outcome."""
    summary = client.get("")
    while summary["status"] == "open":  # not started yet
        client.wait_for_news(summary["version"])
        summary = client.get("")
    board = Board(client.get("/protocol?message=init"))
    ordered = 0  # the last movement this seat ordered in
    while summary["status"] == "started":
        if board.me in summary["to_move"] and summary["movement"] > ordered:
            state = client.get("/protocol")
            order = {"order": {"data": decide(board, state)}, "source": "bot"}
            status, answer = client.call("POST", "/orders", order)
            if status not in (200, 201):  # too late for that turn (409): the next one
                print(f"order refused: {answer.get('message')}", file=sys.stderr)
            ordered = summary["movement"]
        client.wait_for_news(summary["version"])
        summary = client.get("")
    return summary["outcome"]


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    outcome = play(Client(*sys.argv[1:4]))
    print(json.dumps({"scores": outcome["scores"], "winners": outcome["winners"]}))
