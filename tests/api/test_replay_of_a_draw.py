"""DW-5 over HTTP: the receipt of the order that ends a drawn match names its replay."""

from __future__ import annotations

import json

from api.app import create_app
from tests.service.test_replay_of_a_draw import DRAW


def test_the_http_receipt_of_the_last_order_names_the_replay(tmp_path):
    """The order that ends the drawn match tells its sender where the replay is (DW-5)."""
    app = create_app({"TESTING": True, "DRTS_DATABASE_URL": f"sqlite:///{tmp_path}/api.sqlite"})
    client = app.test_client()
    scenario = json.loads(DRAW.read_text())
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
    for movement in scenario["movements"]:
        for seat, orders in movement["orders"].items():
            for order in orders:
                receipt = client.post(
                    f"/matches/{new['match_id']}/orders",
                    json={"order": order},
                    headers={"Authorization": f"Bearer {tokens[int(seat)]}"},
                )
    closing = receipt.get_json()["closing"]
    assert closing["finished"] and closing["replay_id"]
    replay = client.get(f"/matches/{closing['replay_id']}").get_json()
    assert replay["replay_of"] == new["match_id"] and replay["status"] == "started"
