"""The matrix is generated, so what is added later joins it (issue 40): a GET endpoint in
the OpenAPI document, a page route, a `drts match` command, each with the token kinds it
takes; and one whose parameters the matrix cannot fill fails its cells, saying so."""

from __future__ import annotations

import click
import pytest
from flask import Blueprint, Flask

from tests.matrix import asking, reading
from tests.matrix.cells import Cell, not_run
from tests.matrix.surfaces import api_surfaces, cli_surfaces, page_surfaces

LEGAL_ORDERS = {
    "paths": {
        "/matches/{match_id}/legal-orders": {
            "get": {
                "operationId": "getLegalOrders",
                "security": [{}, {"bearerAuth": []}],
                "parameters": [
                    {"in": "path", "name": "match_id"},
                    {"in": "query", "name": "seat"},
                ],
                "responses": {"200": {"content": {"application/json": {}}}},
            }
        },
        "/matches/{match_id}/stream": {
            "get": {
                "operationId": "streamMatch",
                "parameters": [{"in": "path", "name": "match_id"}],
                "responses": {"200": {"content": {"text/event-stream": {}}}},
            }
        },
    }
}


def test_a_new_get_endpoint_is_a_surface_with_the_tokens_its_security_allows():
    found = {s.key: s for s in api_surfaces(LEGAL_ORDERS)}
    legal, stream = found["api:getLegalOrders"], found["api:streamMatch"]
    assert legal.tokens == ("none", "seat", "referee", "operator") and legal.scope == "match"
    assert stream.tokens == ("none",) and stream.target[2] == reading.STREAM
    assert not_run(Cell("shades@1", "mid_play", "api:getLegalOrders", "seat")) is None


def test_a_new_page_route_is_a_surface_and_a_new_blueprint_must_say_its_tokens():
    app = Flask("pages")
    seat, other = Blueprint("seat", "seat"), Blueprint("boards", "boards")
    seat.add_url_rule("/ui/matches/<uuid:match_id>/seat/board", "board", lambda match_id: "")
    other.add_url_rule("/ui/matches/<uuid:match_id>/boards", "all", lambda match_id: "")
    app.register_blueprint(seat)
    app.register_blueprint(other)
    found = {s.key: s for s in page_surfaces(app)}
    assert found["page:seat.board"].tokens == ("none", "seat", "referee")
    assert found["page:boards.all"].tokens == ()  # test_matrix fails until PAGE_TOKENS says


def test_a_new_command_is_a_surface_run_unless_listed_as_a_write():
    group = click.Group("match")

    @group.command("legal-orders")
    @click.argument("match_id")
    @click.option("--token")
    def legal_orders(match_id: str, token: str | None) -> None:
        """A read added later."""

    (surface,) = cli_surfaces(group)
    assert surface.key == "cli:legal-orders" and surface.tokens[0] == "none"
    assert not_run(Cell("shades@1", "mid_play", surface.key, "none")) is None


def test_a_parameter_the_matrix_cannot_fill_fails_its_cells_saying_so():
    found = asking.Positions({1: [1]}, 1, None, None, {1: 1})
    with pytest.raises(asking.CellFailure, match=r"teach asking\.py"):
        asking._path_value(None, found, "piece", [1])  # type: ignore[arg-type]
