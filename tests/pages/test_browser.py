"""The pages in a real browser (issue 28): Debian's chromium, driven by Playwright,
against the app served on a loopback port. Every test saves screenshots."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from api.capacity import STREAM_RETRY_SECONDS
from service.matches import Matches
from tests.pages.conftest import pages_app, serving
from tests.pages.games import GAMES, Played, new_match, play_movement, played_match

MOVEMENTS = 5
# What each game's board shows, named by its pieces' <g> classes (api/pages/boards)
# seconds under an hour, hours under 48, days past them (issue 40)
COUNTDOWN = re.compile(r"^in (\d+ days \d+ h|\d+ h \d+ min|(\d+ min )?\d+ s)$")
# the live part's HTML in the page, but for the countdown (each page counts on its own)
LIVE_PART = """() => {
  const part = document.getElementById("live").cloneNode(true);
  part.querySelectorAll("#deadline").forEach((time) => { time.textContent = ""; });
  return part.innerHTML;
}"""
PIECES = {
    "district_war": "g.troop",
    "drts_team23": "g.piece",
    "shades": "g.shade",
    "dris_et_tessa": "g.piece",
    "b_chess": "g.object",
}


@pytest.fixture(scope="module")
def games(service: Matches) -> dict[str, Played]:
    """A match of each game with MOVEMENTS movements resolved, seed "pages"."""
    return {game: played_match(service, game, MOVEMENTS) for game in GAMES}


def test_the_root_leads_to_the_match_list_which_filters_by_game_and_status(
    tab, base_url, games, shoot
):
    tab.goto(base_url + "/")
    assert tab.url == base_url + "/ui/"
    expect(tab.locator("h1")).to_have_text("Matches")
    rows = tab.locator("table.matches tbody tr")
    assert rows.count() >= len(GAMES)
    shoot(tab, "list")
    tab.select_option("select[name=ruleset]", "shades")
    tab.select_option("select[name=status]", "started")
    tab.click("button[type=submit]")
    assert "ruleset=shades" in tab.url and "status=started" in tab.url
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("shades")
    rows.first.locator("a").click()
    assert tab.url == f"{base_url}/ui/matches/{games['shades'].match_id}"
    tab.goto(base_url + "/ui/?status=finished&ruleset=b_chess")
    expect(tab.locator("p.empty")).to_contain_text("No match of b_chess finished")


def test_the_match_list_goes_page_by_page(tab, base_url, games, shoot):
    tab.goto(base_url + "/ui/?limit=2")
    seen = []
    while True:
        seen += tab.locator("table.matches tbody td:first-child a").all_inner_texts()
        following = tab.locator("a[rel=next]")
        if following.count() == 0:
            break
        href = following.get_attribute("href")
        following.click()
        # the next page loaded, not only committed: rows read from a page still being
        # parsed were none, and its missing "next" link ended the walk early (a CI run)
        tab.wait_for_url(f"{base_url}{href}")
        assert "cursor=" in tab.url and "limit=2" in tab.url
    shoot(tab, "list-last-page")
    assert len(seen) == len(set(seen)) >= len(GAMES)
    assert {str(p.match_id)[:8] for p in games.values()} <= set(seen)


def test_the_standings_count_a_finished_match(tab, base_url, service, shoot):
    played = new_match(service, "district_war", "standings", config={"troops": 2})
    for seat, order in [(2, "first 1"), (1, "e4"), (2, "b4"), (1, "g4"), (2, "g1")]:
        service.submit_order(played.match_id, played.tokens[seat], order)
    assert service.summary(played.match_id).status == "finished"
    tab.goto(base_url + "/ui/standings?ruleset=district_war")
    rows = tab.locator("table.standings tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("player 2")
    assert rows.nth(0).locator("td").all_inner_texts()[2:] == ["1", "1", "0", "0", "3"]
    assert rows.nth(1).locator("td").all_inner_texts()[2:] == ["1", "0", "0", "1", "0"]
    shoot(tab, "standings")


@pytest.mark.parametrize("game", GAMES)
def test_a_match_page_shows_the_board_seats_and_display_of_each_game(
    game, tab, base_url, games, service, shoot
):
    played = games[game]
    summary = service.summary(played.match_id)
    tab.goto(f"{base_url}/ui/matches/{played.match_id}")
    board = tab.locator("#live figure svg.board")
    expect(board).to_be_visible()
    assert (
        f"the board at movement {summary.movement}" in board.locator("title").first.text_content()
    )
    assert tab.locator(PIECES[game]).count() > 0
    for piece in tab.locator(PIECES[game]).all()[:5]:  # each piece: a label besides its colour
        assert (piece.locator("text").first.text_content() or "").strip()
        assert (piece.locator("title").text_content() or "").strip()
    seats = tab.locator("table.seats tbody tr")
    expect(seats).to_have_count(len(summary.seats))
    expect(seats.first).to_contain_text("player 1")
    display = service.display(played.match_id)
    assert tab.locator("#display-text").inner_text().strip() == display.strip()
    expect(tab.locator("#movement")).to_have_text(str(summary.movement))
    if summary.deadline and datetime.fromisoformat(summary.deadline) > service.clock():
        expect(tab.locator("#deadline")).to_have_text(COUNTDOWN)
    elif summary.deadline:  # the shared clock went past it, resolving the other games
        expect(tab.locator("#deadline")).to_have_text("passed: the movement is being resolved")
    expect(tab.locator("#live-status")).to_contain_text("Live: following the match")
    shoot(tab, f"match-{game}")


def test_the_team_game_shows_teams_items_and_captured_pieces(tab, base_url, games):
    tab.goto(f"{base_url}/ui/matches/{games['drts_team23'].match_id}")
    assert tab.locator("table.teams tbody tr").count() == 3
    headers = tab.locator("table.seats thead th").all_inner_texts()
    assert "Team" in headers
    svg_text = tab.locator("#live svg.board").text_content() or ""
    assert "items S/DS/BH" in svg_text and "out" in svg_text


def test_a_movement_resolving_updates_the_page_without_a_reload(tab, base_url, service, shoot):
    """Issue 47: the page follows its own stream, which opens with its live part and then
    pushes patches of it as the match changes: the page makes them and swaps the part in,
    fetching neither the part, the event feed nor the whole page again."""
    played = played_match(service, "dris_et_tessa", 3, seed="live")
    asked: list[str] = []
    tab.on("request", lambda request: asked.append(request.url))
    tab.goto(f"{base_url}/ui/matches/{played.match_id}")
    loaded = service.summary(played.match_id).version
    expect(tab.locator("#movement")).to_have_text("4")
    expect(tab.locator("#live-status")).to_contain_text("Live: following the match")
    pieces = tab.locator("#live g.piece").count()
    tab.evaluate("window.loadedOnce = true")
    shoot(tab, "live-before")
    play_movement(service, played)  # the seat to move orders: movement 4 resolves
    expect(tab.locator("#movement")).to_have_text("5")
    expect(tab.locator("#live-status")).to_contain_text("Live: updated at")
    assert tab.evaluate("window.loadedOnce") is True  # the same page, not a reload
    assert tab.locator("#live g.piece").count() == pieces + 1  # a placement (DT-2)
    assert "the board at movement 5" in tab.locator("#live svg title").first.text_content()
    expect(tab.locator("#display-text")).to_have_text(service.display(played.match_id).strip())
    version = service.summary(played.match_id).version
    expect(tab.locator("#live")).to_have_attribute("data-version", str(version))
    taken = tab.evaluate("window.drtsLive")
    # the stream's whole part at the version the page shows (kept, not swapped in), then
    # the patches, each swapped in
    assert taken["patches"] >= 1 and taken["parts"] == taken["patches"]
    assert taken["messages"] == taken["patches"] + 1
    assert taken["fetched"] == 0  # pushed, not fetched
    page = f"{base_url}/ui/matches/{played.match_id}"
    assert [url for url in asked if "/stream" in url] == [f"{page}/live/stream?after={loaded}"]
    assert asked.count(page) == 1 and f"{page}/live" not in asked
    assert not any("/events" in url for url in asked)  # no long poll
    shoot(tab, "live-after")


def test_patched_parts_show_what_a_reload_shows(chromium, tab, base_url, service, shoot):
    """Issue 47: a DRTS Team 23 page follows two movements of eight seats' orders by
    patches alone (the pieces that moved, the scores, the display), and its live part
    then reads as a freshly loaded page's, element for element."""
    played = new_match(service, "drts_team23", seed="patched")
    tab.goto(f"{base_url}/ui/matches/{played.match_id}")
    expect(tab.locator("#live-status")).to_contain_text("Live: following the match")
    for movement in (2, 3):
        play_movement(service, played)
        expect(tab.locator("#movement")).to_have_text(str(movement))
    version = str(service.summary(played.match_id).version)
    expect(tab.locator("#live")).to_have_attribute("data-version", version)
    taken = tab.evaluate("window.drtsLive")
    assert taken == {"messages": 3, "parts": 2, "patches": 2, "fetched": 0}
    fresh = chromium.new_page()
    fresh.goto(f"{base_url}/ui/matches/{played.match_id}")
    assert tab.evaluate(LIVE_PART) == fresh.evaluate(LIVE_PART)
    fresh.close()
    shoot(tab, "live-patched")


