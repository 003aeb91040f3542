"""B-Chess's Field (BC-1): 20x20 squares, `0,0` the top left, each object drawn with its
id (`K3`: the King numbered 3, as orders name it, BC-3) in its owner's colour; below it
the Priority List top first (BC-4), naming each object's seat, and each seat's macks
(BC-7), in columns: the drawing is the Field's width, so it scales to a phone's width
with readable squares (issue 48)."""

from __future__ import annotations

from typing import Any

from api.pages.boards import svg

CELL = 26
SIZE = 20
MARGIN = 22
WIDTH = MARGIN + SIZE * CELL + MARGIN
LIST_TOP = MARGIN + SIZE * CELL + 24  # below the Field
LINE = 15
COLUMNS = 3  # the Priority List's and the macks' columns
COLUMN = (WIDTH - 2 * MARGIN) // COLUMNS
KINDS = {"K": "King", "Q": "Queen", "R": "Rook", "B": "Bishop", "N": "Knight", "P": "Pawn"}


def draw(state: dict[str, Any], title: str) -> str:
    """Returns the Field of a B-Chess state JSON (docs/games/b_chess.md)."""
    listed: list[dict[str, Any]] = state.get("priority_list") or []
    body = [_square(row, col) for row in range(SIZE) for col in range(SIZE)] + _rulers()
    body += [_object(item) for item in listed]
    body += _priority_list(listed, state.get("seats") or {})
    height = LIST_TOP + LINE * (_rows(len(listed)) + _rows(len(state.get("seats") or {})) + 3)
    return svg.document(WIDTH, height, title, body, "b_chess")


def _rows(count: int) -> int:
    return -(-count // COLUMNS)


def _at(i: int, count: int, top: float) -> tuple[float, float]:
    """Returns where line `i` (0 first) of `count` goes: down each column, then across."""
    rows = max(1, _rows(count))
    return MARGIN + (i // rows) * COLUMN, top + LINE * (i % rows + 1)


def _square(row: int, col: int) -> str:
    fill = "#eeeed2" if (row + col) % 2 == 0 else "#b8c99a"
    square = f'data-cell="{row},{col}"'  # what the seat's page clicks (issue 48)
    return svg.rect(MARGIN + col * CELL, MARGIN + row * CELL, CELL, CELL, fill, "none", square)


def _rulers() -> list[str]:
    middle = MARGIN + CELL / 2
    return [svg.text(middle + i * CELL, MARGIN / 2, i, 9) for i in range(SIZE)] + [
        svg.text(MARGIN / 2, middle + i * CELL, i, 9) for i in range(SIZE)
    ]


def _object(item: dict[str, Any]) -> str:
    """Returns an object labelled with its id, as orders name it (`K3 > 4,5`: BC-3), in its
    owner's colour, the owner in its title (and the Priority List below)."""
    row, col = item["square"]
    owner, name = int(item["owner"]), str(item["id"])
    x, y = MARGIN + col * CELL, MARGIN + row * CELL
    fill = svg.seat_colour(owner)
    size = 12 if len(name) <= 2 else 9
    ink, bold = svg.ink_on(fill), 'font-weight="bold"'
    parts = [
        svg.rect(x + 1.5, y + 1.5, CELL - 3, CELL - 3, fill, extra='rx="5"'),
        svg.text(x + CELL / 2, y + CELL / 2, name, size, fill=ink, extra=bold),
    ]
    title = f"{name}: a {KINDS.get(name[0], name[0])} of seat {owner} on {row},{col}"
    data = {"kind": name[0], "id": name, "square": f"{row},{col}", "seat": owner}
    return svg.group(f"object seat-{owner}", parts, title, data)


def _priority_list(listed: list[dict[str, Any]], seats: dict[str, Any]) -> list[str]:
    lines = [svg.text(MARGIN, LIST_TOP, "Priority List (top first)", 13, "start",
                      extra='font-weight="bold"')]  # fmt: skip
    for i, item in enumerate(listed):
        row, col = item["square"]
        x, y = _at(i, len(listed), LIST_TOP)
        swatch = svg.rect(x, y - 5, 10, 10, svg.seat_colour(int(item["owner"])))
        words = f"{i + 1}. {item['id']} seat {item['owner']} at {row},{col}"
        lines += [swatch, svg.text(x + 14, y, words, 11, "start")]
    top = LIST_TOP + LINE * (_rows(len(listed)) + 1.5)
    lines.append(svg.text(MARGIN, top, "Macks", 13, "start", extra='font-weight="bold"'))
    for i, (seat, data) in enumerate(sorted(seats.items(), key=lambda kv: int(kv[0]))):
        out = " (out)" if data.get("out") else ""
        x, y = _at(i, len(seats), top)
        lines.append(svg.text(x, y, f"seat {seat}: {data.get('macks')}{out}", 11, "start"))
    return lines
