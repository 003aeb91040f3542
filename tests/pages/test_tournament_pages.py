"""The tournament and player pages over real HTTP (issue 45, docs/pages.md): the app
served on a loopback port, read with urllib, over tournaments created and played through
the service (a District War round robin of 4 played to its end, a single elimination of
5 played to its end, a Swiss of 4 paused before its first round is played). The pages'
content is checked against the service's own reads: the rounds and their matches, the
standing in rank order with its tie-break columns in the recorded order, the bracket
slot by slot, and each rating value against the ratings query."""

from __future__ import annotations

import email
import email.policy
import html
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest

from api.pages.headers import PAGES_POLICY
from api.strictness import accepted_parameters, handler_of
from service.channels.mail.outbox import MaildirOutbox
from service.matches import Matches
from service.queries.played import seats_of
from service.tournaments import Tournaments
from tests.pages.conftest import pages_app, serving
from tests.pages.tournaments import (
    OPERATOR,
    Entered,
    entered,
    operated,
    play_round,
    play_to_the_end,
)


@dataclass(frozen=True)
class Page:
    status: int
    headers: Any
    text: str


@dataclass(frozen=True)
class Played:
    round_robin: Entered
    elimination: Entered
    paused: Entered


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Matches]:
    """The served app's Matches application, with an operator (who forfeits seats)."""
    app = operated(tmp_path_factory.mktemp("tournament-pages"))
    yield app
    app.close()


@pytest.fixture(scope="module")
def base(service: Matches) -> Iterator[str]:
    with serving(pages_app(service, long_polls=4)) as url:
        yield url


@pytest.fixture(scope="module")
def played(service: Matches) -> Played:
    round_robin = entered(service, "rr", 4, "round_robin")
    play_to_the_end(service, round_robin.tournament_id)
    elimination = entered(service, "el", 5, "elimination")
    play_to_the_end(service, elimination.tournament_id)
    paused = entered(service, "sw", 4, "swiss")
    Tournaments(service).advance(paused.tournament_id)
    Tournaments(service).create("empty cup", "swiss", "district_war")  # no player: listed too
    return Played(round_robin, elimination, paused)


def get(base: str, path: str) -> Page:
    try:
        with urllib.request.urlopen(base + path, timeout=10) as answer:
            return Page(answer.status, answer.headers, answer.read().decode())
    except urllib.error.HTTPError as error:
        return Page(error.code, error.headers, error.read().decode())


def ok(base: str, path: str) -> str:
    page = get(base, path)
    assert page.status == 200, (path, page.text[:500])
    return page.text


def section(text: str, pattern: str) -> str:
    found = re.search(pattern, text, re.S)
    assert found, pattern
    return found.group(1)


def rows(text: str, table_class: str) -> list[str]:
    body = section(text, rf'<table class="{table_class}">.*?<tbody>(.*?)</tbody>')
    return re.findall(r"<tr[^>]*>.*?</tr>", body, re.S)


def cells(row: str) -> list[str]:
    found = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in found]


def test_the_list_names_every_tournament_with_its_format_and_status(base, played, service):
    text = ok(base, "/ui/tournaments")
    listed = re.findall(r'<tr data-tournament="([^"]+)">', text)
    assert listed == [str(t) for t in reversed(Tournaments(service).ids())]  # newest first
    for entry, status in ((played.round_robin, "finished"), (played.elimination, "finished")):
        row = section(text, rf'<tr data-tournament="{entry.tournament_id}">(.*?)</tr>')
        link = f'href="/ui/tournaments/{entry.tournament_id}"'
        assert link in row and f'class="status-{status}">{status}<' in row
    assert "Round robin" in text and "Single elimination" in text and "Swiss" in text


