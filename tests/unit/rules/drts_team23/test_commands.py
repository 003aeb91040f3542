"""DRTS Team 23's per-piece commands (`legal_commands`, issue 48): each piece's moves with
DRTS-6's diagonal cases, recoveries (DRTS-18), items while in stock (DRTS-21), the team
request (DRTS-19), and the combining rule (DRTS-4)."""

from __future__ import annotations

from dataclasses import replace

from domain.errors import IllegalOrderError, InvalidOrderError
from domain.rules.drts_team23 import RULESET_V1, RULESET_V2
from domain.rules.drts_team23.commands import order_of_commands
from domain.rules.drts_team23.merge import screen_order
from domain.rules.drts_team23.moves import Action, Operation
from domain.rules.drts_team23.orders_v2 import format_order_v2
from domain.rules.drts_team23.state import Item, Kind, Stock, Team
from tests.unit.rules.drts_team23.support import DEFAULT_TEAMS, position

WATER, FIRE, PLANT = Kind.WATER, Kind.FIRE, Kind.PLANT


def moves(listed, kind: Kind) -> set[int]:
    """Returns the squares a piece's listed plain moves go to."""
    return {
        op.square
        for op in listed[kind.value]
        if op.action is Action.MOVE and op.item is None and op.square is not None
    }


def test_drts_6_each_diagonal_case_is_listed_and_a_bare_diagonal_is_not():
    """DRTS-6, DRTS-7: seat 1's Fire on 14 steps to 8, 13, 15, 20 (orthogonal); to 7, where
    an enemy Plant stands (capture); to 21, next to the enemy Plant on 27 (predicted
    attack); to 9, where an ally Water stands (seat 2, green); not to 19, a bare
    diagonal."""
    state = position({"1F": 14, "4P": 7, "5P": 27, "2W": 9}, teams=DEFAULT_TEAMS, movement=3)
    listed = RULESET_V1.legal_commands(state, 1)
    assert moves(listed, FIRE) == {8, 13, 15, 20, 7, 21, 9}
    assert 19 not in moves(listed, FIRE)
    notes = {op.square: RULESET_V1.command_note(state, 1, op) for op in listed["fire"]}
    assert notes[7] == "diagonal, attacking a capturable enemy piece (DRTS-6)"
    assert notes[21] == (
        "diagonal, predicted attack on a capturable enemy piece next to it (DRTS-6)"
    )
    assert notes[9] == "diagonal, towards an ally piece (DRTS-6)" and notes[8] == ""


def test_drts_6_star_status_opens_every_diagonal_in_v2_but_not_the_star_invoked_now():
    """DRTS-6, DRTS-16: a piece with Star status may step to any diagonal; DRTS-5: a Star
    invoked in this operation gives its status only after the moves are judged."""
    bare = position({"1F": 14}, movement=3)
    star = replace(
        bare,
        pieces=tuple(
            replace(p, star_until=3) if (p.seat, p.kind) == (1, FIRE) else p for p in bare.pieces
        ),
    )
    assert moves(RULESET_V2.legal_commands(bare, 1), FIRE) == {8, 13, 15, 20}
    assert moves(RULESET_V2.legal_commands(star, 1), FIRE) == {7, 8, 9, 13, 15, 19, 20, 21}
    step = Operation(Action.MOVE, FIRE, 19, 14)
    assert RULESET_V2.command_note(star, 1, step) == "diagonal, as a Star (DRTS-6, DRTS-16)"
    invoked = Operation(Action.MOVE, FIRE, 19, 14, Item.STAR)
    assert invoked not in RULESET_V2.legal_commands(bare, 1)["fire"]


def test_drts_18_an_out_piece_lists_its_recoveries_once_it_may_come_back():
    """DRTS-18: a captured piece is out for two movements, then recovered on 15, 16, 19-24,
    27 or 28; before then it lists nothing."""
    early = position({"1F": 14}, out={"1P": 5}, movement=3)
    assert "plant" not in RULESET_V1.legal_commands(early, 1)
    ready = position({"1F": 14}, out={"1P": 5}, movement=5)
    recoveries = {op.square for op in RULESET_V1.legal_commands(ready, 1)["plant"]}
    assert recoveries == {15, 16, 19, 20, 21, 22, 23, 24, 27, 28}


