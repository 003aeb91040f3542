"""The movement phase of a Shades turn: every command at once (SH-1, SH-3, SH-4), then
collisions (SH-3).

All commands are judged against one snapshot, the state at the start of the
turn (SH-3), so no seat's moves depend on another's. For each seat's order,
command by command: a command for a shade that is not on the board, or not
the seat's, is ignored; only the first command for a shade counts, even an
invalid one (SH-4); a command whose target is not the shade's square or one
step N/E/S/W of it, is off the map or is water leaves the shade in place
(SH-1, SH-4). Each seat's refused commands are one SH-4 step, with a reason
each; its moves are one SH-1 step; the seats' steps come in seat order, so
not even the steps depend on the order in which the orders arrived. Then
every shade on a square shared with another dies, whoever owns them (SH-3):
a swap is no collision, since only the squares where the shades end up
count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from domain.rules.contract import JSON, Step
from domain.rules.shades.board import Board, Square
from domain.rules.shades.orders import DELTAS, Command, Direction, Order, format_command
from domain.rules.shades.state import Shade, State


def move_shades(state: State, orders: Sequence[tuple[int, Order]]) -> tuple[State, list[Step]]:
    """Returns the state with every valid command applied at once, and the steps."""
    board = state.settings.board
    by_id = {shade.id: shade for shade in state.shades}
    targets: dict[int, Square] = {}
    steps: list[Step] = []
    for seat, order in sorted(orders, key=lambda item: item[0]):  # steps in seat order
        moves: list[tuple[Shade, Square]] = []
        refused: list[tuple[Command, str]] = []
        for command in order.commands:
            reason = _ignored(by_id.get(command.shade), seat, command, targets)
            if reason:
                refused.append((command, reason))
                continue
            shade = by_id[command.shade]
            target, reason = _target(board, shade, command.to)
            targets[shade.id] = target
            if reason:
                refused.append((command, reason))
            elif target != shade.square:
                moves.append((shade, target))
        steps += _move_steps(seat, moves, refused)
    shades = tuple(
        replace(s, x=targets[s.id][0], y=targets[s.id][1]) if s.id in targets else s
        for s in state.shades
    )
    return replace(state, shades=shades), steps


def collide(state: State) -> tuple[State, list[Step]]:
    """Returns the state without the shades that share a square, and one SH-3 step each
    square (SH-3: all of them die, one owner's too)."""
    squares: dict[Square, list[Shade]] = {}
    for shade in state.shades:
        squares.setdefault(shade.square, []).append(shade)
    shared = [group for group in squares.values() if len(group) > 1]
    if not shared:
        return state, []
    dead = {shade.id for group in shared for shade in group}
    steps = [_collision_step(group) for group in sorted(shared, key=lambda g: g[0].id)]
    return replace(state, shades=tuple(s for s in state.shades if s.id not in dead)), steps


def _ignored(
    shade: Shade | None, seat: int, command: Command, targets: dict[int, Square]
) -> str | None:
    if shade is None:
        return f"there is no shade {command.shade}: ignored"
    if shade.owner != seat:
        return f"shade {shade.id} belongs to seat {shade.owner}: ignored"
    if shade.id in targets:
        return f"shade {shade.id} already has a command: only the first one counts (SH-4)"
    return None


def _target(board: Board, shade: Shade, to: Square | Direction) -> tuple[Square, str | None]:
    """Returns where the shade ends up and, for an invalid command, why it stays (SH-1)."""
    x, y = shade.square
    if isinstance(to, Direction):
        dx, dy = DELTAS[to]
        target = (x + dx, y + dy)
    else:
        target = to
    if abs(target[0] - x) + abs(target[1] - y) > 1:
        reason = f"{target} is not ({x}, {y}) or one step N, E, S or W of it"
    elif not board.inside(target):
        reason = f"{target} is off the map"
    elif target in board.water:
        reason = f"{target} is water"
    else:
        return target, None
    return shade.square, f"{reason}: shade {shade.id} stays (SH-1, SH-4)"


def _move_steps(
    seat: int, moves: list[tuple[Shade, Square]], refused: list[tuple[Command, str]]
) -> list[Step]:
    steps = []
    if moves:
        text = f"Seat {seat} moves " + ", ".join(
            f"shade {shade.id} ({shade.x}, {shade.y}) to {target}" for shade, target in moves
        )
        data: dict[str, JSON] = {
            "seat": seat,
            "moves": [[shade.id, shade.x, shade.y, x, y] for shade, (x, y) in moves],
        }
        steps.append(Step("SH-1", text, data))
    if refused:
        text = f"Seat {seat}: " + "; ".join(
            f"'{format_command(command)}': {reason}" for command, reason in refused
        )
        data = {
            "seat": seat,
            "refused": [
                {"command": format_command(command), "reason": reason}
                for command, reason in refused
            ],
        }
        steps.append(Step("SH-4", text, data))
    return steps


def _collision_step(group: list[Shade]) -> Step:
    x, y = group[0].square
    names = ", ".join(f"shade {shade.id} of seat {shade.owner}" for shade in group)
    owners = sorted({shade.owner for shade in group})
    note = " (one owner's shades die too)" if len(owners) == 1 else ""
    data: dict[str, JSON] = {
        "x": x,
        "y": y,
        "killed": [[shade.id, shade.owner] for shade in group],
    }
    return Step("SH-3", f"Collision on ({x}, {y}): {names} all die{note}", data)
