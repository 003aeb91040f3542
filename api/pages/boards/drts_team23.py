"""DRTS Team 23's board (DRTS-1): the 6x7 squares numbered row by row, every seat's
pieces labelled seat and kind (`3F`: the Fire of seat 3) in its team's colour (a Star
ringed), the DeathStars and Blackholes on their squares, and below, per seat: team,
score, items in stock and the pieces out (captured), with the movement they may come
back in."""

from __future__ import annotations

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
    body = [_square(n) for n in range(1, COLUMNS * ROWS + 1)]
    body += [_item(item) for item in state.get("board_items") or []]
    for square, pieces in _by_square(seats).items():
        body += _pieces(square, pieces)
    top = MARGIN + ROWS * CELL + 14
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


def _pieces(square: int, pieces: list[Drawn]) -> list[str]:
    x0, y0 = corner_of(square)
    per_row = 3 if len(pieces) <= 12 else 4
    width, height = (CELL - 8) / per_row, 17
    drawn = []
    for i, (seat, kind, team, star, counter) in enumerate(pieces):
        row, column = divmod(i, per_row)
        x, y = x0 + 4 + column * width, y0 + 16 + row * (height + 2)
        fill = TEAM_COLOURS.get(team, "#ffffff")
        outline = 'stroke-width="3" stroke-dasharray="3 2"' if star else ""
        if counter is not None:  # a Generator: a double border and "#", as the display
            outline = 'stroke-width="3" stroke-dasharray="1 1"'
        label = f"{seat}{kind[0].upper()}" + ("#" if counter is not None else "")
        name = f"the {kind.title()} of seat {seat} ({team or 'no team'}) on square {square}"
        if counter is not None:
            name += f", a Generator (counter {counter})"
        drawn.append(
            svg.group(
                f"piece seat-{seat} {kind}",
                [
                    svg.rect(x, y, width - 2, height, fill, extra=outline + ' rx="4"'),
                    svg.text(
                        x + (width - 2) / 2, y + height / 2, label + ("*" if star else ""), 11
                    ),
                ],
                name + (", a Star" if star else ""),
                {"kind": kind, "square": square, "seat": seat},
            )
        )
    return drawn


def _item(item: dict[str, Any]) -> str:
    x, y = corner_of(int(item["square"]))
    kind, seat = item.get("item"), item.get("seat")
    if kind == "deathstar":
        label = f"DS{seat}>{item.get('corner')}"
        name = f"a DeathStar of seat {seat} pointing at {item.get('corner')}"
    else:
        label, name = f"BH{seat}", f"a Blackhole of seat {seat}"
    mark = svg.rect(x + 3, y + CELL - 20, CELL - 6, 17, "#333", extra='rx="8"')
    words = svg.text(x + CELL / 2, y + CELL - 11.5, label, 11, fill="#fff")
    data = {"kind": kind, "square": item["square"], "seat": seat}
    return svg.group(f"item {kind}", [mark, words], f"{name} on square {item['square']}", data)


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
        rows.append(svg.rect(56, y - 8, 68, 16, TEAM_COLOURS.get(team, "#fff"), "#999"))
        rows += [
            svg.text(x, y, value, 12, "start") for (x, _), value in zip(columns, cells, strict=True)
        ]
    return rows
