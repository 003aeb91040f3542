"""The signed-in pages in a real browser (issue 29): a seat and a referee sign in with
their tokens and act; a cross-site form post is refused; no token ever appears in an
address the browser visited (its own History database) or in the server's access log.

Each test runs Debian's chromium on a profile of its own (a persistent context, so that
the browser keeps a real History file), and saves screenshots.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect, sync_playwright

from service.matches import Matches
from tests.pages.conftest import CHROMIUM_ARGS, chromium_executable
from tests.pages.games import Played, new_match, play_movement


class AccessLog(logging.Handler):
    """The served app's access log: werkzeug's request lines, as its server logs them."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(re.sub(r"\x1b\[[0-9;]*m", "", record.getMessage()))  # no colours


@pytest.fixture(scope="module")
def access_log() -> Iterator[AccessLog]:
    """Every request line the served app logs while this module runs."""
    log, logger = AccessLog(), logging.getLogger("werkzeug")
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(log)
    yield log
    logger.removeHandler(log)
    logger.setLevel(level)


@dataclass
class Browser:
    """A chromium profile on disk: its page, every URL it requested, its History file."""

    profile: Path
    context: Any
    page: Any
    requested: list[str] = field(default_factory=list)

    def history(self) -> list[str]:
        """Closes the browser and returns every URL in its History database."""
        self.context.close()
        copy = self.profile.parent / "History.sqlite"
        shutil.copy(self.profile / "Default" / "History", copy)
        with sqlite3.connect(copy) as db:
            return [url for (url,) in db.execute("SELECT url FROM urls")]


@pytest.fixture
def browser(tmp_path: Path, access_log: AccessLog) -> Iterator[Browser]:
    """Debian's chromium on a fresh persistent profile (skips without it, fails in CI)."""
    executable = chromium_executable()
    with sync_playwright() as playwright:
        profile = tmp_path / "profile"
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=executable,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900},
            accept_downloads=True,
        )
        context.set_default_timeout(10_000)
        found = Browser(profile, context, context.new_page())
        context.on("request", lambda request: found.requested.append(request.url))
        yield found
        context.close()  # a no-op when history() closed it


def sign_in(page: Any, base_url: str, played: Played, token: str, via_match_page: bool) -> None:
    """Signs in through the form: from the match page's Seat link, or the form itself."""
    if via_match_page:
        page.goto(f"{base_url}/ui/matches/{played.match_id}")
        page.click("nav.match-nav >> text=Seat")
        expect(page.locator("input[name=match]")).to_have_value(str(played.match_id))
    else:
        page.goto(f"{base_url}/ui/sign-in")
        page.fill("input[name=match]", str(played.match_id))
    page.fill("input[name=token]", token)
    page.click("form.signin button[type=submit]")


def assert_no_token(text: str, played: Played, where: str) -> None:
    for token in [played.referee, *played.tokens.values()]:
        assert token not in text, f"a token appears in {where}"


def events_of(service: Matches, played: Played, kind: str) -> list[dict[str, Any]]:
    """Returns the match's events of a kind as anyone sees them (a look of its own by
    the referee's token would be recorded)."""
    return [e for e in service.event_log(played.match_id) if e["type"] == kind]


def test_a_seat_signs_in_and_sees_the_receipt_of_a_legal_order_and_the_refusal_of_an_illegal_one(
    browser, base_url, service, shoot
):
    played = new_match(service, "district_war", "seat page")
    page = browser.page
    sign_in(page, base_url, played, played.tokens[2], via_match_page=True)
    assert page.url == f"{base_url}/ui/matches/{played.match_id}/seat"
    expect(page.locator("header form.signed-in")).to_contain_text("Signed in as seat 2")
    shoot(page, "seat-signed-in")

    page.fill("#order-form textarea[name=order]", "e4")  # the DMO must choose first (DW-2)
    page.click("#order-form button[type=submit]")
    expect(page.locator("#refusal")).to_contain_text("illegal_order")
    expect(page.locator("#refusal")).to_contain_text("must first choose who places first")
    shoot(page, "seat-refusal")
    rejected = events_of(service, played, "OrderRejected")
    assert [(e["data"]["seat"], e["data"]["source"]) for e in rejected] == [(2, "web")]

    page.fill("#order-form textarea[name=order]", "first 1")
    page.click("#order-form button[type=submit]")
    receipt = page.locator("#receipt")
    expect(receipt).to_be_visible()
    with page.expect_download() as download:
        page.click("#receipt-file")
    kept = json.loads(Path(download.value.path()).read_text())
    shoot(page, "seat-receipt")
    expect(page.locator("#receipt-digest")).to_have_text(kept["digest"])
    expect(page.locator("#receipt-version")).to_have_text(str(kept["version"]))
    expect(page.locator("#receipt-head")).to_have_text(
        f"{kept['head']['version']}:{kept['head']['chain']}"
    )
    assert download.value.suggested_filename.startswith(f"receipt-{played.match_id}")
    stored = events_of(service, played, "OrderSubmitted")[-1]
    assert (stored["version"], stored["data"]["digest"]) == (kept["version"], kept["digest"])
    report = service.verify_chain(played.match_id, [("receipt", kept)])  # the file proves it
    assert report.ok and report.evidence == 1
    assert_no_token(page.content(), played, "the seat's page")


