"""The service's queries over the read models: match list, due movements, scoreboards,
standings. Each first catches its projections up with the log, so a caller reads
its own writes; the rows are public data only (no tokens, no sealed values).
Filters are held to service/limits.py before they reach SQL (a NUL byte is a
PostgreSQL error, not an empty answer).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from domain.integrity import iso
from domain.rules.contract import JSON
from service import limits
from service.readmodels.recorders import QUARANTINE
from service.readmodels.runner import ReadModels
from service.results import DueMovement

STATUSES = ("open", "started", "finished", "void")  # void: a rematch a correction voided
DISPUTE_FILTERS = ("open",)  # `disputes=open`: the matches with a dispute awaiting a ruling


def match_page(
    models: ReadModels,
    ruleset: str | None,
    status: str | None,
    limit: int,
    after: int,
    disputes: str | None = None,
) -> tuple[list[dict[str, JSON]], int | None]:
    """Returns up to `limit` matches past log position `after`, oldest first, and the
    position to go on from (None when no more match); `disputes="open"` keeps those with
    a dispute awaiting the referee's ruling.
    """
    if ruleset is not None:
        limits.check_ruleset_name(ruleset)
    if status is not None:
        limits.check_choice(status, "status", STATUSES)
    if disputes is not None:
        limits.check_choice(disputes, "disputes", DISPUTE_FILTERS)
    models.catch_up(["match_list"])
    view = models.view("match_list")
    where = ["position > :after"] + (["open_disputes > 0"] if disputes else [])
    params: dict[str, Any] = {"after": after, "limit": limit + 1}
    for column, value in (("ruleset", ruleset), ("status", status)):
        if value is not None:
            where.append(f"{column} = :{column}")
            params[column] = value
    rows = view.query(
        f"SELECT * FROM {{match_list}} WHERE {' AND '.join(where)} ORDER BY position LIMIT :limit",
        params,
    )
    more, rows = len(rows) > limit, rows[:limit]
    seats = _seats(models, [row["match_id"] for row in rows])
    items = [_match_item(row, seats.get(row["match_id"], [])) for row in rows]
    return items, rows[-1]["position"] if more else None


def match_row(models: ReadModels, match_id: UUID) -> dict[str, JSON] | None:
    """Returns one match's list entry, or None if the match list has no such match."""
    models.catch_up(["match_list"])
    rows = models.view("match_list").query(
        "SELECT * FROM {match_list} WHERE match_id = :match_id", {"match_id": match_id}
    )
    return _match_item(rows[0], _seats(models, [match_id]).get(match_id, [])) if rows else None


def match_head(models: ReadModels, match_id: UUID) -> dict[str, Any] | None:
    """Returns the heads the match list recorded for a match: its last (`head_version`,
    `head_chain`) and, once finished, its Finished event's (`finished_version`,
    `finished_chain`), and why it quarantined the match (`quarantine`, None: it did not);
    None if the list has no such match."""
    models.catch_up(["match_list"])
    rows = models.view("match_list").query(
        "SELECT l.head_version, l.head_chain, l.finished_version, l.finished_chain, "
        "q.error AS quarantine FROM {match_list} AS l LEFT JOIN {projection_quarantine} AS q "
        "ON q.match_id = l.match_id AND q.projection = 'match_list' "
        "WHERE l.match_id = :match_id",
        {"match_id": match_id},
    )
    return rows[0] if rows else None


# the matches the sweep leaves alone (service/usecases/quarantine.py), for queries over {deadlines}
NOT_QUARANTINED = (
    "match_id NOT IN (SELECT match_id FROM {match_failures} WHERE quarantined_at IS NOT NULL)"
)
# the imported matches are read-only: nothing is ever due in them (service/store/imported.py)
NOT_IMPORTED = "match_id NOT IN (SELECT match_id FROM {imported_matches})"
SWEPT = f"{NOT_QUARANTINED} AND {NOT_IMPORTED}"  # the matches the sweep handles


def due(models: ReadModels, now: datetime) -> list[DueMovement]:
    """Returns the open movements due at `now` (deadline passed, or ready to close early),
    earliest deadline first, leaving out the quarantined matches (service/usecases/quarantine.py)
    and the imported ones (service/store/imported.py); one indexed query."""
    models.catch_up(["deadlines"])
    rows = models.view("deadlines").query(
        "SELECT match_id, movement, due_at FROM {deadlines} "
        f"WHERE closed = FALSE AND (due_at <= :now OR ready) AND {SWEPT} "
        "ORDER BY due_at, match_id",
        {"now": now},
    )
    return [DueMovement(row["match_id"], row["movement"], row["due_at"]) for row in rows]


def open_disputes(models: ReadModels, first: int = 20) -> tuple[int, list[dict[str, JSON]]]:
    """Returns the disputes awaiting a ruling over every match but the imported ones (which
    are read-only: none can be ruled on there), and the first `first` matches holding
    some, oldest first, with how many each holds."""
    models.catch_up(["match_list"])
    view = models.view("match_list")
    where = f"open_disputes > 0 AND {NOT_IMPORTED}"
    total = view.query(f"SELECT SUM(open_disputes) AS n FROM {{match_list}} WHERE {where}")
    rows = view.query(
        f"SELECT match_id, open_disputes FROM {{match_list}} WHERE {where} "
        "ORDER BY position LIMIT :first",
        {"first": first},
    )
    listed: list[dict[str, JSON]] = [
        {"match_id": str(row["match_id"]), "open": row["open_disputes"]} for row in rows
    ]
    return int(total[0]["n"] or 0), listed


