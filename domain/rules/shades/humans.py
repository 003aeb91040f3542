"""Humans in a Shades turn: spawning from stored humans, conversion and births (SH-3, SH-8).

Spawning: for each seat still alive, in seat order, the list of its standing
tombs with no shade on them (any seat's) is shuffled with the turn's Rng, and
one new shade rises on the next tomb of that list for each stored human;
humans left over when the free tombs run out stay stored. Eliminated seats
spawn nothing.

Conversion: every shade marks the humans within the conversion range (its
own square and the four next to it, SH-1) for its seat; a human marked by
one seat only is converted (taken off the map and stored by that seat); a
human marked by two seats or more is lost to all (its soul escapes, SH-12),
or, under SH-12's option (the original server's), stored by the seat of the
first shade found on (x-1, y), (x, y-1), (x, y), (x, y+1), (x+1, y); either
way it leaves the map.
Eliminated seats' shades still mark and convert (SH-7: they stay in play),
though such a seat never spawns again.

Births (SH-8): with R = cap - humans on the map, none if R = 0; otherwise
with probability 2/100 all R, else with probability 3/10 none, else a uniform
number from 1 to ceil(3R/10); each on a uniformly drawn square of the map
that is not water, occupied or not.

Every draw comes from the turn's Rng and is recorded in the phase's steps.
"""

from __future__ import annotations

from dataclasses import replace

from domain.rules.contract import JSON, Step
from domain.rules.rng import Rng
from domain.rules.shades.board import CONVERSION_OFFSETS, Square
from domain.rules.shades.config import ContestedHuman
from domain.rules.shades.state import Human, Shade, State

MASS_BIRTH = (2, 100)  # SH-8: all R at once
NO_BIRTH = (3, 10)  # SH-8: none this turn
BIRTH_SHARE = (3, 10)  # SH-8: at most ceil(0.3 R)
# SH-12 option: the original server's search for a contested human's shade, in this order
FIRST_FOUND_OFFSETS: tuple[Square, ...] = ((-1, 0), (0, -1), (0, 0), (0, 1), (1, 0))


def spawn(state: State, rng: Rng) -> tuple[State, list[Step]]:
    """Returns the state after spawning (SH-3), and one step a seat that had stored humans
    and a free tomb (recording the shuffled tombs)."""
    occupied = {shade.square for shade in state.shades}
    shades, steps = list(state.shades), []
    seats, next_id = list(state.seats), state.next_shade
    for seat in state.seats:
        if not seat.alive or not seat.stored:
            continue
        free = [t for t in state.standing_tombs if t.owner == seat.number]
        free = [t for t in free if t.square not in occupied]
        if not free:
            continue
        order = rng.shuffled(free)
        risen = [
            Shade(next_id + i, seat.number, t.x, t.y) for i, t in enumerate(order[: seat.stored])
        ]
        next_id += len(risen)
        shades += risen
        left = seat.stored - len(risen)
        seats[seat.number - 1] = replace(seat, stored=left)
        text = (
            f"Seat {seat.number} spawns {len(risen)} shade(s) from {seat.stored} stored "
            f"human(s) on its free tombs, shuffled {[t.id for t in order]}: "
            + ", ".join(
                f"shade {s.id} on tomb {t.id} ({t.x}, {t.y})"
                for s, t in zip(risen, order, strict=False)
            )
            + f"; {left} stay stored"
        )
        data: dict[str, JSON] = {
            "seat": seat.number,
            "shuffled": [t.id for t in order],
            "spawned": [[s.id, t.id] for s, t in zip(risen, order, strict=False)],
            "stored": left,
        }
        steps.append(Step("SH-3", text, data))
    return replace(state, shades=tuple(shades), seats=tuple(seats), next_shade=next_id), steps


