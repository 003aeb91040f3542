"""The Flask app factory: flask-smorest Api, one blueprint per resource, one error shape.

One process holds ONE Matches application (its connection pool is not to be
shared across a fork): `create_app` makes it from the settings, or takes one
given by a test. The interactive docs page (/docs) is flask-smorest's Swagger
UI page; its scripts come from the `flask-swagger-ui` package (Swagger UI 5,
which reads OpenAPI 3.1) and are served by the app itself, so the page works
offline.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import flask_swagger_ui
from flask import Blueprint, Flask, g, request
from flask_smorest import Api
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from api import (
    actions,
    audit,
    corrections,
    disputes,
    errors,
    events,
    forum,
    health,
    legal,
    movements,
    orders,
    players,
    protocol,
    referee_address,
    rulesets,
    scoreboard,
    seats,
    standings,
    state,
    stream,
    tournaments,
)
from api import matches as matches_resource
from api.capacity import Capacity
from api.context import CAPACITY, EXTENSION, capacity, matches
from api.order_lane import serve_orders_in_lane
from api.pages import referee, seat, signin, streams, tournament_seat
from api.pages import tournaments as tournament_pages
from api.pages.headers import protect_pages
from api.pages.session import COOKIE_NAME, PageSessionInterface, session_token
from api.pages.views import blueprint as pages
from api.pages.views import error_page, is_page_path
from api.strictness import refuse_unknown_parameters
from service.matches import Matches, connect
from service.settings import DEFAULT_MAX_BODY_BYTES, Settings, load_settings

SWAGGER_UI_ASSETS = Path(flask_swagger_ui.__file__).parent / "dist"
BLUEPRINTS = (
    rulesets.blp,
    matches_resource.blp,
    seats.blp,
    referee_address.blp,
    orders.blp,
    legal.blp,
    actions.blp,
    corrections.blp,
    disputes.blp,
    forum.blp,
    state.blp,
    events.blp,
    stream.blp,
    audit.blp,
    movements.blp,
    standings.blp,
    scoreboard.blp,
    players.blp,
    players.ratings_blp,
    tournaments.blp,
    protocol.blp,
    health.blp,
)


class DrtsApi(Api):
    """flask-smorest's Api with DESIGN.md's error shape, keeping werkzeug's headers (Allow);
    under /ui/ the pages' error page instead (api/pages/views.py)."""

    ERROR_SCHEMA = errors.ErrorSchema

    def handle_http_exception(self, error: HTTPException) -> Any:
        if is_page_path(request.path):  # a URL under /ui/ no page matched: the error page
            return error_page(error)
        payload, status = errors.http_error_payload(error)
        data = getattr(error, "data", None) or {}
        extra = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
        return payload, status, {**extra, **(data.get("headers") or {})}


class DrtsFlask(Flask):
    """Flask, remembering which functions it may call as they are (issue 46): Flask asks
    `inspect` whether a view or hook is a coroutine function about sixteen times a
    request, and the answer for a function never changes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync_functions: dict[Any, bool] = {}  # by function (a method's own function)

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """Returns `func` as Flask's `ensure_sync` does, asking `inspect` once a function."""
        key = getattr(func, "__func__", func)  # a MethodView's bound method is new each time
        sync = self._sync_functions.get(key)
        if sync is None:
            if len(self._sync_functions) >= 1_024:  # a closure made per request: stay bounded
                self._sync_functions.clear()
            called = super().ensure_sync(func)
            self._sync_functions[key] = called is func
            return called
        return func if sync else super().ensure_sync(func)


def create_app(config: Mapping[str, Any] | None = None, matches: Matches | None = None) -> Flask:
    """Returns the drts Flask app; `config` overrides Flask and drts settings.

    drts settings: DRTS_DATABASE_URL, DRTS_OPERATOR_TOKEN, MAX_CONTENT_LENGTH (the body
    cap, DRTS_MAX_BODY_BYTES), and the shared capacity of the process (api/capacity.py):
    DRTS_LONG_POLL_MAX_SECONDS, DRTS_MAX_LONG_POLLS, DRTS_MAX_STREAMS,
    DRTS_MAX_STREAMS_PER_ADDRESS, DRTS_STREAM_HEARTBEAT_SECONDS, DRTS_STREAM_MAX_SECONDS,
    DRTS_RATE_LIMIT_PER_ADDRESS,
    DRTS_RATE_LIMIT_PER_TOKEN, DRTS_TRUSTED_PROXIES; the pages' session cookie
    (`session_config`: DRTS_SESSION_SECRET, DRTS_SESSION_HOURS). Without `matches`, the app connects
    its own Matches application to DRTS_DATABASE_URL.
    """
    settings = load_settings()
    app = DrtsFlask("drts")
    apply_settings(app, settings, config or {})
    serve_orders_in_lane(app)  # first: a ProxyFix of guard_requests goes around it
    guard_requests(app)
    attach_store(app, settings, matches)
    register_api(app)
    serve_docs_assets(app)
    register_pages(app)
    return app