def test_a_busy_server_still_updates_the_page_by_reading_without_waiting(chromium, service, shoot):
    """With every stream taken (here: none at all), the stream answers 503
    too_many_streams; the page then reads the feed without `wait` every 10 s (the stream's
    Retry-After), trying the stream again each time."""
    played = played_match(service, "district_war", 2, seed="busy")
    with serving(pages_app(service, long_polls=0, streams=0)) as url:
        context = chromium.new_context()
        tab = context.new_page()
        tab.goto(f"{url}/ui/matches/{played.match_id}")
        expect(tab.locator("#live-status")).to_contain_text("The server is busy")
        play_movement(service, played)
        expect(tab.locator("#movement")).to_have_text("4", timeout=STREAM_RETRY_SECONDS * 2000)
        expect(tab.locator("#live-status")).to_contain_text("Live: updated at")
        assert tab.evaluate("window.drtsLive.fetched") >= 1  # the part, fetched
        shoot(tab, "live-busy-server")
        context.close()


def replay_position(tab: Any) -> tuple[int, int]:
    section = tab.locator("#replay")
    return int(section.get_attribute("data-movement")), int(section.get_attribute("data-phase"))


def test_the_replay_scrubs_by_movement_and_phase_with_the_arrow_keys(
    tab, base_url, games, service, shoot
):
    played = games["drts_team23"]
    tab.goto(f"{base_url}/ui/matches/{played.match_id}/replay")
    assert replay_position(tab) == (1, 0)
    phase_count = len(service.state(played.match_id, 1, 0).phases)
    for phase in range(1, phase_count + 1):
        tab.keyboard.press("ArrowRight")
        tab.wait_for_url(re.compile(rf"movement=1&phase={phase}$"))
        assert replay_position(tab) == (1, phase)
    shoot(tab, "replay-end-of-movement-1")
    tab.keyboard.press("ArrowRight")  # past the last phase: the next movement's start
    tab.wait_for_url(re.compile(r"movement=2&phase=0$"))
    tab.keyboard.press("ArrowLeft")
    tab.wait_for_url(re.compile(rf"movement=1&phase={phase_count}$"))
    tab.keyboard.press("ArrowDown")
    tab.wait_for_url(re.compile(r"movement=2&phase=0$"))
    tab.keyboard.press("ArrowDown")
    tab.wait_for_url(re.compile(r"movement=3&phase=0$"))
    tab.keyboard.press("ArrowUp")
    tab.wait_for_url(re.compile(r"movement=2&phase=0$"))
    assert replay_position(tab) == (2, 0)
    expect(tab.locator("#position")).to_contain_text("movement 2, phase 0")