def test_each_round_lists_its_tables_each_linking_to_its_match_live_and_replayed(
    base, played, service
):
    tid = played.round_robin.tournament_id
    tournament = Tournaments(service).get(tid)
    text = ok(base, f"/ui/tournaments/{tid}")
    assert section(text, r'<dd id="format">(.*?)</dd>') == "Round robin"
    assert "finished" in section(text, r'<dd id="status"[^>]*>(.*?)</dd>')
    names = {str(p.player_id): p.name for p in played.round_robin.made.values()}
    assert len(tournament.rounds) == 3
    for record in tournament.rounds:
        shown = section(
            text, rf'<section class="round" id="round-{record["round"]}"[^>]*>(.*?)</section>'
        )
        assert "(complete)" in shown
        found = re.findall(r'<tr data-table="(\d+)" data-match="([^"]+)">(.*?)</tr>', shown, re.S)
        assert [(int(t), m) for t, m, _ in found] == [
            (table, links[-1]) for table, links in enumerate(record["links"], 1)
        ]
        for (_, match_id, row), seated in zip(found, record["tables"], strict=True):
            assert f'href="/ui/matches/{match_id}"' in row
            assert f'href="/ui/matches/{match_id}/replay"' in row
            seats, _match, status, result = cells(row)[1:]
            assert seats == " v ".join(names[p] for p in seated)  # seat order
            assert status == "finished"
            points = tournament.results[match_id]["points"]
            winner, loser = seated  # the operator forfeited seat 2
            assert points == {winner: 2, loser: 0}
            assert result == f"{names[winner]} 2, {names[loser]} 0 · forfeit: {names[loser]}"


def test_the_standing_is_in_rank_order_with_each_tie_break_in_the_recorded_order(
    base, played, service
):
    tid = played.round_robin.tournament_id
    tournaments = Tournaments(service)
    order = tournaments.get(tid).tie_breaks
    assert order == ["points", "head_to_head", "sonneborn_berger", "draw"]
    text = ok(base, f"/ui/tournaments/{tid}")
    table = section(text, r'(<table class="tournament-standings">.*?</table>)')
    assert re.findall(r'<th data-tie-break="([^"]+)">', table) == order
    standing = tournaments.standings(tid)
    shown = rows(text, "tournament-standings")
    assert [re.search(r'data-player="([^"]+)"', r).group(1) for r in shown] == [
        entry.player_id for entry in standing
    ]
    names = {str(p.player_id): p.name for p in played.round_robin.made.values()}
    for row, entry in zip(shown, standing, strict=True):
        expected = [str(entry.rank), names[entry.player_id]]
        expected += [str(entry.tie_breaks[name])[: 8 if name == "draw" else None] for name in order]
        assert cells(row) == expected
        assert f'title="{entry.tie_breaks["draw"]}"' in row  # the whole draw on hover
    assert [entry.rank for entry in standing] == [1, 2, 3, 4]


def test_the_seed_shows_its_commitment_then_once_revealed_the_seed_and_verify_is_linked(
    base, played, service
):
    tournaments = Tournaments(service)
    finished = tournaments.get(played.round_robin.tournament_id)
    running = tournaments.get(played.paused.tournament_id)
    assert finished.seed_revealed and not running.seed_revealed
    text = ok(base, f"/ui/tournaments/{finished.id}")
    assert section(text, r'<code id="seed-commitment">(.*?)</code>') == finished.seed_commitment
    assert section(text, r'<code id="seed">(.*?)</code>') == finished.seed
    verify = section(text, r'<a id="verify" href="([^"]+)"')
    assert verify == f"/tournaments/{finished.id}/verify"
    report = json.loads(ok(base, verify))
    assert report["ok"] is True
    text = ok(base, f"/ui/tournaments/{running.id}")
    assert section(text, r'<code id="seed-commitment">(.*?)</code>') == running.seed_commitment
    assert running.seed not in text and '<code id="seed">' not in text
    assert "revealed once the tournament has finished" in text
    assert "running" in section(text, r'<dd id="status"[^>]*>(.*?)</dd>')


