"""The pages over HTTP through the Flask test client (no browser): what they declare,
what they answer, and that everything reads without JavaScript (the board and the
Public Display are in the HTML itself)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from api.pages.gamedocs import link_rulings, page_html
from api.strictness import accepted_parameters, handler_of
from service.matches import Matches
from tests.pages.conftest import pages_app
from tests.pages.games import GAMES, Played, new_match, played_match
from tests.support.corrections import drts_match
from tests.support.draws import play_to_a_draw

PAGES = Path(__file__).resolve().parents[2] / "api" / "pages"


@pytest.fixture(scope="module")
def client(service: Matches):
    return pages_app(service, long_polls=4).test_client()


@pytest.fixture(scope="module")
def games(service: Matches) -> dict[str, Played]:
    return {game: played_match(service, game, 3, seed="http") for game in GAMES}


def test_the_root_leads_to_the_match_list(client):
    answer = client.get("/")
    assert answer.status_code == 302 and answer.headers["Location"] == "/ui/"


def test_each_page_declares_exactly_its_query_parameters(client):
    """Pages are held to declared parameters like the API (api/strictness.py)."""
    app = client.application
    declared = {
        rule.endpoint: accepted_parameters(handler_of(app.view_functions[rule.endpoint], "GET"))
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith("pages.")
    }
    assert declared == {
        "pages.root": frozenset(),
        "pages.match_list": {"ruleset", "status", "disputes", "limit", "cursor"},
        "pages.standings": {"ruleset", "limit", "cursor"},
        "pages.match_page": {"timeline"},
        "pages.live_part": {"timeline"},
        "pages.replay": {"movement", "phase", "timeline"},
        "pages.game_docs": frozenset(),
        "pages.static": frozenset(),
    }


def test_an_unknown_parameter_is_refused_like_the_apis(client, games):
    """The API's 400 unknown_parameter, on the error page (issue 40: pages answer HTML)."""
    answer = client.get(f"/ui/matches/{games['shades'].match_id}/replay?movment=2")
    assert answer.status_code == 400 and answer.mimetype == "text/html"
    text = html.unescape(answer.text)
    assert "400: unknown_parameter" in text
    accepted = "this endpoint accepts movement, phase, timeline"
    assert f"unknown query parameter 'movment': {accepted}" in text


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [
        ("/ui/?status=closed", 422, "status: Must be one of"),
        ("/ui/?cursor=x", 422, "cursor"),
        ("/ui/matches/00000000-0000-4000-8000-000000000000", 404, "match_not_found"),
        ("/ui/games/chess", 404, "no docs page for a game named"),
    ],
)
def test_a_bad_request_gets_the_error_page(client, path, status, words):
    answer = client.get(path)
    assert answer.status_code == status
    assert words in html.unescape(answer.get_data(as_text=True))


def test_a_position_outside_the_replay_gets_the_error_page(client, games):
    match = games["dris_et_tessa"].match_id
    answer = client.get(f"/ui/matches/{match}/replay?movement=2&phase=99")
    assert answer.status_code == 404 and "phase_not_found" in answer.get_data(as_text=True)
    answer = client.get(f"/ui/matches/{match}/replay?movement=4")
    assert answer.status_code == 404 and "movement_not_resolved" in answer.get_data(as_text=True)


@pytest.mark.parametrize("game", GAMES)
def test_a_match_page_reads_without_javascript(client, service, games, game):
    """The board (SVG with its <title>) and its text alternative, the Public Display,
    are in the page's HTML: no script is needed to read it."""
    played = games[game]
    text = client.get(f"/ui/matches/{played.match_id}").get_data(as_text=True)
    board = re.search(r"<svg [^>]*role=\"img\"[^>]*><title>([^<]*)</title>", text)
    assert board and "the board at movement 4" in board.group(1)
    shown = re.search(r'<pre id="display-text" class="display">(.*?)</pre>', text, re.S)
    assert shown and html.unescape(shown.group(1)) == service.display(played.match_id)
    assert 'aria-describedby="display-text"' in text
    for seat in service.summary(played.match_id).seats:
        assert f"<td>{seat['name']}</td>" in text


