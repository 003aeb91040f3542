"""The Flask app factory: flask-smorest Api, one blueprint per resource, one error shape."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from api import errors, rulesets

DEFAULT_MAX_BODY_BYTES = 64 * 1024


class DrtsApi(Api):
    """flask-smorest's Api with DESIGN.md's error shape, keeping werkzeug's headers (Allow)."""

    ERROR_SCHEMA = errors.ErrorSchema

    def handle_http_exception(self, error: HTTPException) -> Any:
        payload, status = errors.http_error_payload(error)
        data = getattr(error, "data", None) or {}
        extra = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
        return payload, status, {**extra, **data.get("headers", {})}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Returns the drts Flask app; `config` overrides Flask and drts settings."""
    app = Flask("drts")
    app.config.update(
        API_TITLE="drts",
        API_VERSION="v1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL="https://cdn.jsdelivr.net/npm/swagger-ui-dist/",
        MAX_CONTENT_LENGTH=DEFAULT_MAX_BODY_BYTES,
    )
    app.config.update(config or {})
    api = DrtsApi(app)
    errors.register_error_handlers(app)
    api.register_blueprint(rulesets.blp)
    return app
