"""GET /rulesets: the registered games, their seats, dynamics and config fields."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import abort

from api.context import Blueprint
from api.schemas import RulesetSchema
from domain.rules.contract import Ruleset
from domain.rules.registry import REGISTRY

blp = Blueprint("rulesets", __name__, url_prefix="/rulesets", description="Games drts referees")


def describe(ruleset: Ruleset[Any, Any]) -> dict[str, Any]:
    """Returns a ruleset's metadata and referee actions as the API shows them."""
    info = ruleset.info
    return {
        "name": info.name,
        "version": info.version,
        "title": info.title,
        "min_seats": info.min_seats,
        "max_seats": info.max_seats,
        "dynamics": info.dynamics.value,
        "accumulates_orders": info.accumulates_orders,
        "order_policy": info.order_policy.value,
        "config": [
            {"name": f.name, "default": f.default, "description": f.description}
            for f in info.config_fields
        ],
        "actions": [
            {
                "name": action.name,
                "description": action.description,
                "arguments": dict(action.arguments),
                "example": dict(action.example),
            }
            for action in ruleset.actions
        ],
    }


@blp.route("")
class Rulesets(MethodView):
    @blp.response(200, RulesetSchema(many=True))
    def get(self) -> list[dict[str, Any]]:
        """Lists every registered ruleset."""
        return [describe(REGISTRY[name]) for name in sorted(REGISTRY)]


@blp.route("/<string:name>")
class RulesetByName(MethodView):
    @blp.response(200, RulesetSchema)
    @blp.alt_response(404, description="Unknown ruleset")
    def get(self, name: str) -> dict[str, Any]:
        """Returns one ruleset by name."""
        if name not in REGISTRY:
            abort(404, message=f"unknown ruleset {name!r}", code="unknown_ruleset")
        return describe(REGISTRY[name])
