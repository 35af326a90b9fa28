"""The definition a JavaScript chunk's first line opens, when the chunker named the chunk after something else (a
function nested in it) or nothing (a file's top-level code): ``exports.handleErrors = async function handleErrors(…)``,
``authenticationController.login = async (req, res, next) => {``."""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.records import Chunk

JS_COMMENT = re.compile(r"^\s*(?://|/\*|\*)")


# a JavaScript definition a chunk's first line opens (``exports.handleErrors = async function handleErrors(err, …) {``,
# ``async function login(req, res) {``, ``const check = (req) => {``): the chunker may name the chunk after a
# function nested in it (``const notFoundHandler = () => {`` in the body), not after the one it opens
JS_OPENED = re.compile(
    r"^(?P<indent>\s*)(?:export\s+(?:default\s+)?)?(?:(?:async\s+)?function\s*\*?\s*(?P<function>[\w$]+)\s*\(|"
    r"(?:(?:const|let|var)\s+)?(?P<target>[\w$]+(?:\.[\w$]+)*)\s*=\s*(?:async\s+)?(?:function\b\s*\*?\s*"
    r"(?P<named>[\w$]+)?\s*\(|\([^)]*\)\s*=>|[\w$]+\s*=>))"
)
JS_LANGUAGES = ("javascript", "typescript", "tsx", "jsx")


def opened_definition(chunk: Chunk) -> str:
    """The function a JavaScript chunk of a file's top-level code is, by what it is assigned to
    (``authenticationController.login = async (req, res, next) => {`` → ``authenticationController.login``;
    ``exports.postLogin = …`` → ``postLogin``), when the chunk opens on it and holds no other; else "" (the chunker
    names no definition there, and a chunk of five such functions is not the first of them)."""
    if chunk.language not in JS_LANGUAGES or chunk.symbol:
        return ""
    lines = [line for line in chunk.text.split("\n") if line.strip() and not JS_COMMENT.match(line)]
    opened = JS_OPENED.match(lines[0]) if lines else None
    if opened is None or not _wrapper_level(opened.group("indent"), lines):
        return ""
    indent = opened.group("indent")
    if any((other := JS_OPENED.match(line)) and other.group("indent") == indent for line in lines[1:]):
        return ""
    return js_opened_name(opened)


def js_opened_name(opened: re.Match[str]) -> str:
    """The name a ``JS_OPENED`` line defines: the function's, else what it is assigned to (``Groups.get``; not the
    ``exports.`` it is exported through: ``postLogin``); "" for ``module.exports = function …``."""
    target = re.sub(r"^(?:module\.)?exports\.", "", opened.group("target") or "")
    return opened.group("function") or (target if target not in ("", "exports", "module.exports") else "")


def _wrapper_level(indent: str, lines: Sequence[str]) -> bool:
    """Whether a definition opened at ``indent`` is one of a file's own: at the top, or one level into the function
    that wraps a whole module (AMD's ``define('forum/topic/posts', [...], function (...) {`` then
    ``\tPosts.loadMorePosts = function (direction) {``, an IIFE), with no line of the chunk outside that level."""
    if not indent:
        return True
    if indent not in ("\t", "  ", "    "):
        return False
    return all(line.startswith(indent) for line in lines)


def opened_js(chunk: Chunk, names: list[str]) -> str:
    """The name of the definition ``chunk``'s first code line opens when the chunk's first name is one nested below
    it (a local of that definition), else ""."""
    if chunk.language not in JS_LANGUAGES or not names:
        return ""
    lines = [line for line in chunk.text.split("\n") if line.strip() and not JS_COMMENT.match(line)]
    opened = JS_OPENED.match(lines[0]) if lines else None
    if opened is None:
        return ""
    name = opened.group("function") or opened.group("named") or opened.group("target").rpartition(".")[2]
    first = names[0].replace("::", ".").rpartition(".")[2]
    if name in (first, "exports"):  # `module.exports = function () {` names nothing
        return ""
    name_of = re.escape(first)  # where the first name is defined (not called): ``const notFoundHandler = () => {``
    head = re.compile(rf"^(\s*)(?:(?:async\s+)?function\s*\*?\s*{name_of}\s*\(|(?:const|let|var)\s+{name_of}\s*=|"
                      rf"[\w$.]+\.{name_of}\s*=|{name_of}\s*\([^)]*\)\s*\{{)")  # fmt: skip
    nested = next((found for line in lines[1:] if (found := head.match(line))), None)
    return name if nested is not None and len(nested.group(1)) > len(opened.group("indent")) else ""


def local_of_opened(chunk: Chunk, name: str) -> bool:
    """Whether ``name`` is a local function of the definition ``chunk`` opens (``const notFoundHandler = () => {``
    in ``exports.handleErrors = async function handleErrors(…) {``): only that definition's own body can call it."""
    return bool(opened_js(chunk, [name.replace("::", ".").rpartition(".")[2]]))
