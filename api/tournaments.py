"""/tournaments: creating a tournament, registering players, its view, standing,
audit and archive (issue 45, docs/tournaments.md). The organiser's token is shown once
at creation; a player registers with its key as the bearer token. Rounds are paired by
the workers (or `drts tournament pair`), not by a request."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas.tournaments import (
    CreateTournamentSchema,
    NewTournamentSchema,
    RegisteredSchema,
    RegisterPlayerSchema,
    StandingsSchema,
    TournamentArchiveSchema,
    TournamentSchema,
    VerificationSchema,
)
from domain.tournament import Tournament
from service.tournaments import Tournaments

blp = Blueprint(
    "tournaments", __name__, url_prefix="/tournaments", description="Tournaments (issue 45)"
)


def tournaments() -> Tournaments:
    """Returns the tournaments' facade on the process's Matches application."""
    return Tournaments(matches())


@blp.route("")
class TournamentList(MethodView):
    @blp.arguments(CreateTournamentSchema)
    @blp.response(201, NewTournamentSchema, description="Created: the token is shown once")
    @documents_errors(blp, 400, 413, 422)
    @blp.doc(operationId="createTournament")
    def post(self, body: dict[str, Any]) -> Any:
        """Creates a tournament (its seed drawn and committed); returns its id and the
        organiser's token (shown only this once)."""
        return tournaments().create(
            body["name"],
            body["format"],
            body["ruleset"],
            body["config"],
            body["preset"],
            body["ruleset_version"],
            body["rounds"],
            body["tie_breaks"],
            body["rated"],
            body["options"],
        )


@blp.route("/<string:tournament>")
class TournamentById(MethodView):
    @blp.response(200, TournamentSchema)
    @documents_errors(blp, 404)
    @blp.doc(operationId="getTournament")
    def get(self, tournament: str) -> Any:
        """Returns the tournament: its players, rounds, linked matches and state."""
        return view(tournaments().get(tournament))


@blp.route("/<string:tournament>/players")
class TournamentPlayers(MethodView):
    @blp.arguments(RegisterPlayerSchema)
    @blp.response(201, RegisteredSchema, description="Registered")
    @documents_errors(blp, 401, 403, 404, 409, 422)
    @blp.doc(operationId="registerTournamentPlayer", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], tournament: str) -> Any:
        """Registers a player (its key as the bearer token) before round 1 is paired."""
        found = tournaments().get(tournament)
        player = tournaments().register(found.id, body["player"], bearer_token())
        return {"tournament_id": found.id, "player_id": player}


@blp.route("/<string:tournament>/standings")
class TournamentStandings(MethodView):
    @blp.response(200, StandingsSchema)
    @documents_errors(blp, 404)
    @blp.doc(operationId="getTournamentStandings")
    def get(self, tournament: str) -> Any:
        """Returns the standing now, from the recorded results and the tie-break order."""
        found = tournaments().get(tournament)
        rows = [entry.to_json() for entry in tournaments().standings(found.id)]
        return {"tournament_id": found.id, "standings": rows}


@blp.route("/<string:tournament>/verify")
class TournamentVerify(MethodView):
    @blp.response(200, VerificationSchema)
    @documents_errors(blp, 404)
    @blp.doc(operationId="verifyTournament")
    def get(self, tournament: str) -> Any:
        """Audits the tournament: its chain, every pairing (once the seed is revealed),
        each result against its match's head; names the first divergence."""
        return tournaments().verify(tournament).to_json()


@blp.route("/<string:tournament>/archive")
class TournamentArchive(MethodView):
    @blp.response(200, TournamentArchiveSchema)
    @documents_errors(blp, 404)
    @blp.doc(operationId="getTournamentArchive")
    def get(self, tournament: str) -> Any:
        """Returns the tournament's archive (docs/tournaments.md, Exporting a tournament):
        its events and each finished linked match's public archive, for the standalone
        verifier; to anyone (the seed only once revealed, unfinished matches listed, not
        included). `drts tournament export` writes the same document."""
        return tournaments().export_archive(tournament)


def view(found: Tournament) -> dict[str, Any]:
    """Returns a tournament as GET shows it (the seed only once revealed)."""
    return {
        "tournament_id": found.id,
        "name": found.name,
        "format": found.format,
        "ruleset": found.ruleset,
        "ruleset_version": found.ruleset_version,
        "rated": found.rated,
        "tie_breaks": found.tie_breaks,
        "seed_commitment": found.seed_commitment,
        "seed": found.seed if found.seed_revealed else None,
        "players": found.players,
        "withdrawn": found.withdrawn,
        "rounds": found.rounds,
        "paused": found.paused is not None,
        "finished": found.finished,
    }
