"""DRTS Team 23's board (DRTS-1): the 6x7 squares numbered row by row, every seat's
pieces labelled seat and kind (`3F`: the Fire of seat 3) in its team's colour (a Star
ringed), the DeathStars and Blackholes on their squares, and below, per seat: team,
score, items in stock and the pieces out (captured), with the movement they may come
back in."""

from __future__ import annotations

import math
from typing import Any

from api.pages.boards import svg

CELL = 96
COLUMNS, ROWS = 6, 7
MARGIN = 4
KINDS = ("water", "fire", "plant")
TEAM_COLOURS = {"green": "#5fb35f", "yellow": "#f2d24b", "blue": "#5b8fd6", None: "#ffffff"}
ROW = 22  # the height of a line of the seat table


def draw(state: dict[str, Any], title: str) -> str:
    """Returns the board of a DRTS Team 23 state JSON (docs/games/drts_team23.md)."""
    seats: dict[str, dict[str, Any]] = state.get("seats") or {}
    body = [ARROW, *(_square(n) for n in range(1, COLUMNS * ROWS + 1))]
    for square, pieces in _by_square(seats).items():
        body += _pieces(square, pieces)
    body += [_item(item) for item in state.get("board_items") or []]  # arrows over pieces
    top = MARGIN + ROWS * CELL + 14
    body += legend(top)
    top += 4 * ROW
    body += _seat_table(seats, top)
    width = 2 * MARGIN + COLUMNS * CELL
    return svg.document(width, top + ROW * (len(seats) + 1) + 6, title, body, "drts_team23")


def corner_of(square: int) -> tuple[float, float]:
    """Returns the top-left corner of square n (row by row from the top left, DRTS-1)."""
    row, column = divmod(square - 1, COLUMNS)
    return MARGIN + column * CELL, MARGIN + row * CELL


def _square(n: int) -> str:
    x, y = corner_of(n)
    square = f'data-cell="{n}"'  # what the seat's page clicks (issue 48)
    return svg.rect(x, y, CELL, CELL, "#f7f7f2", "#999", square) + svg.text(
        x + CELL - 4, y + 9, n, size=10, anchor="end", fill="#666"
    )


Drawn = tuple[int, str, Any, bool, Any]  # seat, kind, team, has a Star, Generator counter


def _by_square(seats: dict[str, dict[str, Any]]) -> dict[int, list[Drawn]]:
    """Returns the pieces on each square: (seat, kind, team, has a Star, its Generator
    counter or None: DRTS-15)."""
    found: dict[int, list[Drawn]] = {}
    for seat, data in sorted(seats.items(), key=lambda item: int(item[0])):
        for kind in KINDS:
            square = (data.get("pieces") or {}).get(kind)
            if square is not None:
                star = kind in (data.get("stars") or {})
                counter = (data.get("generators") or {}).get(kind)
                piece = (int(seat), kind, data.get("team"), star, counter)
                found.setdefault(int(square), []).append(piece)
    return found


def seat_fill(seat: int, team: Any) -> str:
    """Returns a seat's colour, the same on the board and in the tables (issue 48): its
    team's once it has one, else its seat colour; the seat number is always written."""
    return TEAM_COLOURS[team] if team in TEAM_COLOURS and team else svg.seat_colour(seat)


