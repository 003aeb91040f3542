"""The schemas of tournaments (api/tournaments.py, issue 45): create one, register a
player, the organiser's acts (withdraw a player, pause, pair), a tournament's view, its
standing, its audit and its archive."""

from __future__ import annotations

import marshmallow as ma

from api.fields import PlayerName, StrictBoolean, recorded_reason
from api.schemas.audit import ArchiveHeadSchema, ArchiveSchema
from api.schemas.events import EventSchema
from domain.tournament import FORMATS, TIE_BREAKS
from service import limits


class CreateTournamentSchema(ma.Schema):
    name = ma.fields.String(
        required=True,
        validate=ma.validate.Length(1, limits.MAX_NAME_CHARS),
        metadata={"description": "the tournament's name", "example": "Spring Cup"},
    )
    format = ma.fields.String(
        required=True,
        validate=ma.validate.OneOf(FORMATS),
        metadata={"description": "the format (docs/tournaments.md, Formats)"},
    )
    ruleset = ma.fields.String(
        required=True,
        validate=ma.validate.Regexp(limits.RULESET_NAME),
        metadata={"description": "a ruleset name (GET /rulesets)", "example": "district_war"},
    )
    ruleset_version = ma.fields.Integer(
        load_default=None,
        strict=True,
        validate=ma.validate.Range(1, limits.MAX_POSITION),
        metadata={"description": "an installed version (default: the latest)"},
    )
    preset = ma.fields.String(load_default=None, validate=ma.validate.Length(1, 64))
    config = ma.fields.Dict(load_default=dict, metadata={"description": "the matches' config"})
    rounds = ma.fields.Integer(
        load_default=None,
        strict=True,
        validate=ma.validate.Range(1, 100),
        metadata={"description": "the rounds to play (default: the format's)"},
    )
    tie_breaks = ma.fields.List(
        ma.fields.String(validate=ma.validate.OneOf(sorted(TIE_BREAKS))),
        load_default=None,
        validate=ma.validate.Length(2, len(TIE_BREAKS)),
        metadata={"description": "the order, from points to draw (default: the format's)"},
    )
    rated = StrictBoolean(
        load_default=True, metadata={"description": "whether its matches count for ratings"}
    )
    options = ma.fields.Dict(load_default=dict, metadata={"description": "the format's options"})


class NewTournamentSchema(ma.Schema):
    tournament_id = ma.fields.UUID(required=True)
    organiser_token = ma.fields.String(
        required=True, metadata={"description": "the organiser's token: shown only this once"}
    )


class RegisterPlayerSchema(ma.Schema):
    player = PlayerName(
        required=True,
        metadata={
            "description": "the player's id or name; its key is the bearer token",
            "minLength": 1,
            "maxLength": limits.MAX_NAME_CHARS,
        },
    )


class RegisteredSchema(ma.Schema):
    tournament_id = ma.fields.UUID(required=True)
    player_id = ma.fields.UUID(required=True)


class TournamentSeatSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True, metadata={"description": "the player's latest match"})
    seat = ma.fields.Integer(required=True)
    token = ma.fields.String(
        required=True, metadata={"description": "the seat's new token, shown once"}
    )


class WithdrawalSchema(ma.Schema):
    reason = recorded_reason("why the player withdraws (recorded)", "ill", load_default=None)


class PauseTournamentSchema(ma.Schema):
    reason = recorded_reason("why the organiser pauses (recorded)", "lunch", load_default=None)


class PairedSchema(ma.Schema):
    tournament_id = ma.fields.UUID(required=True)
    steps = ma.fields.List(
        ma.fields.String(),
        required=True,
        metadata={
            "description": "what was done, in order (empty: nothing was due)",
            "example": ["result of match ... recorded", "round 2 paired"],
        },
    )
    rounds = ma.fields.Integer(required=True, metadata={"description": "the rounds paired"})
    paused = ma.fields.Boolean(
        required=True, metadata={"description": "paused: no round is paired until resumed"}
    )
    finished = ma.fields.Boolean(required=True)