def test_a_paused_tournament_says_so_with_its_reason(base, played, service):
    tournaments = Tournaments(service)
    entry = entered(service, "pz", 2, "round_robin")
    new = tournaments.get(entry.tournament_id)
    tournaments.pause(new.id, OPERATOR, "the hall is closed")
    text = ok(base, f"/ui/tournaments/{new.id}")
    status = html.unescape(section(text, r'<dd id="status"[^>]*>(.*?)</dd>'))
    assert status == "paused: the hall is closed"
    assert "No round is paired yet" in text


def bracket_rounds(text: str) -> list[list[list[str]]]:
    """Returns the bracket's rounds, each a list of its matches' two slots' player ids
    ("" for an empty or undecided slot)."""
    drawn = section(text, r'<ol class="bracket"[^>]*>(.*)</ol>\s*</div>')
    columns = re.split(r'<li class="bracket-round" data-round="\d+">', drawn)[1:]
    return [
        [
            re.findall(r'<li class="slot[^"]*" data-player="([^"]*)">', match)
            for match in re.split(r'<li class="bracket-match">', column)[1:]
        ]
        for column in columns
    ]


def test_an_elimination_draws_its_bracket_with_byes_and_who_went_on(base, played, service):
    entry = played.elimination
    tournament = Tournaments(service).get(entry.tournament_id)
    ids = {p.name: str(p.player_id) for p in entry.made.values()}
    e1, e2, e3, e4, e5 = (ids[f"el{n}"] for n in range(1, 6))
    text = ok(base, f"/ui/tournaments/{tournament.id}")
    # eight slots in bracket order (1 8 4 5 2 7 3 6): seeds 6, 7 and 8 are missing
    assert bracket_rounds(text) == [
        [[e1, ""], [e4, e5], [e2, ""], [e3, ""]],
        [[e1, e4], [e2, e3]],
        [[e1, e2]],
    ]
    went_on = re.findall(r'<li class="slot went-on" data-player="([^"]+)">', text)
    assert went_on == [e1, e4, e2, e3, e1, e2, e1]  # seat 1 wins every match
    assert text.count('<span class="went-on-mark">goes on (bye)</span>') == 3
    links = re.findall(
        r'<p class="bracket-links">Table (\d+):\s*<a href="/ui/matches/([^"]+)">', text
    )
    assert [m for _, m in links] == [
        links_[-1] for record in tournament.rounds for links_ in record["links"]
    ]
    round_1 = section(text, r'<section class="round" id="round-1"[^>]*>(.*?)</section>')
    assert re.findall(r'<p class="byes">Byes: (.*?)</p>', round_1, re.S)
    byes = re.findall(r">(el\d)</a>", section(round_1, r'<p class="byes">(.*?)</p>'))
    assert (
        byes
        == ["el1", "el2", "el3"]
        == [next(n for n, i in ids.items() if i == p) for p in tournament.rounds[0]["byes"]]
    )
    assert section(text, r"<h3>(Final)</h3>") == "Final"


def test_a_player_page_lists_its_games_and_its_rating_history_as_the_ratings_query(
    base, played, service
):
    player = played.round_robin.made["rr1"]
    text = ok(base, f"/ui/players/{player.player_id}")
    assert ok(base, "/ui/players/RR1") == text  # by name, in any case
    assert section(text, r"<h1>(.*?) <span") == "rr1"
    tournaments = re.findall(r'href="/ui/tournaments/([^"]+)"', text)
    assert tournaments == [str(played.round_robin.tournament_id)]
    games = [re.search(r'data-match="([^"]+)"', r).group(1) for r in rows(text, "player-games")]
    assert games == [str(s.match_id) for s in seats_of(service.store, player.player_id)]
    assert len(games) == 3  # a round robin of 4: three matches each
    (rating,) = service.players.ratings_of("rr1").ratings
    table, mine = rating
    shown = section(
        text,
        rf'<section class="rating" data-ruleset="{table.ruleset}" '
        rf'data-version="{table.version}">(.*?)</section>',
    )
    assert section(shown, r'<span class="mu">(.*?)</span>') == str(mine.mu)
    assert section(shown, r'<span class="sigma">(.*?)</span>') == str(mine.sigma)
    assert section(shown, r'<span class="ordinal">(.*?)</span>') == str(mine.ordinal)
    history = rows(shown, "rating-history")
    assert len(history) == len(mine.history) == 3
    for row, change in zip(history, mine.history, strict=True):
        assert f'data-match="{change.match_id}"' in row
        assert cells(row)[1:] == [
            str(change.mu_before),
            str(change.mu_after),
            str(change.sigma_before),
            str(change.sigma_after),
        ]


