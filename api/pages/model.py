"""What the match and replay pages show, gathered from the Matches application.

Everything here is public: the views of a spectator (no token), the Public Display,
the summary. The board is drawn from the same state JSON the API serves
(api/pages/boards).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from markupsafe import Markup

from api.pages import boards
from api.pages.positions import Scrubber, resolved_movements, scrubber
from domain.errors import DrtsError
from domain.rules.registry import get_ruleset
from service.matches import Matches
from service.queries import phases
from service.results import MatchSummary


@dataclass(frozen=True)
class SeatRow:
    """One seat as the match page lists it."""

    seat: int
    name: str
    team: str | None
    score: Any
    strikes: int
    eliminated: bool
    to_move: bool


@dataclass(frozen=True)
class TimelineShown:
    """The timeline of a corrected match a page shows: `number` of `count`; `asked` is
    the query's (None: the current one, whose pages take no parameter)."""

    number: int
    count: int
    asked: int | None


@dataclass(frozen=True)
class LiveView:
    """The match page: the match now (an earlier timeline: as it ended)."""

    summary: MatchSummary
    title: str
    board: Markup | None
    display: str
    seats: list[SeatRow]
    teams: list[tuple[str, Any]]
    outcome: Any
    now: str
    movement: int
    timeline: TimelineShown


@dataclass(frozen=True)
class PhaseSteps:
    """One phase of a resolution with its steps (each {"rule", "text", "data"})."""

    number: int
    name: str
    steps: list[Any]


@dataclass(frozen=True)
class ReplayView:
    """The replay page at one position; `scrubber` None when nothing is resolved yet."""

    summary: MatchSummary
    title: str
    scrubber: Scrubber | None
    phase_name: str | None
    board: Markup | None
    display: str
    phases: list[PhaseSteps]
    timeline: TimelineShown


def game_title(summary: MatchSummary) -> str:
    """Returns the game's title (its ruleset name when the version is not installed)."""
    try:
        return get_ruleset(summary.ruleset, summary.ruleset_version).info.title
    except DrtsError:
        return summary.ruleset


def timeline_shown(summary: MatchSummary, timeline: int | None) -> TimelineShown:
    """Returns the timeline a page shows: `timeline`, or the current one (None, or the
    current one's number, which is then not kept in the page's links)."""
    asked = None if timeline == summary.timeline else timeline
    return TimelineShown(asked or summary.timeline, summary.timeline, asked)


def live_view(app: Matches, match_id: UUID, timeline: int | None = None) -> LiveView:
    """Returns the match page's content: the match as it stands now, or as an earlier
    `timeline` of a corrected match ended (UnknownTimelineError for one it lacks)."""
    now = app.live(match_id, timeline)  # one read, one version
    summary = now.summary
    shown = timeline_shown(summary, timeline)
    outcome = now.shown.outcome
    title = game_title(summary)
    caption = f"{title}: the board at movement {now.movement} ({summary.status})"
    if shown.asked is not None:
        caption = (
            f"{title}: the board where timeline {shown.number} ended (movement {now.movement})"
        )
    return LiveView(
        summary,
        title,
        _board(summary.ruleset, now.state, caption),
        now.display,
        seat_rows(now.shown, now.state, shown.asked is None),
        team_scores(outcome),
        outcome,
        app.clock().isoformat(),
        now.movement,
        shown,
    )


def replay_view(
    app: Matches,
    match_id: UUID,
    movement: int | None,
    phase: int | None,
    timeline: int | None = None,
) -> ReplayView:
    """Returns the replay page at (movement, phase) of the current timeline or an earlier
    one of a corrected match: by default the first resolved movement's start; a movement
    without a phase shows its start (phase 0)."""
    summary = app.summary(match_id)
    shown = timeline_shown(summary, timeline)
    match = app.timeline_match(match_id, shown.asked)
    done = resolved_movements(match)
    title = game_title(summary)
    if not done:
        return ReplayView(summary, title, None, None, None, "", [], shown)
    at = done[0] if movement is None else movement
    view = app.state(match_id, at, phase or 0, timeline=shown.asked)  # not resolved: error page
    run = phases.traced(app.store, match, at)
    index = done.index(at)
    before = len(phases.traced(app.store, match, done[index - 1]).phases) if index > 0 else 0
    where = scrubber(done, at, phase or 0, len(run.phases), before)
    caption = f"{title}: movement {at}, phase {where.phase} ({view.phase_name})"
    return ReplayView(
        summary,
        title,
        where,
        view.phase_name,
        _board(summary.ruleset, view.state, caption),
        app.display(match_id, at, shown.asked),
        [
            PhaseSteps(number, p.name, [step.to_json() for step in p.steps])
            for number, p in enumerate(run.phases, start=1)
        ],
        shown,
    )


def seat_rows(summary: MatchSummary, state: Any, now: bool = True) -> list[SeatRow]:
    """Returns the seats with their team (from the state, for a team game), score,
    strikes, and whether they are out or to move (never in a timeline that ended: not
    `now`)."""
    outcome = summary.outcome
    scores = (outcome or {}).get("scores", {}) if isinstance(outcome, dict) else {}
    in_state = state.get("seats") if isinstance(state, dict) else None
    rows = []
    for seat in summary.seats:
        number = int(str(seat["seat"]))
        data = (in_state or {}).get(str(number)) if isinstance(in_state, dict) else None
        team = data.get("team") if isinstance(data, dict) else None
        rows.append(
            SeatRow(
                number,
                str(seat["name"]),
                team if isinstance(team, str) else None,
                scores.get(str(number), scores.get(number)),
                int(summary.strikes.get(str(number), 0)),
                number in summary.eliminated,
                now and number in summary.to_move,
            )
        )
    return rows


def team_scores(outcome: Any) -> list[tuple[str, Any]]:
    """Returns the teams' scores, best first (none in a game without teams)."""
    teams = outcome.get("team_scores") if isinstance(outcome, dict) else None
    return sorted((teams or {}).items(), key=lambda item: (-int(item[1]), item[0]))


def _board(ruleset: str, state: Any, caption: str) -> Markup | None:
    drawn = boards.draw(ruleset, state, caption)
    return None if drawn is None else Markup(drawn)  # built from escaped parts only
