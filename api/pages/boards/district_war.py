"""District War's board (DW-1): the 7x7 cells, the districts' borders and labels, the
troops (DW-3) as discs carrying their seat's number, the last placement ringed."""

from __future__ import annotations

from typing import Any

from api.pages.boards import svg

CELL = 60
MARGIN = 24
SIZE = 7
COLUMNS = "abcdefg"


def draw(state: dict[str, Any], title: str) -> str:
    """Returns the board of a District War state JSON (docs/games/district_war.md)."""
    board: list[str] = state["config"]["board"]
    cells: dict[str, int] = state.get("cells") or {}
    last = (state.get("placements") or [None])[-1]
    body = [_cell(board, x, y) for y in range(SIZE) for x in range(SIZE)]
    body += _borders(board) + _rulers()
    body += [_troop(cell, seat, cell == last) for cell, seat in sorted(cells.items())]
    side = MARGIN + SIZE * CELL + 4
    return svg.document(side, side, title, body, "district_war")


def _cell(board: list[str], x: int, y: int) -> str:
    left, top = MARGIN + x * CELL, MARGIN + y * CELL
    shade = "#f4f1e8" if (ord(board[y][x]) % 2) else "#e2ead8"
    cell = f'data-cell="{COLUMNS[x]}{y + 1}"'  # what the seat's page clicks (issue 48)
    return svg.rect(left, top, CELL, CELL, shade, "#bbb", cell) + svg.text(
        left + 9, top + 9, board[y][x], size=11, fill="#555"
    )


def _borders(board: list[str]) -> list[str]:
    """Returns thick lines where two neighbouring cells lie in different districts."""
    lines = []
    for y in range(SIZE):
        for x in range(SIZE):
            left, top = MARGIN + x * CELL, MARGIN + y * CELL
            if x + 1 < SIZE and board[y][x] != board[y][x + 1]:
                lines.append(svg.line(left + CELL, top, left + CELL, top + CELL, 3))
            if y + 1 < SIZE and board[y][x] != board[y + 1][x]:
                lines.append(svg.line(left, top + CELL, left + CELL, top + CELL, 3))
    edge = SIZE * CELL
    lines.append(svg.rect(MARGIN, MARGIN, edge, edge, "none", extra='stroke-width="3"'))
    return lines


def _rulers() -> list[str]:
    """Returns the column letters above and the row numbers (1 at the top) beside."""
    middle = MARGIN + CELL / 2
    return [svg.text(middle + i * CELL, MARGIN / 2, COLUMNS[i]) for i in range(SIZE)] + [
        svg.text(MARGIN / 2, middle + i * CELL, i + 1) for i in range(SIZE)
    ]


def _troop(cell: str, seat: int, last: bool) -> str:
    x = MARGIN + COLUMNS.index(cell[0]) * CELL + CELL / 2
    y = MARGIN + (int(cell[1:]) - 1) * CELL + CELL / 2 + 4
    ring = svg.circle(x, y, CELL * 0.38, "none", "#000", 'stroke-width="3"') if last else ""
    label = f"troop of seat {seat} on {cell}" + (" (the last placed)" if last else "")
    return svg.group(
        f"troop seat-{seat}",
        [ring, svg.token(x, y, CELL * 0.3, svg.seat_colour(seat), seat)],
        label,
        {"kind": "troop", "square": cell, "seat": seat},
    )
