"""Search latency through each face on one index: a direct library call, the operations layer, HTTP and MCP.

Usage: python bench/api_bench.py INDEX_NAME [--n 200] [--k 10] [--questions FILE.jsonl]

Uses the data dir of CODEQA_HOME. The HTTP API (`codeqa api`, uvicorn) and the MCP server (`codeqa mcp`, stdio)
are started as subprocesses on 127.0.0.1 and queried one request at a time with a kept-alive client, so the
numbers are per-request latency (question embedding included), not throughput. The four paths take turns on
each question (round-robin, with the first place rotating), so a change in machine load or a warm cache helps
none of them more than the others. Warm-up queries are not counted.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import httpx
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from codeqa.config import Settings
from codeqa.index import Index
from codeqa.retrieve import retrieve
from codeqa.service import Operations, SearchRequest

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = [
    "where is the configuration loaded?",
    "how are errors from the network handled?",
    "what happens when a request times out?",
    "where would I add logging for user actions?",
    "how is authentication checked?",
    "which function parses the input file?",
    "how are units converted between systems?",
    "where is the coordinate transformation implemented?",
    "how does the reader handle a corrupt header?",
    "where are datasets merged along a dimension?",
]
WARMUP = 5
LABELS = (
    "library: retrieve()",
    "library: Operations.search (+ key lines)",
    "HTTP: POST /indexes/{name}/search",
    "MCP: tools/call search (stdio)",
)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


@contextmanager
def http_server() -> Iterator[httpx.Client]:
    """`codeqa api` on a free loopback port (no rate limit), and a kept-alive client for it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "CODEQA_API_SEARCH_PER_HOUR": "0"}
    command = [sys.executable, "-m", "codeqa", "api", "--port", str(port)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
            deadline = time.monotonic() + 300
            while True:
                try:
                    if client.get("/health").status_code == 200:
                        break
                except httpx.TransportError:
                    if time.monotonic() > deadline or process.poll() is not None:
                        raise
                    time.sleep(0.3)
            yield client
    finally:
        process.terminate()
        process.wait(15)


def measure(name: str, questions: list[str], n: int, k: int) -> dict[str, list[float]]:
    """Round-robin over the four paths, one request each per question, so load changes hit them all alike."""
    settings = Settings()
    index = Index.open(name, settings)
    ops = Operations(settings)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "codeqa", "mcp"], env=dict(os.environ), cwd=str(ROOT)
    )
    times: dict[str, list[float]] = {label: [] for label in LABELS}

    async def run_all() -> None:
        with http_server() as http:
            async with Client(params, read_timeout_seconds=300) as mcp:

                def via_http(question: str) -> None:
                    http.post(f"/indexes/{name}/search", json={"question": question, "k": k}).raise_for_status()

                async def via_mcp(question: str) -> None:
                    result = await mcp.call_tool("search", {"index": name, "question": question, "k": k})
                    if result.is_error:
                        raise SystemExit(f"MCP search failed: {result.content}")

                runs = {
                    LABELS[0]: lambda q: retrieve(index, q, k=k),
                    LABELS[1]: lambda q: ops.search(name, SearchRequest(question=q, k=k)),
                    LABELS[2]: via_http,
                    LABELS[3]: via_mcp,
                }
                for i in range(WARMUP + n):
                    question = questions[i % len(questions)]
                    turn = i % len(LABELS)  # who goes first rotates: the first to fetch a chunk warms caches
                    for label in LABELS[turn:] + LABELS[:turn]:
                        started = time.perf_counter()
                        if label == LABELS[3]:
                            await via_mcp(question)
                        else:
                            runs[label](question)
                        if i >= WARMUP:
                            times[label].append((time.perf_counter() - started) * 1000)

    anyio.run(run_all)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name")
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--questions", type=Path)
    args = parser.parse_args()
    questions = QUESTIONS
    if args.questions:
        records = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
        questions = [record.get("question") or record["problem_statement"] for record in records]
    manifest = Index.open(args.name, Settings()).manifest
    rows = measure(args.name, questions, args.n, args.k)
    print(f"index {args.name}: {manifest.counts.get('chunks')} chunks, k={args.k}, n={args.n} sequential requests")
    print("| path | p50 ms | p95 ms | mean ms |")
    print("|---|---|---|---|")
    for label, times in rows.items():
        p50, p95, mean = percentile(times, 50), percentile(times, 95), statistics.fmean(times)
        print(f"| {label} | {p50:.1f} | {p95:.1f} | {mean:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
