"""Small SVG builders the board drawings share: escaped text, shapes, seat colours.

Every function returns SVG markup as a string; every text given is escaped. A
piece never relies on its colour alone: each drawing labels it (a seat number,
a letter) as well. Each piece's group carries data attributes naming it as the
state JSON does (`data-square`, `data-seat`, `data-id`, `data-kind`): the
matrix test (tests/matrix/) reads them back and compares them with /state.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

# Eight colours told apart by most colour-blind readers (Okabe-Ito, then grey); the
# labels carry the seat anyway.
SEAT_COLOURS = (
    "#0072b2",
    "#d55e00",
    "#009e73",
    "#cc79a7",
    "#e69f00",
    "#56b4e9",
    "#f0e442",
    "#999999",
)
INK = "#222"
PAPER = "#fff"


def seat_colour(seat: int) -> str:
    """Returns the fill colour of seat `seat` (1-based; wraps past eight)."""
    return SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)]


def document(width: float, height: float, title: str, body: list[str], kind: str) -> str:
    """Returns a whole <svg> element: scalable (viewBox), with a <title> for readers."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-{escape(kind)}" '
        f'viewBox="0 0 {width:g} {height:g}" role="img" preserveAspectRatio="xMidYMin meet">'
        f"<title>{escape(title)}</title>{''.join(body)}</svg>"
    )


def rect(
    x: float, y: float, w: float, h: float, fill: str, stroke: str = INK, extra: str = ""
) -> str:
    """Returns a rectangle."""
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" '
        f'fill="{fill}" stroke="{stroke}"{_extra(extra)}/>'
    )


def circle(x: float, y: float, r: float, fill: str, stroke: str = INK, extra: str = "") -> str:
    """Returns a circle."""
    return (
        f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{fill}" stroke="{stroke}"{_extra(extra)}/>'
    )


def line(x1: float, y1: float, x2: float, y2: float, width: float = 1, stroke: str = INK) -> str:
    """Returns a straight line."""
    return (
        f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
        f'stroke="{stroke}" stroke-width="{width:g}"/>'
    )


def text(
    x: float,
    y: float,
    content: object,
    size: float = 12,
    anchor: str = "middle",
    fill: str = INK,
    extra: str = "",
) -> str:
    """Returns text whose baseline is centred on (x, y) for anchor "middle"."""
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}" '
        f'dominant-baseline="central" fill="{fill}"{_extra(extra)}>{escape(str(content))}</text>'
    )


def group(
    css_class: str,
    parts: list[str],
    label: str | None = None,
    data: Mapping[str, object] | None = None,
) -> str:
    """Returns a <g> of parts; a label becomes the group's own <title> (a tooltip), and
    `data` its data-* attributes: what a piece is, by the state JSON's own values
    (`square`, `seat`, `id`, `kind`), for a reader that checks the board against it."""
    title = f"<title>{escape(label)}</title>" if label else ""
    attributes = "".join(
        f' data-{escape(name)}="{escape(str(value))}"'
        for name, value in (data or {}).items()
        if value is not None
    )
    return f'<g class="{escape(css_class)}"{attributes}>{title}{"".join(parts)}</g>'


def token(x: float, y: float, r: float, fill: str, label: object, extra: str = "") -> str:
    """Returns a round piece with its label written on it, in ink that reads on `fill`."""
    return circle(x, y, r, fill, extra=extra) + text(
        x, y, label, size=r * 1.1, fill=ink_on(fill), extra=' font-weight="bold"'
    )


def ink_on(fill: str) -> str:
    """Returns black or white, whichever reads better on the colour `fill` (#rrggbb)."""
    if not (fill.startswith("#") and len(fill) == 7):
        return INK
    red, green, blue = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else PAPER


def _extra(extra: str) -> str:
    return f" {extra}" if extra else ""
