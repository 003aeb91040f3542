"""A seat plays a whole match by clicking its board in a real browser (issue 48): the seat
under test orders only by clicking the legal targets the seat page offers (one match by
the keyboard alone), the other seats order through the Matches application, and the match
ends with the same orders, steps, state hashes and outcome as a second match of the same
seed and config given the same orders through the application (receipts, salts and
times differ). Each game is played on a short config; screenshots of its seat page are
saved (the `shoot` fixture: the test's tmp dir, and $DRTS_SCREENSHOTS when set).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import expect

from api.pages.picker import picker
from domain.rules.b_chess.config import SIZE
from service.matches import Matches
from tests.pages.games import Played, close_at_deadline, new_match
from tests.support.pages import sign_in_browser

MAX_TABS = 400  # Tab presses to reach one target: more means it is not reachable


@dataclass(frozen=True)
class Game:
    """A game played on the page: its short config and the seat clicking."""

    ruleset: str
    config: dict[str, Any]
    seat: int
    version: int | None = None
    movements: int | None = None  # played this many movements (None: to the end)
    hunt: bool = False  # every seat moves toward the nearest enemy King (B-Chess)


@dataclass
class Record:
    """What a match was sent: per movement, each (seat, order text) in sending order."""

    sent: dict[int, list[tuple[int, str]]] = field(default_factory=dict)

    def add(self, movement: int, seat: int, text: str) -> None:
        self.sent.setdefault(movement, []).append((seat, text))


GAMES = {
    "district_war": Game("district_war", {"troops": 2}, 2),  # seat 2 is the DMO (DW-2)
    "dris_et_tessa": Game("dris_et_tessa", {}, 1),
    "shades": Game("shades", {"turns": 3}, 1),
    "drts_team23 v1": Game("drts_team23", {"movements": 2}, 3, 1),
    "drts_team23 v2": Game("drts_team23", {"movements": 2}, 3, 2),
    # B-Chess ends only at Checkmate (BC-10), which random play seldom reaches: with no
    # macks (BC-7) each seat has its King alone, and every King hunts the nearest enemy
    # King until one is left (6 Turns; seat 1 has the last King and clicks in every one)
    "b_chess": Game("b_chess", {"turn_seconds": 60, "starting_macks": 0}, 1, hunt=True),
}


def hunting(legal: dict[str, Any], state: Any) -> tuple[str, list[list[str]]]:
    """Returns the B-Chess move (BC-8) that brings the seat's piece nearest an enemy King
    (the distance in King steps on the torus, BC-1), ties by its text, and its clicks."""
    units = picker(legal)
    assert units is not None, legal
    enemies = [k.square for k in state.kings if k.owner != units["seat"]]
    moves = [u for u in units["units"] if len(u["path"]) == 2]  # a purchase is a button
    best = min(moves, key=lambda u: (_nearest(u["path"][1], enemies), u["text"]))
    return best["text"], [best["path"]]


def _nearest(square: str, kings: list[tuple[int, int]]) -> int:
    row, column = (int(n) for n in square.split(","))
    return min(max(_apart(row, r), _apart(column, c)) for r, c in kings)


def _apart(a: int, b: int) -> int:
    return min(abs(a - b), SIZE - abs(a - b))


def chosen(legal: dict[str, Any], pick: random.Random) -> tuple[str, list[list[str]]]:
    """Returns an order drawn from the legal lists and the clicks (board keys) building it."""
    units = picker(legal)
    assert units is not None, legal
    if units["whole"]:
        unit = pick.choice(units["units"])
        return unit["text"], [unit["path"]]
    by_piece: dict[str, list[dict[str, Any]]] = {}
    for unit in units["units"]:
        by_piece.setdefault(unit["piece"], []).append(unit)
    pieces = sorted(by_piece)
    pick.shuffle(pieces)
    counted = [p for p in pieces if p not in units["free"]][: units["max_pieces"]]
    free = [p for p in pieces if p in units["free"] and pick.random() < 0.5]
    stock = dict((legal["combining"] or {}).get("stock") or {})
    commands = []
    for piece in counted[: pick.randint(1, 3)] + free:
        affordable = [u for u in by_piece[piece] if _within(u["spends"], stock)]
        command = pick.choice(affordable)
        stock = {item: n - command["spends"].get(item, 0) for item, n in stock.items()}
        commands.append(command)
    return units["joiner"].join(u["text"] for u in commands), [u["path"] for u in commands]


def _within(spends: dict[str, int], stock: dict[str, int]) -> bool:
    return all(stock.get(item, 0) >= n for item, n in spends.items())


def click(page: Any, key: str, keyboard: bool) -> None:
    """Clicks the target of `key` on the board (or its button), or reaches it by Tab and
    presses Enter."""
    target = page.locator(f'#seat-board [data-next="{key}"], #picker-choices [data-key="{key}"]')
    expect(target.last).to_be_visible()
    if not keyboard:
        target.last.click()  # the topmost: a piece on its square is a target too
        return
    tab_to(page, f'[data-next="{key}"], [data-key="{key}"]')
    page.keyboard.press("Enter")


def tab_to(page: Any, selector: str) -> None:
    for _ in range(MAX_TABS):
        if page.evaluate("(s) => !!document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} is not reachable by Tab")


def order_by_page(
    page: Any,
    base_url: str,
    service: Matches,
    played: Played,
    game: Game,
    pick: random.Random,
    keyboard: bool,
    shoot: Any,
) -> str:
    """Builds a legal order on the seat page by clicking, checks its text, sends it and
    checks the receipt; returns the text."""
    page.goto(f"{base_url}/ui/matches/{played.match_id}/seat")
    legal = service.legal_orders(played.match_id, played.tokens[game.seat])
    text, clicks = choose(service, played, game, legal, pick)
    own = page.locator(f'#seat-board g[data-seat="{game.seat}"]')
    expect(page.locator("#seat-board g.own")).to_have_count(own.count())  # all marked
    for keys in clicks:
        for key in keys:
            click(page, key, keyboard)
    expect(page.locator("#order-built")).to_have_text(text)
    expect(page.locator("#order-text")).to_have_value(text)
    if legal["movement"] <= 4:
        how = "-keys" if keyboard else ""
        shoot(page, f"{game.ruleset}-v{legal['version']}-seat-{legal['movement']}{how}")
    if keyboard:
        tab_to(page, "#order-form button[type=submit]")
        page.keyboard.press("Enter")
    else:
        page.click("#order-form button[type=submit]")
    expect(page.locator("#receipt")).to_be_visible()
    return text


def choose(
    service: Matches, played: Played, game: Game, legal: dict[str, Any], pick: random.Random
) -> tuple[str, list[list[str]]]:
    """Returns the order a seat sends now and its clicks: a hunting move or a random draw."""
    if game.hunt:
        return hunting(legal, service.get_match(played.match_id).table().state)
    return chosen(legal, pick)


def api_order(service: Matches, played: Played, game: Game, seat: int, pick: random.Random) -> str:
    """Sends a legal order of `seat` through the application, drawn from its lists."""
    legal = service.legal_orders(played.match_id, played.tokens[seat])
    text = choose(service, played, game, legal, pick)[0]
    service.submit_order(played.match_id, played.tokens[seat], text)
    return text


def play(
    base_url: str, service: Matches, page: Any, game: Game, keyboard: bool, shoot: Any
) -> tuple[Played, Record]:
    played = new_match(
        service, game.ruleset, f"seat play {keyboard}", config=game.config, version=game.version
    )
    sign_in_browser(page, base_url, played, played.tokens[game.seat])
    record, pick = Record(), random.Random(f"{game.ruleset} {keyboard}")
    for _ in range(game.movements or 200):
        if service.summary(played.match_id).status != "started":
            break
        table = service.get_match(played.match_id).table()
        movement = table.movement
        for seat in table.to_move().seats:
            if seat == game.seat:
                text = order_by_page(page, base_url, service, played, game, pick, keyboard, shoot)
            else:
                text = api_order(service, played, game, seat, pick)
            record.add(movement, seat, text)
        close_at_deadline(service, played.match_id, movement)
    if game.movements is None:
        assert service.summary(played.match_id).status == "finished"
    return played, record


def replayed(service: Matches, game: Game, seed: str, record: Record) -> Played:
    """Plays a second match of the same seed and config with the same orders, by the API."""
    again = new_match(service, game.ruleset, seed, config=game.config, version=game.version)
    for movement, sent in sorted(record.sent.items()):
        assert service.summary(again.match_id).movement == movement
        for seat, text in sent:
            service.submit_order(again.match_id, again.tokens[seat], text)
        close_at_deadline(service, again.match_id, movement)
    return again


def orders(service: Matches, played: Played) -> list[tuple[Any, ...]]:
    """Returns every resolved movement's orders as parsed, with their fate and refusals
    (receipts, salts, times and sources left out: they differ)."""
    report = service.replay(played.match_id)
    found = []
    for frame in report.frames:
        record = service.movement(played.match_id, frame.movement)
        kept = [(o.seat, o.order, o.fate) for o in record.orders]
        found.append((frame.movement, kept, [(r.seat, r.reason) for r in record.refused]))
    return found


def frames(service: Matches, played: Played) -> list[tuple[Any, ...]]:
    report = service.replay(played.match_id)
    assert report.agrees
    return [(f.movement, f.steps, f.state_hash, f.outcome) for f in report.frames]


@pytest.mark.parametrize(
    ("ruleset", "keyboard"),
    [
        ("district_war", False),
        ("district_war", True),
        ("dris_et_tessa", False),
        ("dris_et_tessa", True),  # a second game by the keyboard alone (issue 48)
        ("shades", False),
        ("drts_team23 v1", False),
        ("drts_team23 v2", False),
        ("b_chess", False),
    ],
)
def test_a_seat_plays_a_whole_match_by_clicking_and_it_ends_as_the_same_orders_by_the_api(
    tab, base_url, service, shoot, ruleset, keyboard
):
    game = GAMES[ruleset]
    played, record = play(base_url, service, tab, game, keyboard, shoot)
    assert any(seat == game.seat for sent in record.sent.values() for seat, _ in sent)
    again = replayed(service, game, played.seed, record)
    assert frames(service, again) == frames(service, played)
    assert orders(service, again) == orders(service, played)
    outcome = service.summary(played.match_id).outcome
    assert service.summary(again.match_id).outcome == outcome
    if game.hunt:  # the last King on the Field wins (BC-10)
        assert outcome is not None and outcome["winners"] == [game.seat], outcome
    sent = [e["data"]["source"] for e in service.event_log(played.match_id)
            if e["type"] == "OrderSubmitted" and e["data"]["seat"] == game.seat]  # fmt: skip
    assert sent and set(sent) == {"web"}


def test_without_javascript_the_seat_page_shows_the_board_and_the_text_box_sends(
    chromium, base_url, service, shoot
):
    context = chromium.new_context(
        viewport={"width": 1280, "height": 900}, java_script_enabled=False
    )
    page = context.new_page()
    try:
        played = new_match(service, "district_war", "no script", config={"troops": 2})
        sign_in_browser(page, base_url, played, played.tokens[2])
        expect(page.locator("#seat-board svg")).to_be_visible()
        expect(page.locator("#picker")).to_be_hidden()  # the list needs the script
        page.fill("#order-text", "first 1")  # the DMO's choice (DW-2), typed
        page.click("#order-form button[type=submit]")
        expect(page.locator("#receipt")).to_be_visible()
        shoot(page, "district_war-seat-no-script")
    finally:
        context.close()


def test_a_seat_that_owes_nothing_is_told_why_and_offered_no_clicking(tab, base_url, service):
    played = new_match(service, "district_war", "owes nothing", config={"troops": 2})
    # seat 2, the DMO, chooses first (DW-2)
    sign_in_browser(tab, base_url, played, played.tokens[1])
    expect(tab.locator("#owes-nothing")).to_contain_text("not its turn")
    expect(tab.locator("#picker")).to_have_count(0)
    expect(tab.locator("#order-form")).to_be_visible()  # the text box stays


@pytest.mark.parametrize(
    "ruleset", ["district_war", "dris_et_tessa", "shades", "drts_team23", "b_chess"]
)
def test_each_games_seat_board_fits_a_1280_by_800_window(chromium, base_url, service, ruleset):
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        played = new_match(service, ruleset, "fits")
        sign_in_browser(page, base_url, played, played.tokens[1])
        page.locator("#seat-board svg").scroll_into_view_if_needed()
        box = page.locator("#seat-board svg").bounding_box()
        assert box is not None and box["width"] <= 1280 and box["height"] <= 800, box
    finally:
        context.close()


def test_the_page_offers_an_item_only_while_the_seat_has_one_left(tab, base_url, service):
    """DRTS-21 (a v2 seat holds one Blackhole) with DRTS-4 (two operations of different
    pieces): once one piece's operation invokes the Blackhole, the other piece's operations
    no longer offer it; cleared, they do again."""
    played = new_match(service, "drts_team23", "one blackhole", config={"movements": 2}, version=2)
    legal = service.legal_orders(played.match_id, played.tokens[3])
    assert legal["combining"]["stock"]["blackhole"] == 1
    units = picker(legal)
    assert units is not None
    with_hole = [u for u in units["units"] if u["spends"].get("blackhole")]
    first = with_hole[0]
    other = next(u for u in with_hole if u["piece"] != first["piece"])
    hole = other["path"][other["path"].index("blackhole")]
    offered = f'[data-next="{hole}"], #picker-choices [data-key="{hole}"]'
    sign_in_browser(tab, base_url, played, played.tokens[3])

    def reach_the_other_piece_s_item() -> None:
        for key in other["path"][: other["path"].index("blackhole")]:
            click(tab, key, keyboard=False)

    reach_the_other_piece_s_item()
    expect(tab.locator(offered)).not_to_have_count(0)  # the seat's one Blackhole is there
    tab.click("#picker-clear")
    for key in first["path"]:
        click(tab, key, keyboard=False)
    expect(tab.locator("#order-built")).to_have_text(first["text"])
    reach_the_other_piece_s_item()
    expect(tab.locator(offered)).to_have_count(0)  # spent by the first operation


def test_the_page_builds_as_many_purchases_as_the_macks_pay_for(tab, base_url, service):
    """BC-6: a seat may buy several objects in one Turn while its macks last (the answer's
    `repeats`); one more click than it can pay for replaces the oldest."""
    played = new_match(service, "b_chess", "purchases", config={"turn_seconds": 60})
    legal = service.legal_orders(played.match_id, played.tokens[1])
    units = picker(legal)
    assert units is not None
    most = units["repeats"]["purchase"]
    assert most >= 2, legal["combining"]
    buy = next(u for u in units["units"] if u["piece"] == "purchase")
    sign_in_browser(tab, base_url, played, played.tokens[1])
    for _ in range(most + 1):
        for key in buy["path"]:
            click(tab, key, keyboard=False)
    expect(tab.locator("#order-text")).to_have_value("\n".join([buy["text"]] * most))
    tab.click("#order-form button[type=submit]")
    expect(tab.locator("#receipt")).to_be_visible()


def test_the_page_builds_over_the_standing_order_merged_per_piece(tab, base_url, service):
    """DRTS-4 and DRTS-21 under v2's merge: seat 3 (Water 7, Fire 8, Plant 9) has sent
    "water 7>13 blackhole; fire 8>14", its only Blackhole and two operations. Its page
    says a new order merges, offers no plant operation (a third), and offers Fire's
    Blackhole only once Water is ordered anew without it (the Blackhole comes back); the
    order built, Water written first, stands whole over the standing order."""
    played = new_match(service, "drts_team23", "standing", config={"movements": 2}, version=2)
    token = played.tokens[3]
    service.submit_order(played.match_id, token, "water 7>13 blackhole; fire 8>14")
    units = picker(service.legal_orders(played.match_id, token))
    assert units is not None and units["ordered"] == {"water": {"blackhole": 1}, "fire": {}}
    path = {u["text"]: u["path"] for u in units["units"]}
    sign_in_browser(tab, base_url, played, token)
    expect(tab.locator("#standing-note")).to_contain_text("merges with the one you sent")
    expect(tab.locator('[data-next="water@3"]')).not_to_have_count(0)
    expect(tab.locator('[data-next="plant@3"]')).to_have_count(0)  # DRTS-4: a third
    hole = '[data-next="blackhole"], #picker-choices [data-key="blackhole"]'
    for key in path["fire 8>14 blackhole"][:-1]:
        click(tab, key, keyboard=False)
    expect(tab.locator(hole)).to_have_count(0)  # water's standing operation holds it
    tab.click("#picker-clear")
    for key in path["water hold"]:
        click(tab, key, keyboard=False)
    click(tab, "add:water hold", keyboard=False)
    for key in path["fire 8>14 blackhole"]:
        click(tab, key, keyboard=False)
    expect(tab.locator("#order-text")).to_have_value("water hold; fire 8>14 blackhole")
    tab.click("#order-form button[type=submit]")
    expect(tab.locator("#receipt")).to_be_visible()
    after = service.legal_orders(played.match_id, token)["combining"]
    assert after["ordered"] == {"water": {}, "fire": {"blackhole": 1}}
