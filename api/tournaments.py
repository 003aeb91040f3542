"""/tournaments: creating a tournament, registering players, the organiser's acts, its
view, standing, audit and archive (issue 45, docs/tournaments.md). The organiser's token is shown
once at creation and is the bearer token of the organiser's acts (withdrawing a player,
pausing, resuming, pairing; the operator's token does as well); a player registers, and
may withdraw, with its key as the bearer token. Rounds are paired by the workers, or by
the organiser's `pair` (the same idempotent step as `drts tournament pair`)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_REQUIRED, documents_errors
from api.schemas.tournaments import (
    CreateTournamentSchema,
    NewTournamentSchema,
    PairedSchema,
    PauseTournamentSchema,
    RegisteredSchema,
    RegisterPlayerSchema,
    StandingsSchema,
    TournamentArchiveSchema,
    TournamentSchema,
    TournamentSeatSchema,
    VerificationSchema,
    WithdrawalSchema,
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


@blp.route("/<string:tournament>/seat")
class TournamentSeat(MethodView):
    @blp.arguments(RegisterPlayerSchema)
    @blp.response(200, TournamentSeatSchema, description="The seat's new token, shown once")
    @documents_errors(blp, 401, 403, 404, 409, 422)
    @blp.doc(operationId="getTournamentSeatToken", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any], tournament: str) -> Any:
        """Gives the player (its key as the bearer token) a new token for its seat in its
        latest match of the tournament; the seat's old token stops (issue 45: seat tokens
        are not kept, a player gets one when it wants to play)."""
        return tournaments().seat_token(tournament, body["player"], bearer_token())


@blp.route("/<string:tournament>/players/<string:player>/withdrawal")
class TournamentWithdrawal(MethodView):
    @blp.arguments(WithdrawalSchema, required=False)
    @blp.response(200, TournamentSchema, description="Withdrawn from the rounds still to pair")
    @documents_errors(blp, 400, 401, 403, 404, 409, 413, 422)
    @blp.doc(operationId="withdrawTournamentPlayer", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any] | None, tournament: str, player: str) -> Any:
        """Withdraws a player (id or name) from the rounds still to pair: the organiser's
        token, or the player's own key; its later games are byes as the format says."""
        reason = (body or {}).get("reason") or ""
        tournaments().withdraw(tournament, player, bearer_token(), reason)
        return view(tournaments().get(tournament))


@blp.route("/<string:tournament>/pause")
class TournamentPause(MethodView):
    @blp.arguments(PauseTournamentSchema, required=False)
    @blp.response(200, TournamentSchema, description="Paused: no round is paired")
    @documents_errors(blp, 400, 401, 403, 404, 409, 413, 422)
    @blp.doc(operationId="pauseTournament", security=TOKEN_REQUIRED)
    def post(self, body: dict[str, Any] | None, tournament: str) -> Any:
        """Pauses the pairing of rounds (the organiser's token); matches paired already
        go on."""
        tournaments().pause(tournament, bearer_token(), (body or {}).get("reason") or "")
        return view(tournaments().get(tournament))


@blp.route("/<string:tournament>/resume")
class TournamentResume(MethodView):
    @blp.response(200, TournamentSchema, description="Resumed")
    @documents_errors(blp, 401, 403, 404, 409)
    @blp.doc(operationId="resumeTournament", security=TOKEN_REQUIRED)
    def post(self, tournament: str) -> Any:
        """Resumes a paused tournament (the organiser's token)."""
        tournaments().resume(tournament, bearer_token())
        return view(tournaments().get(tournament))


@blp.route("/<string:tournament>/pair")
class TournamentPair(MethodView):
    @blp.response(200, PairedSchema, description="What was done (nothing: nothing was due)")
    @documents_errors(blp, 401, 403, 404, 409, 422)
    @blp.doc(operationId="pairTournament", security=TOKEN_REQUIRED)
    def post(self, tournament: str) -> Any:
        """Takes every step due, as `drts tournament pair` does (the organiser's token):
        results recorded, matches created, the next round paired unless paused, the
        finish; idempotent."""
        steps = tournaments().pair(tournament, bearer_token())
        found = tournaments().get(tournament)
        return {
            "tournament_id": found.id,
            "steps": steps,
            "rounds": len(found.rounds),
            "paused": found.paused is not None,
            "finished": found.finished,
        }


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
