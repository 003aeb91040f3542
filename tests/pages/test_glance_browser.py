"""Boards a player reads at a glance (issue 48), in Debian's chromium: DRTS Team 23 v2
draws its pieces by kind (Water a disc, Fire a triangle, Plant a square), Stars,
Generators, DeathStars (with the corner they point at) and Blackholes by their marks,
each with its legend entry; a seat's colour on the board is its colour in the seats
table; and every game's pages fit a phone's width (390x844) without a sideways scroll."""

from __future__ import annotations

import re
from typing import Any

import pytest

from api.pages import boards
from service.matches import Matches
from tests.pages.games import GAMES, Played, played_match
from tests.support.pages import sign_in_browser

MOVEMENTS = 4


@pytest.fixture(scope="module")
def games(service: Matches) -> dict[str, Played]:
    return {game: played_match(service, game, MOVEMENTS, seed="glance") for game in GAMES}


def rgb(hex_colour: str) -> str:
    """Returns a #rrggbb colour as the browser computes it (`rgb(r, g, b)`)."""
    red, green, blue = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


def items_state(service: Matches, played: Played) -> dict[str, Any]:
    """Returns the match's state JSON with a Star on seat 1's Water, a Generator of seat
    2's Plant, a DeathStar of seat 3 pointing at corner 42 and a Blackhole of seat 4 (the
    state JSON's own shapes, docs/games/drts_team23.md)."""
    state: dict[str, Any] = service.state(played.match_id).state
    seats = state["seats"]
    seats["1"]["pieces"]["water"] = 20
    seats["1"]["stars"] = {"water": 1}
    seats["2"]["pieces"]["plant"] = 21
    seats["2"]["generators"] = {"plant": 3}
    state["board_items"] = [
        {"item": "deathstar", "square": 15, "seat": 3, "corner": 42},
        {"item": "blackhole", "square": 9, "seat": 4},
    ]
    return state


def test_a_drts_v2_board_shows_star_generator_deathstar_and_blackhole_with_a_legend(
    tab, base_url, service, games, shoot
):
    """DRTS-11 (DeathStar), DRTS-13 (Star), DRTS-14 (Blackhole), DRTS-15 (Generator)."""
    played = games["drts_team23"]
    assert service.summary(played.match_id).ruleset_version == 2
    drawn = boards.draw("drts_team23", items_state(service, played), "items")
    assert drawn is not None
    css = f"{base_url}/ui/static/pages.css"
    tab.set_content(
        f'<link rel="stylesheet" href="{css}"><main><figure class="board-figure">{drawn}'
        "</figure></main>"
    )
    board = tab.locator("svg.board")
    kinds = {"water": "circle", "fire": "polygon", "plant": "rect"}
    for kind, element in kinds.items():  # each kind by its shape
        assert board.locator(f"g.piece.{kind} > {element}.body").count() >= 1, kind
    star = board.locator('g.piece.star[data-seat="1"][data-kind="water"][data-square="20"]')
    assert star.locator("polygon.star-mark").count() == 1
    generator = board.locator('g.piece.generator[data-seat="2"][data-kind="plant"]')
    assert generator.locator("circle.generator-mark").count() == 1
    assert "3" in (generator.text_content() or "")  # its counter
    deathstar = board.locator('g.item.deathstar[data-seat="3"][data-square="15"]')
    assert deathstar.locator("circle.deathstar-mark").count() == 1
    aim = board.locator("g.aim.aim-of-3")  # beside the item, taking no clicks
    assert aim.locator("line.deathstar-aim").count() == 1
    aimed = aim.locator("rect.deathstar-target")
    assert (float(aimed.get_attribute("x") or 0), float(aimed.get_attribute("y") or 0)) == (
        4 + 5 * 96 + 2,
        4 + 6 * 96 + 2,
    )  # square 42: the bottom right corner (DRTS-1)
    blackhole = board.locator('g.item.blackhole[data-seat="4"][data-square="9"]')
    assert blackhole.locator("circle.blackhole-mark").count() == 1
    legend = {
        "water": "Water (disc)",
        "fire": "Fire (triangle)",
        "plant": "Plant (square)",
        "star": "Star",
        "generator": "Generator",
        "deathstar": "DeathStar",
        "blackhole": "Blackhole",
    }
    for key, words in legend.items():
        entry = board.locator(f"g.legend-entry.legend-{key}")
        assert words in (entry.text_content() or ""), key
        assert entry.locator("circle, polygon, rect").count() >= 1, key  # its own mark
    assert "Colour: the seat's team" in (board.text_content() or "")
    shoot(tab, "drts-v2-items-legend")


def test_a_drts_seat_has_one_colour_on_the_board_and_in_the_tables(tab, base_url, games, shoot):
    """A seat's piece is filled with the colour of its swatch in the seats table and of
    its row in the board's own table: its team's, or its own while teamless."""
    played = games["drts_team23"]
    for path in ("", "/replay?movement=2&phase=0"):
        tab.goto(f"{base_url}/ui/matches/{played.match_id}{path}")
        if not path:
            teams = tab.locator("table.seats tbody tr td:nth-child(3)").all_inner_texts()
            assert any(team != "none" for team in teams), teams  # some seat has a team
        for seat in range(1, 9):
            body = tab.locator(f'svg.board g.piece[data-seat="{seat}"] > .body').first
            fill = body.get_attribute("fill") or ""
            assert re.fullmatch(r"#[0-9a-f]{6}", fill), fill
            row = tab.locator(f"svg.board rect.table-swatch-{seat}")
            assert row.get_attribute("fill") == fill, (path, seat)  # the board's own table
            if not path:  # the live page's seats table (the replay has none)
                swatch = tab.locator(f"table.seats tr.seat-{seat} .swatch")
                shown = swatch.evaluate("e => getComputedStyle(e).backgroundColor")
                assert shown == rgb(fill), (path, seat, fill, shown)
    shoot(tab, "drts-colours-replay")


def test_every_game_fits_a_phone(chromium, base_url, games, shoot):
    """390x844: no page pans sideways; each board, B-Chess's 20x20 Field too, is at most
    the window's width (issue 48)."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    tab = context.new_page()
    for game, played in games.items():
        sign_in_browser(tab, base_url, played, played.tokens[1])
        tab.wait_for_url(re.compile(r".*/seat$"))
        for path in ("", "/replay?movement=1&phase=0", "/seat"):
            tab.goto(f"{base_url}/ui/matches/{played.match_id}{path}")
            width = tab.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (game, path, width)
            if path == "/seat" and tab.locator("svg.board").count() == 0:
                continue  # the match ended within MOVEMENTS: the seat's page has no board
            box = tab.locator("svg.board").bounding_box()
            assert box is not None, (game, path)
            assert box["width"] <= 390, (game, path, box)
        shoot(tab, f"phone-seat-{game}")
    context.close()
