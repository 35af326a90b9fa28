"""The graph check's JS/TS side: where the uses of a link's name go, asked of the TypeScript language service.

``tsdefinitions.cjs`` (beside this file) runs under node with the ``typescript`` package: one language service over
the checked files with ``allowJs`` (and the tree's tsconfig/jsconfig options, for ``paths``), go to definition at
each use. All uses of one graph's sampled links go in one call, so the program is built once per graph.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from codeqa.config import Settings
from codeqa.records import Chunk

SCRIPT = Path(__file__).with_name("tsdefinitions.cjs")
USES_CHECKED = 6  # uses of the linking names looked up per link (as the Python check)
COMMENT = re.compile(r"^\s*(//|/?\*)")
TIMEOUT = 1800  # seconds for one graph's uses (a real-size app's program takes a minute or two)
INSTALL = "npm install --prefix {folder} typescript"


def typescript_folder() -> Path:
    """Where the check looks for the ``typescript`` package (``CODEQA_NODE_MODULES``)."""
    return Settings().node_modules.expanduser()


def typescript_missing() -> str | None:
    """Why the JS/TS check cannot run here (no node, no typescript package), or None."""
    if shutil.which("node") is None:
        return "the JS/TS graph check needs node (apt-get install nodejs) and the typescript package"
    if not (typescript_folder() / "typescript" / "package.json").is_file():
        folder = typescript_folder().parent
        return f"the JS/TS graph check needs the typescript package: {INSTALL.format(folder=folder)}"
    return None


def use_sites(user: Chunk, names: set[str]) -> tuple[list[tuple[int, int]], bool]:
    """(line, column) of the first uses of ``names`` in ``user``'s lines (comments left out), and whether one is a
    call (followed by ``(``)."""
    pattern = re.compile(rf"(?<![\w.$])(?:[\w$]+\??\.)*({'|'.join(map(re.escape, sorted(names)))})(?![\w$])(\s*\()?")
    uses: list[tuple[int, int]] = []
    call = False
    for offset, line in enumerate(user.text.split("\n")):
        if COMMENT.match(line):
            continue
        for match in pattern.finditer(line):
            uses.append((user.start_line + offset, match.start(1)))
            call = call or bool(match.group(2))
    return uses[:USES_CHECKED], call


def definitions(tree: Path, uses: Sequence[tuple[str, int, int]]) -> list[list[tuple[str, int, int]] | None]:
    """For each (file, line, column) use, the definitions it goes to as (file, first line, last line); None where the
    service could not read the file."""
    if not uses:
        return []
    environment = {**os.environ, "NODE_PATH": str(typescript_folder()), "NODE_OPTIONS": "--max-old-space-size=4096"}
    payload = json.dumps({"tree": str(tree), "uses": [list(use) for use in uses]})
    done = subprocess.run(["node", str(SCRIPT)], input=payload, capture_output=True, text=True, check=False,
                          env=environment, timeout=TIMEOUT)  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"the TypeScript check failed: {done.stderr.strip()[-2000:]}")
    return [None if found is None else [tuple(d) for d in found] for found in json.loads(done.stdout)]


def verdicts(tree: Path, links: Sequence[tuple[Chunk, Chunk, set[str]]]) -> list[tuple[str, bool]]:
    """("right" | "wrong" | "unknown", whether a use is a call) for each link user → used with its linking names:
    right when a use goes to a definition overlapping ``used``'s lines, wrong when uses go elsewhere, unknown when
    none goes anywhere."""
    sites = [use_sites(user, names) for user, _, names in links]
    asked = [(user.path, line, column) for (user, _, _), (uses, _) in zip(links, sites, strict=True)
             for line, column in uses]  # fmt: skip
    answers = iter(definitions(tree, asked))
    out = []
    for (_, used, _), (uses, call) in zip(links, sites, strict=True):
        found = [definition for _ in uses for definition in (next(answers) or [])]
        if any(path == used.path and start <= used.end_line and used.start_line <= end for path, start, end in found):
            out.append(("right", call))
        else:
            out.append(("wrong" if found else "unknown", call))
    return out
