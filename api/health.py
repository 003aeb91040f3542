"""GET /health: the store, the broker, the last sweep, the oldest overdue movement and the
projections (service/health.py); 200 when healthy or degraded, 503 with the same body
when unhealthy."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView

from api.context import Blueprint, matches
from api.schemas.health import HealthSchema
from service.health import health_report, is_healthy

SETTINGS = "drts.settings"

blp = Blueprint("health", __name__, url_prefix="/health", description="The service's health")


@blp.route("")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, schema=HealthSchema, description="unhealthy: the same report")
    @blp.doc(operationId="getHealth")
    def get(self) -> Any:
        """Reports the service's health: the store (reachable, migrated), the broker, the
        last successful sweep, the oldest overdue movement and how late it is, and the
        projections behind the log or leaving matches out, the quarantined matches, and the
        disputes awaiting a ruling. Answers 503 when a check fails.
        """
        service = matches()
        report = health_report(service.store, current_app.extensions[SETTINGS], service.clock())
        return report, 200 if is_healthy(report) else 503
