"""Search latency through each face on one index: a direct library call, the operations layer, HTTP and MCP.

Usage: python bench/api_bench.py INDEX_NAME [--n 200] [--k 10] [--questions FILE.jsonl]

Uses the data dir of CODEQA_HOME. The HTTP API (`codeqa api`, uvicorn) and the MCP server (`codeqa mcp`, stdio)
are started as subprocesses on 127.0.0.1 and queried one request at a time with a kept-alive client, so the
numbers are per-request latency (question embedding included), not throughput. Warm-up queries are not counted.
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
from collections.abc import Callable
from pathlib import Path

import anyio
import httpx
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from codeqa.config import Settings
from codeqa.retrieve import retrieve
from codeqa.service import Operations, SearchRequest
from codeqa.store import Store

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


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def timed(run: Callable[[str], object], questions: list[str], n: int) -> list[float]:
    for question in questions[:WARMUP]:
        run(question)
    times = []
    for i in range(n):
        started = time.perf_counter()
        run(questions[i % len(questions)])
        times.append((time.perf_counter() - started) * 1000)
    return times


def bench_http(name: str, questions: list[str], n: int, k: int) -> list[float]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "CODEQA_API_SEARCH_PER_HOUR": "0"}
    command = [sys.executable, "-m", "codeqa", "api", "--port", str(port)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=url, timeout=120) as client:
            deadline = time.monotonic() + 300
            while True:
                try:
                    if client.get("/health").status_code == 200:
                        break
                except httpx.TransportError:
                    if time.monotonic() > deadline or process.poll() is not None:
                        raise
                    time.sleep(0.3)

            def run(question: str) -> None:
                client.post(f"/indexes/{name}/search", json={"question": question, "k": k}).raise_for_status()

            return timed(run, questions, n)
    finally:
        process.terminate()
        process.wait(15)


def bench_mcp(name: str, questions: list[str], n: int, k: int) -> list[float]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "codeqa", "mcp"], env=dict(os.environ), cwd=str(ROOT)
    )
    times: list[float] = []

    async def main() -> None:
        async with Client(params, read_timeout_seconds=300) as client:
            for i in range(WARMUP + n):
                question = questions[i % len(questions)]
                started = time.perf_counter()
                result = await client.call_tool("search", {"index": name, "question": question, "k": k})
                elapsed = (time.perf_counter() - started) * 1000
                if result.is_error:
                    raise SystemExit(f"MCP search failed: {result.content}")
                if i >= WARMUP:
                    times.append(elapsed)

    anyio.run(main)
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
        rows = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
        questions = [row.get("question") or row["problem_statement"] for row in rows]
    settings = Settings()
    store = Store(settings)
    manifest = store.get_manifest(args.name)
    ops = Operations(settings)
    rows = {
        "library: retrieve()": timed(
            lambda q: retrieve(args.name, q, settings, k=args.k, store=store), questions, args.n
        ),
        "library: Operations.search (+ key lines)": timed(
            lambda q: ops.search(args.name, SearchRequest(question=q, k=args.k)), questions, args.n
        ),
        "HTTP: POST /indexes/{name}/search": bench_http(args.name, questions, args.n, args.k),
        "MCP: tools/call search (stdio)": bench_mcp(args.name, questions, args.n, args.k),
    }
    print(f"index {args.name}: {manifest.counts.get('chunks')} chunks, k={args.k}, n={args.n} sequential requests")
    print("| path | p50 ms | p95 ms | mean ms |")
    print("|---|---|---|---|")
    for label, times in rows.items():
        p50, p95, mean = percentile(times, 50), percentile(times, 95), statistics.fmean(times)
        print(f"| {label} | {p50:.1f} | {p95:.1f} | {mean:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
