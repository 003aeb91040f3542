"""A tournament's stored events edited behind the application's back, and rechained as a
careful tamperer would, so that only the audit's re-derivation can catch the edit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.integrity import BODY_KEYS, genesis, next_chain
from service.matches import Matches
from service.settings import Settings
from service.tournaments import Tournaments
from tests.support.tamper import edit_json, tamper


def rewrite(
    database_url: str, tournament_id: UUID, version: int, change: Callable[[dict[str, Any]], None]
) -> None:
    """Applies `change` to the stored JSON of event `version`, then recomputes the chain
    link of every event from it on, so the tournament's chain verifies again."""
    tamper(database_url, tournament_id, version, edit_json(change))
    app = Matches(env=Settings(database_url).event_store_env())
    try:
        items = Tournaments(app).items(tournament_id)
    finally:
        app.close()
    previous = genesis(tournament_id)
    for item in items:
        link = next_chain(previous, {key: item.get(key) for key in BODY_KEYS})
        if item["version"] >= version:
            tamper(database_url, tournament_id, item["version"], edit_json(_chained(link)))
        previous = link


def _chained(link: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["chain"] = link

    return change
