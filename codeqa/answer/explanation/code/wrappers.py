"""What a Ruby chunk named after its outermost module really holds: the one class (or the one module of code) its
namespace modules only wrap (``module Api`` / ``module V1`` / ``class ResharesController``, a whole file the chunker
named ``Api``)."""

from __future__ import annotations

import re

from codeqa.records import Chunk
from codeqa.symbols import qualified_names

CONTAINER = re.compile(
    r"^(\s*)(?:(?:export|public|private|protected|abstract|final|default)\s+)*"
    r"(?:class|module|object|struct|impl|interface|trait|defmodule)\s+(?P<name>\w+(?:(?:::|\.)\w+)*)"
)  # Ruby's A::B and Elixir's A.B, not the colon of Python's ``class A:``


COMMENT_OR_DECORATOR = re.compile(r"^\s*(?:#|//|/\*|\*|@|--)")


def wrapped_class(chunk: Chunk) -> str:
    """The one class a Ruby chunk's namespace modules only wrap (``module Api`` / ``module V1`` / ``class
    ResharesController < BaseController``, a whole file the chunker named ``Api``): ``Api.V1.ResharesController``."""
    if chunk.language != "ruby" or str(chunk.kind) != "module" or len(qualified_names(chunk.symbol)) != 1:
        return ""
    lines = [line for line in chunk.text.split("\n") if line.strip() and not COMMENT_OR_DECORATOR.match(line)]
    parts: list[str] = []
    for line in lines:
        if (head := CONTAINER.match(line)) is None or line.split()[0] not in ("module", "class"):
            return ""
        parts.append(head.group("name").replace("::", "."))
        if line.split()[0] == "class":
            indent = head.group(1)
            beside = [other for other in lines if re.match(rf"{indent}(?:class|module|def)\s", other)]
            named = parts[0] == chunk.symbol.replace("::", ".")
            return ".".join(parts) if named and len(beside) == 1 else ""
    return ""


def wrapped_module(chunk: Chunk) -> str:
    """The one module of code a Ruby chunk's namespace modules only wrap (``module Submissions`` / ``module
    AssignDefinedSubmitters`` / ``module_function`` / ``def call``, a whole file the chunker named ``Submissions``,
    which is also the name of ``lib/submissions.rb``): ``Submissions.AssignDefinedSubmitters``; "" when the outer
    module holds anything else."""
    if chunk.language != "ruby" or str(chunk.kind) != "module" or len(qualified_names(chunk.symbol)) != 1:
        return ""
    lines = [line for line in chunk.text.split("\n") if line.strip() and not COMMENT_OR_DECORATOR.match(line)]
    heads: list[re.Match[str]] = []
    for line in lines:
        head = CONTAINER.match(line)
        if head is None or line.split()[0] != "module":
            break
        heads.append(head)
    if (
        len(heads) < 2
        or len(heads) == len(lines)
        or heads[0].group("name").replace("::", ".") != chunk.symbol.replace("::", ".")
    ):
        return ""
    for head in heads:  # each wrapper holds one definition: the next module in
        beside = [other for other in lines if re.match(rf"{head.group(1)}(?:class|module|def)\s", other)]
        if len(beside) != 1:
            return ""
    return ".".join(head.group("name").replace("::", ".") for head in heads)