def test_a_shared_replay_url_opens_at_its_position_with_the_steps_in_words(
    tab, base_url, games, service, shoot
):
    played = games["district_war"]
    view = service.state(played.match_id, 3, 1)
    url = f"{base_url}/ui/matches/{played.match_id}/replay?movement=3&phase=1"
    tab.goto(url)
    assert replay_position(tab) == (3, 1)
    expect(tab.locator("#position")).to_contain_text(f"movement 3, phase 1 of {len(view.phases)}")
    current = tab.locator("li.phase.current")
    expect(current).to_contain_text(view.phases[0])
    expect(current).to_contain_text("(shown)")
    step = view.steps[0]
    expect(current.locator(".steps-of-phase li").first).to_contain_text(step["rule"])
    link = current.locator("a.ruling").first
    assert link.get_attribute("href") == f"/ui/games/district_war#{step['rule']}"
    board_title = tab.locator("svg.board title").first.text_content() or ""
    assert "movement 3, phase 1" in board_title
    shoot(tab, "replay-shared")
    link.click()
    assert tab.url.endswith(f"/ui/games/district_war#{step['rule']}")
    expect(tab.locator(f"[id='{step['rule']}']")).to_be_visible()
    shoot(tab, "game-docs", full_page=False)


@pytest.mark.parametrize("game", ["b_chess", "shades"])
def test_every_replay_phase_has_a_board(game, tab, base_url, games, service, shoot):
    played = games[game]
    phases = len(service.state(played.match_id, 2, 0).phases)
    for phase in range(phases + 1):
        tab.goto(f"{base_url}/ui/matches/{played.match_id}/replay?movement=2&phase={phase}")
        expect(tab.locator("svg.board")).to_be_visible()
    shoot(tab, f"replay-{game}")


