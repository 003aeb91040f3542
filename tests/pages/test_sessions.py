"""Signing in to the pages over the Flask test client (issue 29): the session cookie's
flags, the CSRF token every form post needs, and a session holding its token's authority
and no more (api/pages/session.py, docs/pages.md)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from api.app import create_app
from api.pages.desk import DESK_DISPUTES
from api.strictness import accepted_parameters, handler_of
from domain.match.disputes import MAX_OPEN_DISPUTES_PER_SEAT
from service.matches import Matches
from tests.pages.conftest import pages_app
from tests.pages.games import Played, new_match, play_movement, played_match
from tests.support.pages import CSRF, csrf_of, sign_in


@pytest.fixture
def client(service: Matches) -> Any:
    return pages_app(service, long_polls=4).test_client()


@pytest.fixture
def played(service: Matches) -> Played:
    return new_match(service, "district_war", "sessions")


def event_count(service: Matches, played: Played) -> int:
    return len(service.event_log(played.match_id))


def test_the_session_cookie_is_httponly_and_samesite_strict_and_secure_only_over_https(
    client, played
):
    answer = sign_in(client, played, played.tokens[1])
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/ui/matches/{played.match_id}/seat"
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith("drts_session=") and "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie and "Secure" not in cookie
    assert "Expires=" in cookie  # it ends after DRTS_SESSION_HOURS
    https = "https://drts.example"
    form_page = client.get("/ui/sign-in", base_url=https)
    assert "Secure" in form_page.headers["Set-Cookie"]
    form = {"csrf": CSRF.search(form_page.get_data(as_text=True)).group(1)}
    form |= {"match": str(played.match_id), "token": played.tokens[1]}
    signed_in = client.post("/ui/sign-in", data=form, base_url=https)
    assert signed_in.status_code == 303 and "Secure" in signed_in.headers["Set-Cookie"]


def test_a_token_the_match_does_not_know_is_refused_and_signs_nobody_in(client, played):
    answer = sign_in(client, played, "not-a-token")
    assert answer.status_code == 401
    assert "invalid_token" in answer.get_data(as_text=True)
    assert client.get(f"/ui/matches/{played.match_id}/seat").status_code == 303


def test_a_form_post_without_the_sessions_csrf_token_is_refused(client, service, played):
    sign_in(client, played, played.tokens[2])
    before = event_count(service, played)
    target = f"/ui/matches/{played.match_id}/seat/orders"
    for form in ({"order": "first 1"}, {"order": "first 1", "csrf": "forged"}):
        answer = client.post(target, data=form)
        assert answer.status_code == 403
        assert "cross_site_request_refused" in answer.get_data(as_text=True)
    other_site = {"order": "first 1", "csrf": csrf_of(client)}
    answer = client.post(target, data=other_site, headers={"Origin": "http://attacker.test"})
    assert answer.status_code == 403
    assert event_count(service, played) == before  # nothing recorded


def test_sign_in_itself_needs_the_csrf_token_of_the_form(client, played):
    form = {"match": str(played.match_id), "token": played.tokens[1]}
    assert client.post("/ui/sign-in", data=form).status_code == 403


def test_a_seat_session_has_the_seats_authority_only(client, service, played):
    sign_in(client, played, played.tokens[1])
    assert client.get(f"/ui/matches/{played.match_id}/referee").status_code == 303
    before = event_count(service, played)
    csrf = csrf_of(client, f"/ui/matches/{played.match_id}/seat")
    answer = client.post(
        f"/ui/matches/{played.match_id}/referee/deadline", data={"csrf": csrf, "seconds": "60"}
    )
    assert answer.status_code == 303 and "/ui/sign-in" in answer.headers["Location"]
    other = new_match(service, "district_war", "sessions other")
    assert client.get(f"/ui/matches/{other.match_id}/seat").status_code == 303
    assert event_count(service, played) == before


def test_a_reissued_token_ends_the_sessions_holding_the_old_one(client, service, played):
    sign_in(client, played, played.tokens[1])
    assert client.get(f"/ui/matches/{played.match_id}/seat").status_code == 200
    service.reissue_seat_token(played.match_id, played.referee, 1, "lost")
    answer = client.get(f"/ui/matches/{played.match_id}/seat")
    assert answer.status_code == 401
    assert "invalid_token" in answer.get_data(as_text=True)


def test_signing_out_clears_the_session_and_its_cookie(client, played):
    sign_in(client, played, played.referee)
    desk = f"/ui/matches/{played.match_id}/referee"
    assert client.get(desk).status_code == 200
    answer = client.post("/ui/sign-out", data={"csrf": csrf_of(client, desk)})
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/ui/sign-in?match={played.match_id}"
    assert "drts_session=;" in answer.headers["Set-Cookie"]  # expired at once
    assert client.get(desk).status_code == 303


def test_no_page_shows_a_token(client, played):
    sign_in(client, played, played.referee)
    for path in ("referee", "referee/checks"):
        page = client.get(f"/ui/matches/{played.match_id}/{path}").get_data(as_text=True)
        assert played.referee not in page
        assert all(token not in page for token in played.tokens.values())


def test_a_bad_form_value_gets_the_error_page_naming_the_field(client, played):
    sign_in(client, played, played.referee)
    desk = f"/ui/matches/{played.match_id}/referee"
    csrf = csrf_of(client, desk)
    answer = client.post(f"{desk}/deadline", data={"csrf": csrf, "seconds": "soon"})
    assert answer.status_code == 303
    flashed = client.get(desk).get_data(as_text=True)
    assert "Refused (validation_error): the form is invalid: seconds: Not a valid integer." in (
        flashed
    )


def test_the_session_key_is_the_setting_or_one_drawn_for_each_process(service, monkeypatch):
    monkeypatch.setenv("DRTS_SESSION_SECRET", "the operator's key")
    assert pages_app(service, long_polls=1).secret_key == "the operator's key"
    monkeypatch.delenv("DRTS_SESSION_SECRET")
    drawn = {pages_app(service, long_polls=1).secret_key for _ in range(2)}
    assert len(drawn) == 2 and all(len(str(key)) == 64 for key in drawn)


def referee_post(client: Any, played: Played, path: str, **form: str) -> str:
    """Posts a referee's form; returns the line the referee's page then says."""
    desk = f"/ui/matches/{played.match_id}/referee"
    answer = client.post(f"{desk}/{path}", data={"csrf": csrf_of(client, desk), **form})
    assert answer.status_code == 303
    found = re.search(r'class="flash[^"]*"[^>]*>([^<]*)<', client.get(desk).get_data(as_text=True))
    assert found, "the page says nothing of the post"
    return found.group(1)


def test_the_referees_actions_are_recorded_as_over_the_api(client, service):
    played = new_match(service, "b_chess", "referee actions")
    sign_in(client, played, played.referee)
    said = [
        referee_post(client, played, "actions", action="pause", reason="a break"),
        referee_post(client, played, "actions", action="resume", reason="back"),
        referee_post(
            client,
            played,
            "actions",
            action="grant",
            reason="prize",
            **{"arg.seat": "1", "arg.macks": "20"},
        ),
        referee_post(
            client, played, "actions", action="forfeit", reason="left", **{"arg.seat": "4"}
        ),
        referee_post(client, played, "actions", action="grant", reason="x", **{"arg.seat": "9"}),
    ]
    assert [line.split(":")[0] for line in said] == [
        "Pause",
        "Resume",
        "Grant",
        "Forfeit",
        ("Refused (invalid_action)"),
    ]
    kinds = [e["type"] for e in service.event_log(played.match_id)]
    acted = [k for k in kinds if k in ("Paused", "Resumed", "RefereeActed")]
    assert acted == ["Paused", "Resumed", "RefereeActed", "RefereeActed"], kinds
    desk = f"/ui/matches/{played.match_id}/referee"
    answer = client.post(f"{desk}/tokens", data={"csrf": csrf_of(client, desk), "seat": "2"})
    assert answer.headers["Content-Disposition"] == 'attachment; filename="seat-2-token.txt"'
    assert service.holder(played.match_id, answer.get_data(as_text=True).strip()).seat == 2


def test_the_referees_page_shows_corrections_and_their_timeline(client, service):
    played = played_match(service, "district_war", 2, seed="corrected")
    service.correct(played.match_id, played.referee, 1, [{"seat": 2, "order": "first 2"}], "typo")
    sign_in(client, played, played.referee)
    page = client.get(f"/ui/matches/{played.match_id}/referee").get_data(as_text=True)
    assert "Timeline 2 is the current one" in page
    assert re.search(r"Movement 1 corrected by referee \(event \d+, timeline 2", page)
    checks = client.get(f"/ui/matches/{played.match_id}/referee/checks").get_data(as_text=True)
    assert 'class="timelines"' in checks and checks.count("<td>exact</td>") == 2


def test_a_seat_files_a_dispute_and_may_not_cite_another_seats_sealed_order(client, service):
    played = new_match(service, "shades", "seat disputes")
    play_movement(service, played, only=2)  # seat 2's order, sealed while the turn is open
    sealed = service.event_log(played.match_id)[-1]
    assert sealed["type"] == "OrderSubmitted"
    sign_in(client, played, played.tokens[1])
    seat_page = f"/ui/matches/{played.match_id}/seat"
    for cites, said in (("3", "Dispute 1 filed."), (str(sealed["version"]), "uncitable_event")):
        form = {"csrf": csrf_of(client, seat_page), "cites": cites, "text": "look at this"}
        assert client.post(f"{seat_page}/disputes", data=form).status_code == 303
        assert said in client.get(seat_page).get_data(as_text=True)
    assert [d["seat"] for d in service.dispute_page(played.match_id).items] == [1]
    assert "Dispute 1 <span" in client.get(seat_page).get_data(as_text=True)  # listed


def test_a_seat_at_the_cap_of_open_disputes_is_told_why_and_sees_its_open_ones_first(
    client, service
):
    played = new_match(service, "district_war", "seat at the cap")
    app, match_id, alice = service, played.match_id, played.tokens[1]
    for n in range(MAX_OPEN_DISPUTES_PER_SEAT):
        app.file_dispute(match_id, alice, [1], f"complaint {n + 1}")
    app.file_dispute(match_id, played.tokens[2], [1], "bob's, not shown on alice's page")
    app.rule_dispute(match_id, played.referee, 1, "dismissed", "no case")
    app.file_dispute(match_id, alice, [1], "complaint 12, after the ruling")  # at the cap
    sign_in(client, played, alice)
    seat_page = f"/ui/matches/{match_id}/seat"
    page = client.get(seat_page).get_data(as_text=True)
    assert f"At most {MAX_OPEN_DISPUTES_PER_SEAT} of your disputes" in page
    shown = [int(n) for n in re.findall(r"<h3>Dispute (\d+) <span", page)]
    assert shown == [*range(2, MAX_OPEN_DISPUTES_PER_SEAT + 1), 12, 1]  # open first
    assert "bob's" not in page and 'id="more-open"' not in page
    form = {"csrf": csrf_of(client, seat_page), "cites": "1", "text": "one too many"}
    assert client.post(f"{seat_page}/disputes", data=form).status_code == 303
    page = client.get(seat_page).get_data(as_text=True)
    assert "Refused (too_many_open_disputes)" in page and "one too many" not in page
    assert app.summary(match_id).disputes == {"open": MAX_OPEN_DISPUTES_PER_SEAT + 1, "ruled": 1}


def test_the_referees_page_shows_the_first_disputes_awaiting_a_ruling_and_links_the_rest(
    client, service
):
    """The desk loads at most DESK_DISPUTES of each status (those awaiting a ruling with
    their cited events); the rest show as the referee rules, or by the list's pages."""
    played = new_match(service, "district_war", "many disputes")
    app, match_id = service, played.match_id
    for n in range(DESK_DISPUTES + 3):
        app.file_dispute(match_id, played.referee, [1], f"note {n + 1}")
    for number in (1, 2):
        app.rule_dispute(match_id, played.referee, number, "dismissed", "seen")
    sign_in(client, played, played.referee)
    desk = f"/ui/matches/{match_id}/referee"
    page = client.get(desk).get_data(as_text=True)
    articles = re.findall(r'<article class="dispute" id="dispute-(\d+)">', page)
    assert [int(n) for n in articles] == [*range(3, DESK_DISPUTES + 3), 1, 2]
    assert page.count('class="ruling-form') == DESK_DISPUTES
    assert page.count('<ol class="cited">') == DESK_DISPUTES  # only those awaiting a ruling
    more = f"/matches/{match_id}/disputes?status=open&amp;after={DESK_DISPUTES + 2}"
    assert 'id="more-open"' in page and more in page and 'id="more-ruled"' not in page
    rest = client.get(more.replace("&amp;", "&")).get_json()
    assert [d["dispute"] for d in rest["items"]] == [DESK_DISPUTES + 3]
    form = {"csrf": csrf_of(client, desk), "ruling": "upheld", "reason": "noted"}
    assert client.post(f"{desk}/disputes/3/ruling", data=form).status_code == 303
    page = client.get(desk).get_data(as_text=True)
    articles = re.findall(r'<article class="dispute" id="dispute-(\d+)">', page)
    assert [int(n) for n in articles] == [*range(4, DESK_DISPUTES + 4), 1, 2, 3]
    assert "Dispute 3 upheld." in page and 'id="more-open"' not in page


