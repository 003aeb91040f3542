"""What the seat's page lets a player click (issue 48): the legal orders of
GET /matches/{id}/legal-orders (service/queries/legal.py), each turned into the clicks that build
it on the board. Every legal unit (a whole order where the game lists them, a command
where it lists per-piece commands) becomes `{"path", "text", "piece", "label", "spends"}`: `path`
the board keys clicked in turn (a point or square: the `data-cell` or `data-square` the
board drawing gives the element; a piece by `kind#id`, its `data-kind` and `data-id`, or
`kind@seat`, its `data-kind` and `data-seat`; a
key no element carries is offered as a button only), `text` the unit's text form,
`piece` what it commands (two units of one piece never stand together) and `label` what
a screen reader says.

The page's static/seat.js reads the picker from a JSON data block: the page holds the
session, not the seat's token, so the page cannot call the API itself; rendering the
answer server-side keeps the token off the page and costs no second request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.errors import InvalidOrderError
from domain.rules.dris_et_tessa.notation import parse_order as parse_dris

Unit = dict[str, Any]
Paths = Callable[[dict[str, Any], int], list[str]]


def picker(legal: dict[str, Any]) -> dict[str, Any] | None:
    """Returns the page's picker for a legal-orders answer, or None when the seat owes
    nothing now or its game has no clicking yet (the text box remains)."""
    paths = PATHS.get(str(legal["ruleset"]))
    if not legal["owes"] or paths is None:
        return None
    seat, whole = int(legal["seat"]), legal["pieces"] is None  # by piece where it can
    listed_orders = (legal["orders"] or []) if whole else []
    units = [_unit(paths, listed, None, seat) for listed in listed_orders]
    for piece in legal["pieces"] or []:
        units += [_unit(paths, one, str(piece["piece"]), seat) for one in piece["commands"]]
    combining = legal["combining"] or {}
    return {
        "seat": seat,
        "whole": whole,
        "units": units,
        "max_pieces": combining.get("max_pieces"),
        "free": combining.get("free") or [],
        "stock": combining.get("stock") or {},
        "repeats": combining.get("repeats") or {},
        "ordered": combining.get("ordered") or {},  # the standing order's pieces, their spends
        "joiner": "\n" if legal["ruleset"] == "b_chess" else "; ",
        "rule": combining.get("rule", ""),
    }


def _unit(paths: Paths, listed: dict[str, Any], piece: str | None, seat: int) -> Unit:
    text = str(listed["text"])
    path = paths(listed, seat) or [text]
    spends = listed.get("spends") or {}
    return {
        "path": path,
        "text": text,
        "piece": piece,
        "label": _label(text, listed),
        "spends": spends,
    }


def _label(text: str, listed: dict[str, Any]) -> str:
    note = listed.get("note")
    return f"{text} ({note})" if note else text


def district_war(listed: dict[str, Any], seat: int) -> list[str]:
    """A cell (DW-3) is one click on it; the DMO's choice (DW-2) is a button."""
    place = listed["json"].get("place")
    return [str(place)] if place else []


def dris_et_tessa(listed: dict[str, Any], seat: int) -> list[str]:
    """A placement is a click on the point; a step, on the piece then the point it
    reaches (DT-2); a removal after a mill, then on the enemy piece (DT-3, DT-4)."""
    try:
        turn = parse_dris(str(listed["text"]))
    except InvalidOrderError:
        return []
    path = [turn.to] if turn.origin is None else [turn.origin, turn.to]
    return path + ([turn.remove] if turn.remove else [])


def shades(listed: dict[str, Any], seat: int) -> list[str]:
    """A command is a click on the shade, then on the square it goes to, its own to stay
    (SH-4)."""
    command = listed["json"]["data"][0]
    target = command["target"]
    return [f"shade#{command['id']}", f"{target['x']},{target['y']}"]


def drts_team23(listed: dict[str, Any], seat: int) -> list[str]:
    """An operation is a click on the seat's piece (`kind@seat`), then on the square it
    moves to (DRTS-5, DRTS-6) or `hold` or `recover` then the square; an item after it
    (DRTS-21), a DeathStar then its corner square (DRTS-11). A team request is a button."""
    operations = listed["json"].get("operations") or []
    if not operations:
        return []
    words = str(listed["text"]).split()[1:]
    keys = [word.split(">")[1] if ">" in word else word for word in words]
    return [f"{operations[0]['piece']}@{seat}", *keys]


def b_chess(listed: dict[str, Any], seat: int) -> list[str]:
    """An action is a click on the object (by its id, BC-3), then on the square it goes to;
    a purchase (BC-6) is a button."""
    action = listed["json"]["actions"][0]
    if action.get("action") != "move":
        return []
    name, (row, column) = str(action["piece"]), action["to"]
    return [f"{name[0]}#{name}", f"{row},{column}"]


PATHS: dict[str, Paths] = {
    "b_chess": b_chess,
    "drts_team23": drts_team23,
    "district_war": district_war,
    "dris_et_tessa": dris_et_tessa,
    "shades": shades,
}