def apply_settings(app: Flask, settings: Settings, config: Mapping[str, Any]) -> None:
    """Sets the app's Flask, OpenAPI and drts settings from `settings`, then `config`'s on top."""
    app.config.update(
        API_TITLE="drts",
        API_VERSION="v1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL="docs/assets/",  # relative: works under a path prefix too
        API_SPEC_OPTIONS={
            "components": {
                "securitySchemes": {
                    "bearerAuth": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "a referee token (from create), a seat token (from join), "
                        "or the operator token",
                    }
                }
            }
        },
        MAX_CONTENT_LENGTH=settings.max_body_bytes or DEFAULT_MAX_BODY_BYTES,
        DRTS_DATABASE_URL=settings.database_url,
        DRTS_OPERATOR_TOKEN=settings.operator_token,
        DRTS_LONG_POLL_MAX_SECONDS=settings.long_poll_max_seconds,
        DRTS_MAX_LONG_POLLS=settings.max_long_polls,
        DRTS_MAX_STREAMS=settings.max_streams,
        DRTS_MAX_STREAMS_PER_ADDRESS=settings.max_streams_per_address,
        DRTS_STREAM_HEARTBEAT_SECONDS=settings.stream_heartbeat_seconds,
        DRTS_STREAM_MAX_SECONDS=settings.stream_max_seconds,
        DRTS_RATE_LIMIT_PER_ADDRESS=settings.rate_limit_per_address,
        DRTS_RATE_LIMIT_PER_TOKEN=settings.rate_limit_per_token,
        DRTS_TRUSTED_PROXIES=settings.trusted_proxies,
        DRTS_FOLLOW_LOG=settings.follow_log,
        **session_config(settings),
    )
    app.config.update(config)


def guard_requests(app: Flask) -> None:
    """Puts what every request passes through before any view: the pages' session, their
    headers, the capacity limits and the refusal of undeclared query parameters."""
    app.session_interface = PageSessionInterface()
    protect_pages(app)  # CSP, no framing, nosniff, no-store: /ui and /docs (api/pages/headers.py)
    limit_capacity(app)
    refuse_unknown_parameters(app)


def attach_store(app: Flask, settings: Settings, matches: Matches | None) -> None:
    """Gives the app its one Matches application: `matches`, or one connected to the app's
    DRTS_DATABASE_URL, its read models following the log unless the workers do
    (DRTS_FOLLOW_LOG=worker: this process then applies events only when a read of a read
    model catches it up); and the settings /health reports."""
    if matches is None:
        connected = replace(
            settings,
            database_url=app.config["DRTS_DATABASE_URL"],
            operator_token=app.config["DRTS_OPERATOR_TOKEN"],
            follow_log=app.config["DRTS_FOLLOW_LOG"],
        )
        matches = connect(connected)
        if connected.log_follower == "api":
            matches.read_models.start()  # live on PostgreSQL, a timer on SQLite
    app.extensions[EXTENSION] = matches
    app.extensions[health.SETTINGS] = replace(
        settings, database_url=app.config["DRTS_DATABASE_URL"]
    )


def register_api(app: Flask) -> None:
    """Registers the API: flask-smorest's Api (the OpenAPI document), the one error table's
    handlers, then every resource's blueprint."""
    api = DrtsApi(app)
    errors.register_error_handlers(app)
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)


def serve_docs_assets(app: Flask) -> None:
    """Serves the Swagger UI scripts of the /docs page from the app itself (works offline)."""
    app.register_blueprint(
        Blueprint(
            "swagger_ui_assets",
            __name__,
            static_folder=SWAGGER_UI_ASSETS,
            static_url_path="/docs/assets",
        )
    )


def register_pages(app: Flask) -> None:
    """Registers the web pages under /ui/ (docs/pages.md): not API operations."""
    app.register_blueprint(pages)
    app.register_blueprint(tournament_pages.blueprint)  # issue 45: tournaments and players
    app.register_blueprint(streams.blueprint)  # issue 47: the pages' own streams
    for signed_in_pages in (
        signin.blueprint,
        seat.blueprint,
        referee.blueprint,
        tournament_seat.blueprint,
    ):
        app.register_blueprint(signed_in_pages)


def session_config(settings: Settings) -> dict[str, Any]:
    """Returns the Flask settings of the pages' session cookie (api/pages/session.py): signed
    with DRTS_SESSION_SECRET, or with a key drawn for this process when unset (its
    sessions end with it; several processes serving one site need the setting)."""
    return {
        "SECRET_KEY": settings.session_secret or secrets.token_hex(32),
        "SESSION_COOKIE_NAME": COOKIE_NAME,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Strict",
        "PERMANENT_SESSION_LIFETIME": timedelta(hours=settings.session_hours),
    }


def limit_capacity(app: Flask) -> None:
    """Makes the app count every request against its client address and token (a signed-in
    page's too), and trust X-Forwarded-For and -Proto from DRTS_TRUSTED_PROXIES proxies
    (api/capacity.py)."""
    app.extensions[CAPACITY] = Capacity.of(
        app.config["DRTS_RATE_LIMIT_PER_ADDRESS"],
        app.config["DRTS_RATE_LIMIT_PER_TOKEN"],
        app.config["DRTS_MAX_LONG_POLLS"],
        app.config["DRTS_MAX_STREAMS"],
        app.config["DRTS_MAX_STREAMS_PER_ADDRESS"],
    )
    proxies = app.config["DRTS_TRUSTED_PROXIES"]
    if proxies:
        # X-Forwarded-Proto too: behind a TLS proxy the pages' cookie is then Secure
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]

    @app.before_request
    def admit() -> None:
        g.received_at = matches().clock()  # an order's received time: its arrival (issue 13)
        scheme, _, token = request.headers.get("Authorization", "").strip().partition(" ")
        bearer = token.strip() if scheme.lower() == "bearer" else None
        capacity().admit(request.remote_addr, bearer or session_token())  # a page's too