def test_a_player_page_shows_no_key_and_no_address(base, played, service, tmp_path):
    service.outbox = MaildirOutbox(str(tmp_path / "outbox"))
    player = played.round_robin.made["rr2"]
    service.players.set_address("rr2", player.key, "rr2@example.org")
    (mail,) = (tmp_path / "outbox" / "new").iterdir()
    letter = email.message_from_bytes(mail.read_bytes(), policy=email.policy.default)
    (code,) = re.findall(r"\b[a-z2-7]{32}\b", letter.get_body().get_content())
    service.players.confirm_address("rr2", player.key, code)
    assert service.players.get("rr2").confirmed_address == "rr2@example.org"
    text = ok(base, f"/ui/players/{player.player_id}")
    found = service.players.get("rr2")
    for secret in (player.key, found.key_hash, "rr2@example.org", "example.org", code):
        assert secret not in text


def test_a_tournament_match_links_to_its_tournament_and_another_match_does_not(
    base, played, service
):
    tid = played.elimination.tournament_id
    match_id = Tournaments(service).get(tid).rounds[0]["links"][0][0]
    for path in (f"/ui/matches/{match_id}", f"/ui/matches/{match_id}/replay"):
        text = ok(base, path)
        link = section(text, r'<a id="tournament-link" href="([^"]+)">')
        assert link == f"/ui/tournaments/{tid}" and "el cup</a>" in text
    other = service.create_match("district_war", {}, seats=2).match_id
    assert 'id="tournament-link"' not in ok(base, f"/ui/matches/{other}")


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/ui/tournaments/not-a-tournament", "tournament_not_found"),
        (f"/ui/tournaments/{uuid4()}", "tournament_not_found"),
        ("/ui/players/nobody", "player_not_found"),
        (f"/ui/players/{uuid4()}", "player_not_found"),
    ],
)
def test_a_bad_id_gets_the_pages_404_page(base, played, path, code):
    page = get(base, path)
    assert page.status == 404 and page.headers.get_content_type() == "text/html"
    assert f"404: {code}" in html.unescape(page.text)


def test_the_api_answers_404_for_an_id_no_aggregate_has(base, played):
    """`Tournaments.get` took only a malformed id for a missing one: a well-formed id of
    nothing was a 500 on the API and the pages alike."""
    page = get(base, f"/tournaments/{uuid4()}")
    assert page.status == 404 and json.loads(page.text)["code"] == "tournament_not_found"


def test_a_match_id_is_neither_a_tournament_nor_a_player(base, played, service):
    match_id = Tournaments(service).get(played.round_robin.tournament_id).rounds[0]["links"][0][0]
    assert "404: tournament_not_found" in get(base, f"/ui/tournaments/{match_id}").text
    assert "404: player_not_found" in get(base, f"/ui/players/{match_id}").text


