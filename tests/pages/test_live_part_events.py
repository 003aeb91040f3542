"""The events that change nothing the match page's live part shows (issue 47,
api/pages/live_parts.py `shown_by_the_part`): the follower of a watched match renders no
part for them. In every game, through the Matches application: an order that leaves its
movement open, a refused order and a referee's look leave the part as it was, and what
the live feed sends for them is read as such; a resolution is not."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from api.pages.live_parts import CHANGE_NOTHING_SHOWN, EVENT_TYPE, shown_by_the_part
from api.stream import render
from domain.errors import DrtsError
from domain.rules.rng import Rng
from service.matches import Matches
from tests.pages.conftest import pages_app
from tests.pages.games import GAMES, Played, close_at_deadline, new_match
from tests.support.sse import EVERY_EVENT_CHANGES

MOVEMENTS = 3


def shows(client: Any, played: Played) -> str:
    """What the live part shows now (its HTML without its version and the server's time)."""
    answer = client.get(f"/ui/matches/{played.match_id}/live")
    assert answer.status_code == 200
    return EVERY_EVENT_CHANGES.sub("", answer.get_data(as_text=True))


def frames_of(service: Matches, played: Played, after: int) -> bytes:
    """The live feed's frames of the events after version `after`, as the public stream
    renders them (service/live/hub.py reads them so)."""
    return b"".join(render(item) for item in service.event_page(played.match_id, None, after).items)


def unchanged_by(
    service: Matches, client: Any, played: Played, act: Callable[[], object]
) -> bytes | None:
    """Does `act`; returns the frames it stored if they are all of the events the live
    part ignores, after checking the part shows what it showed before; else None."""
    before, version = shows(client, played), service.summary(played.match_id).version
    with contextlib.suppress(DrtsError):  # a refused order: recorded, and raised
        act()
    frames = frames_of(service, played, version)
    kinds = {item["type"] for item in service.event_page(played.match_id, None, version).items}
    if not kinds or not {kind.encode() for kind in kinds} <= CHANGE_NOTHING_SHOWN:
        return None
    assert shows(client, played) == before, kinds
    return frames


@pytest.mark.parametrize("game", GAMES)
def test_an_open_order_a_refusal_and_a_look_change_nothing_the_live_part_shows(game, service):
    client = pages_app(service, long_polls=1).test_client()
    played = new_match(service, game, seed=f"unseen {game}")
    ignored: list[bytes] = []
    for _ in range(MOVEMENTS):
        table = service.get_match(played.match_id).table()
        rng = Rng(played.seed, table.movement, "live-part-events")
        first = played.tokens[table.to_move().seats[0]]
        for act in (
            partial(service.submit_order, played.match_id, first, "zzz 999"),  # refused
            partial(service.note_secret_viewed, played.match_id, "a probe"),
        ):
            frames = unchanged_by(service, client, played, act)
            assert frames is not None
            ignored.append(frames)
        for seat in table.to_move().seats:
            order = table.ruleset.dump_order(table.ruleset.random_order(table.state, seat, rng))
            send = partial(service.submit_order, played.match_id, played.tokens[seat], order)
            frames = unchanged_by(service, client, played, send)
            if frames is not None:  # the order left its movement open
                ignored.append(frames)
        version = service.summary(played.match_id).version
        close_at_deadline(service, played.match_id, table.movement)
        if service.summary(played.match_id).version > version:
            assert shown_by_the_part(frames_of(service, played, version))
    assert ignored and not any(shown_by_the_part(frames) for frames in ignored)
    kinds = {kind for frames in ignored for kind in EVENT_TYPE.findall(frames)}
    simultaneous = table.ruleset.info.dynamics == "simultaneous"
    assert kinds == ({b"OrderSubmitted"} if simultaneous else set()) | {
        b"OrderRejected",
        b"SecretViewed",
    }


def test_frames_without_a_type_it_can_read_are_rendered():
    assert shown_by_the_part(b'id: 4\ndata: {"version":4}\n\n')
    assert not shown_by_the_part(b"")