def test_a_seat_page_lists_the_orders_sent_elsewhere_and_says_when_the_movement_resolves(
    browser, base_url, service, shoot
):
    """Issue 47: the seat's page follows its stream: an order the seat sent by mail shows
    its receipt at once, and the movement it resolved is said, with a reload."""
    played = new_match(service, "district_war", "seat live")
    page = browser.page
    sign_in(page, base_url, played, played.tokens[2], via_match_page=False)
    expect(page.locator("#seat-live-status")).to_contain_text("Live: your receipts")
    page.evaluate("window.loadedOnce = true")
    by_mail = service.submit_order(played.match_id, played.tokens[2], "first 1", source="mail")
    expect(page.locator("#seat-receipts li")).to_have_text(
        f"Order received for movement 1 (mail, event {by_mail.version}): digest {by_mail.digest}"
    )
    expect(page.locator("#seat-live-status")).to_contain_text("Movement 1 was resolved")
    assert page.evaluate("window.loadedOnce") is True  # the same page, not a reload
    shoot(page, "seat-live-receipt")
    page.click("#seat-reload")
    expect(page.locator("#movement")).to_have_text("2")


def test_a_referee_sees_the_open_orders_on_record_rules_on_a_dispute_and_extends_the_deadline(
    browser, base_url, service, shoot
):
    played = new_match(service, "shades", "referee page")
    play_movement(service, played, only=1)  # seat 1's order waits in the open movement
    digest = service.open_orders(played.match_id, played.tokens[1])["items"][0]["digest"]
    service.file_dispute(played.match_id, played.tokens[2], [3], "seat 1 joined twice?")
    looks_before = len(events_of(service, played, "SecretViewed"))
    deadline_before = service.summary(played.match_id).deadline
    page = browser.page
    sign_in(page, base_url, played, played.referee, via_match_page=False)
    assert page.url == f"{base_url}/ui/matches/{played.match_id}/referee"
    expect(page.locator("table.orders tbody tr")).to_have_count(1)
    expect(page.locator("table.orders")).to_contain_text(digest[:12])
    expect(page.locator("#desk-figures")).to_contain_text("1 open order (seats 1)")
    looks = events_of(service, played, "SecretViewed")  # the page's look, then its stream's
    assert [e["data"] for e in looks[looks_before:]] == [
        {"viewer": "referee", "what": "open orders"},
        {"viewer": "referee", "what": "referee stream"},  # issue 47: one look a stream
    ]
    head = looks[looks_before]["version"]
    expect(page.locator("#head")).to_contain_text(f"{head}:")  # with the page's look
    expect(page.locator("#desk-reload")).to_be_hidden()
    play_movement(service, played, only=2)  # the stream brings seat 2's order
    expect(page.locator("#desk-figures")).to_contain_text("2 open orders (seats 1, 2)")
    expect(page.locator("#desk-live-status")).to_contain_text("changed since this page was loaded")
    expect(page.locator("#desk-reload")).to_be_visible()
    assert len(events_of(service, played, "SecretViewed")) == looks_before + 2
    dispute = page.locator("#dispute-1")
    expect(dispute).to_contain_text("seat 1 joined twice?")
    expect(dispute.locator("ol.cited li")).to_contain_text("SeatJoined")
    shoot(page, "referee-desk")

    dispute.locator("select[name=ruling]").select_option("dismissed")
    dispute.locator("input[name=reason]").fill("the log shows one join per seat")
    dispute.locator("button[type=submit]").click()
    expect(page.locator(".flash-done")).to_have_text("Dispute 1 dismissed.")
    ruled = service.dispute(played.match_id, 1)
    assert (ruled["status"], ruled["ruling"]) == ("ruled", "dismissed")
    assert ruled["ruled_by"] == "referee"

    page.fill("#extend-form input[name=seconds]", "600")
    page.fill("#extend-form input[name=reason]", "a seat asked for time")
    page.click("#extend-form button[type=submit]")
    expect(page.locator(".flash-done")).to_contain_text("The deadline is now")
    deadline = service.summary(played.match_id).deadline
    assert _seconds_between(deadline_before, deadline) == 600
    set_events = events_of(service, played, "DeadlineSet")
    assert set_events[-1]["data"]["note"] == "a seat asked for time"
    shoot(page, "referee-after-ruling-and-extension")
    assert_no_token(page.content(), played, "the referee's page")

    page.click("text=Verify and audit")
    expect(page.locator("#verify-verdict")).to_contain_text("Sound")
    expect(page.locator("#audit-verdict")).to_contain_text("Exact")
    shoot(page, "referee-checks")


