"""The tournament page in a real browser (issue 45): Debian's chromium, driven by
Playwright, against the app served on a loopback port. A single elimination of 4 with
round 1 played and the final in play: the bracket drawn as a bracket (rounds side by
side, the final between its two feeders), no policy violation, a pairing's link followed
to its match page and that page's link back; and the same page read without JavaScript.
Screenshots under the test's tmp dir (and $DRTS_SCREENSHOTS)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from service.matches import Matches
from service.tournaments import Tournaments
from tests.pages.conftest import pages_app, serving
from tests.pages.tournaments import Entered, entered, operated, play_round


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Matches]:
    app = operated(tmp_path_factory.mktemp("tournament-browser"))
    yield app
    app.close()


@pytest.fixture(scope="module")
def base(service: Matches) -> Iterator[str]:
    with serving(pages_app(service, long_polls=8)) as url:
        yield url


@pytest.fixture(scope="module")
def cup(service: Matches) -> Entered:
    """Four players: round 1 (1 v 4, 2 v 3) played, the final paired and in play."""
    entry = entered(service, "br", 4, "elimination")
    Tournaments(service).advance(entry.tournament_id)
    play_round(service, entry.tournament_id)
    assert len(Tournaments(service).get(entry.tournament_id).rounds) == 2
    return entry


def box(tab: Any, selector: str) -> dict[str, float]:
    found = tab.locator(selector).bounding_box()
    assert found is not None, selector
    return dict(found)


def test_the_tournament_page_draws_the_bracket_and_its_pairings_lead_to_the_matches(
    tab, base, cup, service, shoot
):
    messages: list[str] = []
    tab.on("console", lambda message: messages.append(message.text))
    page = f"{base}/ui/tournaments/{cup.tournament_id}"
    tab.goto(page)
    expect(tab.locator("h1")).to_contain_text("br cup")
    rounds = tab.locator("ol.bracket > li.bracket-round")
    expect(rounds).to_have_count(2)
    first = box(tab, "li.bracket-round[data-round='1']")
    final = box(tab, "li.bracket-round[data-round='2'] li.bracket-match")
    feeders = [
        box(tab, f"li.bracket-round[data-round='1'] li.bracket-match >> nth={n}") for n in (0, 1)
    ]
    assert final["x"] > first["x"] + first["width"] - 1  # the final's column to the right
    middle = final["y"] + final["height"] / 2
    assert feeders[0]["y"] + feeders[0]["height"] <= middle <= feeders[1]["y"]  # between them
    expect(tab.locator("li.slot.went-on")).to_have_text(["1 br1 goes on", "2 br2 goes on"])
    shoot(tab, "tournament-elimination")
    header = tab.eval_on_selector("header.top", "h => getComputedStyle(h).backgroundColor")
    assert header == "rgb(32, 52, 74)"  # pages.css applied under the policy
    assert not [m for m in messages if "Content Security Policy" in m], messages

    final_match = Tournaments(service).get(cup.tournament_id).rounds[1]["links"][0][0]
    tab.click(f"section#round-2 tr[data-match='{final_match}'] a.match-live")
    tab.wait_for_url(f"{base}/ui/matches/{final_match}")
    expect(tab.locator("svg.board")).to_be_visible()
    expect(tab.locator("#tournament-link")).to_have_text("br cup")
    shoot(tab, "tournament-match")
    tab.click("#tournament-link")
    tab.wait_for_url(page)
    tab.click(f"section#round-2 tr[data-match='{final_match}'] a.match-replay")
    tab.wait_for_url(f"{base}/ui/matches/{final_match}/replay")


def test_the_tournament_page_reads_without_javascript(chromium, base, cup, shoot):
    context = chromium.new_context(
        java_script_enabled=False, viewport={"width": 390, "height": 844}
    )
    try:
        tab = context.new_page()
        tab.goto(f"{base}/ui/tournaments/{cup.tournament_id}")
        expect(tab.locator("ol.bracket li.bracket-match")).to_have_count(3)
        expect(tab.locator("table.tournament-standings tbody tr")).to_have_count(4)
        expect(tab.locator("#seed")).to_contain_text("revealed once the tournament has finished")
        shoot(tab, "tournament-phone-no-javascript")
        tab.click("table.tournament-standings tbody tr >> nth=0 >> a")
        expect(tab.locator("h1")).to_contain_text("br")
        assert "/ui/players/" in tab.url
    finally:
        context.close()
