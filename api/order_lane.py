"""The order lane: POST /matches/{id}/orders answered without Flask's request machinery
(issue 46: the hot path of intake).

Through Flask, an order's HTTP handling (the request and app contexts, routing, the
hooks, webargs) cost about 0.35 ms of CPU, a quarter of the order's 1.3 ms. The lane is
a WSGI middleware in front of the Flask app. It takes only a request it can answer
exactly as the route in api/orders.py would:

- `POST /matches/<uuid>/orders`, no query string;
- `Content-Type: application/json`, a `Content-Length` within MAX_CONTENT_LENGTH and no
  `Transfer-Encoding` (a chunked body ends where the server says);
- `Authorization: Bearer <token>`;
- a body that StrictJSONParser reads and OrderRequestSchema loads.

Anything else goes to Flask unchanged, its body put back as it came: Flask then gives
its own answer (400, 401, 413, 422, ...). Nothing is counted or recorded before that
choice, so a request goes through the rate limits and the store once either way.

What the lane takes goes through what Flask would have done for it, in the same order:
the received instant first (the `admit` hook, issue 13), the rate limits of the address
and the token, the service call, and the answer: the receipt (`receipt_answer`), or the
error by the one error table (api/errors.py), a 500 for an unmapped exception. No
`after_request` hook changes an API answer (the pages' headers are for /ui and /docs),
and a request with a bearer token opens no page session.

tests/api/test_order_route.py holds the lane's answers equal, byte for byte, to the
Flask route's for accepted, refused, late and invalid orders. The route stays in Flask:
it is the one the OpenAPI document describes, and it answers what the lane passes on.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, cast
from uuid import UUID

from flask import Flask, Response

from api.context import CAPACITY, EXTENSION, strict_json
from api.errors import internal_error, mapped_error
from api.orders import ORDER_REQUEST, receipt_answer

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

# the route's path, its uuid as werkzeug's UUIDConverter matches it
ORDER_PATH = re.compile(
    r"/matches/([A-Fa-f0-9]{8}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{12})"
    r"/orders"
)


class OrderLane:
    """The WSGI app that answers the orders it can take (module docstring) and passes
    every other request to `flask_wsgi`, the Flask app's own WSGI callable."""

    def __init__(self, app: Flask, flask_wsgi: WsgiApp) -> None:
        self.app, self.flask_wsgi = app, flask_wsgi

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        match_id = order_route(environ)
        token = bearer(environ) if match_id else None
        if match_id is None or token is None:
            return self.flask_wsgi(environ, start_response)
        arrived = self.app.extensions[EXTENSION].clock()  # the `admit` hook's first step
        body = self._body(environ)
        if body is None:
            return self.flask_wsgi(environ, start_response)
        return self._take(match_id, token, body, arrived, environ)(environ, start_response)

    def _body(self, environ: dict[str, Any]) -> dict[str, Any] | None:
        """Returns the body as OrderRequestSchema loads it, or None (the body is put back
        for Flask) for a body the lane leaves to Flask."""
        if media_type(environ) != "application/json":
            return None
        if environ.get("HTTP_TRANSFER_ENCODING"):
            return None  # chunked: the server ends the body, whatever Content-Length says
        length = environ.get("CONTENT_LENGTH", "")
        if not (length.isascii() and length.isdigit()):
            return None  # none or not a number: Flask's to judge
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        if limit is not None and int(length) > limit:
            return None  # Flask answers 413 without reading it
        raw = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(raw)  # read again by Flask if passed on
        if len(raw) != int(length):
            return None  # the client went away: Flask's 400
        try:
            loaded: dict[str, Any] = ORDER_REQUEST.load(strict_json(raw.decode("utf-8")))
        except Exception:  # any fault of the body: Flask's parse names it
            return None
        return loaded

    def _take(
        self,
        match_id: UUID,
        token: str,
        body: dict[str, Any],
        arrived: datetime,
        environ: dict[str, Any],
    ) -> Response:
        """Admits the request and sends the order; returns the answer: the receipt, or
        the error."""
        try:
            self.app.extensions[CAPACITY].admit(environ.get("REMOTE_ADDR"), token)
            receipt = self.app.extensions[EXTENSION].submit_order(
                match_id,
                token,
                body["order"],
                source=body["source"],
                movement=body["movement"],
                received_at=arrived,
            )
        except Exception as error:  # the error handlers' part, as Flask calls them
            return self._error(error)
        return receipt_answer(self.app, receipt)

    def _error(self, error: Exception) -> Response:
        """Returns the JSON error for an exception: by the error table, else a 500 that
        is logged (api/errors.py, `handle_domain_error` and `handle_unexpected`)."""
        mapped = mapped_error(error)
        if mapped is None:
            self.app.logger.exception("unhandled error", exc_info=error)
            mapped = internal_error(), 500, {}
        payload, status, headers = mapped
        answer = cast(Response, self.app.json.response(payload))  # Flask's class
        answer.status_code = status
        answer.headers.update(headers)
        return answer


def order_route(environ: dict[str, Any]) -> UUID | None:
    """Returns the match id of a POST to a match's orders without a query string, else
    None."""
    if environ.get("REQUEST_METHOD") != "POST" or environ.get("QUERY_STRING"):
        return None
    found = ORDER_PATH.fullmatch(environ.get("PATH_INFO", ""))
    return UUID(found.group(1)) if found else None


def bearer(environ: dict[str, Any]) -> str | None:
    """Returns the token of `Authorization: Bearer <token>` as api/context.py's
    `bearer_token` reads it, or None for no such header."""
    header = environ.get("HTTP_AUTHORIZATION", "").strip()
    scheme, _, token = header.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def media_type(environ: dict[str, Any]) -> str:
    """Returns the request's media type, lower case, without its parameters."""
    return str(environ.get("CONTENT_TYPE", "")).partition(";")[0].strip().lower()


def serve_orders_in_lane(app: Flask) -> None:
    """Puts the order lane in front of the app's request handling (before a ProxyFix is
    put around it, which then fixes the address the lane's rate limit counts)."""
    app.wsgi_app = OrderLane(app, app.wsgi_app)  # type: ignore[method-assign]
