"""What a player's page reads (issue 45, docs/pages.md): the player's name, the
tournaments it registered for, every match a seat of which named it, and its rating
under each ruleset version with its history, exactly as service/queries/ratings.py gives
them. Public only: never the key (nor its hash), never an e-mail address, confirmed or
not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.queries.played import seats_of
from service.queries.ratings import RatingChange
from service.tournaments.pages import TournamentPages, TournamentRow


@dataclass(frozen=True)
class GameRow:
    """A match the player sat in: its seat, game, status, and how it went for the seat
    ("won", "lost", "drawn", "no winner"; "" while unfinished) with the seat's score."""

    match_id: str
    seat: int
    ruleset: str
    ruleset_version: int
    status: str
    result: str
    score: Any


@dataclass(frozen=True)
class RatingRow:
    """The player's rating under one ruleset version, with each rated match's effect."""

    ruleset: str
    version: int
    mu: float
    sigma: float
    ordinal: float
    history: tuple[RatingChange, ...]


@dataclass(frozen=True)
class PlayerPage:
    """The player page's content."""

    player_id: str
    name: str
    tournaments: tuple[TournamentRow, ...]
    games: tuple[GameRow, ...]
    ratings: tuple[RatingRow, ...]


def player_page(pages: TournamentPages, player: str) -> PlayerPage:
    """Returns the page of a player named by id or name; raises PlayerNotFoundError."""
    matches = pages.matches
    found = matches.players.get(player)
    ident = str(found.id)
    games = tuple(
        game_row(matches, str(seat.match_id), seat.seat) for seat in seats_of(matches.store, ident)
    )
    rated = matches.players.ratings_of(ident).ratings
    ratings = tuple(
        RatingRow(table.ruleset, table.version, r.mu, r.sigma, r.ordinal, r.history)
        for table, r in rated
    )
    return PlayerPage(ident, found.name, tuple(pages.of_player(ident)), games, ratings)


def game_row(matches: Any, match_id: str, seat: int) -> GameRow:
    """Returns a match as the player's page lists it, for the player's seat."""
    summary = matches.summary(match_id)
    outcome = summary.outcome if isinstance(summary.outcome, dict) else {}
    score = (outcome.get("scores") or {}).get(str(seat))
    return GameRow(
        match_id,
        seat,
        summary.ruleset,
        summary.ruleset_version,
        summary.status,
        result_word(outcome, seat) if summary.status == "finished" else "",
        score,
    )


def result_word(outcome: dict[str, Any], seat: int) -> str:
    """Returns how a finished match went for a seat: won, lost, drawn or no winner."""
    winners = [int(w) for w in outcome.get("winners") or ()]
    if seat in winners:
        return "won"
    if outcome.get("result") == "draw":
        return "drawn"
    return "lost" if winners else "no winner"