def test_the_pages_send_the_pages_headers_and_refuse_unknown_parameters(base, played):
    tid = played.elimination.tournament_id
    player = played.elimination.made["el1"].player_id
    for path in (
        "/ui/tournaments",
        f"/ui/tournaments/{tid}",
        f"/ui/players/{player}",
        "/ui/tournaments/nope",
        f"/ui/tournaments/{tid}?round=1",
    ):
        page = get(base, path)
        assert page.headers["Content-Security-Policy"] == PAGES_POLICY, path
        assert page.headers["X-Frame-Options"] == "DENY", path
        assert page.headers["X-Content-Type-Options"] == "nosniff", path
        assert page.headers["Referrer-Policy"] == "same-origin", path
        assert "style=" not in page.text and "<script" not in page.text, path
    refused = get(base, f"/ui/tournaments/{tid}?round=1")
    assert refused.status == 400 and "400: unknown_parameter" in html.unescape(refused.text)


def test_the_tournament_pages_declare_no_query_parameter(service):
    app = pages_app(service, long_polls=1)
    declared = {
        rule.endpoint: accepted_parameters(handler_of(app.view_functions[rule.endpoint], "GET"))
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith("tournament_pages.")
    }
    assert declared == {
        "tournament_pages.tournament_list": frozenset(),
        "tournament_pages.tournament_page": frozenset(),
        "tournament_pages.player": frozenset(),
    }


def test_a_round_in_play_shows_its_matches_started_and_unrecorded(base, service):
    entry = entered(service, "ip", 2, "round_robin")
    Tournaments(service).advance(entry.tournament_id)
    text = ok(base, f"/ui/tournaments/{entry.tournament_id}")
    shown = section(text, r'<section class="round" id="round-1"[^>]*>(.*?)</section>')
    assert "(in play)" in shown and "not recorded yet" in shown
    assert 'class="status-started">started<' in shown
    play_round(service, entry.tournament_id)
    assert "(complete)" in ok(base, f"/ui/tournaments/{entry.tournament_id}")


def test_docs_name_every_page_added(played):
    pages_md = (Path(__file__).resolve().parents[2] / "docs" / "pages.md").read_text()
    for address in ("/ui/tournaments", "/ui/tournaments/{tournament}", "/ui/players/{player}"):
        assert f"`{address}`" in pages_md


def test_a_withdrawal_shows_in_the_players_the_standing_and_the_byes_it_leaves(base, service):
    """Round robin: a withdrawn player is paired no more, and its scheduled opponent has
    a bye (a walkover) in each later round (docs/tournaments.md, Round robin)."""
    entry = entered(service, "wd", 4, "round_robin")
    tournaments = Tournaments(service)
    tournaments.advance(entry.tournament_id)
    play_round(service, entry.tournament_id)  # round 1 played, round 2 paired
    tournaments.withdraw(entry.tournament_id, "wd4", OPERATOR, "ill")
    play_round(service, entry.tournament_id)  # round 2 played, round 3 paired without wd4
    found = tournaments.get(entry.tournament_id)
    ids = {p.name: str(p.player_id) for p in entry.made.values()}
    assert found.withdrawn == {ids["wd4"]: 2} and len(found.rounds) == 3
    text = ok(base, f"/ui/tournaments/{entry.tournament_id}")
    withdrawals = section(text, r'<p class="withdrawals">(.*?)</p>')
    assert re.sub(r"<[^>]+>", "", withdrawals) == "Withdrawn: wd4 (after round 2)"
    standing = {cells(r)[1] for r in rows(text, "tournament-standings")}
    assert "wd4 (withdrawn)" in standing
    for record in found.rounds[2:]:
        shown = section(
            text, rf'<section class="round" id="round-{record["round"]}"[^>]*>(.*?)</section>'
        )
        names = [next(n for n, i in ids.items() if i == p) for p in record["byes"]]
        assert names and "wd4" not in names and "wd4" not in re.sub(r"<p class.*", "", shown)
        byes = re.findall(r">(wd\d)</a>", section(shown, r'<p class="byes">(.*?)</p>'))
        assert byes == names
