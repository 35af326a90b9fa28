"""`codeqa mcp` as an agent sees it: the SDK's own client starts the server as a subprocess and talks stdio."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from codeqa.config import Settings
from tests.conftest import init_repo
from tests.indexed_home import build_sample_index
from tests.llm_standins import OpenAIStandIn
from tests.service_servers import ROOT, server_env

READ_TOOLS = {"search", "find_files", "ask", "definition", "callers", "callees", "overview", "list_indexes"}
WRITE_TOOLS = {"index", "remove"}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, Path]:
    return build_sample_index(tmp_path_factory.mktemp("mcp"))


@asynccontextmanager
async def mcp_session(env: dict[str, str], *args: str) -> AsyncIterator[Client]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "codeqa", "mcp", *args], env=env, cwd=ROOT)
    async with Client(params, read_timeout_seconds=120) as client:
        yield client


async def call(client: Client, tool: str, **arguments: Any) -> tuple[bool, Any]:
    result = await client.call_tool(tool, arguments)
    return result.is_error, result.structured_content


def test_read_only_server_offers_every_read_tool_with_structured_results(indexed):
    settings, _ = indexed

    async def scenario() -> None:
        with OpenAIStandIn(reply=["Passwords are hashed ", "with PBKDF2 [1]."]) as llm:
            env = server_env(settings, CODEQA_OPENAI_BASE_URL=f"{llm.url}/v1")
            async with mcp_session(env) as client:
                tools = {tool.name: tool for tool in (await client.list_tools()).tools}
                assert set(tools) == READ_TOOLS  # read-only by default: no index, no remove
                search_tool = tools["search"]
                assert search_tool.description and "lines that best match" in search_tool.description
                assert search_tool.input_schema["required"] == ["index", "question"]
                assert "layers" in search_tool.input_schema["properties"]
                assert search_tool.output_schema and "results" in search_tool.output_schema["properties"]

                failed, listed = await call(client, "list_indexes")
                assert not failed and [i["name"] for i in listed["indexes"]] == ["shop"]
                assert listed["indexes"][0]["chunks"] > 0

                failed, found = await call(client, "search", index="shop", question="how is the password hashed?", k=3)
                assert not failed and len(found["results"]) == 3
                top = found["results"][0]
                assert top["location"] == f"{top['path']}:{top['start_line']}-{top['end_line']}"
                assert top["symbol"] == "hash_password" and top["kind"] == "function" and top["layer"]
                assert any("hash_password" in line["text"] for line in top["key_lines"])
                assert all(top["start_line"] <= line["line"] <= top["end_line"] for line in top["key_lines"])
                assert len(top["key_lines"]) <= 5

                failed, scoped = await call(
                    client, "search", index="shop", question="price total", languages=["javascript"]
                )
                assert not failed and {r["language"] for r in scoped["results"]} == {"javascript"}

                failed, files = await call(client, "find_files", index="shop", question="where are sessions kept?")
                assert not failed and files["files"][0]["path"] == "shop/auth.py"

                failed, defined = await call(client, "definition", index="shop", symbol="hash_password")
                assert not failed and [r["path"] for r in defined["results"]] == ["shop/auth.py"]
                failed, callers = await call(client, "callers", index="shop", symbol="hash_password")
                assert not failed and "SessionStore" in {r["symbol"] for r in callers["results"]}
                failed, callees = await call(client, "callees", index="shop", symbol="SessionStore")
                assert not failed and "hash_password" in {r["symbol"] for r in callees["results"]}

                failed, view = await call(client, "overview", index="shop")
                assert not failed and view["languages"][0]["name"] == "python"
                assert view["files"] == listed["indexes"][0]["files"]
                assert "hash_password" in {s["symbol"] for s in view["central_symbols"]}

                failed, extractive = await call(client, "ask", index="shop", question="how does login work?")
                assert not failed and extractive["generated"] is False and extractive["backend"] == "none"
                assert extractive["sources"] and "Extractive map" in extractive["answer"]

                failed, answer = await call(
                    client, "ask", index="shop", question="how are passwords hashed?", backend="openai"
                )
                assert not failed and answer["generated"] is True, answer
                assert answer["answer"] == "Passwords are hashed with PBKDF2 [1]."
                assert answer["citations_valid"] == 1 and answer["citations_invalid"] == []

    anyio.run(scenario)


def test_errors_are_tool_errors_with_the_cli_messages(indexed):
    settings, _ = indexed

    async def scenario() -> None:
        async with mcp_session(server_env(settings)) as client:
            failed, error = await call(client, "search", index="nope", question="login")
            assert failed and error["error"]["type"] == "IndexNotFoundError"
            assert error["error"]["message"].startswith("No index named 'nope' (indexes: shop)")

            # the tools' input schemas carry the request models' limits, checked before the tool runs
            result = await client.call_tool("search", {"index": "shop", "question": "x", "layers": ["apis"]})
            text = result.content[0].text
            assert result.is_error and "layers.0" in text and "Input should be 'api', 'model'" in text, text

            failed, found = await call(client, "search", index="shop", question="x", languages=["rust"])
            assert not failed and found["results"] == []  # well-formed, nothing in this index: a notice says why
            assert found["notice"].startswith("Unknown language 'rust'; this index has these languages: python")

            failed, error = await call(client, "ask", index="shop", question="   ")
            assert failed and error["error"]["message"].startswith("The question is empty")

            result = await client.call_tool("search", {"index": "shop", "question": "x", "k": 0})
            text = result.content[0].text
            assert result.is_error and "\nk\n" in text and "Input should be greater than or equal to 1" in text, text

            result = await client.call_tool("index", {"source": "."})
            assert result.is_error  # not offered without --allow-write

    anyio.run(scenario)


def test_write_tools_with_the_flag_report_progress_while_indexing(indexed, tmp_path: Path):
    settings, _ = indexed
    files = {
        "calc.py": "def add(a, b):\n    return a + b\n",
        "tools/report.py": "from calc import add\n\nif __name__ == '__main__':\n    print(add(1, 2))\n",
        "web/server.py": "def serve():\n    return 'ok'\n",
        "cmd/run.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("run")\n}\n',
        "README.md": "# calc\n",
    }
    repo = init_repo(tmp_path / "extra", files)
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, total, message))

    async def scenario() -> None:
        async with mcp_session(server_env(settings), "--allow-write") as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            assert tools == READ_TOOLS | WRITE_TOOLS
            result = await client.call_tool(
                "index", {"source": str(repo), "name": "calc"}, progress_callback=on_progress
            )
            assert not result.is_error, result.content
            assert result.structured_content["state"] == "done"
            assert result.structured_content["index"]["name"] == "calc"
            failed, found = await call(client, "search", index="calc", question="add two numbers")
            assert not failed and found["results"][0]["symbol"] == "add"
            failed, view = await call(client, "overview", index="calc")
            assert not failed and view["entry_points"] == ["cmd/run.go", "tools/report.py", "web/server.py"]

            failed, error = await call(client, "index", source=str(tmp_path / "missing"))
            assert failed and "No such directory" in error["error"]["message"]

            failed, removed = await call(client, "remove", index="calc")
            assert not failed and removed == {"removed": "calc"}
            failed, error = await call(client, "remove", index="calc")
            assert failed and error["error"]["type"] == "IndexNotFoundError"

    anyio.run(scenario)
    assert progress, "no progress notifications during index"
    assert progress[-1][0] == 1.0 and progress[-1][1] == 1.0
    values = [value for value, _, _ in progress]
    assert values == sorted(values) and all(0.0 <= value <= 1.0 for value in values)  # MCP: progress increases
    assert any(message and message.startswith(("scan", "chunk", "embed", "store")) for _, _, message in progress)
