"""Dris et-Tessa's board (DT-1): the 24 points of the Nine Men's Morris board on three
squares and their joining lines, each seat's pieces as discs carrying its number, the
pieces still in hand counted below, and the last turn: the point it reached ringed, the
point a step (DT-2) left marked with a dashed ring."""

from __future__ import annotations

from typing import Any

from api.pages.boards import svg
from domain.errors import InvalidOrderError
from domain.rules.dris_et_tessa.notation import parse_order

STEP = 56
MARGIN = 34
COLUMNS = "abcdefg"
# the three squares (corner offsets from the centre, in steps) and the four joining lines
RINGS = (3, 2, 1)
JOINS = (("a4", "c4"), ("e4", "g4"), ("d7", "d5"), ("d3", "d1"))


def draw(state: dict[str, Any], title: str) -> str:
    """Returns the board of a Dris et-Tessa state JSON (docs/games/dris_et_tessa.md)."""
    points: dict[str, int] = state.get("points") or {}
    body = _lines() + _rulers()
    body += [_point(name, points.get(name)) for name in _all_points()]
    hands: dict[str, int] = state.get("hands") or {}
    below = MARGIN + 6 * STEP + 34
    body += [
        svg.text(
            MARGIN + (int(seat) - 1) * 3 * STEP, below, f"seat {seat}: {n} in hand", 14, "start"
        )
        for seat, n in sorted(hands.items())
    ]
    body += _last_turn(state.get("last"))
    return svg.document(2 * MARGIN + 6 * STEP, below + 20, title, body, "dris_et_tessa")


def _last_turn(last: object) -> list[str]:
    """Returns the rings of the last turn (`last`: its text, "g7", "b4-a4" or "d7-d6 xg4"):
    around the point it reached, and dashed around the point a step left."""
    if not isinstance(last, str) or not last:
        return []
    try:
        turn = parse_order(last)
    except InvalidOrderError:  # an unreadable `last` is not drawn (docs/games/dris_et_tessa.md)
        return []
    rings = [svg.circle(*_xy(turn.to), 22, "none", "#000", 'stroke-width="3" class="last"')]
    if turn.origin is not None:
        dashed = 'stroke-width="2" stroke-dasharray="4 3" class="left"'
        rings.append(svg.circle(*_xy(turn.origin), 22, "none", "#000", dashed))
    return rings


def _xy(point: str) -> tuple[float, float]:
    """Returns where a point is drawn: column a-g left to right, row 1 at the bottom."""
    return MARGIN + COLUMNS.index(point[0]) * STEP, MARGIN + (7 - int(point[1:])) * STEP


def _all_points() -> list[str]:
    names = []
    for ring in RINGS:
        for dx in (-ring, 0, ring):
            for dy in (-ring, 0, ring):
                if dx or dy:
                    names.append(f"{COLUMNS[3 + dx]}{4 + dy}")
    return names


def _lines() -> list[str]:
    drawn = []
    for ring in RINGS:
        low, high = COLUMNS[3 - ring] + str(4 - ring), COLUMNS[3 + ring] + str(4 + ring)
        (x1, y2), (x2, y1) = _xy(low), _xy(high)
        drawn.append(svg.rect(x1, y1, x2 - x1, y2 - y1, "none", extra='stroke-width="3"'))
    for a, b in JOINS:
        drawn.append(svg.line(*_xy(a), *_xy(b), 3))
    return drawn


def _rulers() -> list[str]:
    return [svg.text(MARGIN + i * STEP, MARGIN / 3 + 2, COLUMNS[i]) for i in range(7)] + [
        svg.text(MARGIN / 3 + 2, MARGIN + i * STEP, 7 - i) for i in range(7)
    ]


def _point(name: str, seat: int | None) -> str:
    x, y = _xy(name)
    if seat is None:
        # the empty point's hit area, over its dot: the seat's page clicks it (issue 48)
        hit = svg.circle(x, y, 17, "transparent", "none", f'data-cell="{name}" class="spot"')
        return svg.group("point", [svg.circle(x, y, 6, "#222"), hit], f"{name}: empty")
    piece = svg.token(x, y, 17, svg.seat_colour(seat), seat)
    data = {"kind": "piece", "square": name, "seat": seat}
    return svg.group(f"piece seat-{seat}", [piece], f"{name}: a piece of seat {seat}", data)
