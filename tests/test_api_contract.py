"""The HTTP API does what its OpenAPI schema says: schemathesis, a well-kept OpenAPI fuzzer, against a real
``codeqa api`` on 127.0.0.1 over a small real index, on loopback without a token and with one (issue #37).

Every operation is served (``--allow-write``), each over its own copy of the index: a generated ``DELETE`` may
remove it. The run is bounded and repeatable: a fixed number of examples per operation, deterministic generation,
one worker. Rate limits are off (a 429 would hide what the fuzzer is checking); the refusals themselves are tested
in test_http_api and test_api_edge.

Measured with these settings (schemathesis 4.32.5): before the contract was declared (main at 5521a65), 527 cases
without a token and 490 with one found 16 and 4 distinct failures (Authorization marked required on loopback, a
blank question or ``k`` out of range refused although the schema allowed it, a 400 the schema did not list); after,
806 and 817 cases, none.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import httpx
import pytest

from codeqa.config import Settings
from codeqa.service.http_api import create_app
from codeqa.service.mcp_server import build_server
from codeqa.service.operations import Operations
from tests.indexed_home import build_sample_index
from tests.service_servers import ROOT, api_server, server_env

TOKEN = "a-long-random-token-for-the-contract-0123456789"
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "negative_data_rejection",
    "positive_data_acceptance",
)
MAX_EXAMPLES = 3  # per operation in the fuzzing and stateful phases; the coverage phase adds its boundary cases
RUN_SECONDS = 150
NO_LIMITS = {"CODEQA_API_ASK_PER_HOUR": "0", "CODEQA_API_SEARCH_PER_HOUR": "0", "CODEQA_API_FAILED_AUTH_LIMIT": "0"}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, Path]:
    return build_sample_index(tmp_path_factory.mktemp("contract"))


def schemathesis_run(url: str, workdir: Path, source: Path, token: str | None) -> tuple[dict, str]:
    """``schemathesis run`` against ``url``: its JSON report and its printed output."""
    report = workdir / "schemathesis.json"
    command = [
        sys.executable, "-m", "schemathesis.cli", "run", f"{url}/openapi.json",
        "--checks", ",".join(CHECKS), "--max-examples", str(MAX_EXAMPLES), "--generation-deterministic",
        "--workers", "1", "--request-timeout", "60", "--no-color",
        "--report", "json", "--report-json-path", str(report),
    ]  # fmt: skip
    if token:
        command += ["--header", f"Authorization: Bearer {token}"]
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "tests.schemathesis_hooks",
        "CODEQA_CONTRACT_SOURCE": str(source),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    result = subprocess.run(
        command, cwd=workdir, env=env, capture_output=True, text=True, timeout=RUN_SECONDS, check=False
    )
    assert report.exists(), f"schemathesis wrote no report:\n{result.stdout}\n{result.stderr}"
    return json.loads(report.read_text()), result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("token", [None, TOKEN], ids=["loopback-no-token", "bearer-token"])
def test_schemathesis_finds_no_contract_failure(indexed, tmp_path: Path, token: str | None):
    settings, repo = indexed
    home = tmp_path / "home"
    shutil.copytree(settings.home, home)
    env = server_env(Settings(home=home), **NO_LIMITS, **({"CODEQA_API_TOKEN": token} if token else {}))
    with api_server(env, "--allow-write") as url:
        operations = sum(len(methods) for methods in httpx.get(f"{url}/openapi.json").json()["paths"].values())
        report, output = schemathesis_run(url, tmp_path, repo, token)
    cases = report["test_cases"]
    print(f"schemathesis ({'token' if token else 'no token'}): {cases['generated']} generated test cases")
    assert report["operations"]["tested"] == operations == 13, report["operations"]
    assert report["failures"] == [] and report["errors"] == [], output[-6000:]
    assert cases["generated"] >= 100 and cases["with_failures"] == 0, cases


def served_schema(settings: Settings) -> dict:
    """The OpenAPI schema a server over ``settings`` would serve (every operation: read and write)."""
    return create_app(Operations(settings, allow_write=True)).openapi()


def test_the_schema_asks_for_a_token_only_when_the_server_has_one(tmp_path: Path):
    open_schema = served_schema(Settings(home=tmp_path))
    operations = [op for methods in open_schema["paths"].values() for op in methods.values()]
    assert len(operations) == 13 and all("security" not in op for op in operations)
    assert "securitySchemes" not in open_schema.get("components", {})
    assert all("401" not in op["responses"] for op in operations)

    guarded = served_schema(Settings(home=tmp_path, api_token=TOKEN))
    for path, methods in guarded["paths"].items():
        for operation in methods.values():
            public = path == "/health"
            assert ("security" in operation) is not public, path
            assert ("401" in operation["responses"]) is not public, path
    assert guarded["components"]["securitySchemes"]["HTTPBearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "The server's CODEQA_API_TOKEN (checked before FastAPI runs).",
    }


def test_the_schema_states_the_limits_and_every_error_answer(tmp_path: Path):
    schema = served_schema(Settings(home=tmp_path))
    models = schema["components"]["schemas"]
    search, ask, job = models["SearchRequest"], models["AskRequest"], models["IndexRequest"]
    assert all(model["additionalProperties"] is False for model in (search, ask, job))
    assert (search["properties"]["k"]["minimum"], search["properties"]["k"]["maximum"]) == (1, 200)
    assert ask["properties"]["k"]["maximum"] == 50
    assert search["properties"]["question"]["pattern"] == r"\S"
    assert search["properties"]["globs"]["maxItems"] == 50
    assert search["properties"]["globs"]["items"]["maxLength"] == 300
    assert set(models["Layer"]["enum"]) == {"api", "model", "view", "service", "cli", "config", "migration", "test",
                                            "docs", "build", "util", "core"}  # fmt: skip
    assert job["properties"]["name"]["anyOf"][0]["maxLength"] == 63
    symbol = schema["paths"]["/indexes/{index}/symbols/{symbol}/{relation}"]["get"]
    limit = next(p for p in symbol["parameters"] if p["name"] == "limit")["schema"]
    assert (limit["minimum"], limit["maximum"]) == (1, 100)

    error = {"$ref": "#/components/schemas/ErrorResult"}
    ask_responses = schema["paths"]["/indexes/{index}/ask"]["post"]["responses"]
    assert set(ask_responses) == {"200", "400", "403", "404", "409", "413", "422", "429", "500", "502", "503"}
    assert all(ask_responses[s]["content"]["application/json"]["schema"] == error for s in ask_responses if s != "200")
    assert "text/plain" in ask_responses["400"]["content"]  # the Host check answers in plain text
    assert "HTTPValidationError" not in schema["components"]["schemas"]  # 422 is our error body, as answered
    events = schema["paths"]["/indexes/{index}/ask/stream"]["post"]["responses"]["200"]["content"]
    assert events["text/event-stream"]["schema"]["properties"]["event"]["enum"] == ["sources", "token", "answer"]


def test_the_mcp_tools_state_the_same_limits_as_the_http_api(tmp_path: Path):
    """The MCP tools take the request models' own field types: their input schemas carry the same limits."""
    http = served_schema(Settings(home=tmp_path))["components"]["schemas"]
    server = build_server(Operations(Settings(home=tmp_path), allow_write=True))
    tools = {tool.name: tool.input_schema for tool in anyio.run(server.list_tools)}
    for tool, model in (("search", "SearchRequest"), ("find_files", "SearchRequest"), ("ask", "AskRequest")):
        given, declared = tools[tool]["properties"], http[model]["properties"]
        assert (given["k"]["minimum"], given["k"]["maximum"]) == (declared["k"]["minimum"], declared["k"]["maximum"])
        for scope in ("layers", "kinds", "languages", "paths", "globs"):
            listed = given[scope]["anyOf"][0]
            assert listed["maxItems"] == declared[scope]["maxItems"] == 50, scope
            assert listed["items"] == declared[scope]["items"] or "$ref" in listed["items"], scope
        assert "$ref" in given["layers"]["anyOf"][0]["items"]  # the Layer enum
    assert tools["callers"]["properties"]["limit"]["maximum"] == 100
    assert tools["callers"]["properties"]["symbol"]["pattern"] == r"\S"
    assert (
        tools["index"]["properties"]["name"]["anyOf"][0]["pattern"]
        == http["IndexRequest"]["properties"]["name"]["anyOf"][0]["pattern"]
    )
