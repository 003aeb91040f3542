"""/players and /ratings: player identities and their ratings (issue 45).

POST /players creates a player and shows its key once; the operator reissues a key;
the player's key (as the bearer token) sets and confirms its e-mail address. The
ratings are rebuilt from the finished rated matches (service/queries/ratings.py).
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas.players import (
    CreatePlayerSchema,
    PlayerAddressSchema,
    PlayerAddressStateSchema,
    PlayerConfirmSchema,
    PlayerKeySchema,
    PlayerRatingsSchema,
    PlayerSchema,
    RatingsArgsSchema,
    RatingTableSchema,
    ReissuePlayerKeySchema,
)
from service.usecases.players import NamedRatings, PlayerRatings, Players

blp = Blueprint(
    "players", __name__, url_prefix="/players", description="Players: identities with a key"
)
ratings_blp = Blueprint(
    "ratings", __name__, url_prefix="/ratings", description="Ratings per ruleset (OpenSkill)"
)


def players() -> Players:
    """Returns the players' use cases on the process's Matches application."""
    return matches().players


@blp.route("")
class PlayerList(MethodView):
    @blp.arguments(CreatePlayerSchema)
    @blp.response(201, PlayerKeySchema, description="Created: the key is shown once")
    @documents_errors(blp, 400, 409, 413, 422)
    @blp.doc(operationId="createPlayer")
    def post(self, body: dict[str, Any]) -> Any:
        """Creates a player; returns its id and its secret key (shown only this once)."""
        return players().create(body["name"])


@blp.route("/<string:player>")
class PlayerById(MethodView):
    @blp.response(200, PlayerSchema)
    @documents_errors(blp, 404)
    @blp.doc(operationId="getPlayer")
    def get(self, player: str) -> Any:
        """Returns a player (by id or name): its id and name (never its e-mail address)."""
        return players().show(player)


@blp.route("/<string:player>/key")
class PlayerKey(MethodView):
    @blp.arguments(ReissuePlayerKeySchema, required=False)
    @blp.response(200, PlayerKeySchema, description="The player's new key, shown once")
    @documents_errors(blp, 401, 403, 404, 422)
    @blp.doc(operationId="reissuePlayerKey", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], player: str) -> Any:
        """Gives the player a new key (operator token); the old key stops working at once."""
        found = players().show(player)
        key = players().reissue(bearer_token(), found.player_id, (body or {}).get("reason"))
        return {"player_id": found.player_id, "name": found.name, "key": key}


@blp.route("/<string:player>/address")
class PlayerAddress(MethodView):
    @blp.arguments(PlayerAddressSchema)
    @blp.response(200, PlayerAddressStateSchema, description="Set: a confirmation code is mailed")
    @documents_errors(blp, 401, 403, 404, 422)
    @blp.doc(operationId="setPlayerAddress", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], player: str) -> Any:
        """Sets the player's e-mail address (the player's key as the bearer token) and
        mails it a confirmation code."""
        address = players().set_address(player, bearer_token(), body["address"])
        return {"address": address, "confirmed": False}


@blp.route("/<string:player>/address/confirm")
class PlayerAddressConfirm(MethodView):
    @blp.arguments(PlayerConfirmSchema)
    @blp.response(200, PlayerAddressStateSchema, description="Confirmed")
    @documents_errors(blp, 401, 403, 404, 422)
    @blp.doc(operationId="confirmPlayerAddress", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], player: str) -> Any:
        """Confirms the player's address with the mailed code (the player's key as the
        bearer token)."""
        address = players().confirm_address(player, bearer_token(), body["code"])
        return {"address": address, "confirmed": True}


@blp.route("/<string:player>/ratings")
class PlayerRatingList(MethodView):
    @blp.response(200, PlayerRatingsSchema)
    @documents_errors(blp, 404)
    @blp.doc(operationId="getPlayerRatings")
    def get(self, player: str) -> Any:
        """Returns the player's rating under each ruleset version it played rated, with
        each rated match's effect."""
        return player_ratings(players().ratings_of(player))


@ratings_blp.route("")
class RatingList(MethodView):
    @ratings_blp.arguments(RatingsArgsSchema, location="query")
    @ratings_blp.response(200, RatingTableSchema)
    @documents_errors(ratings_blp, 400, 422)
    @ratings_blp.doc(operationId="listRatings")
    def get(self, args: dict[str, Any]) -> Any:
        """Returns a ruleset version's ratings, best first, rebuilt from its finished rated
        matches whose seats all name players."""
        return rating_table(players().ratings(args["ruleset"], args["version"]))


def player_ratings(found: PlayerRatings) -> dict[str, Any]:
    """Returns a player's ratings as the response shows them."""
    ratings = [
        {
            "ruleset": table.ruleset,
            "version": table.version,
            "mu": rating.mu,
            "sigma": rating.sigma,
            "ordinal": rating.ordinal,
            "history": rating.history,
        }
        for table, rating in found.ratings
    ]
    return {"player_id": found.player_id, "name": found.name, "ratings": ratings}


def rating_table(found: NamedRatings) -> dict[str, Any]:
    """Returns a rating table as the response shows it."""
    items = [
        {
            "player_id": p.player_id,
            "name": found.names[p.player_id],
            "mu": p.mu,
            "sigma": p.sigma,
            "ordinal": p.ordinal,
            "matches": len(p.history),
        }
        for p in found.table.players
    ]
    table = found.table
    return {
        "ruleset": table.ruleset,
        "version": table.version,
        "model": found.model,
        "items": items,
    }
