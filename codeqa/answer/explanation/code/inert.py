"""Lines that read like an outcome but do nothing when a request runs, so an answer never quotes them as one.

- An API documentation annotation (NestJS swagger's ``@ApiResponse({ status: HttpStatus.OK, … })``, springdoc's
  ``@ApiResponse(responseCode = "404")``) describes a response for the OpenAPI page; the handler's ``return`` is
  what it answers with.
- An entity built and then saved (TypeORM's ``locale = this.localeRepo.create({…})`` … ``save(locale)``) is stored
  by the save: the ``create`` only builds the object in memory.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.code.keylines import COMMENT, IMPORT
from codeqa.answer.rendering.injection import instruction_like
from codeqa.records import Chunk

API_DOC = re.compile(r"^\s*@(?:Api[A-Z]\w*|OpenAPI\w*|Operation|Schema|Parameter)\s*\(")
_BUILT = re.compile(
    r"^\s*(?:(?:const|let|var|val|final)\s+)?(?P<name>[A-Za-z_$][\w$]*)(?:\s*:\s*[\w<>\[\]|, ]+)?\s*=\s*"
    r"(?:await\s+)?[\w$.]+\.create\("
)


def quotable(line: str) -> bool:
    """A line worth quoting in a sentence: code that does something, not an import, a comment or an API's docs."""
    return bool(line.strip()) and not (
        IMPORT.match(line) or COMMENT.match(line) or instruction_like(line) or documents_api(line)
    )


def documents_api(line: str) -> bool:
    """Whether ``line`` is an API documentation annotation, not code that answers a request."""
    return bool(API_DOC.match(line))


def built_then_saved(chunk: Chunk, code: str) -> bool:
    """Whether ``code`` (a line of ``chunk``) assigns an object made by ``….create(`` that the chunk saves later."""
    built = _BUILT.match(code)
    if built is None:
        return False
    name = re.escape(built["name"])
    saved = re.compile(rf"\.(?:save|insert|persist|saveAndFlush)\s*\([^;\n]*(?<![\w$.]){name}\b")
    after = chunk.text.split(code.strip(), 1)
    return len(after) == 2 and bool(saved.search(after[1]))
