"""POST and GET /matches/{id}/corrections, and ?timeline on replay, audit, verify and the
archive (issue 19, docs/referee.md: Correcting a movement)."""

from __future__ import annotations

from types import SimpleNamespace

from tests.api.conftest import assert_error, bearer
from tests.service.test_rematch_of_a_draw import play_to_a_draw

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
