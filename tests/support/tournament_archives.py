"""Tournaments to export, and the tools to check and forge their archives (issue 45,
docs/tournaments.md, Exporting a tournament): a District War round robin of four
played by forfeits, the standalone verifiers taken out of the docs, a tournament's
events re-chained after an edit."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from uuid import UUID

from service.matches import Matches
from service.tournaments import Tournaments
from tests.support import archives

DOCS = Path(__file__).parents[2] / "docs"
NAMES = ("ada", "bo", "cy", "di")


def verifier_sources() -> dict[str, str]:
    """Returns the match verifier (docs/archive.md) and the tournament verifier
    (docs/tournaments.md) by file name, each the page's block that begins with its
    docstring."""
    found = {}
    for page, name in (("archive.md", "verify.py"), ("tournaments.md", "verify_tournament.py")):
        text = (DOCS / page).read_text(encoding="utf-8")
        pattern = rf"```python\n(\"\"\"{re.escape(name)}.*?)```"
        found[name] = re.search(pattern, text, re.S).group(1)  # type: ignore[union-attr]
    return found


def install_verifiers(directory: Path) -> Path:
    """Writes both verifiers into `directory`, as an auditor would save them; returns it."""
    for name, source in verifier_sources().items():
        (directory / name).write_text(source, encoding="utf-8")
    return directory


def run_verifier(directory: Path, *args: str) -> tuple[int, str]:
    """Runs verify_tournament.py in a clean interpreter (no site packages, no drts) in
    `directory`; returns its exit status and output."""
    done = subprocess.run(
        [sys.executable, "-I", "-S", "verify_tournament.py", *args],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stderr == "", done.stderr
    return done.returncode, done.stdout


def forfeit_round(
    app: Matches, tournaments: Tournaments, tournament_id: UUID, operator: str
) -> None:
    """Ends each match of the latest round: the operator forfeits its second seat."""
    for links in tournaments.get(tournament_id).rounds[-1]["links"]:
        app.act(links[-1], operator, "forfeit", {"seat": 2}, "test")


def round_robin(app: Matches, operator: str, rounds_played: int = 3) -> UUID:
    """Returns the id of a District War round robin of four, its rounds played by
    forfeits up to `rounds_played` (3: to its end and the seed's reveal)."""
    tournaments = Tournaments(app)
    new = tournaments.create("Spring Cup", "round_robin", "district_war")
    for name in NAMES:
        player = app.players.create(name)
        tournaments.register(new.tournament_id, player.name, player.key)
    tournaments.advance(new.tournament_id)
    for _ in range(rounds_played):
        forfeit_round(app, tournaments, new.tournament_id, operator)
        tournaments.advance(new.tournament_id)
    return new.tournament_id


def rechained(archive: dict[str, Any]) -> dict[str, Any]:
    """Returns the tournament archive with its events' chain computed again after an
    edit, and its head moved to its last event: a forgery whose own chain verifies."""
    return archives.rechained(archive, "tournament_id")


def recorded(archive: dict[str, Any], nth: int = 0) -> dict[str, Any]:
    """Returns the archive's `nth` ResultRecorded event (from 0)."""
    return [e for e in archive["events"] if e["type"] == "ResultRecorded"][nth]