def test_drts_21_an_item_is_listed_only_while_the_seat_has_one_left():
    """DRTS-21: no Blackhole left, none listed; Stars left, listed on moves and holds;
    DRTS-15: a Generator needs no stock."""
    state = position({"1F": 14}, movement=3)
    seats = tuple(
        replace(s, stock=Stock(stars=1, deathstars=0, blackholes=0)) if s.number == 1 else s
        for s in state.seats
    )
    listed = RULESET_V2.legal_commands(replace(state, seats=seats), 1)["fire"]
    items = {op.item for op in listed}
    assert items == {None, Item.STAR, Item.GENERATOR}
    assert Operation(Action.HOLD, FIRE, item=Item.STAR) in listed


def test_drts_4_two_operations_on_different_pieces_and_one_free_team_request():
    """DRTS-4: the combining rule allows two pieces and the team request beside them, not
    a third piece; DRTS-21: two Stars need two in stock; DRTS-19: no request for one's own
    team is listed."""
    state = position({"1W": 13, "1F": 14, "1P": 15}, teams=DEFAULT_TEAMS, movement=3)
    listed = RULESET_V2.legal_commands(state, 1)
    assert listed["team"] == (Team.YELLOW, Team.BLUE)
    water, fire, plant = (listed[k][0] for k in ("water", "fire", "plant"))
    assert RULESET_V2.combination_fault(state, 1, [water, fire, Team.BLUE]) == ""
    assert "at most 2" in RULESET_V2.combination_fault(state, 1, [water, fire, plant])
    stars = [Operation(Action.HOLD, k, item=Item.STAR) for k in (WATER, FIRE)]
    assert RULESET_V2.combination_fault(state, 1, stars) == ""
    seats = tuple(replace(s, stock=Stock(stars=1)) if s.number == 1 else s for s in state.seats)
    poorer = replace(state, seats=seats)
    assert "2 star spent, 1 in stock" in RULESET_V2.combination_fault(poorer, 1, stars)


def test_a_forfeited_seat_and_a_finished_match_list_nothing():
    state = position({"1F": 14}, movement=3)
    seats = tuple(replace(s, forfeited=True) if s.number == 1 else s for s in state.seats)
    assert RULESET_V2.legal_commands(replace(state, seats=seats), 1) == {}


def _stands(state, standing, text: str) -> bool:
    """Returns whether a further message stands whole over the standing order (merge.py)."""
    try:
        return not screen_order(state, 1, standing, text).refused
    except (InvalidOrderError, IllegalOrderError):
        return False


def test_drts_4_drts_21_over_a_standing_order_the_rule_agrees_with_the_screen():
    """DRTS-4, DRTS-21 under v2's merge: over a standing "water 13>7 blackhole; fire 14>20
    star", the rule counts water and fire as ordered (a third piece is refused, a command
    on either replaces its operation) and leaves no Blackhole and 3 Stars, a Blackhole
    coming back when water is ordered anew; for every listed command alone, and with each
    command of an ordered piece written first, the rule allows exactly what stands."""
    state = position({"1W": 13, "1F": 14, "1P": 15}, teams=DEFAULT_TEAMS, movement=3)
    sent = "water 13>7 blackhole; fire 14>20 star"
    standing = [screen_order(state, 1, [], sent).order]
    rule = RULESET_V2.combining_of(state, 1, standing)
    assert rule.ordered == {"water": {"blackhole": 1}, "fire": {"star": 1}}
    assert rule.stock == {"star": 3, "deathstar": 2, "blackhole": 0}
    listed = RULESET_V2.legal_commands(state, 1)
    first = [*listed["water"][:3], *listed["fire"][:3]]
    for commands in [[c] for cs in listed.values() for c in cs] + [
        [a, c] for a in first for cs in listed.values() for c in cs if c != a
    ]:
        text = format_order_v2(order_of_commands(commands))
        allowed = RULESET_V2.combination_fault(state, 1, commands, standing) == ""
        assert allowed == _stands(state, standing, text), text
    plant = listed["plant"][0]
    assert "standing order commands fire, water" in rule.fault(
        listed, [plant], RULESET_V2.command_spends
    )
