"""What shows a single-file component renders, for "renders what the user sees" (``roles_said``): markup in its
file. A ``.vue`` file is a view by its name, but a mixin's file (``WebSocketMixin.vue``: a ``<script>`` and nothing
else) renders nothing; the components that mix it in do.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from codeqa.records import Chunk

if TYPE_CHECKING:
    from codeqa.answer.context import AnswerContext

COMPONENT_LANGUAGES = ("vue", "svelte")
MARKUP = re.compile(r"^\s*<(?!(?:script|style)\b)[A-Za-z]", re.MULTILINE)  # `<template>`, `<div …>`


def marked_up(chunk: Chunk, context: AnswerContext | None) -> bool:
    """Whether ``chunk``'s file holds markup: any template's does; a single-file component's file only where one of
    its chunks (in ``context``) opens a tag other than ``<script>`` or ``<style>`` (unknown without a context: yes)."""
    if context is None or chunk.language not in COMPONENT_LANGUAGES:
        return True
    files = context.file_chunks([chunk.path])[chunk.path]
    return not files or any(MARKUP.search(part.text) for part in files)