@pytest.mark.parametrize("game", GAMES)
def test_a_replay_position_reads_without_javascript(client, service, games, game):
    played = games[game]
    view = service.state(played.match_id, 2, 1)
    text = client.get(f"/ui/matches/{played.match_id}/replay?movement=2&phase=1").text
    assert f"movement 2, phase 1 of {len(view.phases)}: {html.escape(view.phase_name)}" in text
    assert re.search(r"<svg [^>]*><title>[^<]*movement 2, phase 1", text)
    assert f'href="/ui/matches/{played.match_id}/replay?movement=2&amp;phase=2"' in text or (
        len(view.phases) == 1  # then on to movement 3
    )
    for step in view.steps:
        assert html.escape(step["text"]).split("(")[0] in text  # the steps, in words
        assert f'href="/ui/games/{game}#{step["rule"]}"' in text


def test_a_match_not_yet_resolved_has_nothing_to_replay(client, service):
    played = new_match(service, "district_war", "nothing yet")
    text = client.get(f"/ui/matches/{played.match_id}/replay").text
    assert "No movement of this match is resolved yet" in text


def test_a_match_not_started_has_a_page_without_a_board(client, service):
    new = service.create_match("dris_et_tessa", seats=2, seed="open")
    text = client.get(f"/ui/matches/{new.match_id}").text
    assert "No board to draw before the start" in text and "<svg" not in text


def test_the_game_docs_page_anchors_each_ruling_once(client):
    text = client.get("/ui/games/district_war").text
    for ruling in ("DW-1", "DW-2", "DW-3", "DW-4", "DW-5"):
        assert text.count(f'id="{ruling}"') == 1, ruling


def test_ruling_ids_in_a_step_become_links_and_the_rest_is_escaped():
    linked = link_rulings("placed <b> beside its King (BC-6), then BC-4", "/ui/games/b_chess")
    assert linked == (
        'placed &lt;b&gt; beside its King (<a class="ruling" href="/ui/games/b_chess#BC-6">BC-6'
        '</a>), then <a class="ruling" href="/ui/games/b_chess#BC-4">BC-4</a>'
    )
    assert str(page_html("SH-1 and SH-2 <x>\n## Moves (SH-1)\ntext SH-1")) == (
        '<pre class=\'doc\'>SH-1 and <span id="SH-2" class="anchor">SH-2</span> &lt;x&gt;</pre>\n'
        '<h3>Moves (<span id="SH-1" class="anchor">SH-1</span>)</h3>\n'
        "<pre class='doc'>text SH-1</pre>"
    )  # an id is anchored at its heading, where the page explains it, else first mention


def test_nothing_is_fetched_from_outside_and_the_assets_are_served(client):
    """No build step, no CDN: the templates and assets name no other host."""
    for path in [*PAGES.glob("templates/*.html"), *PAGES.glob("static/*")]:
        outside = re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", path.read_text())
        assert outside == [], (path.name, outside)
    for name in ("pages.css", "live.js", "replay.js"):
        assert client.get(f"/ui/static/{name}").status_code == 200


def test_the_list_filters_and_the_standings_answer(client, games):
    text = client.get("/ui/?ruleset=b_chess&status=started").text
    assert str(games["b_chess"].match_id)[:8] in text
    assert str(games["shades"].match_id)[:8] not in text
    assert client.get("/ui/?ruleset=&status=").status_code == 200  # the form's "any"
    assert "Standings" in client.get("/ui/standings?ruleset=shades").text


def test_the_standings_page_links_a_player_with_its_id_and_marks_a_seat_name(client, service):
    """Issue 45: a row of a player shows its name, linked to its page, and its id; a row
    of seats that named no player says so."""
    pat = service.players.create("Pat")
    new = service.create_match("district_war", seed="standings")
    service.join(new.match_id, "p1", player="pat", player_key=pat.key)
    service.join(new.match_id, "someone")
    service.start(new.match_id, new.referee_token)
    service.act(new.match_id, new.referee_token, "forfeit", {"seat": 2}, "test")
    text = client.get("/ui/standings?ruleset=district_war").text
    ident = str(pat.player_id)
    assert f'<a href="/ui/players/{ident}" data-player="{ident}">Pat</a>' in text
    assert f'<small class="quiet player-id">{ident}</small>' in text
    assert 'someone <small class="quiet name-only">(seat name, no player)</small>' in text
    assert ">p1<" not in text  # the seat's name is not the player's