def test_a_cross_site_form_post_is_refused(browser, base_url, service, shoot):
    played = new_match(service, "district_war", "cross site")
    page = browser.page
    sign_in(page, base_url, played, played.tokens[2], via_match_page=True)
    expect(page.locator("#order-form")).to_be_visible()
    orders_before = len(service.event_log(played.match_id))
    target = f"{base_url}/ui/matches/{played.match_id}/seat/orders"
    attack = (
        f'<form id="f" method="post" action="{target}"><input name="order" value="first 1">'
        '<input name="movement" value="1"></form><script>document.getElementById("f").submit()'
        "</script>"
    )
    page.context.route(
        "http://attacker.test/**",
        lambda route: route.fulfill(status=200, content_type="text/html", body=attack),
    )
    page.goto("http://attacker.test/prize")
    page.wait_for_url(target)
    expect(page.locator("h1")).to_have_text("403: cross_site_request_refused")
    shoot(page, "cross-site-post-refused")
    assert len(service.event_log(played.match_id)) == orders_before
    page.goto(f"{base_url}/ui/matches/{played.match_id}/seat")  # the session itself stands
    expect(page.locator("header form.signed-in")).to_contain_text("Signed in as seat 2")


def test_no_token_appears_in_any_url_visited_or_in_the_access_log(
    browser, base_url, service, access_log, shoot
):
    played = new_match(service, "district_war", "no token in urls")
    page = browser.page
    sign_in(page, base_url, played, played.tokens[2], via_match_page=True)
    page.fill("#order-form textarea[name=order]", "first 1")
    page.click("#order-form button[type=submit]")
    expect(page.locator("#receipt")).to_be_visible()
    page.click("#sign-out")
    assert page.url == f"{base_url}/ui/sign-in?match={played.match_id}"
    page.goto(f"{base_url}/ui/matches/{played.match_id}/seat")  # signed out: the form again
    assert "/ui/sign-in" in page.url
    sign_in(page, base_url, played, played.referee, via_match_page=False)
    expect(page.locator("#head")).to_be_visible()
    with page.expect_download() as archive:
        page.click("#archive")
    assert json.loads(Path(archive.value.path()).read_text())["match_id"] == str(played.match_id)
    with page.expect_download() as reissued:
        page.click("#reissue-form button[type=submit]")
    new_token = Path(reissued.value.path()).read_text().strip()
    played.tokens[0] = new_token  # checked below like the others
    assert service.holder(played.match_id, new_token).seat == 1
    shoot(page, "referee-after-reissue")
    assert_no_token(page.content(), played, "the referee's page")

    visited = browser.history()
    assert any(url.endswith("/referee") for url in visited), visited  # History is read
    for url in visited + browser.requested:
        assert_no_token(url, played, f"the URL {url}")
    match_lines = [line for line in access_log.lines if str(played.match_id) in line]
    assert any('/seat/orders HTTP/1.1" 201' in line for line in match_lines), match_lines
    assert any('"POST /ui/sign-in HTTP/1.1" 303' in line for line in access_log.lines)
    for line in access_log.lines:
        assert_no_token(line, played, "the access log")


def _seconds_between(earlier: str | None, later: str | None) -> float:
    assert earlier and later
    return (datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds()
