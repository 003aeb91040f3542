"""The matrix's checks across surfaces, for each match of a stage and each of its
timelines:

- positions: for every resolved movement and every phase of it, the replay, /state,
  the movement record and the replay page's board describe one position (the board's
  pieces, read from their data attributes, are the state's, read from the game's state
  JSON: games.PIECES); the match page's board is /state's now, and each page's Public
  Display text is /display's; and a seat's page (signed in as the seat) draws /state's
  board while the match is under way (none before its start or after its end: the
  seat's page shows it only then);
- evidence: the audit says exact, verify says ok and the replay agrees, in every
  timeline (every stage is an honest match).

All reads are public (no token), so that nothing is recorded.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any
from uuid import UUID

from service.queries import audit
from tests.matrix.asking import CellFailure, positions_of
from tests.matrix.games import PIECES, Piece
from tests.matrix.stages import Stage

GROUP = re.compile(r'<g class="[^"]*"((?: data-[a-z]+="[^"]*")+)>')
ATTRIBUTE = re.compile(r' data-([a-z]+)="([^"]*)"')
DISPLAY = re.compile(r'<pre id="display-text" class="display">(.*?)</pre>', re.S)
SEAT_BOARD = '<figure class="board-figure seat-board" id="seat-board">'


def board_pieces(page: str) -> Counter[Piece]:
    """Returns the pieces a page's board draws, from each piece's data attributes."""
    found: Counter[Piece] = Counter()
    for group in GROUP.finditer(page):
        data = {name: html.unescape(value) for name, value in ATTRIBUTE.findall(group.group(1))}
        found[(data["kind"], data["square"], data.get("seat", ""), data.get("id", ""))] += 1
    return found


def state_pieces(stage: Stage, state: Any) -> Counter[Piece]:
    return Counter(PIECES[stage.game.ruleset](state or {}))


def check_positions(client: Any, stage: Stage, match_id: UUID) -> int:
    """Checks every position of every timeline of the match; returns how many it read."""
    found = positions_of(stage, match_id)
    read = 0
    for timeline in range(1, found.timelines + 1):
        asked = {} if timeline == found.timelines else {"timeline": timeline}
        read += _timeline(client, stage, match_id, found.movements[timeline], asked)
    return read


def _timeline(
    client: Any, stage: Stage, match_id: UUID, done: list[int], asked: dict[str, Any]
) -> int:
    url = f"/matches/{match_id}"
    replay = _json(client, f"{url}/replay", asked)
    frames = {frame["movement"]: frame for frame in replay["movements"]}
    where = f"{stage.key} {match_id} {asked or 'current timeline'}"
    if sorted(frames) != done:
        raise CellFailure(f"{where}: the replay's movements {sorted(frames)}, resolved {done}")
    now = _json(client, f"{url}/state", asked)
    live = _page(client, f"/ui/matches/{match_id}", asked)
    _same(board_pieces(live), state_pieces(stage, now["state"]), f"{where}: the match page")
    read = 2
    for movement in done:
        read += _movement(client, stage, match_id, frames[movement], asked, where)
    return read


def _movement(
    client: Any, stage: Stage, match_id: UUID, frame: Any, asked: dict[str, Any], where: str
) -> int:
    url, movement = f"/matches/{match_id}", frame["movement"]
    record = _json(client, f"{url}/movements/{movement}", asked)
    at = f"{where} movement {movement}"
    if (record["state_after"], record["state_hash"]) != (frame["state"], frame["state_hash"]):
        raise CellFailure(f"{at}: the record's state after is not the replay's")
    start = _json(client, f"{url}/state", {**asked, "movement": movement, "phase": 0})
    if start["state"] != record["state_before"]:
        raise CellFailure(f"{at}: phase 0 is not the record's state before")
    count = len(start["phases"])
    for phase in range(count + 1):
        view = (
            start
            if phase == 0
            else _json(client, f"{url}/state", {**asked, "movement": movement, "phase": phase})
        )
        if (
            record["phases"] is not None
            and phase
            and record["phases"][phase - 1]["state"] != view["state"]
        ):
            raise CellFailure(f"{at} phase {phase}: the record's phase is not /state's")
        page = _page(client, f"/ui/matches/{match_id}/replay",
                     {**asked, "movement": movement, "phase": phase})  # fmt: skip
        _same(board_pieces(page), state_pieces(stage, view["state"]), f"{at} phase {phase}: board")
        if phase == 0:
            display = client.get(f"{url}/display", query_string={**asked, "movement": movement})
            shown = DISPLAY.search(page)
            if not shown or html.unescape(shown.group(1)) != display.get_data(as_text=True):
                raise CellFailure(f"{at}: the replay page's Public Display is not /display's")
    if view["state"] != frame["state"]:
        raise CellFailure(f"{at}: the state after its last phase is not the replay's")
    return 2 * (count + 1) + 2


def check_seat_board(client: Any, stage: Stage, match_id: UUID, page: str) -> None:
    """Checks a seat's page: its board's pieces are /state's now while the match is under
    way (issue 48); before the start and after the end it draws no board."""
    where = f"{stage.key} {match_id}: the seat's page"
    if stage.app.summary(match_id).status == "started":  # as the page itself decides
        now = _json(client, f"/matches/{match_id}/state", {})
        if SEAT_BOARD not in page:
            raise CellFailure(f"{where} draws no board while the match is under way")
        _same(board_pieces(page), state_pieces(stage, now["state"]), where)
    elif SEAT_BOARD in page or board_pieces(page):
        raise CellFailure(f"{where} draws a board though the match is not under way")


def _same(board: Counter[Piece], state: Counter[Piece], where: str) -> None:
    if board != state:
        raise CellFailure(
            f"{where} draws {sorted(board - state)} not in /state, misses {sorted(state - board)}"
        )


def _json(client: Any, url: str, query: dict[str, Any]) -> Any:
    answer = client.get(url, query_string=query)
    if answer.status_code != 200:
        raise CellFailure(
            f"GET {url} {query}: {answer.status_code} {answer.get_data(as_text=True)[:300]}"
        )
    return answer.get_json()


def _page(client: Any, url: str, query: dict[str, Any]) -> str:
    answer = client.get(url, query_string=query)
    text: str = answer.get_data(as_text=True)
    if answer.status_code != 200:
        raise CellFailure(f"GET {url} {query}: {answer.status_code} {text[:300]}")
    return text


def check_evidence(stage: Stage, match_id: UUID) -> int:
    """Checks that the audit is exact, verify ok and the replay agrees in every timeline
    (the service's own reports; the audit before the finish without recording a look).
    Returns how many timelines it checked."""
    app = stage.app
    match = stage.match(match_id)
    events, stored = audit.stored_events(app.store, match_id)
    for timeline in range(1, match.timeline + 1):
        report = audit.audit_report(stored, events, timeline)
        where = f"{stage.key} {match_id} timeline {timeline}"
        if not (report.exact and all(t.exact for t in report.timelines)):
            raise CellFailure(f"{where}: the audit diverges: {report.divergence}")
        verified = app.verify_chain(match_id, timeline=timeline)
        if not verified.ok:
            raise CellFailure(f"{where}: verify is not ok: {verified.broken} {verified.problems}")
        if not app.replay(match_id, timeline=timeline).agrees:
            raise CellFailure(f"{where}: the replay does not agree with the store")
    return match.timeline