def test_a_drawn_match_links_to_its_rematch_and_back(client, service):
    """DW-5: a drawn District War match is played again in a new match."""
    new, _, _ = play_to_a_draw(service)
    rematch = service.summary(new.match_id).rematch_id
    assert rematch is not None
    text = client.get(f"/ui/matches/{new.match_id}").text
    assert f'played again in <a href="/ui/matches/{rematch}">{rematch[:8]}</a>' in text
    assert "Result: <strong>draw</strong>" in text
    text = client.get(f"/ui/matches/{rematch}").text
    assert f'the rematch of <a href="/ui/matches/{new.match_id}">' in text


def test_the_list_finds_the_matches_awaiting_a_ruling(client, service):
    """Issue 18: `disputes=open` lists the matches with a dispute awaiting a ruling, as
    GET /matches does."""
    disputed = new_match(service, "district_war", "disputed")
    quiet = new_match(service, "district_war", "quiet")
    service.file_dispute(disputed.match_id, disputed.referee, [1], "a referee's note")
    page = client.get("/ui/?disputes=open&limit=1").get_data(as_text=True)
    assert str(disputed.match_id)[:8] in page and str(quiet.match_id)[:8] not in page


def test_a_dris_et_tessa_match_is_watched_after_its_pieces_move(client, service):
    """DT-2: after the placements (nine each) pieces step from point to point; the match
    page and its replay draw the step (issue 40: they answered 500)."""
    played = played_match(service, "dris_et_tessa", 22, seed="steps")
    assert "-" in service.state(played.match_id).state["last"]  # a step, not a placement
    assert client.get(f"/ui/matches/{played.match_id}").status_code == 200
    answer = client.get(f"/ui/matches/{played.match_id}/replay?movement=21&phase=1")
    assert answer.status_code == 200 and "<svg" in answer.text


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/ui/matches/not-a-match", 404, "not_found"),
        ("/ui/no-such-page", 404, "not_found"),
        ("/ui/matches/00000000-0000-4000-8000-000000000000/replay?movment=2", 400,
         "unknown_parameter"),
    ],
)  # fmt: skip
def test_a_page_answers_its_errors_as_a_page_never_as_json(client, path, status, code):
    """Issue 40: a reader of the pages gets the error page (HTML), never the API's JSON."""
    answer = client.get(path)
    assert answer.status_code == status and answer.mimetype == "text/html", answer.data[:200]
    assert f"{status}: {code}" in answer.text


def test_a_page_that_fails_answers_the_error_page_and_logs_the_bug(client, games, monkeypatch):
    """A bug in a page (here its board) is a 500 with the error page, not a traceback or
    the API's JSON; the API's own 500 keeps its JSON shape."""

    def broken(*args: object) -> str:
        raise ValueError("a bug in the board")

    monkeypatch.setattr("api.pages.boards.draw", broken)
    answer = client.get(f"/ui/matches/{games['shades'].match_id}")
    assert answer.status_code == 500 and answer.mimetype == "text/html"
    assert "500: internal_error" in answer.text and "a bug in the board" not in answer.text
    assert "Traceback" not in answer.text


def test_a_corrected_match_replays_every_movement_of_each_timeline(client, service):
    """Issue 40: after a correction the replay answered 409 phases_diverged at the
    corrected movement and after it; each timeline is now replayed (?timeline=), its
    scrubber's links keeping it, and the match page shows where a timeline ended."""
    new, _ = drts_match(service, service.clock)
    service.clock.advance(3600)  # movement 4's deadline passes in the new timeline
    service.correct(new.match_id, new.referee_token, 2, [{"seat": 4, "order": "hold"}], "x")
    page = f"/ui/matches/{new.match_id}"
    for query in ("movement=2&phase=1", "movement=3", "movement=4&phase=12"):
        assert client.get(f"{page}/replay?{query}").status_code == 200, query
    old = client.get(f"{page}/replay?timeline=1&movement=4&phase=1")
    assert old.status_code == 200 and "timeline 1 of 2" in old.text
    assert "replay?movement=4&amp;phase=2&amp;timeline=1" in old.text
    ended = client.get(f"{page}?timeline=1").text
    shown = re.search(r'<pre id="display-text" class="display">(.*?)</pre>', ended, re.S)
    assert shown and html.unescape(shown.group(1)) == service.display(new.match_id, timeline=1)
    assert "timeline 1 of 2" in ended
    missing = client.get(f"{page}/replay?timeline=3")
    assert missing.status_code == 404 and "unknown_timeline" in missing.text
