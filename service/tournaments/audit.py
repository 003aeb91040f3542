"""The audit of a tournament (issue 45, docs/tournaments.md The audit): the chain of its
events and its seed against the commitment; once the seed is revealed, every round
re-derived under the recorded pairing version from the events before it, and so are
each elimination round's `advancing` and the final standing; each recorded result
against its match in the store (the match's chain verifies, its event at the recorded
head has the recorded chain, and its result at that head is the recorded one). The
first divergence is reported."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from domain.tournament import Tournament
from domain.tournament.chain import first_broken_link, public_item
from service.pairing import elimination, pair_next, standings_of
from service.pairing.history import history_before
from service.tournaments.outcome import result_of


@dataclass(frozen=True)
class Verification:
    """What the audit found: `ok`, the first divergence (None when sound), whether the
    pairings were re-derived (only once the seed is revealed), and what was checked."""

    ok: bool
    divergence: str | None
    pairings_derived: bool
    rounds: int = 0
    results: int = 0
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Returns the report as JSON."""
        return {
            "ok": self.ok,
            "divergence": self.divergence,
            "pairings_derived": self.pairings_derived,
            "rounds": self.rounds,
            "results": self.results,
            "notes": list(self.notes),
        }


def verify(matches: Any, tournament: Tournament, stored: list[Any]) -> Verification:
    """Returns the audit of `tournament` from its `stored` events and the matches."""
    items = [public_item(event, sealed=True) for event in stored]
    broken = first_broken_link(tournament.id, items)
    if broken is not None:
        return _failed(
            f"the tournament's chain breaks at event {broken.version} "
            f"({broken.type}): {broken.reason}"
        )
    public = [{"type": i["type"], "data": i["data"]} for i in items]
    revealed = next((i["data"]["seed"] for i in public if i["type"] == "SeedRevealed"), None)
    rounds, notes = 0, []
    if revealed is None:
        notes.append("the pairings can be re-derived only once the seed is revealed")
    else:
        for item in public:
            if item["type"] == "RoundPaired":
                problem = _pairing_problem(tournament, public, item["data"], str(revealed))
                if problem is not None:
                    return _failed(problem)
                rounds += 1
    latest = {i["data"]["match_id"]: i["data"] for i in public if i["type"] == "ResultRecorded"}
    for match_id, data in latest.items():
        problem = _result_problem(matches, match_id, data)
        if problem is not None:
            return _failed(problem)
    for index, item in enumerate(public if revealed is not None else []):
        problem = _outcome_problem(tournament, public[:index], item, str(revealed))
        if problem is not None:
            return _failed(problem)
    return Verification(True, None, revealed is not None, rounds, len(latest), notes)


def _pairing_problem(
    tournament: Tournament, public: list[dict[str, Any]], data: dict[str, Any], seed: str
) -> str | None:
    number = data["round"]
    history = history_before(public, number, seed)
    try:
        pairing = pair_next(
            tournament.format,
            data["pairing_version"],
            history,
            tournament.options,
            tournament.rounds_planned,
        )
    except Exception as error:  # an unknown version or no pairing: a divergence to report
        return f"round {number} cannot be re-derived: {error}"
    derived = None if pairing is None else pairing.to_json()
    recorded = {"round": number, "tables": data["tables"], "byes": data["byes"]}
    if derived != recorded:
        return f"round {number} was recorded as {recorded}, the pairing re-derives {derived}"
    return None


def _outcome_problem(
    tournament: Tournament, before: list[dict[str, Any]], item: dict[str, Any], seed: str
) -> str | None:
    """Returns how an elimination round's `advancing`, or the final standing, differs
    from what the events before it re-derive (None when they agree, or for any other
    event). Both are folded from exactly what was recorded before them: a result
    corrected after the finish leaves the recorded standing as it was."""
    history = history_before(before, len(before) + 1, seed)  # every round before it
    if item["type"] == "RoundCompleted" and tournament.format == "elimination":
        number = item["data"]["round"]
        derived = elimination.advancing(history, number, tournament.options["max_replays"])
        recorded = item["data"]["advancing"]
        if _as_json(derived) != recorded:
            return f"round {number} recorded {recorded} advancing, the results give {derived}"
    if item["type"] == "Finished":
        order = tournament.tie_breaks
        standing = standings_of(tournament.format, history, order, tournament.options)
        derived_standing = _as_json([entry.to_json() for entry in standing])
        if derived_standing != item["data"]["standing"]:
            return (
                f"the final standing was recorded as {item['data']['standing']}, "
                f"the results and tie-breaks give {derived_standing}"
            )
    return None


def _as_json(value: Any) -> Any:
    """Returns `value` as it reads back from the store's JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def _result_problem(matches: Any, match_id: str, data: dict[str, Any]) -> str | None:
    check = matches.verify_chain(match_id)
    if not check.ok:
        return f"match {match_id} does not verify: {check}"
    head = data["head"]
    match = matches.get_match(match_id, version=int(head["version"]))
    if match.chain != head["chain"]:
        return (
            f"match {match_id} at version {head['version']} has chain {match.chain}, "
            f"the tournament recorded {head['chain']}"
        )
    result = result_of(match)
    if result is None:
        return f"match {match_id} had no result at version {head['version']}"
    for name in ("placements", "points", "scores"):
        if getattr(result, name) != data[name]:
            return (
                f"the {name} of match {match_id} at version {head['version']} are "
                f"{getattr(result, name)}, the tournament recorded {data[name]}"
            )
    return None


def _failed(divergence: str) -> Verification:
    return Verification(False, divergence, False)
