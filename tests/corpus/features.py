"""What a stored match shows, read from its stored events: the features the corpus set
2026-12 promises (tests/corpus/2026-12/README.md), so that its table stays true.

A feature is a name and a test over the match's event log (the referee's view:
every event, orders opened); the generator fails when a match lacks one it is
listed with (`PROMISED`), and the tests check the stored set shows them still.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

Log = list[dict[str, Any]]


def _steps(log: Log) -> Iterable[Mapping[str, Any]]:
    """The steps of the resolutions and of the referee's actions (RefereeActed's steps)."""
    for item in log:
        if item["type"] == "StepApplied":
            yield item["data"]
        elif item["type"] == "RefereeActed":
            yield from item["data"].get("steps") or ()


def step(rule: str, pattern: str = "") -> Callable[[Log], bool]:
    """A feature shown by a step of `rule` whose text matches `pattern`."""
    wanted = re.compile(pattern)
    return lambda log: any(s["rule"] == rule and wanted.search(s["text"]) for s in _steps(log))


def event(kind: str, **data: Any) -> Callable[[Log], bool]:
    """A feature shown by an event of type `kind` whose data holds `data`."""
    return lambda log: any(
        item["type"] == kind and all((item["data"] or {}).get(k) == v for k, v in data.items())
        for item in log
    )


def ordered_by(source: str) -> Callable[[Log], bool]:
    """Orders counted that came by `source` (mail, forum)."""
    return event("OrderSubmitted", source=source)


def outcome(result: str, reason: str = "") -> Callable[[Log], bool]:
    """The match finished with `result`, its reason matching `reason`."""
    wanted = re.compile(reason)

    def finished(log: Log) -> bool:
        last = [item["data"] for item in log if item["type"] == "Finished"]
        return bool(last) and any(
            (d.get("outcome") or d).get("result") == result
            and wanted.search(str((d.get("outcome") or d).get("reason", "")))
            for d in last
        )

    return finished


FEATURES: dict[str, Callable[[Log], bool]] = {
    "item: Star": step("DRTS-16", "becomes a Star"),
    "item: DeathStar": step("DRTS-11", "builds a DeathStar"),
    "item: Blackhole": step("DRTS-13", "builds a Blackhole"),
    "generator": step("DRTS-15", "becomes a Generator"),
    "meeting": step("DRTS-17"),
    "spawn": step("SH-3", "spawns"),
    "raze": step("SH-5", "razes"),
    "elimination": step("SH-7", "eliminated"),
    "mill": step("DT-3"),
    "removal": step("DT-4"),
    "blockade": step("DT-5", "cannot move"),
    "DT-6 draw": outcome("draw", "DT-6"),
    "purchase": step("BC-6", "purchases"),
    "mack grant": step("BC-7", "grants"),
    "seat added late": event("SeatAdded"),
    "checkmate": outcome("win", "Checkmate"),
    "strike": event("SeatStruck"),
    "pause": event("Paused"),
    "resume": event("Resumed"),
    "forfeit": event("RefereeActed", action="forfeit"),
    "dispute filed": event("DisputeFiled"),
    "dispute ruled": event("DisputeRuled"),
    "correction": event("Corrected"),
    "draw": outcome("draw"),
    "rematch": event("ReplayOf"),
    "order by mail": ordered_by("mail"),
    "order by forum post": ordered_by("forum"),
    "win": outcome("win"),
}

# the features each match of the set was played to show (the generator checks them)
PROMISED: dict[str, tuple[str, ...]] = {
    "drts1-ten": ("win",),
    "drts2-items": ("item: Star", "item: DeathStar", "item: Blackhole", "generator", "meeting"),
    "shades1-default": ("spawn", "raze", "elimination"),
    "shades1-contest": ("spawn", "raze", "elimination"),
    "shades2-default": ("spawn", "raze", "elimination"),
    "shades2-contest": ("spawn", "raze", "elimination"),
    "dt-draw": ("mill", "removal", "DT-6 draw"),
    "dt-blockade": ("blockade", "win"),
    "bchess-checkmate": ("purchase", "mack grant", "seat added late", "checkmate"),
    "dw-draw": ("draw",),
    "dw-rematch": ("rematch", "order by mail", "order by forum post", "win"),
    "dw-referee": ("strike", "pause", "resume", "dispute filed", "dispute ruled", "forfeit"),
    "dw-corrected": ("dispute filed", "dispute ruled", "correction", "win"),
    "dw-imported": ("win",),
    "drts2-running": (),
}


def features_of(log: Log) -> list[str]:
    """Returns the names of the features the event log shows, in FEATURES' order."""
    return [name for name, shows in FEATURES.items() if shows(log)]
