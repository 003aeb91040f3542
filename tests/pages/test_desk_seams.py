"""The signed-in pages where features meet (issue 40): the referee's page of a finished
match offers no clock or seat actions, a page opened with the wrong token says which
token it needs, and a day-long deadline reads in hours (the browser's countdown)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from service.matches import Matches
from tests.pages.conftest import pages_app, serving
from tests.pages.games import Played, new_match, played_match
from tests.support.pages import sign_in

# Waited for with Playwright's expect, which reads the page from its own world: a
# wait_for_function evaluates its string with the page's eval, which the pages' policy
# (script-src 'self', issue 42) refuses once the first check has not yet held.
IN_HOURS = re.compile(r"^in \d+ h \d+ min$")
IN_DAYS = re.compile(r"^in \d+ days \d+ h$")
ACTION_FORMS = ("extend-form", "pause-form", "resume-form", "forfeit-form")


@pytest.fixture
def client(service: Matches) -> Any:
    return pages_app(service, long_polls=4).test_client()


def forms_of(page: str) -> set[str]:
    return set(re.findall(r'<form id="([a-z-]+)"', page))


def test_the_referee_page_of_a_finished_match_offers_no_clock_or_seat_action(client, service):
    """A finished match has no deadline to extend, clock to pause or seat to forfeit: the
    page says so instead of offering forms the service would refuse."""
    played = played_match(service, "district_war", 40, seed="finished desk")
    assert service.summary(played.match_id).status == "finished"
    sign_in(client, played, played.referee)
    page = client.get(f"/ui/matches/{played.match_id}/referee").text
    assert forms_of(page) & set(ACTION_FORMS) == set()
    assert "reissue-form" in forms_of(page)
    assert "The match is finished" in page


def test_the_referee_page_offers_pause_or_resume_as_the_clock_stands(client, service):
    played = new_match(service, "district_war", "paused desk")
    sign_in(client, played, played.referee)
    desk = f"/ui/matches/{played.match_id}/referee"
    assert {"extend-form", "pause-form", "forfeit-form"} <= forms_of(client.get(desk).text)
    assert "resume-form" not in forms_of(client.get(desk).text)
    service.act(played.match_id, played.referee, "pause", {}, "a break")
    shown = forms_of(client.get(desk).text)
    assert "resume-form" in shown and not {"pause-form", "extend-form"} & shown


@pytest.mark.parametrize(
    ("page", "token", "needs"),
    [
        ("referee", 1, "The referee's page needs the referee's token"),
        ("referee", None, "The referee's page needs the referee's token"),
        ("seat", 0, "A seat's page needs the token of one of its seats"),
    ],
)
def test_a_page_opened_without_its_token_says_which_token_it_needs(
    client, service, page, token, needs
):
    """Issue 40: a seat opening the referee's page was sent to a bare sign-in form."""
    played: Played = new_match(service, "district_war", f"needs {page} {token}")
    if token is not None:
        sign_in(client, played, played.tokens[token] if token else played.referee)
    answer = client.get(f"/ui/matches/{played.match_id}/{page}")
    assert answer.status_code == 303 and "/ui/sign-in" in answer.headers["Location"]
    form = client.get(answer.headers["Location"]).text
    assert needs in form.replace("&#39;", "'")
    if token:
        assert f"signed in as seat {token}" in form


def test_a_day_long_deadline_counts_down_in_hours_and_shows_its_instant(service, tab):
    """Issue 40: a day's deadline read "in 1434 min 17 s"; past 48 hours it reads in days.
    The instant itself (UTC) is the countdown's title."""
    day = new_match(service, "district_war", "a day", preset="postal")
    days = new_match(service, "district_war", "days", deadline_seconds=3 * 86400)
    with serving(pages_app(service, long_polls=4)) as url:
        tab.goto(f"{url}/ui/matches/{day.match_id}")
        countdown = tab.locator("#deadline")
        countdown.wait_for()
        expect(countdown).to_have_text(IN_HOURS, timeout=15_000)
        hours = int(countdown.text_content().split()[1])
        assert hours in (23, 24)
        deadline = service.summary(day.match_id).deadline
        assert countdown.get_attribute("title") == deadline[:19].replace("T", " ") + " UTC"
        tab.goto(f"{url}/ui/matches/{days.match_id}")
        expect(tab.locator("#deadline")).to_have_text(IN_DAYS, timeout=15_000)
        assert tab.locator("#deadline").text_content() in ("in 3 days 0 h", "in 2 days 23 h")
