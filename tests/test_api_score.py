"""POST /api/v1/score: the rules vectors through HTTP give what the CLI prints; errors are JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import app
from scoring import score_table

VECTORS = json.loads((Path(__file__).parent / "data" / "vectors.json").read_text())


@pytest.fixture(scope="module")
def client():
    with TestClient(app) as c:
        yield c


def test_every_vector_scores_as_the_engine_does(client):
    response = client.post("/api/v1/score", json=VECTORS)
    assert response.status_code == 200
    assert response.json() == [score_table(case) for case in VECTORS]


def test_one_table_gives_its_result(client):
    case = next(c for c in VECTORS if "error" not in c["expected"] and "score" in c["expected"])
    result = client.post("/api/v1/score", json=case).json()
    assert result["score"] == case["expected"]["score"]
    assert result["payments"] == case["expected"]["payments"]


def test_an_invalid_table_is_a_422_with_the_engine_code(client):
    case = next(c for c in VECTORS if "error" in c["expected"])
    response = client.post("/api/v1/score", json=case)
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == case["expected"]["error"] and body["message"]


def test_in_a_list_an_invalid_table_keeps_its_place(client):
    good = next(c for c in VECTORS if "error" not in c["expected"])
    bad = next(c for c in VECTORS if "error" in c["expected"])
    results = client.post("/api/v1/score", json=[good, bad, good]).json()
    assert results[0] == results[2] and "error" not in results[0]
    assert results[1]["error"]["code"] == bad["expected"]["error"]


def test_in_a_list_a_malformed_table_keeps_its_place(client):
    """An object that is no table at all (a field missing, a string too long) is refused in its
    place too, as the rules engine's refusals are: the other tables are still scored."""
    good = next(c for c in VECTORS if "error" not in c["expected"])
    results = client.post("/api/v1/score", json=[good, {"ruleset": "pung-chow"}, good, "a table", 7, None, [good]]).json()
    assert results[0] == results[2] and "error" not in results[0]
    assert results[1] == {"error": {"code": "invalid-request", "message": "hands: Field required"}}
    assert [r["error"]["message"] for r in results[3:]] == [
        "a table is a JSON object, not a string", "a table is a JSON object, not a number",
        "a table is a JSON object, not null", "a table is a JSON object, not a list"]


def test_in_a_list_a_table_read_as_one_alone_is_scored(client):
    """A table whose fields need converting (winner 1, exposed "true") is scored in a list as it
    is alone, not taken for an object that is no table."""
    good = next(c for c in VECTORS if "error" not in c["expected"] and c["hands"][0]["melds"])
    lax = json.loads(json.dumps(good))
    lax["hands"][0]["winner"] = 1
    lax["hands"][0]["melds"][0]["exposed"] = "true"
    alone = client.post("/api/v1/score", json=lax).json()
    assert "error" not in alone
    assert client.post("/api/v1/score", json=[lax, {"ruleset": "pung-chow"}]).json()[0] == alone


def test_validation_messages_name_fields_not_types(client):
    body = client.post("/api/v1/score", json={"id": [1], "ruleset": "pung-chow", "hands": [{"seat": "E"}]}).json()
    assert body["code"] == "invalid-request"
    assert body["message"] == "id: Input should be a valid string or Input should be a valid integer"


def test_a_misspelt_field_is_refused(client):
    good = next(c for c in VECTORS if "error" not in c["expected"])
    response = client.post("/api/v1/score", json=dict(good, params={"limt": 300}))
    assert response.status_code == 422
    assert response.json() == {"code": "invalid-case", "message": "params: unknown field 'limt'; did you mean 'limit'?"}


@pytest.mark.parametrize("field, value, named", [("winning_tile", "2p", "a winning tile (2p)"),
                                                  ("win_by", "discard", "win_by 'discard'"),
                                                  ("flags", ["last-tile"], "the flag 'last-tile'")])
