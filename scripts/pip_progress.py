"""pip's output in, a few lines of progress out (used by scripts/setup; the full output goes to $VENV/setup.log).

Packages resolved (every 20, or one updating line on a terminal), how many are being installed, a line a minute
while something compiles (with the minutes so far), and pip's own errors and warnings. Reads line by line as pip
writes (awk, mawk at least, would hold a pipe's lines back until its buffer filled).
Usage: pip install … 2>&1 | python scripts/pip_progress.py [--tty]
"""

from __future__ import annotations

import re
import sys
import time

PACKAGE = re.compile(r"^Collecting (\S+)")
NAME_END = re.compile(r"[<>=!~;\[(].*")


def run(lines, out, *, tty: bool, started: float) -> None:
    resolved = already = installing = 0
    building = ""
    shown = False  # an updating terminal line is waiting for its newline

    def say(text: str, *, updating: bool = False) -> None:
        nonlocal shown
        if tty and updating:
            out.write(f"\r\033[K      {text}")
            shown = True
        else:
            if shown:
                out.write("\n")
                shown = False
            out.write(f"      {text}\n")
        out.flush()

    for line in lines:
        line = line.rstrip("\n")
        if match := PACKAGE.match(line):
            resolved += 1
            name = NAME_END.sub("", match.group(1))
            if tty or resolved % 20 == 0:
                say(f"{resolved} packages resolved so far ({name})", updating=True)
        elif line.startswith("Requirement already satisfied"):
            already += 1
        elif "Building wheel for" in line and line.rstrip().endswith("started"):
            building = line.split("Building wheel for", 1)[1].split()[0]
            say(f"compiling {building} from source (a line every minute or so while it runs)")
        elif "Building wheel for" in line and "still running" in line:
            say(f"… still compiling {building} ({int((time.time() - started) // 60)} min so far)")
        elif line.startswith("Installing collected packages"):
            installing = line.count(",") + 1
            if installing == 1:
                say("installing 1 package")
            else:
                there = f"{already} already there; " if already else ""
                say(f"installing {installing} packages ({there}unpacking the big ones takes a while)")
        elif line.startswith("[wheel cache] "):  # scripts/llama_wheel.py: reused, built or refused, and why
            say(line.removeprefix("[wheel cache] "))
        elif line.startswith(("ERROR", "WARNING")) and "is ignored" not in line:
            say(line)
    if shown:
        out.write("\n")
    if already and not installing:
        say("already installed")


if __name__ == "__main__":
    run(iter(sys.stdin.readline, ""), sys.stdout, tty="--tty" in sys.argv, started=time.time())