def convert(state: State) -> tuple[State, list[Step]]:
    """Returns the state after conversion (SH-3): one step a converting seat, then one a
    human marked by several seats (SH-12, `_contest`)."""
    owner_at: dict[Square, int] = {shade.square: shade.owner for shade in state.shades}
    converted: dict[int, list[Human]] = {}
    contested: list[tuple[Human, list[int]]] = []
    kept = []
    for human in state.humans:
        x, y = human.square
        marks = sorted(
            {owner for dx, dy in CONVERSION_OFFSETS if (owner := owner_at.get((x + dx, y + dy)))}
        )
        if not marks:
            kept.append(human)
        elif len(marks) == 1:
            converted.setdefault(marks[0], []).append(human)
        else:
            contested.append((human, marks))
    if not converted and not contested:
        return state, []
    stored = {
        seat.number: seat.stored + len(converted.get(seat.number, ())) for seat in state.seats
    }
    steps = [_conversion_step(n, humans, stored[n]) for n, humans in sorted(converted.items())]
    for human, marks in contested:
        steps.append(_contest(state, owner_at, human, marks, stored))
    seats = tuple(replace(seat, stored=stored[seat.number]) for seat in state.seats)
    return replace(state, seats=seats, humans=tuple(kept)), steps


def _contest(
    state: State,
    owner_at: dict[Square, int],
    human: Human,
    marks: list[int],
    stored: dict[int, int],
) -> Step:
    """Returns the step of a human marked by several seats, crediting `stored` under SH-12's
    option: the seat of the first shade found in FIRST_FOUND_OFFSETS' order gets it."""
    rule = state.settings.contested_rule
    data: dict[str, JSON] = {"human": human.id, "x": human.x, "y": human.y, "seats": marks}
    seats = ", ".join(map(str, marks))
    where = f"Human {human.id} on ({human.x}, {human.y}) is marked by seats {seats}"
    if state.settings.contested_human is not ContestedHuman.FIRST_FOUND:
        text = f"{where}: its soul escapes and no seat converts it ({rule})"
        return Step(rule, text, data)
    x, y = human.square
    square = next(
        (x + dx, y + dy) for dx, dy in FIRST_FOUND_OFFSETS if (x + dx, y + dy) in owner_at
    )
    seat = owner_at[square]
    stored[seat] += 1
    text = (
        f"{where}: seat {seat}'s shade on {square} is found first, searching (x-1, y), "
        f"(x, y-1), (x, y), (x, y+1), (x+1, y): seat {seat} stores it; it stores "
        f"{stored[seat]} ({rule} option)"
    )
    return Step(rule, text, {**data, "seat": seat, "stored": stored[seat]})


def births(state: State, rng: Rng) -> tuple[State, list[Step]]:
    """Returns the state after the births of SH-8 and the step recording every draw (none
    when the map holds its cap of humans: nothing is drawn)."""
    room = state.human_cap - len(state.humans)
    if room <= 0:
        return state, []
    mass = rng.chance(*MASS_BIRTH)
    none = not mass and rng.chance(*NO_BIRTH)
    if mass:
        count = room
    elif none:
        count = 0
    else:
        numerator, denominator = BIRTH_SHARE
        count = rng.between(1, -(-numerator * room // denominator))
    land = state.settings.board.land
    born = tuple(Human(state.next_human + i, *rng.choice(land)) for i in range(count))
    draw = "all at once (2/100)" if mass else "none (3/10)" if none else f"{count} drawn"
    places = ", ".join(f"human {h.id} on ({h.x}, {h.y})" for h in born) or "no human is born"
    text = f"Births, room for {room} under the cap of {state.human_cap}: {draw}: {places} (SH-8)"
    data: dict[str, JSON] = {
        "room": room,
        "mass": mass,
        "none": none,
        "count": count,
        "born": [[h.id, h.x, h.y] for h in born],
    }
    after = replace(state, humans=state.humans + born, next_human=state.next_human + count)
    return after, [Step("SH-8", text, data)]


def _conversion_step(seat: int, humans: list[Human], stored: int) -> Step:
    names = ", ".join(f"human {h.id} on ({h.x}, {h.y})" for h in humans)
    data: dict[str, JSON] = {
        "seat": seat,
        "humans": [h.id for h in humans],
        "stored": stored,
    }
    return Step("SH-3", f"Seat {seat} converts {names}; it stores {stored}", data)
