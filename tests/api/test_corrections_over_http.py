"""POST and GET /matches/{id}/corrections, and ?timeline on replay, audit, verify and the
archive (issue 19, docs/referee.md: Correcting a movement)."""

from __future__ import annotations

from types import SimpleNamespace

from tests.api.conftest import HttpMatch, assert_error, bearer
from tests.support.draws import play_to_a_draw

C4 = {"movement": 23, "changes": [{"seat": 2, "order": "c4"}], "reason": "bo's mail said c4"}


def drawn(service) -> SimpleNamespace:
    """Returns the DW-5 draw (its seed fixed through the service: the API draws seeds)."""
    new, tokens, _ = play_to_a_draw(service)
    return SimpleNamespace(id=str(new.match_id), referee=new.referee_token, seats=tokens)


def test_a_correction_over_http_and_the_timelines_it_leaves(client, service):
    table = drawn(service)
    url = f"/matches/{table.id}/corrections"
    assert_error(client.post(url, json=C4, headers=bearer(table.seats[1])), 403, "not_referee")
    made = client.post(url, json=C4, headers=bearer(table.referee))
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    assert body["timeline"] == 2 and body["outcome"]["winners"] == [2]
    assert body["voided_rematch"] and body["refused"] == []
    listed = client.get(url).get_json()
    assert listed["timeline"] == 2 and [c["movement"] for c in listed["items"]] == [23]
    assert listed["items"][0]["changes"] == [{"seat": 2, "order": "c4"}]
    summary = client.get(f"/matches/{table.id}").get_json()
    assert summary["timeline"] == 2 and summary["outcome"]["result"] == "win"
    audit = client.get(f"/matches/{table.id}/audit").get_json()
    assert audit["exact"] and [t["exact"] for t in audit["timelines"]] == [True, True]
    first = client.get(f"/matches/{table.id}/audit?timeline=1").get_json()
    assert first["timeline"] == 1
    replay = client.get(f"/matches/{table.id}/replay?timeline=1").get_json()
    assert replay["timeline"] == 1 and replay["movements"][-1]["outcome"]["result"] == "draw"
    current = client.get(f"/matches/{table.id}/replay").get_json()
    assert current["agrees"] and current["movements"][-1]["outcome"]["result"] == "win"
    verified = client.get(f"/matches/{table.id}/verify").get_json()
    assert verified["ok"] and verified["timelines"] == 2
    old = client.get(f"/matches/{table.id}/verify?timeline=1").get_json()
    assert old["version"] < verified["version"]
    archive = client.get(f"/matches/{table.id}/archive?timeline=1").get_json()
    assert archive["timeline"]["number"] == 1 and archive["timeline"]["timelines"] == 2
    assert len(archive["events"]) == verified["events"]
    assert_error(client.get(f"/matches/{table.id}/audit?timeline=3"), 404, "unknown_timeline")
    rematch = client.get(f"/matches/{body['voided_rematch']}").get_json()
    assert rematch["status"] == "void"


def test_a_bad_correction_gets_a_clear_error(client, service):
    table = drawn(service)
    url, referee = f"/matches/{table.id}/corrections", bearer(table.referee)
    not_resolved = {**C4, "movement": 40}
    assert_error(client.post(url, json=not_resolved, headers=referee), 409, "movement_closed")
    illegal = {**C4, "changes": [{"seat": 2, "order": "c6"}]}  # c6 holds a troop
    assert_error(client.post(url, json=illegal, headers=referee), 422, "illegal_order")
    empty = {**C4, "changes": []}
    assert_error(client.post(url, json=empty, headers=referee), 422, "validation_error")
    unknown_seat = {**C4, "changes": [{"seat": 3, "order": "c4"}]}
    assert_error(client.post(url, json=unknown_seat, headers=referee), 404, "unknown_seat")
    assert client.get(url).get_json()["items"] == []


def test_each_timeline_of_a_corrected_match_is_read_movement_by_movement(client, service):
    """Issue 40: after a correction, /state with a phase answered 409 phases_diverged at
    the corrected movement, and /state, /movements, /scores and /display took no
    ?timeline=, so the superseded timeline's positions could not be looked at."""
    table = drawn(service)
    made = client.post(f"/matches/{table.id}/corrections", json=C4, headers=bearer(table.referee))
    assert made.status_code == 201, made.get_json()
    url = f"/matches/{table.id}"
    for timeline in ("", "&timeline=1", "&timeline=2"):
        for movement in (1, 22, 23):
            phased = client.get(f"{url}/state?movement={movement}&phase=1{timeline}")
            assert phased.status_code == 200, (movement, timeline, phased.get_json())
            record = client.get(f"{url}/movements/{movement}?{timeline[1:]}")
            assert record.status_code == 200, (movement, timeline, record.get_json())
            assert record.get_json()["state_after"] == phased.get_json()["state"]
    old = client.get(f"{url}/movements/23?timeline=1").get_json()
    new = client.get(f"{url}/movements/23").get_json()
    assert (old["timeline"], new["timeline"]) == (1, 2)
    assert old["orders"][-1]["sent"] != new["orders"][-1]["sent"]  # bo's d1, then c4
    assert client.get(f"{url}/scores?timeline=1").get_json()["outcome"]["result"] == "draw"
    assert client.get(f"{url}/scores").get_json()["outcome"]["result"] == "win"
    ended = client.get(f"{url}/state?timeline=1").get_json()
    assert ended["timeline"] == 1 and ended["outcome"]["result"] == "draw"
    assert "Finished (draw)" in client.get(f"{url}/display?timeline=1").text
    assert "Finished (win)" in client.get(f"{url}/display").text
    for path in ("state", "scores", "display", "movements/23"):
        assert_error(client.get(f"{url}/{path}?timeline=3"), 404, "unknown_timeline")


def test_a_receipt_of_an_order_a_correction_replaced_still_verifies(client):
    """Found by the stateful fuzz (issue 41): the receipt of an order its movement closed
    with failed verify (`order`: "closed without the receipt's order") once a correction
    closed that movement again without it in a new timeline, in every timeline, though
    the log is honest. A receipt is checked against the close of its own timeline."""
    table = HttpMatch(client, "district_war", config={"troops": 3})
    receipt = table.order(2, "first 1").get_json()  # closes movement 1 (DW-2)
    replaced = {"movement": 1, "changes": [{"seat": 2, "order": "first 2"}], "reason": "fuzz"}
    made = client.post(
        f"/matches/{table.id}/corrections", json=replaced, headers=bearer(table.referee)
    )
    assert made.status_code == 201, made.get_json()
    for timeline in (1, 2):
        verified = client.post(
            f"/matches/{table.id}/verify?timeline={timeline}", json={"receipts": [receipt]}
        ).get_json()
        assert (verified["ok"], verified["problems"]) == (True, []), verified
