"""A tournament player's way to its seat on the pages (issue 45: "seat tokens reach
players through the API and pages"), over the Flask test client: the tournament page
links to the form, the form (its CSRF token, the player's name and key by POST) signs
the session in to the seat of the player's latest match, and a wrong key or a player
not seated yet gets the pages' error page, signing nobody in."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest

from service.matches import Matches
from service.tournaments import Tournaments
from tests.pages.conftest import pages_app
from tests.pages.tournaments import Entered, entered
from tests.support.pages import csrf_of


@pytest.fixture
def client(service: Matches) -> Any:
    return pages_app(service, long_polls=4).test_client()


@pytest.fixture
def paired(service: Matches) -> Entered:
    found = entered(service, f"seat{uuid4().hex[:8]}-", 2, "round_robin")
    Tournaments(service).advance(found.tournament_id)
    return found


def take_seat(client: Any, found: Entered, player: str, key: str) -> Any:
    path = f"/ui/tournaments/{found.tournament_id}/seat"
    form = {"csrf": csrf_of(client, path), "player": player, "key": key}
    return client.post(path, data=form)


def test_the_tournament_page_links_to_the_seat_form(client: Any, paired: Entered) -> None:
    page = client.get(f"/ui/tournaments/{paired.tournament_id}").get_data(as_text=True)
    assert f'href="/ui/tournaments/{paired.tournament_id}/seat"' in page
    form = client.get(f"/ui/tournaments/{paired.tournament_id}/seat")
    assert form.status_code == 200 and 'name="key" type="password"' in form.get_data(as_text=True)


def test_the_player_is_signed_in_to_its_seat(
    client: Any, paired: Entered, service: Matches
) -> None:
    name, player = next(iter(paired.made.items()))
    answer = take_seat(client, paired, name, player.key)
    assert answer.status_code == 303
    (links, *_) = Tournaments(service).get(paired.tournament_id).rounds[0]["links"]
    assert answer.headers["Location"].endswith(f"/ui/matches/{links[-1]}/seat")
    desk = client.get(answer.headers["Location"])
    assert desk.status_code == 200
    seat = next(
        s.number for s in service.get_match(links[-1]).seats if s.player_id == str(player.player_id)
    )
    assert f"seat {seat}" in desk.get_data(as_text=True)


def test_a_wrong_key_signs_nobody_in(client: Any, paired: Entered) -> None:
    name = next(iter(paired.made))
    answer = take_seat(client, paired, name, "not-the-key")
    assert answer.status_code == 403 and "wrong_player_key" in answer.get_data(as_text=True)


def test_a_player_not_seated_yet_is_told_so(client: Any, service: Matches) -> None:
    found = entered(service, f"unseated{uuid4().hex[:8]}-", 2, "round_robin")
    name, player = next(iter(found.made.items()))
    answer = take_seat(client, found, name, player.key)
    assert answer.status_code == 404 and "no_tournament_match" in answer.get_data(as_text=True)


def test_a_post_without_the_csrf_token_is_refused(client: Any, paired: Entered) -> None:
    name, player = next(iter(paired.made.items()))
    path = f"/ui/tournaments/{paired.tournament_id}/seat"
    client.get(path)
    answer = client.post(path, data={"player": name, "key": player.key})
    assert answer.status_code == 403
