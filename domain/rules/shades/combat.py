"""The attack and razing phases of a Shades turn (SH-3, SH-5, SH-6, SH-7).

Attack: a shade's fear is the number of enemy shades (another owner's,
eliminated seats' included, SH-7) within the attack range (squared distance
at most 5, SH-1; water does not block). A shade dies when an enemy in its
range has a fear lower than or equal to its own. Fears are counted first and
every shade is judged at once, so the result does not depend on any order.

Razing: a standing tomb with a surviving shade of another seat on it is
razed (SH-5): it never spawns again, its owner loses a tomb's worth and the
razer's seat gains two (SH-6); a razer from an eliminated seat counts (SH-7).
With the `one` option, only the first such tomb (the lowest id) falls a turn.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from domain.rules.contract import JSON, Step
from domain.rules.shades.board import ATTACK_OFFSETS, Square
from domain.rules.shades.config import Razing
from domain.rules.shades.scoring import add_points, points_json, tomb_value
from domain.rules.shades.state import Shade, State, Tomb, dump_score


def fears(shades: tuple[Shade, ...]) -> dict[int, list[Shade]]:
    """Returns, for every shade with an enemy in range, those enemies (its fear is their
    number), by shade id."""
    at: dict[Square, Shade] = {shade.square: shade for shade in shades}
    enemies: dict[int, list[Shade]] = {}
    for shade in shades:
        x, y = shade.square
        foes = [
            other
            for dx, dy in ATTACK_OFFSETS
            if (other := at.get((x + dx, y + dy))) is not None and other.owner != shade.owner
        ]
        if foes:
            enemies[shade.id] = foes
    return enemies


def attack(state: State) -> tuple[State, list[Step]]:
    """Returns the state without the shades the fear rule kills, and one SH-3 step naming
    each of them with its fear and the enemies it fell to (no step when no shade fights)."""
    enemies = fears(state.shades)
    if not enemies:
        return state, []
    fear = {shade_id: len(foes) for shade_id, foes in enemies.items()}
    by_id = {shade.id: shade for shade in state.shades}
    killed = {
        shade_id: [foe for foe in foes if fear[foe.id] <= fear[shade_id]]
        for shade_id, foes in enemies.items()
    }
    killed = {shade_id: foes for shade_id, foes in killed.items() if foes}
    parts = [
        f"{by_id[i].label} (fear {fear[i]}) dies: "
        + ", ".join(f"shade {foe.id} has fear {fear[foe.id]}" for foe in foes)
        for i, foes in sorted(killed.items())
    ]
    data: dict[str, JSON] = {
        "fear": {str(i): fear[i] for i in sorted(fear)},
        "killed": [[i, by_id[i].owner] for i in sorted(killed)],
    }
    step = Step("SH-3", "Attack (fear rule, all at once): " + "; ".join(parts), data)
    survivors = tuple(shade for shade in state.shades if shade.id not in killed)
    return replace(state, shades=survivors), [step]


def raze(state: State) -> tuple[State, list[Step]]:
    """Returns the state after razing (SH-5, SH-6), and one step for each razed tomb."""
    at = {shade.square: shade for shade in state.shades}
    razed = [
        (tomb, shade)
        for tomb in state.standing_tombs
        if (shade := at.get(tomb.square)) is not None and shade.owner != tomb.owner
    ]
    spared = []
    if state.settings.razing is Razing.ONE and len(razed) > 1:
        razed, spared = razed[:1], [tomb.id for tomb, _ in razed[1:]]
    steps = []
    for tomb, shade in razed:
        state, step = _raze(state, tomb, shade)
        steps.append(step)
    if spared:
        text = f"Only one tomb falls a turn (SH-5 option): tombs {spared} stay standing"
        steps.append(Step("SH-5", text, {"spared": spared}))
    return state, steps


def _raze(state: State, tomb: Tomb, shade: Shade) -> tuple[State, Step]:
    value = tomb_value(state)
    points: dict[int, Fraction] = {tomb.owner: -value, shade.owner: 2 * value}
    tombs = tuple(replace(t, razed=state.turn) if t.id == tomb.id else t for t in state.tombs)
    text = (
        f"{shade.label} razes tomb {tomb.id} of seat {tomb.owner}: seat {tomb.owner} "
        f"{dump_score(-value)}, seat {shade.owner} +{dump_score(2 * value)} (SH-5, SH-6)"
    )
    data: dict[str, JSON] = {
        "tomb": tomb.id,
        "owner": tomb.owner,
        "x": tomb.x,
        "y": tomb.y,
        "shade": shade.id,
        "seat": shade.owner,
        "points": points_json(points),
    }
    return add_points(replace(state, tombs=tombs), points), Step("SH-5", text, data)
