"""GET /rulesets: the registered games, their versions, seats, dynamics, typed config
fields and presets."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import abort

from api.context import Blueprint
from api.schemas.rulesets import RulesetArgsSchema, RulesetSchema
from domain.errors import UnknownRulesetError
from domain.rules.contract import JSON, AnyRuleset, ConfigField, ConfigKind
from domain.rules.registry import get_ruleset, ruleset_names, ruleset_versions
from service.maps import catalogue

blp = Blueprint("rulesets", __name__, url_prefix="/rulesets", description="Games drts referees")


def describe(ruleset: AnyRuleset) -> dict[str, Any]:
    """Returns a ruleset version's metadata and referee actions as the API shows them."""
    info = ruleset.info
    return {
        "name": info.name,
        "version": info.version,
        "versions": list(ruleset_versions(info.name)),
        "title": info.title,
        "min_seats": info.min_seats,
        "max_seats": info.max_seats,
        "dynamics": info.dynamics.value,
        "accumulates_orders": info.accumulates_orders,
        "order_policy": info.order_policy.value,
        "max_order_chars": info.max_order_chars,
        "lists_legal_orders": ruleset.legal_orders is not None,
        "lists_legal_commands": ruleset.legal_commands is not None,
        "config": [describe_field(f) for f in info.config_fields],
        "presets": [
            {"name": p.name, "description": p.description, "config": dict(p.values)}
            for p in info.presets
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
        **_maps(info.name),
    }


def _maps(name: str) -> dict[str, Any]:
    """Returns {"maps": [...]} for a game with maps (Shades, SH-2), else nothing."""
    found = catalogue(name)
    return {"maps": [info.summary(name) for info in found]} if found else {}


def describe_field(field: ConfigField) -> dict[str, JSON]:
    """Returns a config field as the API shows it: its type and its bounds or choices."""
    shown: dict[str, JSON] = {
        "name": field.name,
        "type": field.kind.value,
        "default": field.default,
        "description": field.description,
        "allowed": field.allowed(),
    }
    if field.kind in (ConfigKind.INT, ConfigKind.STR):
        shown |= {"minimum": field.minimum, "maximum": field.maximum}
    if field.kind is ConfigKind.CHOICE:
        shown["choices"] = list(field.choices)
    return shown


@blp.route("")
class Rulesets(MethodView):
    @blp.response(200, RulesetSchema(many=True))
    def get(self) -> list[dict[str, Any]]:
        """Lists every registered ruleset (its latest version, and which versions exist)."""
        return [describe(get_ruleset(name)) for name in ruleset_names()]


@blp.route("/<string:name>")
class RulesetByName(MethodView):
    @blp.arguments(RulesetArgsSchema, location="query")
    @blp.response(200, RulesetSchema)
    @blp.alt_response(404, description="Unknown ruleset or version")
    def get(self, args: dict[str, Any], name: str) -> dict[str, Any]:
        """Returns one ruleset by name: its latest version, or the one asked for."""
        try:
            ruleset = get_ruleset(name, args["version"])
        except UnknownRulesetError as error:
            abort(404, message=str(error), code=error.code)
        return describe(ruleset)
