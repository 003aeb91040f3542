"""DW-5 over HTTP: the receipt of the order that ends a drawn match names its rematch."""

from __future__ import annotations

from api.app import create_app
from tests.support.draws import draw_orders


def test_the_http_receipt_of_the_last_order_names_the_rematch(tmp_path):
    """The order that ends the drawn match tells its sender where the rematch is (DW-5);
    the old names replay_id / replay_of / replay stay as deprecated aliases."""
    app = create_app({"TESTING": True, "DRTS_DATABASE_URL": f"sqlite:///{tmp_path}/api.sqlite"})
    client = app.test_client()
    new = client.post("/matches", json={"ruleset": "district_war"}).get_json()
    tokens = {
        seat: client.post(f"/matches/{new['match_id']}/seats", json={"name": name}).get_json()[
            "token"
        ]
        for seat, name in ((1, "ada"), (2, "bo"))
    }
    client.post(
        f"/matches/{new['match_id']}/start",
        headers={"Authorization": f"Bearer {new['referee_token']}"},
    )
    for seat, order in draw_orders():
        receipt = client.post(
            f"/matches/{new['match_id']}/orders",
            json={"order": order},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
    closing = receipt.get_json()["closing"]
    assert closing["finished"] and closing["rematch_id"]
    assert closing["replay_id"] == closing["rematch_id"]
    rematch = client.get(f"/matches/{closing['rematch_id']}").get_json()
    assert rematch["rematch_of"] == rematch["replay_of"] == new["match_id"]
    assert rematch["status"] == "started"
    drawn = client.get(f"/matches/{new['match_id']}").get_json()
    assert drawn["rematch_id"] == drawn["replay_id"] == closing["rematch_id"]
    assert drawn["outcome"]["rematch"] is drawn["outcome"]["replay"] is True


def test_the_openapi_document_marks_the_old_names_deprecated():
    spec = create_app({"TESTING": True, "DRTS_DATABASE_URL": "memory://"}).test_client()
    schemas = spec.get("/openapi.json").get_json()["components"]["schemas"]
    for schema, old, new in (
        ("Match", "replay_id", "rematch_id"),
        ("Match", "replay_of", "rematch_of"),
        ("Closing", "replay_id", "rematch_id"),
        ("Outcome", "replay", "rematch"),
    ):
        properties = schemas[schema]["properties"]
        assert properties[old]["deprecated"] is True, (schema, old)
        assert "deprecated" not in properties[new], (schema, new)
