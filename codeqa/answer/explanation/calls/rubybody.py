"""Where a Ruby call runs and which methods it can reach: a call written in a class's own body
(``default_schedule 'every_12h'`` under ``class DelayAgent < Agent``) runs on the class, so it reaches the class's
methods (``def self.default_schedule``, or ``def default_schedule`` inside ``class << self``), never an instance
method of that name; and a bare name in a file that neither reopens a class nor derives from it never reaches one of
that class's own methods (a view's ``block`` is not ``def self.block`` of ``module Entities``). A template's bare name
reaches helpers, not the instance methods of the app's classes (``countries_visited(@stat)`` in a stats view is
``StatsHelper#countries_visited``, never ``User#countries_visited``, which only ``current_user.`` reaches)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from codeqa.records import Chunk

TEMPLATES = frozenset({"erb", "haml", "slim"})


def _enclosing(lines: list[str], position: int) -> str:
    """The nearest line above index ``position`` indented less than it: the head of the block it is written in."""
    indent = len(lines[position]) - len(lines[position].lstrip()) if 0 <= position < len(lines) else 0
    above = (text for text in reversed(lines[:position]) if text.strip() and len(text) - len(text.lstrip()) < indent)
    return next(above, "")


def ruby_class_body(user_file: str, line: int) -> bool:
    """Whether file line ``line`` is written in a Ruby class's (or module's) own body, outside any method."""
    return re.match(r"\s*(?:class|module)\s+(?!<<)[A-Z]", _enclosing(user_file.split("\n"), line - 1)) is not None


def ruby_class_method(used: Chunk, name: str, used_file: str) -> bool:
    """Whether ``used`` defines Ruby's ``name`` as a method of the class itself (``def self.name``, or ``def name``
    inside ``class << self``); a chunk whose file cannot be read is given the benefit of the doubt."""
    if re.search(rf"\bdef\s+self\.{re.escape(name)}(?![\w?!])", used.text) or not used_file:
        return True
    lines = used_file.split("\n")
    heads = [used.start_line - 1 + n for n, text in enumerate(used.text.split("\n"))
             if re.match(rf"\s*def\s+{re.escape(name)}(?![\w?!])", text)]  # fmt: skip
    return not heads or any(re.match(r"\s*class\s*<<\s*self\b", _enclosing(lines, head)) for head in heads)


def class_method_out_of_reach(user_file: str, used: Chunk, name: str, owners: set[str], used_file: str) -> bool:
    """Whether ``used`` defines Ruby's ``name`` as a method of its class or module itself (``def self.block`` in
    ``module Entities``) and the caller's file neither reopens that class nor derives from it: a bare ``block``
    there (a view's block variable, ``- @blocks.each do |block|``) is never ``Entities.block``, which only a
    receiver (``Entities.block(b)``) or the class's own code reaches. With no owner named, no answer."""
    escaped = re.escape(name)
    singleton = re.search(rf"\bdef\s+self\.{escaped}(?![\w?!])", used.text)
    nested = used_file and re.search(rf"^\s*def\s+{escaped}(?![\w?!])", used.text, re.MULTILINE)
    if not owners or not (singleton or (nested and ruby_class_method(used, name, used_file))):
        return False
    names = "|".join(map(re.escape, sorted(owners)))
    opens = rf"^\s*(?:class|module)\s+(?:[\w:]*::)?(?:{names})\b|\bclass\s+[\w:]+\s*<\s*(?:[\w:]*::)?(?:{names})\b"
    return re.search(opens, user_file, re.MULTILINE) is None


def ruby_out_of_reach(
    user: Chunk, user_file: str, line: int, used: Chunk, name: str, owners: set[str], used_file: str
) -> bool:
    """Whether a bare ``name`` on file line ``line`` of the caller cannot reach ``used``'s method of that name: from a
    class body, an instance method (``used_file`` unread: the benefit of the doubt); from a template, a class's
    instance method (``template_out_of_reach``); from a file that does not open the class, a method of the class
    itself."""
    if ruby_class_body(user_file, line) and not ruby_class_method(used, name, used_file):
        return True
    if template_out_of_reach(user, used, name, used_file):
        return True
    return class_method_out_of_reach(user_file, used, name, owners, used_file)


def template_out_of_reach(user: Chunk, used: Chunk, name: str, used_file: str) -> bool:
    """Whether a bare ``name`` in a template (``user``) cannot reach ``used``'s instance method of that name: the
    method is a class's (read in ``used_file``, else in ``used``'s own lines) that neither exposes it to views
    (``helper_method :name``) nor is the view component the template belongs to (``card_component.rb`` beside
    ``card_component.html.erb``). A helper module's method, or a class method, is not ruled out."""
    escaped = re.escape(name)
    if user.language not in TEMPLATES or not re.search(rf"^\s+def\s+{escaped}(?![\w?!])", used.text, re.MULTILINE):
        return False
    text = used_file or used.text
    if not re.search(r"^\s*class\s+(?!<<)[A-Z]", text, re.MULTILINE):
        return False  # a module's method: a helper's, mixed into every view
    if re.search(rf"\bhelper_method\b[^\n]*:{escaped}(?![\w?!])", text):
        return False  # a controller's method exposed to its views
    return PurePosixPath(user.path).name.split(".")[0] != PurePosixPath(used.path).stem


def ruby_class_member(used: Chunk, name: str, used_file: str) -> str:
    """The class (its last name) ``used`` defines ``name`` right inside (``class Users::ExportData`` … ``def export``),
    read in ``used_file`` when ``used`` is a piece of the class without its ``class`` line; "" inside a module (a
    helper or a concern, mixed in), in a ``class << self``, or with no file to read."""
    lines = used_file.split("\n")
    for n, text in enumerate(used.text.split("\n")):
        head = used.start_line - 1 + n
        if re.match(rf"\s*def\s+{re.escape(name)}(?![\w?!])", text) and head < len(lines):
            found = re.match(r"\s*class\s+(?!<<)(?:[\w:]*::)?(?P<name>[A-Z]\w*)", _enclosing(lines, head))
            if found is not None:
                return found.group("name")
    return ""
