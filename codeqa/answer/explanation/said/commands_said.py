"""What shows a chunk runs a command, for "runs the command" (``roles_said``): the command's own definition in the
chunk, not only a file in a ``cli`` folder.
"""

from __future__ import annotations

import re

# "runs the command" needs a command's definition in the chunk, not only a file in a cli folder (a rake file's row
# formatter, click's own `Parameter.type_cast_value`): a command decorator or registration, an argument parser, a
# management command's or console command's `handle`, a rake task, a script's `__main__` block or `main`
COMMAND = re.compile(
    r"^\s*@(?:[\w.]+\.)?(?:command|group)\b|^\s*@Command\b|\.add_command\(|\.command\(\s*['\"]|\bArgumentParser\(|"
    r"\.add_(?:parser|argument|subparsers)\(|\bdef\s+(?:handle|main|run)\s*\(|\bfunction\s+(?:handle|main|run)\s*\(|"
    r"\bclass\s+\w+\s*\(\s*BaseCommand\s*\)|\bextends\s+Command\b|\$signature\b|\bArtisan::command\(|"
    r"^\s*(?:task|desc)\s+[:\w'\"]|^\s*namespace\s+:|^\s*if\s+__name__\s*==\s*['\"]__main__['\"]|\bfunc\s+main\s*\(|"
    r"\b(?:cli|cobra)\.Command\s*\{|\bflag\.Parse\(|\bos\.Args\b|\bstatic\s+void\s+main\s*\(|\bCommandLineRunner\b|"
    r"\bprogram\.(?:command|option|parse)\(|\byargs\b",
    re.MULTILINE,
)
# a command's method that only declares its arguments (Django's `add_arguments(self, parser)`, Symfony's `configure()`)
# holds `parser.add_argument(…)`, a command's sign, but runs nothing
ARGUMENTS_HEAD = re.compile(
    r"^\s*(?:def\s+add_arguments\s*\(|(?:(?:public|protected|private)\s+)?function\s+configure\s*\()"
)
ARGUMENTS = "declares the command's arguments"
