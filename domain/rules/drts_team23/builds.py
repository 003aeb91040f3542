"""Building DeathStars and Blackholes in DRTS Team 23 v2 (DRTS-11, DRTS-13, DRTS-14).

A DeathStar or Blackhole invoked with a move appears, after the moves, on
the square its piece left. It is not built, and nothing is consumed, if an
own or ally piece stands on that square after the moves, or if two or more
builds (from any seats, one seat included) target that square (DRTS-14).
"Own or ally" is judged with the teams at the start of the movement, like
every operation (DRTS-5). A built item costs its seat one from its stock.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from domain.rules.contract import JSON, Step
from domain.rules.drts_team23.orders import Order
from domain.rules.drts_team23.state import BoardItem, Item, Seat, Squares, State, Stock

_STOCK_FIELD = {Item.DEATHSTAR: "deathstars", Item.BLACKHOLE: "blackholes"}
_NAMES = {Item.DEATHSTAR: "DeathStar", Item.BLACKHOLE: "Blackhole"}


@dataclass(frozen=True)
class Build:
    """One DeathStar or Blackhole a move invokes: its seat, the item, the square its piece
    left and the DeathStar's corner."""

    seat: int
    item: Item
    square: int
    corner: int | None


def builds_of(state: State, orders: Sequence[tuple[int, Order]]) -> list[Build]:
    """Returns the builds the orders invoke, by seat then operation (state: before the moves)."""
    found = []
    for seat, order in sorted(orders, key=lambda pair: pair[0]):
        for operation in order.operations:
            if operation.item in _STOCK_FIELD:
                square = state.piece(seat, operation.piece).square
                assert square is not None and operation.item is not None  # checked: a move
                found.append(Build(seat, operation.item, square, operation.corner))
    return found


def build_items(
    before: State, moved: State, orders: Sequence[tuple[int, Order]]
) -> tuple[State, tuple[Step, ...]]:
    """Returns `moved` with the builds of DRTS-14 that succeed on the board, their stock
    consumed, and one step per build, built or not."""
    builds = builds_of(before, orders)
    if not builds:
        return moved, ()
    targets = Counter(build.square for build in builds)
    squares = moved.squares
    taken = {item.square for item in moved.board_items}
    items, seats, steps = list(moved.board_items), list(moved.seats), []
    for build in builds:
        reason = _conflict(before, moved, squares, taken, targets, build)
        if reason:
            steps.append(_step(build, False, reason))
            continue
        items.append(BoardItem(build.item, build.square, build.seat, build.corner))
        seats[build.seat - 1] = _consume(seats[build.seat - 1], build.item)
        steps.append(_step(build, True, ""))
    board = tuple(sorted(items, key=lambda item: item.square))
    return moved.changed(board_items=board, seats=tuple(seats)), tuple(steps)


def _conflict(
    before: State,
    moved: State,
    squares: Squares,
    taken: set[int],
    targets: Counter[int],
    build: Build,
) -> str:
    if targets[build.square] > 1:
        return f"{targets[build.square]} builds target square {build.square}"
    sides = before.sides
    for index in squares.get(build.square, ()):
        piece = moved.pieces[index]
        if sides[piece.seat - 1] == sides[build.seat - 1]:
            owner = "an own" if piece.seat == build.seat else "an ally"
            return f"{owner} piece ({piece.label}) stands on square {build.square}"
    if build.square in taken:
        return f"square {build.square} already holds a DeathStar or Blackhole"
    return ""


def _consume(seat: Seat, item: Item) -> Seat:
    stock = seat.stock
    if item is Item.DEATHSTAR:
        return seat.with_stock(Stock(stock.stars, stock.deathstars - 1, stock.blackholes))
    return seat.with_stock(Stock(stock.stars, stock.deathstars, stock.blackholes - 1))


def _step(build: Build, built: bool, reason: str) -> Step:
    name = _NAMES[build.item]
    pointing = f" pointing at {build.corner}" if build.corner is not None else ""
    data: dict[str, JSON] = {
        "seat": build.seat,
        "item": str(build.item),
        "square": build.square,
        "built": built,
    }
    if build.corner is not None:
        data["corner"] = build.corner
    if built:
        text = f"Seat {build.seat} builds a {name} on square {build.square}{pointing}"
        return Step("DRTS-11" if build.item is Item.DEATHSTAR else "DRTS-13", text, data)
    data["reason"] = reason
    text = (
        f"Seat {build.seat}'s {name} on square {build.square} is not built: {reason}; "
        "nothing is consumed"
    )
    return Step("DRTS-14", text, data)
