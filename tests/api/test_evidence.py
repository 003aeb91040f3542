"""Receipts and heads leave the service, and POST /matches/{id}/verify checks them
against the log (issue 16); a tampered match answers tampered_log, never a 500."""

from __future__ import annotations

from typing import Any

from api.app import create_app
from service.matches import Matches
from service.settings import Settings
from tests.api.conftest import assert_error, bearer
from tests.support.mutations import Rows, flip_text, rechain_from


def played(service: Any, client: Any) -> tuple[str, list[dict[str, Any]]]:
    """A toy match of two rounds played over HTTP; returns its id and the receipts."""
    new = service.create_match("toy", {"rounds": 2}, seed="evidence")
    tokens = [service.join(new.match_id, name).token for name in ("alice", "bob")]
    service.start(new.match_id, new.referee_token)
    receipts = []
    for _ in range(2):
        for token, pick in zip(tokens, ("3", "1"), strict=True):
            response = client.post(
                f"/matches/{new.match_id}/orders", json={"order": pick}, headers=bearer(token)
            )
            assert response.status_code == 201, response.get_json()
            receipts.append(response.get_json())
    return str(new.match_id), receipts


def verify(client: Any, match_id: str, **body: Any) -> dict[str, Any]:
    response = client.post(f"/matches/{match_id}/verify", json=body)
    assert response.status_code == 200, response.get_json()
    return dict(response.get_json())


def test_a_receipt_carries_its_version_and_the_head_after_the_write(client, service):
    match_id, receipts = played(service, client)
    events = client.get(f"/matches/{match_id}/events").get_json()["items"]
    chains = {event["version"]: event["chain"] for event in events}
    for receipt in receipts:
        assert events[receipt["version"] - 1]["type"] == "OrderSubmitted"
        assert events[receipt["version"] - 1]["data"]["digest"] == receipt["digest"]
        assert chains[receipt["head"]["version"]] == receipt["head"]["chain"]
    closing = receipts[-1]["closing"]
    assert closing["finished"] and closing["head"] == {
        "version": len(events),
        "chain": chains[len(events)],
    }
    assert events[-1]["type"] == "Finished"
    state = client.get(f"/matches/{match_id}/state").get_json()
    assert state["head"] == closing["head"]  # the position the finishing write gave
    report = verify(client, match_id, receipts=receipts, heads=[closing["head"]])
    assert report["ok"] and report["evidence"] == 5 and report["problems"] == []
    assert report["version"] == len(events) and report["head"] == chains[len(events)]


def test_a_log_cut_short_is_named_against_the_receipt_that_holds_a_later_head(
    client, service, store_url
):
    match_id, receipts = played(service, client)
    held = receipts[-1]["head"]["version"]
    rows = Rows(store_url, service.match_id(match_id))
    rows.delete(*[v for v in rows.versions() if v >= held - 1])
    rows.close()
    assert client.get(f"/matches/{match_id}/verify").get_json()["ok"] is False  # the read model
    report = verify(client, match_id, receipts=receipts[-1:])
    mine = [p for p in report["problems"] if p["source"] == "receipts[0]"]
    assert {p["kind"] for p in mine} == {"truncated"}
    assert (
        f"the log ends at version {held - 2}, before the head at version {held} that you hold "
        "(receipts[0])"
    ) in [p["message"] for p in mine]


def test_a_log_rewritten_and_rechained_is_named_against_the_head(client, service, store_url):
    match_id, receipts = played(service, client)
    rows = Rows(store_url, service.match_id(match_id))
    step = rows.first("StepApplied")
    topic, data = rows.row(step)
    flip_text(data)
    rows.write(step, topic, data)
    rechain_from(rows, service, step)
    rows.close()
    head = receipts[-1]["closing"]["head"]
    report = verify(client, match_id, heads=[head])
    assert report["broken"] is None  # the chain alone looks sound
    assert {
        "source": "heads[0]",
        "kind": "rewritten",
        "version": head["version"],
        "message": f"at version {head['version']} the log's chain differs from the head's "
        "(heads[0])",
    } in report["problems"]


def test_reads_of_a_tampered_match_answer_tampered_log_never_a_500(client, service, store_url):
    match_id, _ = played(service, client)
    rows = Rows(store_url, service.match_id(match_id))
    step = rows.first("StepApplied")
    topic, data = rows.row(step)
    flip_text(data)
    rows.write(step, topic, data)
    rows.close()
    for path in ("/replay", "/state", "/events"):
        body = assert_error(client.get(f"/matches/{match_id}{path}"), 409, "tampered_log")
        assert body["details"]["version"] == step and body["details"]["type"] == "StepApplied"
        assert "chain mismatch" in body["details"]["reason"]
    report = client.get(f"/matches/{match_id}/verify").get_json()
    assert report["broken"]["version"] == step
    # a process that has not checked the match's snapshot yet folds every event: any read
    fresh = Matches(env=Settings(store_url).event_store_env())
    fresh_client = create_app({"TESTING": True}, matches=fresh).test_client()
    try:
        for path in ("", "/display", "/scores", "/state"):
            assert_error(fresh_client.get(f"/matches/{match_id}{path}"), 409, "tampered_log")
    finally:
        fresh.close()


def test_evidence_of_another_match_is_named_and_malformed_evidence_refused(client, service):
    match_id, receipts = played(service, client)
    other, _ = played(service, client)
    report = verify(client, other, receipts=receipts[:1])
    assert not report["ok"] and report["problems"][0]["kind"] == "other_match"
    assert f"not of match {other}" in report["problems"][0]["message"]
    response = client.post(f"/matches/{other}/verify", json={"receipts": [{"seat": 1}]})
    assert_error(response, 422, "validation_error")
    response = client.post(
        f"/matches/{match_id}/verify", json={"heads": [{"version": 1, "chain": "xyz"}]}
    )
    assert_error(response, 422, "validation_error")
