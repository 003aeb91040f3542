"""The Player aggregate (issue 45): a name unique in any case, a key known by its hash,
an address set and confirmed, every event chained from the player id."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.errors import WrongConfirmationCodeError, WrongPlayerKeyError
from domain.integrity import commitment, event_body, genesis, next_chain
from domain.player import Player, player_id

T0 = datetime(2030, 1, 1, tzinfo=UTC)


def test_the_id_of_a_player_is_its_name_without_regard_to_case():
    assert player_id("Alice") == player_id("alice") == player_id("ALICE")
    assert player_id("Alice") != player_id("Alicia")
    assert Player.create("Alice", commitment("k"), T0).id == player_id("aLiCe")


def test_created_stores_the_hash_of_the_key_never_the_key():
    player = Player.create("Alice", commitment("the-key"), T0)
    created = player.pending_events[0]
    assert created.key_hash == commitment("the-key")
    assert "the-key" not in repr(vars(created))


def test_a_key_checks_until_it_is_reissued_and_then_only_the_new_one_does():
    player = Player.create("Alice", commitment("old"), T0)
    player.check_key(commitment("old"))
    player.reissue_key(commitment("new"), T0 + timedelta(seconds=1), "lost")
    player.check_key(commitment("new"))
    with pytest.raises(WrongPlayerKeyError, match="Alice"):
        player.check_key(commitment("old"))


def test_an_address_is_confirmed_only_by_its_code():
    player = Player.create("Alice", commitment("k"), T0)
    player.set_address("alice@example.org", commitment("code"), T0)
    assert player.confirmed_address is None
    with pytest.raises(WrongConfirmationCodeError):
        player.confirm_address(commitment("other"), T0)
    assert player.confirm_address(commitment("code"), T0) == "alice@example.org"
    assert player.confirmed_address == "alice@example.org"
    with pytest.raises(WrongConfirmationCodeError):  # a code is good once
        player.confirm_address(commitment("code"), T0)


def test_a_new_address_waits_for_its_own_confirmation():
    player = Player.create("Alice", commitment("k"), T0)
    player.set_address("alice@example.org", commitment("one"), T0)
    player.confirm_address(commitment("one"), T0)
    player.set_address("alice@example.net", commitment("two"), T0)
    assert player.confirmed_address is None


def test_every_event_is_chained_from_the_player_id_over_its_body():
    player = Player.create("Alice", commitment("k"), T0)
    player.reissue_key(commitment("k2"), T0 + timedelta(seconds=1), None)
    chain = genesis(player.id)
    for version, stored in enumerate(player.collect_events(), 1):
        data = {
            k: v
            for k, v in vars(stored).items()
            if k not in ("originator_id", "originator_version", "timestamp", "originator_topic")
            and k != "chain"
        }
        chain = next_chain(
            chain, event_body(type(stored).__name__, version, stored.timestamp, data)
        )
        assert stored.chain == chain
    assert player.chain == chain
