"""Comparing what a scenario expects with what its movement gave (docs/scenarios.md,
`expect`): the clock, the steps, the rejections and refusals, as a list of differences.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from domain.rules.contract import JSON, Step


@dataclass(frozen=True)
class Observation:
    """What a driver shows after a movement: enough to check every expectation."""

    state: JSON
    outcome: JSON
    strikes: Mapping[int, int]
    to_move: tuple[int, ...]
    movement: int
    standing: Mapping[str, JSON] = field(default_factory=dict)  # seat -> its standing order


def compare(
    where: str,
    expect: Mapping[str, JSON],
    seen: Observation,
    steps: Sequence[Step] | None,
    rejected: list[dict[str, JSON]] | None,
    refused: list[dict[str, JSON]] | None = None,
) -> list[str]:
    """Returns one readable line per expectation of `expect` that `seen` does not meet."""
    problems: list[str] = []
    if "standing" in expect:
        diff = _partial_diff(expect["standing"], seen.standing)
        problems += [f"{where}: standing{p}" for p in diff]
    if refused is not None:
        problems += _compare_refused(where, expect.get("refused", []), refused)
    outcome = seen.outcome
    if "state" in expect:
        problems += [f"{where}: state{p}" for p in _partial_diff(expect["state"], seen.state)]
    for key in ("scores", "team_scores"):
        if key in expect:
            problems += [f"{where}: {key}{p}" for p in _partial_diff(expect[key], outcome[key])]
    for key in ("result", "winners", "winning_teams", "finished"):
        if key in expect and expect[key] != outcome[key]:
            problems.append(f"{where}: {key} expected {expect[key]!r}, got {outcome[key]!r}")
    problems += _compare_clock(where, expect, seen)
    if steps is not None:
        problems += _compare_steps(where, expect, steps)
    if rejected is not None:
        problems += _compare_rejections(where, expect.get("rejected", []), rejected)
    return problems


def _compare_clock(where: str, expect: Mapping[str, JSON], seen: Observation) -> list[str]:
    problems = []
    if "strikes" in expect:
        got = {str(seat): n for seat, n in seen.strikes.items()}
        problems += [f"{where}: strikes{p}" for p in _partial_diff(expect["strikes"], got, 0)]
    if "to_move" in expect and list(expect["to_move"]) != list(seen.to_move):
        problems.append(f"{where}: to_move expected {expect['to_move']}, got {list(seen.to_move)}")
    if "movement" in expect and expect["movement"] != seen.movement:
        problems.append(f"{where}: movement expected {expect['movement']}, got {seen.movement}")
    return problems


def _compare_steps(where: str, expect: Mapping[str, JSON], steps: Sequence[Step]) -> list[str]:
    problems = []
    for wanted in expect.get("steps", []):
        if not any(_step_matches(wanted, step) for step in steps):
            listing = "; ".join(f"[{s.rule}] {s.text}" for s in steps) or "no steps"
            problems.append(f"{where}: no step matches {wanted} (steps: {listing})")
    for rule in expect.get("no_steps", []):
        found = [s.text for s in steps if s.rule == rule]
        if found:
            problems.append(f"{where}: unexpected {rule} step(s): {found}")
    return problems


def _step_matches(wanted: Mapping[str, JSON], step: Step) -> bool:
    return (
        wanted["rule"] == step.rule
        and wanted.get("text", "") in step.text
        and not _partial_diff(wanted.get("data", {}), dict(step.data))
    )


def _compare_rejections(
    where: str, wanted: list[Mapping[str, JSON]], got: list[dict[str, JSON]]
) -> list[str]:
    problems = []
    for i in range(max(len(wanted), len(got))):
        if i >= len(wanted):
            problems.append(f"{where}: unexpected rejection {_rejection(got[i])}")
        elif i >= len(got):
            problems.append(f"{where}: expected a rejection {dict(wanted[i])}, none happened")
        elif not _rejection_matches(wanted[i], got[i]):
            problems.append(
                f"{where}: expected rejection {dict(wanted[i])}, got {_rejection(got[i])}"
            )
    return problems


def _compare_refused(
    where: str, wanted: list[Mapping[str, JSON]], got: list[dict[str, JSON]]
) -> list[str]:
    """Every refused part must be listed, in order: `{"seat", "part"?, "reason"?}` (the
    part exactly, the reason a substring)."""
    problems = []
    for i in range(max(len(wanted), len(got))):
        if i >= len(wanted):
            problems.append(f"{where}: unexpected refused part {got[i]}")
        elif i >= len(got):
            problems.append(f"{where}: expected a refused part {dict(wanted[i])}, none was")
        elif not (
            str(wanted[i].get("seat", got[i]["seat"])) == str(got[i]["seat"])
            and wanted[i].get("part", got[i]["part"]) == got[i]["part"]
            and str(wanted[i].get("reason", "")) in str(got[i]["reason"])
        ):
            problems.append(f"{where}: expected refused part {dict(wanted[i])}, got {got[i]}")
    return problems


def _rejection_matches(wanted: Mapping[str, JSON], got: Mapping[str, JSON]) -> bool:
    """Returns whether a rejection is the one expected: an action's names it, an order's
    may name its seat."""
    if ("action" in wanted) != ("action" in got):
        return False
    who = "action" if "action" in got else "seat"
    return (
        str(wanted.get(who, got[who])) == str(got[who])
        and wanted.get("error", got["error"]) == got["error"]
        and str(wanted.get("reason", "")) in str(got["reason"])
    )


def _rejection(got: Mapping[str, JSON]) -> str:
    if "action" in got:
        return f"referee action {got['action']!r}: {got['error']}: {got['reason']}"
    return f"seat {got['seat']} order {got['order']!r}: {got['error']}: {got['reason']}"


def _partial_diff(wanted: JSON, got: JSON, missing: JSON = None) -> list[str]:
    """Returns the paths where `got` differs from the partial `wanted` (objects recurse)."""
    if isinstance(wanted, Mapping) and isinstance(got, Mapping):
        problems = []
        for key, value in wanted.items():
            if key not in got and missing is None:
                problems.append(f".{key} expected {value!r}, missing")
                continue
            inner = got.get(key, missing)
            problems += [f".{key}{p}" for p in _partial_diff(value, inner, missing)]
        return problems
    return [] if wanted == got else [f" expected {wanted!r}, got {got!r}"]
