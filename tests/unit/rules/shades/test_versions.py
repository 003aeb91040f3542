"""Shades' two versions: version 1 plays byte for byte as it always did (stored matches are
forever: a match plays and audits under the version it was created with), and version 2 is
version 1 with the options of SH-6 and SH-12 and the contested human citing SH-12."""

from __future__ import annotations

import hashlib

import pytest

from domain.errors import InvalidConfigError, InvalidStateError
from domain.rules.contract import JSON, AnyRuleset, canonical_json
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from domain.rules.shades import RULESET, RULESET_V1
from domain.rules.shades.config import ContestedHuman, EliminationBonus
from domain.table import Table
from tests.unit.rules.shades.support import position

V1_CONFIGS: tuple[dict[str, JSON], ...] = (
    {},
    {"razing": "one", "scoring": "normalised"},
    {"scoring": "normalised"},
    {"razing": "one"},
)
# The digest of the playouts below as version 1 played them at 4215d41, before version 2:
# every state (dumped) and every step of 36 random matches, seats forfeited now and then.
V1_DIGEST = "b700e509894dc11dbb09a11fa108d0ecbacc22572cde8aa0223b76de0b677a31"


def playout_digest(ruleset: AnyRuleset, config: dict[str, JSON], seats: int, seed: str) -> str:
    """Returns the SHA-256 of a random match's states and steps, movement by movement (a
    seat is silent one time in 40, and forfeited at the deadline, SH-4)."""
    table = Table.start(ruleset, config, seats, seed)
    digest = hashlib.sha256(canonical_json(ruleset.dump_state(table.state)))
    while not table.outcome().finished:
        bots = Rng(seed, table.movement, "digest")
        for seat in table.to_move().seats:
            if not bots.chance(1, 40):
                order = ruleset.random_order(table.state, seat, bots)
                table.submit(seat, ruleset.dump_order(order))
        passed = table.close(deadline_passed=True)
        digest.update(canonical_json([step.to_json() for step in passed.steps]))
        digest.update(canonical_json(ruleset.dump_state(table.state)))
    return digest.hexdigest()


def v1_digest() -> str:
    """Returns the digest of version 1's playouts over its configs, 2, 4 and 8 seats."""
    ruleset = get_ruleset("shades", 1)
    total = hashlib.sha256()
    for config in V1_CONFIGS:
        for seats in (2, 4, 8):
            for n in range(3):
                total.update(playout_digest(ruleset, config, seats, f"v1-{seats}-{n}").encode())
    return total.hexdigest()


def test_version_1_plays_as_it_did_before_version_2():
    """Stored matches are forever: a version 1 match re-adjudicates to the steps and state
    hashes it stored, so version 1's random matches give the digest recorded before version
    2 existed (SH-6's end-of-turn bonus, SH-3's contested human, its config unchanged)."""
    assert v1_digest() == V1_DIGEST


def stripped_playout(ruleset: AnyRuleset, config: dict[str, JSON], seed: str) -> list[JSON]:
    """Returns a random 4-seat match's steps and states, movement by movement, the states'
    config without version 2's two options."""
    table = Table.start(ruleset, config, 4, seed)
    record: list[JSON] = []
    while not table.outcome().finished:
        bots = Rng(seed, table.movement, "same")
        for seat in table.to_move().seats:
            if not bots.chance(1, 40):
                order = ruleset.random_order(table.state, seat, bots)
                table.submit(seat, ruleset.dump_order(order))
        steps = [step.to_json() for step in table.close(deadline_passed=True).steps]
        state = ruleset.dump_state(table.state)
        for option in ("elimination_bonus", "contested_human"):
            state["config"].pop(option, None)
        record.append([steps, state])
    return record


@pytest.mark.parametrize("config", V1_CONFIGS)
def test_version_2_with_its_defaults_plays_version_1s_matches(config):
    """SH-6 and SH-12: the new options' defaults are version 1's behaviour: the same seeds and
    orders give the same steps and states (with or without the razing and scoring options;
    random play contests no human, whose step alone cites SH-12 in version 2)."""
    v1, v2 = get_ruleset("shades", 1), get_ruleset("shades", 2)
    for n in range(3):
        seed = f"same-{n}"
        assert stripped_playout(v2, config, seed) == stripped_playout(v1, config, seed)


def test_the_registry_holds_both_versions_and_new_matches_get_version_2():
    assert get_ruleset("shades") is RULESET and RULESET.info.version == 2
    assert get_ruleset("shades", 1) is RULESET_V1
    assert [f.name for f in RULESET.info.config_fields] == [
        *(f.name for f in RULESET_V1.info.config_fields),
        "elimination_bonus",
        "contested_human",
    ]


def test_version_1_knows_neither_option():
    """A version 1 match has no such option: its config and its state JSON refuse them."""
    for option, value in (("elimination_bonus", "sequential"), ("contested_human", "escapes")):
        with pytest.raises(InvalidConfigError, match=f"unknown config option.*'{option}'"):
            RULESET_V1.validate_config({option: value})
        dumped = RULESET_V1.dump_state(position(version=1))
        dumped["config"][option] = value
        with pytest.raises(InvalidStateError, match=f"state config: unknown.*'{option}'"):
            RULESET_V1.load_state(dumped)


def test_version_1s_contest_preset_is_unchanged():
    """Version 1's `contest` takes the options it always took (SH-5, SH-6 normalised)."""
    (contest,) = RULESET_V1.info.presets
    assert dict(contest.values) == {
        "turns": 300,
        "turn_seconds": 5,
        "razing": "one",
        "scoring": "normalised",
    }


def test_a_config_stored_without_the_options_takes_their_defaults():
    """A config or a state JSON without version 2's options (version 1's dump) loads under
    version 2 with the rulings' defaults (SH-6 end of turn, SH-12 escapes)."""
    assert RULESET.validate_config({})["elimination_bonus"] == "end_of_turn"
    old = RULESET_V1.dump_state(position(version=1))
    settings = RULESET.load_state(old).settings
    assert settings.elimination_bonus is EliminationBonus.END_OF_TURN
    assert settings.contested_human is ContestedHuman.ESCAPES


def test_version_1_states_dump_no_option_and_version_2_states_both():
    """Version 1's state JSON is as it was (no option key); version 2's names both."""
    assert "elimination_bonus" not in RULESET_V1.dump_state(position(version=1))["config"]
    config = RULESET.dump_state(position())["config"]
    assert (config["elimination_bonus"], config["contested_human"]) == ("end_of_turn", "escapes")


def test_the_display_names_the_originals_options_a_match_takes():
    """The Public Display's second line names the SH-6 and SH-12 options taken, if any."""
    taken = position(elimination_bonus="sequential", contested_human="first_found")
    lines = RULESET.public_display(taken).splitlines()
    assert " ".join(lines[1:3]) == (
        "elimination bonus: sequential (SH-6 option); contested human: to the first shade "
        "found (SH-12 option)"
    )
    assert RULESET.public_display(position()).splitlines()[1].startswith("Humans:")
    assert RULESET_V1.public_display(position(version=1)).splitlines()[1].startswith("Humans:")