def test_the_pages_read_without_javascript(chromium, base_url, games, shoot):
    context = chromium.new_context(java_script_enabled=False)
    tab = context.new_page()
    played = games["shades"]
    tab.goto(f"{base_url}/ui/matches/{played.match_id}")
    expect(tab.locator("svg.board > title")).to_contain_text("Shades")
    expect(tab.locator("#display-text")).not_to_be_empty()
    expect(tab.locator("#live-status")).to_contain_text("Without JavaScript")
    shoot(tab, "no-javascript-match")
    tab.click("nav.match-nav >> text=Replay")
    tab.click("#next")  # the scrubber's links work without scripts
    assert tab.url.endswith("/replay?movement=1&phase=1")
    expect(tab.locator("#position")).to_contain_text("movement 1, phase 1")
    shoot(tab, "no-javascript-replay")
    context.close()


PANS = "figure => figure.scrollWidth > figure.clientWidth"


def test_the_pages_fit_a_phone(chromium, base_url, games, shoot):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    tab = context.new_page()
    for game in ("drts_team23", "b_chess"):
        for path in ("", "/replay?movement=2&phase=1"):
            tab.goto(f"{base_url}/ui/matches/{games[game].match_id}{path}")
            width = tab.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (game, path, width)  # the page itself never pans sideways
            board = tab.locator("svg.board").bounding_box()
            assert board is not None and board["width"] <= 390, (game, path, board)
            # every board scales to the width, B-Chess's 20x20 Field too (issue 48)
            assert not tab.evaluate(PANS, tab.locator("figure.board-figure").element_handle())
            if game == "b_chess":  # with squares still big enough to tap
                square = tab.locator('svg.board rect[data-cell="0,0"]').bounding_box()
                assert square is not None and square["width"] >= 16, square
    shoot(tab, "phone-b-chess-replay")
    context.close()


def test_the_replay_says_when_a_movement_resolves_from_the_stream(tab, base_url, service):
    """Issue 47: the replay of a match going on follows the same public stream."""
    played = played_match(service, "dris_et_tessa", 3, seed="replay-live")
    tab.goto(f"{base_url}/ui/matches/{played.match_id}/replay")
    expect(tab.locator("#replay-live")).to_contain_text("Live: a movement resolving")
    play_movement(service, played)  # movement 4 resolves
    link = tab.locator("#resolved-since")
    expect(link).to_have_text("replay it")
    expect(tab.locator("#replay-live")).to_contain_text("Movement 4 was resolved")
    assert link.get_attribute("href").endswith("/replay?movement=4")
