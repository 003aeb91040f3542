"""B-Chess's Field (BC-1): 20x20 squares, `0,0` the top left, each object drawn with its
id (`K3`: the King numbered 3, as orders name it, BC-3) in its owner's colour; beside it
the Priority List top first (BC-4), naming each object's seat, and each seat's macks
(BC-7)."""

from __future__ import annotations

from typing import Any

from api.pages.boards import svg

CELL = 26
SIZE = 20
MARGIN = 22
LIST_X = MARGIN + SIZE * CELL + 16
LINE = 15
KINDS = {"K": "King", "Q": "Queen", "R": "Rook", "B": "Bishop", "N": "Knight", "P": "Pawn"}


def draw(state: dict[str, Any], title: str) -> str:
    """Returns the Field of a B-Chess state JSON (docs/games/b_chess.md)."""
    listed: list[dict[str, Any]] = state.get("priority_list") or []
    body = [_square(row, col) for row in range(SIZE) for col in range(SIZE)] + _rulers()
    body += [_object(item) for item in listed]
    body += _priority_list(listed, state.get("seats") or {})
    field = MARGIN + SIZE * CELL + 4
    height = max(field, MARGIN + LINE * (len(listed) + len(state.get("seats") or {}) + 4))
    return svg.document(LIST_X + 230, height, title, body, "b_chess")


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
    owner's colour, the owner in its title (and the Priority List beside)."""
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
    lines = [svg.text(LIST_X, MARGIN, "Priority List (top first)", 13, "start",
                      extra='font-weight="bold"')]  # fmt: skip
    for i, item in enumerate(listed, start=1):
        row, col = item["square"]
        swatch = svg.rect(
            LIST_X, MARGIN + LINE * i - 5, 10, 10, svg.seat_colour(int(item["owner"]))
        )
        words = f"{i}. {item['id']} seat {item['owner']} at {row},{col}"
        lines += [swatch, svg.text(LIST_X + 14, MARGIN + LINE * i, words, 11, "start")]
    top = MARGIN + LINE * (len(listed) + 2)
    lines.append(svg.text(LIST_X, top, "Macks", 13, "start", extra='font-weight="bold"'))
    for i, (seat, data) in enumerate(sorted(seats.items(), key=lambda kv: int(kv[0])), 1):
        out = " (out)" if data.get("out") else ""
        lines.append(
            svg.text(LIST_X, top + LINE * i, f"seat {seat}: {data.get('macks')}{out}", 11, "start")
        )
    return lines
