#!/usr/bin/env python3
"""Mine every repository of a manifest with bench/mine_history.py (one after another, niced).

The manifest (default bench/data/history/repos.json) is a JSON list; each entry names the repository and how
it is mined: {"repo": "tmux/tmux", "language": "c", "kind": "application", "exts": ".c,.h" (optional, else the
language's), "exclude": ["^compat/"] (optional), "K": 3, "since": "2020-07-01", "until": "2026-07-01",
"N": 45, "legacy_rules": true (the message rules of the first 11 sets, kept so that they stay as published)}.
Absent keys take the defaults below. Mirrors are read from MIRRORS/<owner>+<name>/repo.

  python3 bench/mine_history_all.py --trees /work/evaldata/trees            # all, writing the snapshot trees
  python3 bench/mine_history_all.py --only tmux/tmux,htop-dev/htop --print  # show the commands only
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULTS = {"K": 3, "N": 45, "since": "2020-07-01", "until": "2026-07-01", "seed": 0, "exclude": [], "exts": None}


def mirror_dir(mirrors, repo):
    base = os.path.join(mirrors, repo.replace("/", "+", 1), "repo")
    return base if os.path.exists(os.path.join(base, "HEAD")) else os.path.join(base, ".git")


def command(entry, mirrors, out_dir, trees):
    e = {**DEFAULTS, **entry}
    slug = e["repo"].replace("/", "__")
    cmd = ["nice", "-n", "10", sys.executable, os.path.join(HERE, "mine_history.py"), mirror_dir(mirrors, e["repo"])]
    cmd += ["--repo", e["repo"], "--language", e["language"], "--since", e["since"], "--until", e["until"]]
    cmd += ["-K", str(e["K"]), "-N", str(e["N"]), "--seed", str(e["seed"]), "--stats"]
    if e["exts"]:
        cmd += ["--exts", e["exts"]]
    for rx in e["exclude"]:
        cmd += ["--exclude", rx]
    if e.get("legacy_rules"):
        cmd += ["--legacy-rules"]
    cmd += ["--out", os.path.join(out_dir, f"{slug}.jsonl")]
    if trees:
        cmd += ["--trees", trees]
    return cmd


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--manifest", default=os.path.join(HERE, "data", "history", "repos.json"))
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--out-dir", default=os.path.join(HERE, "data", "history"))
    ap.add_argument("--trees", help="write the used snapshots here (as mine_history.py --trees)")
    ap.add_argument("--only", help="comma-separated owner/name list")
    ap.add_argument("--language", help="only this language group")
    ap.add_argument("--print", action="store_true", help="print the commands, run nothing")
    args = ap.parse_args()

    with open(args.manifest) as f:
        entries = json.load(f)
    if args.only:
        wanted = set(args.only.split(","))
        entries = [e for e in entries if e["repo"] in wanted]
    if args.language:
        entries = [e for e in entries if e["language"] == args.language]
    failed = []
    for entry in entries:
        cmd = command(entry, args.mirrors, args.out_dir, args.trees)
        if args.print:
            print(shlex.join(cmd))
            continue
        if subprocess.run(cmd).returncode != 0:
            failed.append(entry["repo"])
    if failed:
        sys.exit("failed: " + ", ".join(failed))


if __name__ == "__main__":
    main()