def _pieces(square: int, pieces: list[Drawn]) -> list[str]:
    x0, y0 = corner_of(square)
    per_row = 3 if len(pieces) <= 12 else 4
    rows = -(-len(pieces) // per_row)
    width, height = (CELL - 8) / per_row, min(26.0, (CELL - 20) / rows - 2)
    drawn = []
    for i, (seat, kind, team, star, counter) in enumerate(pieces):
        row, column = divmod(i, per_row)
        x, y = x0 + 4 + column * width, y0 + 16 + row * (height + 2)
        label = f"{seat}{kind[0].upper()}" + ("#" if counter is not None else "")
        name = f"the {kind.title()} of seat {seat} ({team or 'no team'}) on square {square}"
        if counter is not None:
            name += f", a Generator (counter {counter})"
        parts = piece_parts(kind, x, y, width - 2, height, seat_fill(seat, team), label, star)
        if counter is not None:
            parts += generator_mark(x + width - 8, y + height - 5, counter)
        drawn.append(
            svg.group(
                f"piece seat-{seat} {kind}" + (" star" if star else "")
                + (" generator" if counter is not None else ""),
                parts,
                name + (", a Star" if star else ""),
                {"kind": kind, "square": square, "seat": seat},
            )
        )  # fmt: skip
    return drawn


def shape(kind: str, x: float, y: float, w: float, h: float, fill: str, extra: str = "") -> str:
    """Returns a piece's body, its kind told by its shape: Water a disc, Fire a triangle
    pointing up, Plant a square (the legend says so)."""
    more = f' class="body"{" " + extra if extra else ""}'
    if kind == "water":
        return svg.circle(x + w / 2, y + h / 2, min(w, h) / 2, fill, extra=more.strip())
    if kind == "fire":
        points = f"{x + w / 2:g},{y:g} {x + w:g},{y + h:g} {x:g},{y + h:g}"
        return f'<polygon points="{points}" fill="{fill}" stroke="{svg.INK}"{more}/>'
    side = min(w, h)
    return svg.rect(x + (w - side) / 2, y, side, side, fill, extra=more.strip())


def piece_parts(
    kind: str, x: float, y: float, w: float, h: float, fill: str, label: str, star: bool
) -> list[str]:
    """Returns a piece: its shape in its seat's colour, its label (seat and kind letter),
    and a Star's gold star at its top right (DRTS-13)."""
    outline = 'stroke-width="2.5" stroke-dasharray="3 2"' if star else ""
    low = 0.62 if kind == "fire" else 0.5  # a triangle's label sits in its wider part
    parts = [
        shape(kind, x, y, w, h, fill, outline),
        svg.text(x + w / 2, y + h * low, label + ("*" if star else ""), 10, fill=svg.ink_on(fill),
                 extra='font-weight="bold"'),
    ]  # fmt: skip
    if star:
        parts.append(star_mark(x + w - 3, y + 3, 5))
    return parts


def star_mark(cx: float, cy: float, r: float) -> str:
    """Returns a five-pointed gold star (a Star's mark)."""
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = math.pi / 2 + i * math.pi / 5
        points.append(f"{cx + radius * math.cos(angle):.1f},{cy - radius * math.sin(angle):.1f}")
    return f'<polygon class="star-mark" points="{" ".join(points)}" fill="#ffd700" stroke="#000"/>'


def generator_mark(cx: float, cy: float, counter: object) -> list[str]:
    """Returns a Generator's mark: a dark gear-like badge holding its counter (DRTS-15)."""
    return [
        svg.circle(cx, cy, 6, "#333", "#ffd700", 'class="generator-mark" stroke-width="1.5"'),
        svg.text(cx, cy, counter, 8, fill="#fff"),
    ]


def _item(item: dict[str, Any]) -> str:
    """Returns a board item's group (its mark and label, what the seat's page clicks)
    and, for a DeathStar, its aim beside it: drawn apart, so that the group's box stays
    on its own square."""
    x, y = corner_of(int(item["square"]))
    kind, seat = item.get("item"), item.get("seat")
    data = {"kind": kind, "square": item["square"], "seat": seat}
    aim = ""
    if kind == "deathstar":
        label = f"DS{seat}>{item.get('corner')}"
        name = f"a DeathStar of seat {seat} pointing at {item.get('corner')}"
        parts = _deathstar(x + 12, y + CELL - 12)
        aim = _aim(x + 12, y + CELL - 12, item.get("corner"), seat)
    else:
        label, name = f"BH{seat}", f"a Blackhole of seat {seat}"
        parts = _blackhole(x + 12, y + CELL - 12)
    mark = svg.rect(x + 24, y + CELL - 20, CELL - 27, 17, "#333", extra='rx="8"')
    words = svg.text(x + 24 + (CELL - 27) / 2, y + CELL - 11.5, label, 11, fill="#fff")
    title = f"{name} on square {item['square']}"
    return aim + svg.group(f"item {kind}", [*parts, mark, words], title, data)


def _blackhole(cx: float, cy: float) -> list[str]:
    """Returns a Blackhole: a black disc in rings (DRTS-14)."""
    return [
        svg.circle(cx, cy, 10, "#000", "#7a3cc2", 'class="blackhole-mark" stroke-width="3"'),
        svg.circle(cx, cy, 5, "none", "#7a3cc2"),
    ]


def _deathstar(cx: float, cy: float) -> list[str]:
    """Returns a DeathStar's mark: a grey sphere with its dish (DRTS-11)."""
    return [
        svg.circle(cx, cy, 10, "#777", "#000", 'class="deathstar-mark"'),
        svg.circle(cx - 3, cy - 3, 3, "#ddd", "#000"),
        svg.line(cx - 10, cy, cx + 10, cy),
    ]


def _aim(cx: float, cy: float, corner: Any, seat: Any) -> str:
    """Returns a DeathStar's aim: an arrow from it to the corner square it points at,
    that square outlined (DRTS-11); it takes no clicks."""
    if not (isinstance(corner, int) and 1 <= corner <= COLUMNS * ROWS):
        return ""
    tx, ty = corner_of(corner)
    aimed = 'class="deathstar-target" stroke-width="3" stroke-dasharray="8 4"'
    outline = svg.rect(tx + 2, ty + 2, CELL - 4, CELL - 4, "none", "#c00", aimed)
    arrow = (
        f'<line class="deathstar-aim" x1="{cx:g}" y1="{cy:g}" x2="{tx + CELL / 2:g}" '
        f'y2="{ty + CELL / 2:g}" stroke="#c00" stroke-width="2" stroke-dasharray="6 3" '
        'marker-end="url(#drts-arrow)"/>'
    )
    return (
        f'<g class="aim aim-of-{seat}" pointer-events="none">'
        f"<title>where seat {seat}'s DeathStar points: square {corner}</title>{outline}{arrow}</g>"
    )


LEGEND = (
    ("water", "Water (disc)"),
    ("fire", "Fire (triangle)"),
    ("plant", "Plant (square)"),
    ("star", "Star"),
    ("generator", "Generator (its counter)"),
    ("deathstar", "DeathStar \u2192 its corner"),
    ("blackhole", "Blackhole"),
)


def legend(top: float) -> list[str]:
    """Returns the legend: each kind's shape, and the marks of Stars, Generators,
    DeathStars and Blackholes; colour is the team's (a teamless seat's own), the
    number the seat."""
    parts = [svg.text(MARGIN, top, "Legend:", 12, "start", extra='font-weight="bold"')]
    x, y = MARGIN + 64.0, top
    for key, words in LEGEND:
        if x + 150 > MARGIN + COLUMNS * CELL:
            x, y = MARGIN + 64.0, y + ROW
        icon = _legend_icon(key, x, y)
        entry = svg.text(x + 18, y, words, 11, "start")
        parts.append(f'<g class="legend-entry legend-{key}">{icon}{entry}</g>')
        x += 175
    parts.append(svg.text(MARGIN, y + ROW, "Colour: the seat's team (teamless: the seat's own); "
                          "number: the seat", 11, "start"))  # fmt: skip
    return parts


def _legend_icon(key: str, x: float, y: float) -> str:
    if key in KINDS:
        return shape(key, x, y - 7, 14, 14, "#ddd")
    if key == "star":
        return star_mark(x + 7, y, 7)
    if key == "generator":
        return "".join(generator_mark(x + 7, y, "#"))
    if key == "deathstar":
        return svg.circle(x + 7, y, 7, "#777", "#000", 'class="deathstar-mark"')
    return "".join(_blackhole(x + 7, y)).replace('r="10"', 'r="7"')


ARROW = (
    '<defs><marker id="drts-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
    'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c00"/>'
    "</marker></defs>"
)


def _seat_table(seats: dict[str, dict[str, Any]], top: float) -> list[str]:
    columns = ((MARGIN, "seat"), (60, "team"), (130, "score"), (185, "items S/DS/BH"), (300, "out"))
    rows = [svg.text(x, top, head, 12, "start", extra='font-weight="bold"') for x, head in columns]
    for i, (seat, data) in enumerate(sorted(seats.items(), key=lambda item: int(item[0]))):
        y = top + ROW * (i + 1)
        items = data.get("items") or {}
        stock = "/".join(str(items.get(k, 0)) for k in ("stars", "deathstars", "blackholes"))
        out = ", ".join(f"{k.title()} (back m{m})" for k, m in (data.get("out") or {}).items())
        team = data.get("team")
        cells = (
            f"{seat}" + (" (forfeited)" if data.get("forfeited") else ""),
            team or "none",
            data.get("score", 0),
            stock,
            out or "-",
        )
        fill = seat_fill(int(seat), team)
        swatch = f'class="table-swatch table-swatch-{seat}"'  # the board's colour (issue 48)
        rows.append(svg.rect(56, y - 8, 68, 16, fill, "#999", swatch))
        rows += [
            svg.text(x, y, value, 12, "start") for (x, _), value in zip(columns, cells, strict=True)
        ]
    return rows
