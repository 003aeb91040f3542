"""Helpers of the CLI tests: a District War match created and joined through `drts match`."""

from __future__ import annotations

import re


def created(drts) -> tuple[str, str, str, str]:
    out = drts("create", "district_war", "--config", '{"troops": 2}', "--seed", "cli").output
    match_id = re.search(r"^match (\S+)", out, re.M).group(1)
    referee = re.search(r"^referee token (\S+)", out, re.M).group(1)
    alice = drts("join", match_id, "alice").output.split()[-1]
    bob = drts("join", match_id, "bob").output.split()[-1]
    return match_id, referee, alice, bob
