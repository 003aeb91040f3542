"""GET /rulesets, the OpenAPI document and the one JSON error shape."""


def assert_error_shape(response, status, code):
    body = response.get_json()
    assert response.status_code == status
    assert set(body) == {"code", "status", "message", "details"}
    assert body["code"] == code and body["status"] == status and body["message"]


def test_lists_every_registered_ruleset_with_its_config_defaults(client):
    body = client.get("/rulesets").get_json()
    by_name = {r["name"]: r for r in body}
    assert {"district_war", "drts_team23"} <= set(by_name)
    dw = by_name["district_war"]
    assert dw["min_seats"] == dw["max_seats"] == 2 and dw["dynamics"] == "sequential"
    assert any(field["name"] == "board" for field in dw["config"])


def test_drts_team23_is_simultaneous_for_eight_seats(client):
    body = client.get("/rulesets/drts_team23").get_json()
    assert body["dynamics"] == "simultaneous" and body["max_seats"] == 8


def test_each_ruleset_says_how_a_seats_orders_combine(client):
    """Issue 11: `order_policy`; `accumulates_orders` stays as its deprecated alias."""
    by_name = {r["name"]: r for r in client.get("/rulesets").get_json()}
    assert by_name["drts_team23"]["order_policy"] == "merge"  # v2, the latest (DRTS-4)
    v1 = client.get("/rulesets/drts_team23?version=1").get_json()
    assert (v1["version"], v1["order_policy"]) == (1, "replace")
    assert (by_name["toy_merge"]["order_policy"], by_name["toy_merge"]["accumulates_orders"]) == (
        "merge",
        False,
    )
    assert (by_name["toy_acc"]["order_policy"], by_name["toy_acc"]["accumulates_orders"]) == (
        "accumulate",
        True,
    )


def test_an_unknown_ruleset_is_a_404_in_the_error_shape(client):
    response = client.get("/rulesets/chess")
    assert_error_shape(response, 404, "unknown_ruleset")
    assert "chess" in response.get_json()["message"]


def test_an_unknown_path_is_a_404_in_the_error_shape(client):
    assert_error_shape(client.get("/no/such/path"), 404, "not_found")


def test_a_wrong_method_is_a_405_with_an_allow_header(client):
    response = client.delete("/rulesets")
    assert_error_shape(response, 405, "method_not_allowed")
    assert "GET" in response.headers["Allow"]


def test_the_openapi_document_lists_the_rulesets_path(client):
    spec = client.get("/openapi.json").get_json()
    assert spec["openapi"].startswith("3.1") and "/rulesets" in spec["paths"]


def test_each_ruleset_says_the_longest_order_it_takes(client):
    """Shades' bot replies command every shade (SH-11): it takes longer orders than others."""
    by_name = {r["name"]: r for r in client.get("/rulesets").get_json()}
    assert by_name["shades"]["max_order_chars"] == 60_000
    assert by_name["district_war"]["max_order_chars"] == 4096