class RoundSchema(ma.Schema):
    round = ma.fields.Integer(required=True)
    tables = ma.fields.List(ma.fields.List(ma.fields.String()), required=True)
    byes = ma.fields.List(ma.fields.String(), required=True)
    links = ma.fields.List(ma.fields.List(ma.fields.String()), required=True)
    completed = ma.fields.Boolean(required=True)
    advancing = ma.fields.List(ma.fields.Dict(), required=True)


class TournamentSchema(ma.Schema):
    tournament_id = ma.fields.UUID(required=True)
    name = ma.fields.String(required=True)
    format = ma.fields.String(required=True)
    ruleset = ma.fields.String(required=True)
    ruleset_version = ma.fields.Integer(required=True)
    rated = ma.fields.Boolean(required=True)
    tie_breaks = ma.fields.List(ma.fields.String(), required=True)
    seed_commitment = ma.fields.String(required=True)
    seed = ma.fields.String(
        required=True, allow_none=True, metadata={"description": "once revealed"}
    )
    players = ma.fields.List(ma.fields.String(), required=True)
    withdrawn = ma.fields.Dict(required=True)
    rounds = ma.fields.List(ma.fields.Nested(RoundSchema), required=True)
    paused = ma.fields.Boolean(required=True)
    finished = ma.fields.Boolean(required=True)


class StandingRowSchema(ma.Schema):
    rank = ma.fields.Integer(required=True)
    player_id = ma.fields.String(required=True)
    points = ma.fields.Integer(required=True)
    tie_breaks = ma.fields.Dict(required=True)
    withdrawn = ma.fields.Boolean(required=True)


class StandingsSchema(ma.Schema):
    tournament_id = ma.fields.UUID(required=True)
    standings = ma.fields.List(ma.fields.Nested(StandingRowSchema), required=True)


class VerificationSchema(ma.Schema):
    ok = ma.fields.Boolean(required=True)
    divergence = ma.fields.String(required=True, allow_none=True)
    pairings_derived = ma.fields.Boolean(required=True)
    rounds = ma.fields.Integer(required=True)
    results = ma.fields.Integer(required=True)
    notes = ma.fields.List(ma.fields.String(), required=True)


class UnfinishedMatchSchema(ma.Schema):
    match_id = ma.fields.String(required=True)
    round = ma.fields.Integer(required=True)
    table = ma.fields.Integer(required=True)
    attempt = ma.fields.Integer(required=True)


class TournamentArchiveSchema(ma.Schema):
    """A tournament archive (docs/tournaments.md, Exporting a tournament)."""

    format = ma.fields.String(required=True, metadata={"description": '"drts-tournament-archive"'})
    format_version = ma.fields.Integer(required=True, metadata={"description": "1"})
    tournament_id = ma.fields.UUID(required=True)
    name = ma.fields.String(required=True)
    ruleset = ma.fields.String(required=True)
    ruleset_version = ma.fields.Integer(required=True)
    exported_at = ma.fields.String(required=True, metadata={"description": "ISO 8601, UTC"})
    finished = ma.fields.Boolean(required=True)
    head = ma.fields.Nested(
        ArchiveHeadSchema, required=True, metadata={"description": "the tournament's last event"}
    )
    events = ma.fields.List(
        ma.fields.Nested(EventSchema),
        required=True,
        metadata={"description": "every tournament event; Created's seed sealed until revealed"},
    )
    matches = ma.fields.List(
        ma.fields.Nested(ArchiveSchema),
        required=True,
        metadata={"description": "each finished linked match's public archive, in link order"},
    )
    unfinished = ma.fields.List(
        ma.fields.Nested(UnfinishedMatchSchema),
        required=True,
        metadata={"description": "the linked matches not finished: not in the archive"},
    )