def test_the_winners_fields_on_a_hand_not_marked_as_winner_are_refused(client, field, value, named):
    """A winner whose "winner": true was forgotten was scored as a hand no one won (no one paid,
    with a 200); the winner's own fields on it say what was meant."""
    hand = {"seat": "S", "concealed": "123678s222p99m345m", field: value}
    table = {"ruleset": "pung-chow-limit", "round_wind": "E", "params": {"limit": 300}, "hands": [hand]}
    response = client.post("/api/v1/score", json=table)
    assert response.status_code == 422, response.text
    assert response.json() == {"code": "invalid-case", "message": f"South is not marked as the winner but has {named}, "
                               "which only the winner has: mark the winner with \"winner\": true, or leave it out"}
    assert score_table(table) == {"error": response.json()}


@pytest.mark.parametrize(
    "body, status, code",
    [
        (b"{not json", 400, "invalid-json"),
        (b"[]", 422, "invalid-request"),
        (b'"a string"', 422, "invalid-request"),
        (b'{"ruleset": "pung-chow"}', 422, "invalid-request"),
        (json.dumps([VECTORS[0]] * 201).encode(), 422, "invalid-request"),
        (b'{"ruleset": "mahjong", "hands": [{"seat": "E"}]}', 422, "invalid-case"),
        (b'{"ruleset": "pung-chow", "hands": [{"seat": "E", "winner": true, "concealed": "123x"}]}', 422, "unknown-tile"),
    ],
)
def test_bad_bodies(client, body, status, code):
    response = client.post("/api/v1/score", content=body, headers={"content-type": "application/json"})
    assert response.status_code == status, response.text
    assert response.json()["code"] == code


def test_unknown_routes_and_methods_are_json(client):
    assert client.get("/api/v1/nothing").json()["code"] == "not-found"
    response = client.get("/api/v1/score")
    assert response.status_code == 405 and response.json()["code"] == "method-not-allowed"


def test_head_requests_are_answered(client):
    """Uptime monitors often ask with HEAD: the page and the health check answer it."""
    for path in ("/", "/healthz"):
        response = client.head(path)
        assert response.status_code == 200 and response.content == b""
    # and the OpenAPI document keeps one operation for the health check, named as before
    health = client.get("/openapi.json").json()["paths"]["/healthz"]
    assert list(health) == ["get"] and health["get"]["operationId"] == "healthz_healthz_get"


def test_openapi_documents_every_endpoint(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/v1/score", "/api/v1/recognize", "/api/v1/photo/score", "/api/v1/validate", "/healthz"):
        assert path in paths
    assert client.get("/docs").status_code == 200


def test_bodies_far_beyond_any_table_are_refused_briefly(client):
    """A hand of 100,000 tiles is refused by its size before the engine reads it, in a short
    message; an id nested hundreds deep is refused (it is given back with the result, and could
    not be); a body that is not UTF-8, or nested past the JSON reader's depth, is named so."""
    case = next(c for c in VECTORS if "error" not in c["expected"] and "score" in c["expected"])
    huge = json.loads(json.dumps(case))
    huge["hands"][0]["concealed"] = "1" * 100_000 + "m"
    response = client.post("/api/v1/score", json=huge)
    assert response.status_code == 422 and "at most 120 characters" in response.json()["message"]
    assert len(response.text) < 1000
    deep = {**case, "id": json.loads("[" * 256 + "]" * 256)}
    response = client.post("/api/v1/score", json=deep)
    assert response.status_code == 422 and "id" in response.json()["message"]
    assert client.post("/api/v1/score", json={**case, "id": 7}).json()["id"] == 7
    for body in (b"[" * 5000 + b"]" * 5000, '{"ruleset": "caf\xe9"}'.encode("latin-1")):
        response = client.post("/api/v1/score", content=body, headers={"content-type": "application/json"})
        assert response.status_code == 400 and response.json()["code"] == "invalid-json", response.text


def test_scoring_runs_off_the_event_loop():
    """The score endpoint is a plain function, which FastAPI runs in its thread pool: a long list
    of tables being scored does not hold up every other request (a /healthz waited 6 s)."""
    import inspect

    endpoint = next(r.endpoint for r in app.routes if getattr(r, "path", "") == "/api/v1/score")
    assert not inspect.iscoroutinefunction(endpoint)
