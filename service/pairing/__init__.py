"""Tournament pairing (issue 45): pure functions of plain data, deterministic from the
tournament's seed, its registrations and its recorded results (`History`), with no clock
and no global randomness. Each format has a PAIRING_VERSION, recorded in the tournament's
Created event like a ruleset's version: an audit re-derives every round under the version
the tournament was created with, so a format's rules change only under a new version,
the old one kept.

- `history.py`: what a pairing is derived from, and `history_before`, which folds it
  from a tournament's events for the audit;
- `round_robin.py`, `swiss.py`, `elimination.py`, `tables.py`: the formats;
- `points.py`: points by placement (and a team game's placements); `draw.py`: draws from the seed;
- `tiebreaks.py`: standings with their tie-breaks; `result.py`: `Pairing` and
  `PairingError`.

This module is the formats' one entry: `pair_next`, `standings_of`, `rounds_of`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from service.pairing import elimination, round_robin, swiss, tables
from service.pairing.history import History
from service.pairing.points import WIN
from service.pairing.result import Pairing, PairingError
from service.pairing.tiebreaks import Standing, standings

PAIRING_VERSIONS = {
    "round_robin": round_robin.PAIRING_VERSION,
    "swiss": swiss.PAIRING_VERSION,
    "elimination": elimination.PAIRING_VERSION,
    "tables": tables.PAIRING_VERSION,
}

__all__ = ["PAIRING_VERSIONS", "Pairing", "PairingError", "pair_next", "rounds_of", "standings_of"]


class UnknownPairingVersionError(PairingError):
    """Raised when a tournament names a pairing version this drts does not hold."""

    code = "unknown_pairing_version"


def pair_next(
    format: str,
    version: int,
    history: History,
    options: Mapping[str, Any],
    rounds: int | None = None,
) -> Pairing | None:
    """Returns the next round's pairing under `version` of the format, or None when the
    tournament has played all its rounds. Raises UnknownPairingVersionError, PairingError."""
    _check_version(format, version)
    if history.next_round > rounds_of(format, len(history.players), options, rounds):
        return None
    if format == "round_robin":
        return round_robin.pair(history, options["legs"])
    if format == "swiss":
        return swiss.pair(history)
    if format == "elimination":
        return elimination.pair(history, options["max_replays"])
    low, high = options["seats"]
    return tables.pair(history, low, high)


def rounds_of(format: str, players: int, options: Mapping[str, Any], rounds: int | None) -> int:
    """Returns how many rounds a tournament plays: `rounds` if given, else the format's:
    round robin every round of its legs, Swiss ceil(log2 n), elimination until one is
    left, tables as many as the largest table has seats (each seat once)."""
    if format == "elimination":
        return elimination.rounds_needed(players)
    if rounds is not None:
        return rounds
    if format == "round_robin":
        return round_robin.rounds_needed(players, options["legs"])
    if format == "swiss":
        return max(1, math.ceil(math.log2(max(players, 2))))
    return int(options["seats"][1])


def standings_of(
    format: str, history: History, order: Sequence[str], options: Mapping[str, Any]
) -> list[Standing]:
    """Returns the standing under the tie-break `order`, byes scored by the format:
    Swiss a win; round robin a win for a walkover, nothing for a rest; elimination a win
    (it advances); tables nothing."""
    return standings(history, order, _bye_points(format, history, options))


def _bye_points(
    format: str, history: History, options: Mapping[str, Any]
) -> dict[tuple[int, str], int]:
    byes = [(record.number, player) for record in history.rounds for player in record.byes]
    if format in ("swiss", "elimination"):
        return {bye: WIN for bye in byes}
    if format == "round_robin":
        return {
            (number, player): WIN
            for number, player in byes
            if player in round_robin.walkovers(history, number, options["legs"])
        }
    return {bye: tables.BYE_POINTS for bye in byes}


def _check_version(format: str, version: int) -> None:
    if PAIRING_VERSIONS.get(format) != version:
        raise UnknownPairingVersionError(
            f"pairing version {version} of {format!r} is not installed "
            f"(this drts pairs {format} at version {PAIRING_VERSIONS.get(format)})"
        )