def test_the_signed_in_pages_declare_no_query_parameter_but_the_match_to_sign_in_to(client):
    app = client.application
    declared = {
        rule.endpoint: accepted_parameters(handler_of(app.view_functions[rule.endpoint], "GET"))
        for rule in app.url_map.iter_rules()
        if rule.endpoint.split(".")[0] in ("signin", "seat", "referee") and "GET" in rule.methods
    }
    assert declared == {
        "signin.sign_in_form": {"match"},
        "seat.desk_page": frozenset(),
        "referee.desk_page": frozenset(),
        "referee.checks_page": frozenset(),
        "referee.archive": frozenset(),
    }
    answer = client.get("/ui/sign-in?token=abc")  # a token in an address is refused
    assert answer.status_code == 400 and "400: unknown_parameter" in answer.text  # a page


def test_behind_a_trusted_proxy_ending_tls_the_cookie_is_secure(service):
    client = create_app({"TESTING": True, "DRTS_TRUSTED_PROXIES": 1}, matches=service).test_client()
    answer = client.get("/ui/sign-in", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in answer.headers["Set-Cookie"]


def test_a_sessions_requests_count_against_its_tokens_rate_limit(service, played):
    config = {"TESTING": True, "DRTS_RATE_LIMIT_PER_ADDRESS": 0, "DRTS_RATE_LIMIT_PER_TOKEN": 3}
    client = create_app(config, matches=service).test_client()
    sign_in(client, played, played.tokens[1])  # two requests without a token
    seat_page = f"/ui/matches/{played.match_id}/seat"
    statuses = [client.get(seat_page).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]


def test_the_same_order_form_sent_twice_stores_one_order(client, service):
    """A double click (or a reload) on the seat's order form: the form's id is the order's
    message id, so its second sending stores nothing and says the first stands. B-Chess
    orders accumulate: a second purchase would have been stored."""
    played = new_match(service, "b_chess", "form twice")
    sign_in(client, played, played.tokens[1])
    seat_page = f"/ui/matches/{played.match_id}/seat"
    shown = client.get(seat_page).get_data(as_text=True)
    form = {
        "csrf": CSRF.search(shown).group(1),  # type: ignore[union-attr]
        "form_id": re.search(r'name="form_id" value="([^"]+)"', shown).group(1),  # type: ignore[union-attr]
        "order": "purchase",
    }

    first = client.post(f"{seat_page}/orders", data=form)
    again = client.post(f"{seat_page}/orders", data=form)

    assert first.status_code == 201 and 'id="receipt-digest"' in first.get_data(as_text=True)
    assert again.status_code == 200 and 'id="already"' in again.get_data(as_text=True)
    stored = [
        e
        for e in service.event_log(played.match_id, played.referee)
        if e["type"] in ("OrderSubmitted", "OrderRejected") and e["data"]["seat"] == 1
    ]
    assert [(e["type"], e["data"]["message_id"]) for e in stored] == [
        ("OrderSubmitted", form["form_id"])
    ]
    assert f"event {stored[0]['version']}" in again.get_data(as_text=True)
    fresh = re.search(r'name="form_id" value="([^"]+)"', again.get_data(as_text=True))
    assert fresh and fresh.group(1) != form["form_id"]  # the next form is a new message