def rematches_due(models: ReadModels) -> list[UUID]:
    """Returns the finished matches whose outcome asks for a rematch that does not exist
    yet (DW-5: a crash came between the draw and the rematch), oldest first; an imported
    match gets none (it is read-only)."""
    models.catch_up(["match_list"])
    rows = models.view("match_list").query(
        f"SELECT match_id FROM {{match_list}} WHERE rematch_due AND {NOT_IMPORTED} "
        "ORDER BY position"
    )
    return [row["match_id"] for row in rows]


def scoreboard(models: ReadModels, match_id: UUID) -> dict[str, JSON] | None:
    """Returns a match's scores after each resolved movement, per seat and per team, and
    whether the scoreboards projection leaves the match out (None if the match list has
    no such match).
    """
    match = match_row(models, match_id)
    if match is None:
        return None
    models.catch_up(["scoreboards"])
    view, key = models.view("scoreboards"), {"match_id": match_id}
    seat_rows = view.query(
        "SELECT movement, seat, score, rank FROM {scoreboard_seats} "
        "WHERE match_id = :match_id ORDER BY movement, rank, seat",
        key,
    )
    team_rows = view.query(
        "SELECT movement, team, score FROM {scoreboard_teams} "
        "WHERE match_id = :match_id ORDER BY movement, team",
        key,
    )
    movements: dict[int, dict[str, Any]] = {}
    for row in seat_rows:
        movement = movements.setdefault(row["movement"], _movement(row["movement"]))
        movement["seats"].append({k: row[k] for k in ("seat", "score", "rank")})
    for row in team_rows:
        movement = movements.setdefault(row["movement"], _movement(row["movement"]))
        movement["teams"].append({"team": row["team"], "score": row["score"]})
    return {
        "match_id": str(match_id),
        "ruleset": match["ruleset"],
        "seats": match["seats"],
        "status": match["status"],
        "movements": [movements[m] for m in sorted(movements)],
        "left_out": bool(
            view.query(
                f"SELECT match_id FROM {{{QUARANTINE}}} "
                "WHERE projection = 'scoreboards' AND match_id = :match_id",
                key,
            )
        ),
    }


def standing_rows(
    models: ReadModels, ruleset: str | None, limit: int, offset: int
) -> tuple[list[dict[str, JSON]], int | None]:
    """Returns up to `limit` standings from `offset`, best first within each ruleset, and
    the offset of the next page (None at the end). A row counts a player (`player_id`,
    `player` its name) or, for seats naming none, a seat name (`player_id` None).
    """
    if ruleset is not None:
        limits.check_ruleset_name(ruleset)
    models.catch_up(["standings"])
    where = "WHERE ruleset = :ruleset " if ruleset is not None else ""
    rows = models.view("standings").query(
        "SELECT ruleset, player, player_id, played, wins, draws, losses, points "
        f"FROM {{standings}} {where}"
        "ORDER BY ruleset, points DESC, wins DESC, draws DESC, player, entrant "
        "LIMIT :limit OFFSET :offset",
        {"ruleset": ruleset, "limit": limit + 1, "offset": offset},
    )
    more = len(rows) > limit
    return rows[:limit], offset + limit if more else None


def _seats(models: ReadModels, match_ids: list[UUID]) -> dict[UUID, list[dict[str, JSON]]]:
    """Returns the seats (number and player name) of the given matches."""
    if not match_ids:
        return {}
    names = {f"m{i}": match_id for i, match_id in enumerate(match_ids)}
    rows = models.view("match_list").query(
        f"SELECT match_id, seat, name FROM {{match_seats}} "
        f"WHERE match_id IN ({', '.join(':' + name for name in names)}) ORDER BY seat",
        names,
    )
    seats: dict[UUID, list[dict[str, JSON]]] = {}
    for row in rows:
        seats.setdefault(row["match_id"], []).append({"seat": row["seat"], "name": row["name"]})
    return seats


def _match_item(row: dict[str, Any], seats: list[dict[str, JSON]]) -> dict[str, JSON]:
    """Returns a match_list row in its public JSON form."""
    return {
        "match_id": str(row["match_id"]),
        "ruleset": row["ruleset"],
        "ruleset_version": row["ruleset_version"],
        "status": row["status"],
        "seats": seats,
        "seat_limits": {"min": row["min_seats"], "max": row["max_seats"]},
        "movement": row["movement"],
        "deadline": _iso(row["deadline"]),
        "created_at": _iso(row["created_at"]),
        "started_at": _iso(row["started_at"]),
        "finished_at": _iso(row["finished_at"]),
        "result": row["result"],
        "disputes": {"open": row["open_disputes"], "ruled": row["ruled_disputes"]},
    }


def _movement(number: int) -> dict[str, Any]:
    return {"movement": number, "seats": [], "teams": []}


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else iso(moment)
