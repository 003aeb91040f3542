"""What the seat's and the referee's pages show, gathered from the Matches application
with the session's token: the same calls as the API's, hence the same checks and the
same recorded looks (the referee's look at open orders is a SecretViewed event, as over
GET /matches/{id}/orders). Files to download are the API's JSON answers, dumped by the
API's own schemas.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass
from typing import Any

import marshmallow as ma
from markupsafe import Markup

from api.pages import boards
from api.pages.model import game_title
from api.pages.picker import picker
from api.pages.session import SignedIn
from api.schemas.audit import ArchiveSchema, AuditSchema, ChainReportSchema
from api.schemas.orders import ReceiptSchema
from domain.errors import DrtsError
from domain.match.disputes import MAX_OPEN_DISPUTES_PER_SEAT
from domain.rules.registry import get_ruleset
from service.matches import Matches
from service.results import Document, Head, MatchSummary, OrderReceipt

DESK_DISPUTES = 20  # the disputes of each status a desk shows; the rest by the list's pages


@dataclass(frozen=True)
class DeskDisputes:
    """The disputes a desk shows, never more than DESK_DISPUTES of each status: the first
    awaiting a ruling, then the first ruled, each in filing order; `open_next` and
    `ruled_next` are the `after` of GET /matches/{id}/disputes's next page of that status
    (None: every one is shown)."""

    open: list[Document]
    ruled: list[Document]
    open_next: int | None
    ruled_next: int | None


@dataclass(frozen=True)
class SeatDesk:
    """The seat's page: its standing orders and its disputes (`open_cap`: how many of them
    may await a ruling at once)."""

    summary: MatchSummary
    title: str
    seat: int
    orders: Document  # {"items": the open movement's, "standing": {seat: order}}
    disputes: DeskDisputes
    open_cap: int = MAX_OPEN_DISPUTES_PER_SEAT
    board: Markup | None = None  # as the live page draws it, the seat's pieces marked `own`
    picker: dict[str, Any] | None = None  # api/pages/picker.py; None: the text box alone
    legal: Document | None = None  # GET /matches/{id}/legal-orders's answer


@dataclass(frozen=True)
class GameAction:
    """A referee action of the match's game, with its arguments (name: what it is)."""

    name: str
    description: str
    arguments: dict[str, str]


@dataclass(frozen=True)
class RefereeDesk:
    """The referee's page: open orders, disputes (those awaiting a ruling with their
    events), corrections, the head, and the figures its stream goes on from."""

    summary: MatchSummary
    title: str
    head: Head
    orders: Document
    disputes: DeskDisputes
    corrections: Document
    actions: list[GameAction]
    figures: Document


@dataclass(frozen=True)
class Checks:
    """The referee's checks: the chain verified and the match re-adjudicated (as JSON)."""

    verify: dict[str, Any]
    audit: dict[str, Any]


@dataclass(frozen=True)
class DownloadLink:
    """A file the page offers for download: its name and a data: URL holding it."""

    name: str
    url: str


def seat_desk(app: Matches, who: SignedIn) -> SeatDesk:
    """Returns the seat's page: its open-movement orders and the disputes it filed."""
    summary = app.summary(who.match_id)
    own = desk_disputes(app, who, who.seat)
    orders = app.open_orders(who.match_id, who.token)
    seat, title = int(who.seat or 0), game_title(summary)
    if summary.status != "started":
        return SeatDesk(summary, title, seat, orders, own)
    view = app.state(who.match_id)  # the public view the live page draws (a seat's own
    # view is its game's bot message, which the drawings do not read: Shades')
    caption = f"{title}: the board at movement {view.movement}, seat {seat}'s pieces ringed"
    drawn = boards.draw(summary.ruleset, view.state, caption)
    board = None if drawn is None else Markup(mark_own(drawn, seat))  # escaped parts only
    legal = app.legal_orders(who.match_id, who.token)
    return SeatDesk(
        summary, title, seat, orders, own, board=board, picker=picker(legal), legal=legal
    )


def mark_own(drawn: str, seat: int) -> str:
    """Returns the board with the class `own` added to each piece of `seat` (a group
    carrying `data-seat` of that seat), which the page's style rings."""
    own = re.compile(
        r'<g class="([^"]*)"((?: data-[a-z]+="[^"]*")*? data-seat="' + str(seat) + '")'
    )
    return own.sub(r'<g class="\1 own"\2', drawn)


def referee_desk(app: Matches, who: SignedIn) -> RefereeDesk:
    """Returns the referee's page; reading the open orders records the look."""
    orders = app.open_orders(who.match_id, who.token)  # first: the head shows the look
    summary = app.summary(who.match_id)
    return RefereeDesk(
        summary,
        game_title(summary),
        app.head(who.match_id),
        orders,
        desk_disputes(app, who, None, cited=True),
        app.corrections(who.match_id),
        game_actions(summary),
        app.desk_figures(who.match_id, who.token),
    )


def desk_disputes(
    app: Matches, who: SignedIn, seat: int | None, cited: bool = False
) -> DeskDisputes:
    """Returns the first disputes awaiting a ruling and the first ruled (only those `seat`
    filed, if given); `cited`: those awaiting a ruling with the events they cite."""
    waiting = app.dispute_page(who.match_id, limit=DESK_DISPUTES, status="open", seat=seat)
    ruled = app.dispute_page(who.match_id, limit=DESK_DISPUTES, status="ruled", seat=seat)
    shown = waiting.items
    if cited:
        shown = [app.dispute(who.match_id, int(str(d["dispute"]))) for d in shown]
    return DeskDisputes(shown, ruled.items, waiting.next, ruled.next)


def game_actions(summary: MatchSummary) -> list[GameAction]:
    """Returns the referee actions of the match's game (none when its version is gone)."""
    try:
        rules = get_ruleset(summary.ruleset, summary.ruleset_version)
    except DrtsError:
        return []
    return [GameAction(a.name, a.description, dict(a.arguments)) for a in rules.actions]


def checks(app: Matches, who: SignedIn) -> Checks:
    """Returns the chain verified and the match re-adjudicated (a look, when unfinished,
    recorded as GET /matches/{id}/audit records it)."""
    return Checks(
        ChainReportSchema().dump(app.verify_chain(who.match_id)),
        AuditSchema().dump(app.audit(who.match_id, who.token)),
    )


def receipt_download(receipt: OrderReceipt) -> DownloadLink:
    """Returns the receipt as a file: the 201 body of POST /matches/{id}/orders, which
    POST /matches/{id}/verify takes back as evidence."""
    name = f"receipt-{receipt.match_id}-movement-{receipt.movement}-v{receipt.version}.json"
    return DownloadLink(name, data_url(as_json(ReceiptSchema, receipt)))


def archive_json(app: Matches, who: SignedIn) -> str:
    """Returns the match's archive as GET /matches/{id}/archive serves it to the referee."""
    return as_json(ArchiveSchema, app.export_archive(who.match_id, who.token))


def as_json(schema: type[ma.Schema], value: Any) -> str:
    """Returns the value dumped by the API's schema, as JSON text."""
    return json.dumps(schema().dump(value), indent=2, sort_keys=True, ensure_ascii=False)


def data_url(text: str) -> str:
    """Returns a data: URL holding the JSON text (a link's download needs no request)."""
    return "data:application/json;base64," + base64.b64encode(text.encode()).decode()
