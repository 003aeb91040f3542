"""The schema of GET /health (api/health.py)."""

from __future__ import annotations

import marshmallow as ma


class HealthSchema(ma.Schema):
    status = ma.fields.String(
        required=True,
        validate=ma.validate.OneOf(["healthy", "degraded", "unhealthy"]),
        metadata={"description": "unhealthy (503) if any check is failing"},
    )
    checked_at = ma.fields.String(required=True, metadata={"description": "UTC instant"})
    checks = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Dict(),
        required=True,
        metadata={
            "description": "per part (store, broker, sweep, overdue, projections, "
            "quarantined_matches, open_disputes): its status (ok, warning, failing) and what "
            "it saw (docs/operations.md)"
        },
    )
