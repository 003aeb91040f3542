"""Shades' map (SH-1, SH-2): ground, water (hatched), the tombs (a square marked T and
its owner's number; a razed one crossed out), the shades (discs carrying their owner's
number) and the humans (white discs marked H)."""

from __future__ import annotations

from typing import Any

from api.pages.boards import svg

WIDTH = 560  # the map is scaled to this many units across, whatever its size
WATER = (
    '<defs><pattern id="water" width="8" height="8" patternUnits="userSpaceOnUse">'
    '<rect width="8" height="8" fill="#9ecae1"/><path d="M0 4 Q2 2 4 4 T8 4" '
    'stroke="#3182bd" fill="none"/></pattern></defs>'
)


def draw(state: dict[str, Any], title: str) -> str:
    """Returns the map of a Shades state JSON (docs/games/shades.md)."""
    rows: list[str] = state["config"]["map"]
    cell = WIDTH / max(len(rows[0]), len(rows))
    body = [WATER]
    for y, row in enumerate(rows):
        for x, square in enumerate(row):
            fill = "url(#water)" if square == "~" else "#efe9dc"
            square = f'data-cell="{x},{y}"'  # what the seat's page clicks (issue 48)
            body.append(svg.rect(x * cell, y * cell, cell, cell, fill, "#ccc", square))
    body += [_tomb(tomb, cell) for tomb in state.get("tombs") or []]
    body += [_shade(shade, cell) for shade in state.get("shades") or []]
    body += [_human(human, cell) for human in state.get("humans") or []]
    return svg.document(len(rows[0]) * cell, len(rows) * cell, title, body, "shades")


def _centre(thing: dict[str, Any], cell: float) -> tuple[float, float]:
    return (int(thing["x"]) + 0.5) * cell, (int(thing["y"]) + 0.5) * cell


def _tomb(tomb: dict[str, Any], cell: float) -> str:
    x, y = int(tomb["x"]) * cell, int(tomb["y"]) * cell
    owner, razed = tomb.get("owner"), tomb.get("razed") is not None
    parts = [
        svg.rect(
            x + 2,
            y + 2,
            cell - 4,
            cell - 4,
            "#d9d9d9",
            svg.seat_colour(owner or 8),
            'stroke-width="4"',
        ),
        svg.text(x + cell / 2, y + cell / 4 + 2, f"T{owner}", size=cell / 4),
    ]
    if razed:
        parts += [svg.line(x, y, x + cell, y + cell, 3), svg.line(x + cell, y, x, y + cell, 3)]
    state = "razed" if razed else "standing"
    return svg.group(
        f"tomb seat-{owner}",
        parts,
        f"tomb {tomb['id']} of seat {owner}, {state}, at ({tomb['x']}, {tomb['y']})",
        _data("tomb", tomb, owner),
    )


def _shade(shade: dict[str, Any], cell: float) -> str:
    x, y = _centre(shade, cell)
    owner = int(shade["owner"])
    piece = svg.token(x, y + cell * 0.14, cell * 0.27, svg.seat_colour(owner), owner)
    return svg.group(
        f"shade seat-{owner}",
        [piece],
        f"shade {shade['id']} of seat {owner} at ({shade['x']}, {shade['y']})",
        _data("shade", shade, owner),
    )


def _human(human: dict[str, Any], cell: float) -> str:
    x, y = _centre(human, cell)
    piece = svg.token(x, y, cell * 0.28, "#ffffff", "H")
    label = f"human {human['id']} at ({human['x']}, {human['y']})"
    return svg.group("human", [piece], label, _data("human", human, None))


def _data(kind: str, thing: dict[str, Any], owner: Any) -> dict[str, object]:
    """Returns a thing's data attributes: its kind, id, square `x,y` and owner."""
    return {"kind": kind, "id": thing["id"], "square": f"{thing['x']},{thing['y']}", "seat": owner}
